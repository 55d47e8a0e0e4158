"""A failure that would read the same in every scene of a test is shown once per run.

A policy that cannot be built (an XML port misspelt, with its did-you-mean) fails every
item that runs it, with the same words. The first failing item keeps them; each later one
names that item instead, so a run of twelve scenes shows the error once. The controller
sees every report, so under xdist too the error is shown once.

>>> repeats = Repeats()
>>> repeats.shortened("test_a[x=1]", "the policy cannot run: bad.xml:4: IsOpen has no port")
>>> repeats.shortened("test_a[x=2]", "the policy cannot run: bad.xml:4: IsOpen has no port")
'the policy cannot run: the same error as test_a[x=1], shown there (once per run)'
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: How a failure of a policy that cannot be built begins (the fixture's words).
CANNOT_RUN = "the policy cannot run: "
#: At most this many distinct errors are remembered; past it, each is shown in full.
MAX_REMEMBERED = 1_000


@dataclass
class Repeats:
    """The errors shown so far in this run, each with the item that showed it."""

    first: dict[str, str] = field(default_factory=dict)

    def shortened(self, nodeid: str, text: str) -> str | None:
        """The shorter text for ``text`` failing ``nodeid``, if an earlier item showed it;
        ``None`` when it is shown in full (the first time, or not a repeatable error). Lines
        before the error (xdist's ``[gw0] linux -- Python ...``, which xdist prints again
        itself) are left out."""
        lines = text.strip().splitlines()
        at = next((i for i, line in enumerate(lines) if line.startswith(CANNOT_RUN)), None)
        if at is None:
            return None
        error = "\n".join(lines[at:])
        if error not in self.first and len(self.first) < MAX_REMEMBERED:
            self.first[error] = nodeid
        shown = self.first.get(error, nodeid)
        if shown == nodeid:
            return None
        return f"{CANNOT_RUN}the same error as {shown}, shown there (once per run)"
