"""The actions documented from the rules the simulator runs: the binding rules, every action's
ports, preconditions in the order they are checked (with the outcome each breaks into) and
effects, then what heat and water do, as Markdown (``docs/actions.md``) or plain text.

Generated, never written by hand: the rows are :func:`~pytest_logicenv.sim.actions.
action_table`, made of the same data the simulator runs, and a test holds the committed
``docs/actions.md`` to what :func:`actions_markdown` makes of them, so changing a rule changes
its documentation (``logicenv actions --markdown > docs/actions.md``).

>>> print(actions_text().splitlines()[-3])
Drop(object): `object` lies on the floor where the agent stands
"""

from __future__ import annotations

from pytest_logicenv.sim.actions import RuleRow, action_table
from pytest_logicenv.sim.world import AT_FIXTURE, CLOSED_CONTAINERS, WITHIN_REACH

HEADER = """\
# Actions

<!-- Generated from pytest_logicenv/sim/actions.py: logicenv actions --markdown > docs/actions.md
     (tests/docs/test_docs.py fails when this file and the simulator's rules disagree). -->

What each action of a policy needs and does, as the simulator checks it. Python leaves take
the ports in order (`PutIn("toy", "box")`); BehaviorTree.CPP XML names them
(`<PutIn object="toy" target="box"/>`); your own behaviours call `self.agent.put_in("toy", "box")`.

**Binding.** A port holds an object reference. A capitalized name is a type (`Mug`: any
mug); any other name is a role, bound by an `"as"` in the plan's facts (`red_box`), or an
object id (`mug_1`). A selector says which of several objects: `Select("Window",
room="Study")`, or keywords on a leaf's first port (`GoTo("Window", room="Study")`), with the
facts language's qualifiers `on`, `in`, `room`, `part_of`, `attrs`, `states`, and `any=True`
when any one will do; in XML, ports (`room="Study"`, `target_room="Study"`,
`attrs="cover=hard"`). `PutOn` and `PutIn` also take their target as `on=` and `in_=`
(`PutOn("Plate", on="DiningTable")`; XML `on="DiningTable"`, `in="Cabinet"`); their object is
then selected by the other keywords or a `Select` (XML: `object_on`, `object_in`). Every port is
bound by the first row's rules before the action's own.

**Faults.** Each rule, when broken, ends the run with the outcome in the last column, names
the rule by its code (`broken precondition [holding]: ...`) and changes nothing. Rules modelled
on AI2-THOR follow its behaviour; those marked *extension* are ours.

## Closed containers

"""


def actions_markdown() -> str:
    """``docs/actions.md``: the header, the closed-container and reach rules and one row per
    rule set."""
    lines = [HEADER + CLOSED_CONTAINERS, "", "## Reaching", "", WITHIN_REACH, "", AT_FIXTURE]
    lines += ["", "## The table", ""]
    lines.append("| Action | Preconditions, in the order checked | Effects | When broken |")
    lines.append("| --- | --- | --- | --- |")
    lines.extend(_row(row) for row in action_table())
    return "\n".join(lines) + "\n"


def actions_text() -> str:
    """The same, for a terminal: each row, what it does, then what it needs."""
    lines = []
    for row in action_table():
        lines.append(f"{_name(row)}: {'; '.join(row.effects) or '-'}")
        lines += [
            f"  needs [{code}] {text} ({outcome})" for code, text, outcome in row.preconditions
        ]
    return "\n".join(lines) + "\n"


def _name(row: RuleRow) -> str:
    return f"{row.action}({', '.join(row.ports)})" if row.ports else row.action


def _row(row: RuleRow) -> str:
    checks = "<br>".join(
        f"{i}. {text} `[{code}]`" for i, (code, text, _) in enumerate(row.preconditions, 1)
    )
    outcomes = {outcome for _, _, outcome in row.preconditions}
    if len(outcomes) == 1:
        broken = outcomes.pop()
    else:
        broken = "<br>".join(f"`[{code}]` {outcome}" for code, _, outcome in row.preconditions)
    name = f"`{_name(row)}`" if row.ports else row.action
    effects = "<br>".join(row.effects)
    return f"| {name} | {checks or '-'} | {effects or '-'} | {broken or '-'} |"
