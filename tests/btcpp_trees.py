"""A Hypothesis strategy of BT.CPP v4 documents over BT.CPP's built-in nodes and the twin's
scripted leaves (see :mod:`btcpp_twin`): controls, decorators, Script and ScriptCondition,
pre- and post-conditions, SetBlackboard, and SubTrees with remapping. Every choice is a draw,
so a failing document shrinks to a small one."""

from __future__ import annotations

from xml.sax.saxutils import quoteattr

from hypothesis import strategies as st

CONDITIONS = ["x < 2", "x == y", "y > 0", "x >= 1 && y < 3", "t == 'on'", "x != 1"]
SCRIPTS = ["x := x + 1", "y := x * 2", "x := 0", "y -= 1", "x := y", "t := 'off'", "x += 2",
           "x := 5000000000", "t := x", "y := 'ab'"]  # fmt: skip
PRE = ["_skipIf", "_successIf", "_failureIf", "_while"]
POST = ["_onSuccess", "_onFailure", "_post", "_onHalted"]
#: _onHalted scripts that cannot fail: BT.CPP's Tree destructor halts the tree, and a script
#: failing there ends the process.
HALTED = ["h := 1", "h := 2"]
CONTROLS = ["Sequence", "Fallback", "ReactiveSequence", "ReactiveFallback",
            "SequenceWithMemory", "AsyncSequence", "AsyncFallback", "Parallel", "ParallelAll",
            "IfThenElse", "WhileDoElse", "Switch2"]  # fmt: skip
DECORATORS = ["Inverter", "ForceSuccess", "ForceFailure", "Repeat", "RetryUntilSuccessful",
              "KeepRunningUntilFailure", "RunOnce", "Precondition", "SkipUnlessUpdated",
              "WaitValueUpdate"]  # fmt: skip


def _attrs(attrs: dict[str, str]) -> str:
    return "".join(f" {key}={quoteattr(value)}" for key, value in attrs.items())


def element(tag: str, attrs: dict[str, str], children: list[str]) -> str:
    if not children:
        return f"<{tag}{_attrs(attrs)}/>"
    return f"<{tag}{_attrs(attrs)}>{''.join(children)}</{tag}>"


@st.composite
def conditions(draw: st.DrawFn) -> dict[str, str]:
    """Pre- and post-condition scripts for one node (usually none)."""
    found: dict[str, str] = {}
    if draw(st.integers(0, 3)) == 0:
        found[draw(st.sampled_from(PRE))] = draw(st.sampled_from(CONDITIONS))
    if draw(st.integers(0, 3)) == 0:
        post = draw(st.sampled_from(POST))
        found[post] = draw(st.sampled_from(HALTED if post == "_onHalted" else SCRIPTS))
    return found


class Names:
    """Leaf names unique within a document."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}{self.count}"


def leaf(draw: st.DrawFn, names: Names) -> str:
    kind = draw(st.sampled_from(["Act", "Act", "Cond", "Sync", "Script", "ScriptCondition",
                                 "AlwaysSuccess", "AlwaysFailure", "SetBlackboard"]))  # fmt: skip
    attrs = draw(conditions())
    if kind == "Act":
        script = draw(st.text("RRRSF", min_size=1, max_size=5))
        attrs = {"name": f"{names('a')}_{script}", **attrs}
    elif kind in ("Cond", "Sync"):
        script = draw(st.text("SF", min_size=1, max_size=3))
        attrs = {"name": f"{names(kind[0].lower())}_{script}", **attrs}
    elif kind == "Script":
        attrs = {"code": draw(st.sampled_from(SCRIPTS)), **attrs}
    elif kind == "ScriptCondition":
        attrs = {"code": draw(st.sampled_from(CONDITIONS)), **attrs}
    elif kind == "SetBlackboard":
        key = draw(st.sampled_from(["x", "y", "z", "t"]))
        value = draw(st.sampled_from(["3", "{x}", "{y}", "-1", "{t}", "on", None]))
        attrs = {"output_key": key, **({} if value is None else {"value": value}), **attrs}
    return element(kind, attrs, [])


def node(draw: st.DrawFn, names: Names, depth: int, subtrees: list[str]) -> str:
    if depth <= 0 or draw(st.integers(0, 2)) == 0:
        return leaf(draw, names)
    choice = draw(st.sampled_from(["control", "control", "decorator", "subtree"]))
    attrs = draw(conditions())
    if choice == "subtree":
        return subtree_call(draw, names, depth, subtrees, attrs)
    if choice == "decorator":
        tag = draw(st.sampled_from(DECORATORS))
        attrs.update(decorator_ports(draw, tag))
        return element(tag, attrs, [node(draw, names, depth - 1, subtrees)])
    tag = draw(st.sampled_from(CONTROLS))
    low, high = {"IfThenElse": (2, 3), "WhileDoElse": (2, 3), "Switch2": (3, 3)}.get(tag, (1, 3))
    count = draw(st.integers(low, high))
    attrs.update(control_ports(draw, tag, count))
    kids = [node(draw, names, depth - 1, subtrees) for _ in range(count)]
    return element(tag, attrs, kids)


def decorator_ports(draw: st.DrawFn, tag: str) -> dict[str, str]:
    if tag == "Repeat":
        cycles = draw(st.sampled_from(["1", "2", "3", "{y}", None]))  # None: left out
        return {} if cycles is None else {"num_cycles": cycles}
    if tag == "RetryUntilSuccessful":
        return {"num_attempts": draw(st.sampled_from(["1", "2", "3", "{y}"]))}
    if tag == "RunOnce":
        return {"then_skip": draw(st.sampled_from(["true", "false"]))}
    if tag == "Precondition":
        return {"if": draw(st.sampled_from(CONDITIONS)),
                "else": draw(st.sampled_from(["FAILURE", "SUCCESS", "RUNNING"]))}  # fmt: skip
    if tag in ("SkipUnlessUpdated", "WaitValueUpdate"):
        return {"entry": draw(st.sampled_from(["x", "{x}", "y", "nothing"]))}
    return {}


def control_ports(draw: st.DrawFn, tag: str, count: int) -> dict[str, str]:
    if tag == "Parallel":
        return {"success_count": draw(st.sampled_from(["-1", "1", "2"])),
                "failure_count": draw(st.sampled_from(["1", "-1", "2"]))}  # fmt: skip
    if tag == "ParallelAll":
        return {"max_failures": draw(st.sampled_from(["1", "2"]))}
    if tag == "Switch2":
        variable = draw(st.sampled_from(["{x}", "{t}"]))  # {x}: refused, an int entry
        return {"variable": variable, "case_1": "0", "case_2": "on"}
    return {}


def subtree_call(
    draw: st.DrawFn, names: Names, depth: int, subtrees: list[str], attrs: dict[str, str]
) -> str:
    tree_id = f"Sub{len(subtrees) + 1}"
    subtrees.append("")  # reserve the ID before the body, which may call further subtrees
    index = len(subtrees) - 1
    body = node(draw, names, depth - 1, subtrees)
    subtrees[index] = element("BehaviorTree", {"ID": tree_id}, [body])
    remap = draw(st.sampled_from(["autoremap", "x", "xy", "literal", "none"]))
    ports = {"autoremap": {"_autoremap": "true"}, "x": {"x": "{x}"},
             "xy": {"x": "{y}", "y": "{x}"}, "literal": {"x": "1", "y": "{y}"},
             "none": {}}[remap]  # fmt: skip
    return element("SubTree", {"ID": tree_id, **ports, **attrs}, [])


@st.composite
def documents(draw: st.DrawFn, depth: int = 3) -> str:
    names = Names()
    subtrees: list[str] = []
    main = node(draw, names, depth, subtrees)
    trees = [element("BehaviorTree", {"ID": "Main"}, [main]), *subtrees]
    return element("root", {"BTCPP_format": "4", "main_tree_to_execute": "Main"}, trees)
