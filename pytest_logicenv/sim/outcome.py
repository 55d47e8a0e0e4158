"""The outcome of one policy run: its fault class, its trace and an explanation.

Classes (paper Appendix A):

``pass``
    the policy returned SUCCESS and every goal fact holds;
``counterfactual``
    an action broke a precondition on objects the scene contains (taking from a closed
    fridge, placing what is not held);
``unreachable``
    the policy returned SUCCESS but a goal fact is false;
``lackbranch``
    the policy acted on an object this situation does not contain, returned FAILURE, did
    not finish within the tick budget, or returned SUCCESS having done what another leaf of
    the same subtask asks (its goal holds, this situation's does not;
    :mod:`pytest_logicenv.sim.branches`): it has no branch for this situation;
``error``
    user code raised an exception (the traceback is kept), or an action named several objects
    without saying which (the candidates are listed): a bug in the policy, not a fault class.

>>> outcome = Outcome("lackbranch", status="FAILURE", ticks=1,
...                   situation=(("Are there wet wipes on the table?", "NO"),),
...                   trace=(Step(1, "condition", "IsOn", ("wet_wipes", "table"), False),))
>>> print(outcome.explain())
Lackbranch: the policy returned FAILURE in a situation it has no branch for
situation: Are there wet wipes on the table? = NO
trace: IsOn(wet_wipes, table)? no
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from pytest_logicenv.errors import LogicEnvError, PolicyFault, RunFileError
from pytest_logicenv.logic.facts import Fact, goal_text, parse_facts, to_json
from pytest_logicenv.sim.actions import PreconditionViolation
from pytest_logicenv.sim.branches import BranchDiagnosis
from pytest_logicenv.sim.naming import ANY_SUFFIX, Names, renamed

#: The outcome classes, in the order reports list them.
KINDS: tuple[str, ...] = ("pass", "counterfactual", "unreachable", "lackbranch", "error")
#: The classes a faulty policy can be declared to have.
FAULTS: tuple[str, ...] = ("counterfactual", "unreachable", "lackbranch")
#: How many trailing trace steps an explanation shows, and leading ones of a longer trace
#: (where the policy started: often what went wrong).
TRACE_TAIL = 8
TRACE_HEAD = 3


@dataclass(frozen=True)
class Step:
    """One thing the policy did: an action (``ok`` when it took effect; ``detail`` says why
    not) or a condition it checked (``ok`` is the answer).

    ``objects`` are the ids an action's references were bound to, in port order (empty when
    one named nothing in the scene); ``room`` and ``spot`` say where the agent stood after the
    step (the floor-standing object it is next to, ``None`` at none), so that a picture can
    draw its path from the trace alone.
    """

    tick: int
    kind: str
    name: str
    args: tuple[str, ...]
    ok: bool
    detail: str = ""
    objects: tuple[str, ...] = ()
    room: str = ""
    spot: str | None = None

    def __str__(self) -> str:
        return self.shown()

    def shown(self, names: Names = ()) -> str:
        """The step as a trace shows it, what went wrong in ``names`` (the arguments are
        the policy's own already)."""
        call = f"{self.name}({', '.join(self._shown_args())})"
        if self.kind == "condition":
            return f"{call}? {'yes' if self.ok else 'no'}"
        return f"{call} ok" if self.ok else f"{call} -> {renamed(self.detail, names)}"

    def _shown_args(self) -> list[str]:
        """The arguments, an ``any=True`` reference with the object it chose:
        ``Milk (any one: milk_1)``."""
        shown = []
        for number, arg in enumerate(self.args):
            chosen = self.objects[number] if number < len(self.objects) else None
            if chosen and arg.endswith(ANY_SUFFIX):
                arg = f"{arg.removesuffix(')')}: {chosen})"
            shown.append(arg)
        return shown

    def to_json(self) -> dict[str, Any]:
        return {
            "tick": self.tick,
            "kind": self.kind,
            "name": self.name,
            "args": list(self.args),
            "ok": self.ok,
            "detail": self.detail,
            "objects": list(self.objects),
            "room": self.room,
            "spot": self.spot,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Step:
        """The step :meth:`to_json` wrote (``objects``, ``room`` and ``spot`` may be absent)."""
        spot = data.get("spot")
        return cls(
            tick=int(data["tick"]),
            kind=str(data["kind"]),
            name=str(data["name"]),
            args=tuple(str(arg) for arg in data["args"]),
            ok=bool(data["ok"]),
            detail=str(data.get("detail", "")),
            objects=tuple(str(obj) for obj in data.get("objects", ())),
            room=str(data.get("room", "")),
            spot=None if spot is None else str(spot),
        )


@dataclass(frozen=True)
class Outcome:
    """The result of running one policy in one scene.

    ``status`` is how the run ended: the root's last status (``SUCCESS``, ``FAILURE``,
    ``RUNNING`` when the tick budget ran out, ``SKIPPED``, ``INVALID``), ``STOPPED`` at a broken
    precondition or ``RAISED`` by an exception. ``trace`` holds every action and condition in
    order, ``violation`` the broken precondition, ``false_goals`` the goal facts that did not
    hold at SUCCESS, ``error`` the traceback, ``situation`` the trajectory's conditions in words.
    """

    kind: str
    status: str = ""
    ticks: int = 0
    trace: tuple[Step, ...] = ()
    violation: PreconditionViolation | None = None
    false_goals: tuple[Fact, ...] = ()
    error: str | None = None
    situation: tuple[tuple[str, str], ...] = ()
    scene: str = ""
    max_ticks: int = 0
    goal: tuple[Fact, ...] = field(default=(), repr=False)
    #: The branches the policy took instead of this situation's, at a SUCCESS with a goal
    #: fact false (a ``lackbranch`` when it never checked which, else ``unreachable``).
    branches: tuple[BranchDiagnosis, ...] = ()
    #: The fault a test declares its policy has (``expect_fault``); see :meth:`expecting`.
    expected: str | None = None
    #: How the scene could have been solved: its witness as calls (``GoTo(blanket),
    #: PickUp(blanket), ...``), shown when the run is not ok; "" when unknown.
    witness: str = ""
    #: The policy's own names for the labels (roles, ids) messages use
    #: (:mod:`pytest_logicenv.sim.naming`): an explanation says ``CoffeeMachine`` where the
    #: policy wrote that, not the plan's ``coffee_machine``.
    names: Names = ()

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown outcome kind {self.kind!r}; known: {', '.join(KINDS)}")

    @property
    def ok(self) -> bool:
        """Whether the run passed (or showed exactly the fault the test expects)."""
        return self.kind == "pass" or self.kind == self.expected

    def expecting(self, fault: str) -> Outcome:
        """This outcome judged for a test that declares its policy has ``fault``: a run that
        passes or shows that fault is ok, any other fault is not. (Whether some scene
        revealed the fault at all is for the session to judge.)"""
        if fault not in FAULTS:
            raise ValueError(f"{fault!r} is not a fault class; choose one of {', '.join(FAULTS)}")
        return replace(self, expected=fault)

    @property
    def actions(self) -> tuple[Step, ...]:
        """The action steps of the trace."""
        return tuple(step for step in self.trace if step.kind == "action")

    def headline(self) -> str:
        """The first line of the explanation: ``<Class>: <one-line reason>``."""
        expected = " (expected)" if self.kind == self.expected else ""
        return f"{self.kind.capitalize()}{expected}: {self._reason()}"

    def named(self, text: str) -> str:
        """``text`` (a message naming objects by role or id) in the policy's own names."""
        return renamed(text, self.names)

    def unmet_goal(self) -> str:
        """The goal facts not met, in the goal's words and the policy's names, each once."""
        return unmet_goal(self.false_goals, self.names)

    def broken_precondition(self) -> str:
        """The broken precondition and what held instead, in the policy's names."""
        if self.violation is None:
            return ""
        return (
            f"broken precondition [{self.violation.precondition}]: "
            f"{self.named(self.violation.requirement)}; but {self.named(self.violation.reason)}"
        )

    def _reason(self) -> str:
        if self.violation is not None:
            if self.violation.absent is not None:
                return (
                    f"{self.violation.call} acts on {self.violation.absent}, "
                    "which this situation does not contain"
                )
            if self.violation.kind == "error":
                return f"{self.violation.call} is ambiguous: {self.violation.reason}"
            requirement = self.named(self.violation.requirement)
            return f"{self.violation.call} broke a precondition: {requirement}"
        if self.kind == "pass":
            return "the policy returned SUCCESS and every goal fact holds"
        if self.kind == "lackbranch" and self.branches:
            taken = "; ".join(f"{b.question} = {b.assumed.text}" for b in self.branches)
            return (
                "the policy returned SUCCESS having done what another situation asks "
                f"({taken}), never checking which situation this is"
            )
        if self.kind == "unreachable":
            count = len(goal_texts(self.false_goals))
            facts = "goal fact is" if count == 1 else "goal facts are"
            return f"the policy returned SUCCESS but {count} {facts} false"
        if self.kind == "error":
            lines = (self.error or "").strip().splitlines()
            if self.status != "RAISED":
                return lines[0] if lines else "the policy ended in an invalid state"
            return f"the policy raised {lines[-1] if lines else 'an exception'}"
        if self.status == "FAILURE":
            return "the policy returned FAILURE in a situation it has no branch for"
        if self.status == "SKIPPED":
            return "the policy's root was skipped (a _skipIf or _while held): it did nothing"
        return f"the policy did not finish within {self.max_ticks} ticks in this situation"

    def explain(self) -> str:
        """A short text fit for a pytest failure: the class and reason, the situation, the
        broken precondition or the false goal facts (or the traceback), the last steps."""
        lines = [self.headline()]
        if self.expected is not None and not self.ok:
            lines.append(f"expected fault: {self.expected} (the test declares expect_fault)")
        if self.situation:
            lines.append("situation: " + "; ".join(f"{q} = {a}" for q, a in self.situation))
        if self.violation is not None:
            lines.append(self.broken_precondition())
        # The plan's questions and leaves, in the plan's words: not renamed.
        lines.extend(f"branch taken: {diagnosis}" for diagnosis in self.branches)
        if self.false_goals:
            lines.append(self.unmet_goal())
        if self.trace:
            lines.append("trace: " + shown_trace(self.trace, self.names))
        if self.error:
            lines.append(self.error.rstrip())
        if self.witness and not self.ok:
            lines.append(f"a passing sequence: {self.named(self.witness)}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.explain()

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "ok": self.ok,
            "expected": self.expected,
            "scene": self.scene,
            "status": self.status,
            "ticks": self.ticks,
            "situation": [list(pair) for pair in self.situation],
            "violation": None if self.violation is None else self.violation.to_json(),
            "false_goals": [to_json(fact) for fact in self.false_goals],
            "goal": [to_json(fact) for fact in self.goal],
            "branches": [diagnosis.to_json() for diagnosis in self.branches],
            "error": self.error,
            "max_ticks": self.max_ticks,
            "trace": [step.to_json() for step in self.trace],
            "witness": self.witness,
            "names": [list(pair) for pair in self.names],
            "explanation": self.explain(),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        """The outcome :meth:`to_json` wrote (``ok`` and ``explanation`` are derived, so they
        are not read back). Malformed data raises :class:`RunFileError` naming the field."""
        try:
            violation = data.get("violation")
            expected = data.get("expected")
            error = data.get("error")
            return cls(
                kind=str(data["kind"]),
                status=str(data.get("status", "")),
                ticks=int(data.get("ticks", 0)),
                trace=tuple(Step.from_json(step) for step in data.get("trace", ())),
                violation=None if violation is None else PreconditionViolation.from_json(violation),
                false_goals=parse_facts(data.get("false_goals", []), "false_goals"),
                error=None if error is None else str(error),
                situation=tuple((str(q), str(a)) for q, a in data.get("situation", ())),
                scene=str(data.get("scene", "")),
                max_ticks=int(data.get("max_ticks", 0)),
                goal=parse_facts(data.get("goal", []), "goal"),
                branches=tuple(
                    BranchDiagnosis.from_json(item) for item in data.get("branches", ())
                ),
                expected=None if expected is None else str(expected),
                witness=str(data.get("witness", "")),
                names=tuple((str(label), str(name)) for label, name in data.get("names", ())),
            )
        except (KeyError, TypeError, ValueError, AttributeError, LogicEnvError) as problem:
            raise RunFileError(
                f"not a policy run as Outcome.to_json writes it ({type(problem).__name__}: "
                f"{problem}); give the JSON of one run: an object with kind, trace, ..."
            ) from None

    def assert_ok(self) -> None:
        """Raise :class:`PolicyFault` (an ``AssertionError``) unless the run passed."""
        __tracebackhide__ = True
        if not self.ok:
            raise PolicyFault(self)


def unmet_goal(facts: tuple[Fact, ...], names: Names = ()) -> str:
    """The goal facts not met, in the goal's words and ``names``, each once (two subtasks
    may share one).

    >>> from pytest_logicenv.logic.facts import parse_fact
    >>> shut = parse_fact({"state": "fridge", "open": False})
    >>> unmet_goal((shut, shut), (("fridge", "Fridge"),))
    'goal not met: "Fridge closed"'
    """
    return "goal not met: " + ", ".join(f'"{text}"' for text in goal_texts(facts, names))


def goal_texts(facts: tuple[Fact, ...], names: Names = ()) -> tuple[str, ...]:
    """Each goal fact's words in ``names``, once (two facts that read the same are one)."""
    return tuple(dict.fromkeys(renamed(goal_text(fact), names) for fact in facts))


def shown_trace(trace: tuple[Step, ...], names: Names = ()) -> str:
    """The steps of a trace, a long one's middle left out: its first steps (where the
    policy started) and its last ones (where it failed); what went wrong in ``names``."""
    steps = [step.shown(names) for step in trace]
    if len(steps) <= TRACE_HEAD + TRACE_TAIL:
        return ", ".join(steps)
    left = len(steps) - TRACE_HEAD - TRACE_TAIL
    middle = f"... ({left} more step{'s' if left != 1 else ''}) ..."
    return ", ".join([*steps[:TRACE_HEAD], middle, *steps[-TRACE_TAIL:]])
