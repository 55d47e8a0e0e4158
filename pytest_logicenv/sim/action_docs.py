"""The actions documented from the rules the simulator runs: ports, preconditions in the order
they are checked, and effects, as Markdown (``docs/actions.md``) or plain text.

Generated, never written by hand: a test holds the committed ``docs/actions.md`` to what
:func:`actions_markdown` makes of :data:`~pytest_logicenv.sim.actions.ACTIONS`, so changing
a rule changes its documentation (``logicenv actions --markdown > docs/actions.md``).

>>> print(actions_text().splitlines()[-2])
Drop(object): `object` lies on the floor where the agent stands, the hand is free
"""

from __future__ import annotations

from pytest_logicenv.sim.actions import ACTIONS, ActionSpec

HEADER = """\
# Actions

<!-- Generated from pytest_logicenv/sim/actions.py: logicenv actions --markdown > docs/actions.md
     (tests/test_docs.py fails when this file and the simulator's rules disagree). -->

What each action of a policy needs and does, as the simulator checks it. Python leaves take
the ports in order (`PutIn("toy", "box")`); BehaviorTree.CPP XML names them
(`<PutIn object="toy" target="box"/>`); your own behaviours call `self.agent.put_in("toy", "box")`.

**Binding.** A port holds an object reference. A capitalized name is a type (`Mug`: any
mug); any other name is a role, bound by an `"as"` in the plan's facts (`red_box`), or an
object id (`mug_1`). A reference that names several objects binds to the first, in scene
order, for which every precondition holds; when none does, the failure is that of the object
that got furthest. Objects inside a closed receptacle are hidden: the
agent cannot see, take or go to them until it opens the receptacle, and conditions
(`Exists`, `IsOn`, ...) do not see them either.

**Faults.** A reference that names nothing in the scene ends the run as `lackbranch` (the
policy acts on what this situation does not contain). Otherwise the preconditions are checked
in the order listed; the first one broken ends the run as `counterfactual`, and the failure
names it by the code in brackets (`broken precondition [holding]: ...`).
"""


def actions_markdown() -> str:
    """``docs/actions.md``: the header above and one table row per action."""
    lines = [
        HEADER,
        "| Action | Preconditions, in the order checked | Effect |",
        "| --- | --- | --- |",
    ]
    for spec in ACTIONS.values():
        conditions = "<br>".join(
            f"{i}. {p.text} `[{p.code}]`" for i, p in enumerate(spec.preconditions, start=1)
        )
        lines.append(f"| `{_call(spec)}` | {conditions} | {spec.does} |")
    return "\n".join(lines) + "\n"


def actions_text() -> str:
    """The same, for a terminal: each action, what it does, then its preconditions."""
    lines = []
    for spec in ACTIONS.values():
        lines.append(f"{_call(spec)}: {spec.does}")
        lines += [f"  needs [{p.code}] {p.text}" for p in spec.preconditions]
    return "\n".join(lines) + "\n"


def _call(spec: ActionSpec) -> str:
    return f"{spec.name}({', '.join(spec.ports)})"
