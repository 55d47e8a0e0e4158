"""What one test item ran, as it travels from the ``logic_env`` fixture to the report.

The fixture adds one :class:`RunRecord` per item to ``item.user_properties`` (under
:data:`PROPERTY`), in its JSON form because pytest-xdist ships reports from its workers as
plain data; the session's reporter reads it back with :meth:`RunRecord.from_json`. Each
``logic_env.run(policy)`` is one :class:`PolicyRun` of the record, named by
:func:`policy_label` so that the runs of one policy in the scenes of one test function can be
judged together, apart from the other policies the function runs.

>>> record = RunRecord("t.py::test_x", "t.py::test_x[a=1]", "/cache/e", "a=1",
...                    runs=(PolicyRun("correct", None, "pass"),), holds=(("a", "1"),))
>>> RunRecord.from_json(record.to_json()) == record
True
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path, PurePath
from typing import Any

#: The ``user_properties`` name the record travels under.
PROPERTY = "logicenv"


def policy_label(policy: object, tree: str | None = None, rootdir: Path | None = None) -> str:
    """A policy's name in reports, the same in every scene, xdist worker and machine: a path
    as given (relative to ``rootdir`` when it is an absolute one under it), a BehaviorTree.CPP
    document by file and tree ID (``tree`` when a run picks one), a function or class by its
    qualified name, a behaviour by its ``name``.

    >>> def correct_policy(): ...
    >>> policy_label(correct_policy), policy_label("policies/reset.xml", "Reset")
    ('correct_policy', 'policies/reset.xml:Reset')
    >>> policy_label(Path("/p/agents/reset.xml"), rootdir=Path("/p"))
    'agents/reset.xml'
    """
    if isinstance(policy, str | os.PathLike):
        path = Path(policy)
        given = os.fspath(policy)
        if rootdir is not None and path.is_absolute() and path.is_relative_to(rootdir):
            given = path.relative_to(rootdir).as_posix()
        return f"{given}:{tree}" if tree else given
    source, main = getattr(policy, "source", None), getattr(policy, "main", None)
    if isinstance(source, str) and isinstance(main, str):  # an XmlPolicy
        return f"{PurePath(source).name}:{tree or main}"
    name = getattr(policy, "__qualname__", None) or getattr(policy, "name", None)
    return name if isinstance(name, str) else type(policy).__name__


@dataclass(frozen=True)
class PolicyRun:
    """One ``logic_env.run(policy)``: which policy, the fault the run declares it has, the
    outcome kind (``None`` when the policy could not run) and the whole outcome as
    ``Outcome.to_json`` writes it (explanation, violation, trace), for the reports. With
    ``--logicenv-explore``, ``explored`` says what other scenes of the situation showed
    (``session.explore``); with ``--logicenv-mutate``, ``mutation`` holds its mutants'
    outcomes in this scene (``mutation.results``)."""

    policy: str
    expect_fault: str | None
    outcome: str | None
    result: Mapping[str, Any] | None = None
    explored: Mapping[str, Any] | None = None
    mutation: Mapping[str, Any] | None = None

    @property
    def unexpected(self) -> bool:
        """Whether the run showed a fault other than the one it declares (here, or in a
        scene ``--logicenv-explore`` found)."""
        return self.outcome not in (None, "pass", self.expect_fault) or self.explored_fault

    @property
    def explored_fault(self) -> bool:
        """Whether ``--logicenv-explore`` found a scene of the situation the run fails in."""
        return self.explored is not None and self.explored.get("outcome") is not None


@dataclass(frozen=True)
class RunRecord:
    """What one test item ran: the test function, which environment (cache entry and
    trajectory), the fault its marker declares for the runs, and its policy runs.
    ``holds`` are the plan's conditions whose facts hold in the item's scene, found where
    the scene was read (``None``: not found), so that the report need not read it again."""

    function: str
    nodeid: str
    entry: str
    trajectory: str
    expect_fault: str | None = None
    runs: tuple[PolicyRun, ...] = ()
    holds: tuple[tuple[str, str], ...] | None = None

    @property
    def outcomes(self) -> tuple[str, ...]:
        """The outcome kinds of the runs that reached an outcome, in run order."""
        return tuple(run.outcome for run in self.runs if run.outcome is not None)

    @property
    def policies(self) -> tuple[str, ...]:
        """The policies this item ran, in first-run order."""
        return tuple(dict.fromkeys(run.policy for run in self.runs))

    def properties(self, rootdir: Path) -> list[tuple[str, str]]:
        """The record as plain-text properties (what junit XML shows): the scene, the cache
        entry relative to ``rootdir``, the declared fault, and one line per policy run.

        >>> record = RunRecord("t.py::test_x", "t.py::test_x[a=1]", "/p/cache/e", "a=1",
        ...                    runs=(PolicyRun("closes", "counterfactual", "pass"),))
        >>> for name, text in record.properties(Path("/p")):
        ...     print(f"{name} = {text}")
        logicenv.scene = a=1
        logicenv.entry = cache/e
        logicenv.run = closes: pass (declares counterfactual)
        """
        entry = Path(self.entry)
        if entry.is_relative_to(rootdir):
            entry = entry.relative_to(rootdir)
        found = [("logicenv.scene", self.trajectory), ("logicenv.entry", entry.as_posix())]
        if self.expect_fault is not None:
            found.append(("logicenv.expect_fault", self.expect_fault))
        for run in self.runs:
            text = f"{run.policy}: {run.outcome or 'no outcome'}"
            if run.expect_fault is not None:
                text += f" (declares {run.expect_fault})"
            found.append(("logicenv.run", text))
        return found

    def adding(self, run: PolicyRun) -> RunRecord:
        return replace(self, runs=(*self.runs, run))

    def holding(self, conditions: tuple[tuple[str, str], ...]) -> RunRecord:
        return replace(self, holds=conditions)

    def to_json(self) -> dict[str, Any]:
        return {
            "function": self.function,
            "nodeid": self.nodeid,
            "entry": self.entry,
            "trajectory": self.trajectory,
            "expect_fault": self.expect_fault,
            "runs": [
                {
                    "policy": r.policy,
                    "expect_fault": r.expect_fault,
                    "outcome": r.outcome,
                    "result": None if r.result is None else dict(r.result),
                    **({"explored": dict(r.explored)} if r.explored is not None else {}),
                    **({"mutation": dict(r.mutation)} if r.mutation is not None else {}),
                }
                for r in self.runs
            ],
            **({} if self.holds is None else {"holds": [list(pair) for pair in self.holds]}),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RunRecord:
        return cls(
            function=str(data["function"]),
            nodeid=str(data["nodeid"]),
            entry=str(data["entry"]),
            trajectory=str(data["trajectory"]),
            expect_fault=data.get("expect_fault"),
            runs=tuple(
                PolicyRun(
                    str(r["policy"]),
                    r.get("expect_fault"),
                    r.get("outcome"),
                    r.get("result"),
                    explored=r.get("explored"),
                    mutation=r.get("mutation"),
                )
                for r in data.get("runs", ())
            ),
            holds=_pairs(data.get("holds")),
        )


def _pairs(value: object) -> tuple[tuple[str, str], ...] | None:
    """``holds`` from JSON: a list of ``[factor, value]`` pairs (anything else: not found)."""
    if not isinstance(value, list):
        return None
    pairs = [tuple(map(str, pair)) for pair in value if isinstance(pair, list) and len(pair) == 2]
    return tuple((factor, answer) for factor, answer in pairs) if len(pairs) == len(value) else None
