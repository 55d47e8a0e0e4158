"""Bathroom Mirror as behavior-tree policies: a mirror wiped with a cloth wetted at the
faucet, and a soap bottle refilled from the cabinet under the sink.

The task (``tasks/bathroom_mirror.json``, plan ``plans/bathroom_mirror.json``): the sink is
set in a vanity counter with a cabinet under it. A dirty mirror is wiped with the cloth,
wetted under the running faucet first (a dry cloth cleans nothing), and the faucet turned
off. A used-up soap bottle is refilled from the soap refill in the cabinet, which goes back;
without a refill, the bottle goes in the garbage can. The cabinet is closed again. Objects
are named by the plan's roles (``mirror``, ``cloth``, ``faucet``, ``soap``, ``refill``,
``cabinet``, ...).

What is in the closed cabinet is out of sight: the policy opens it before it looks for the
refill.

The situations that reveal each fault, by the plan's factors:

``correct``
    checks every condition and has a branch for each answer: passes in all 6;
``counterfactual``
    wipes the dirty mirror with the dry cloth, never wetting it: ``mirror=yes``;
``unreachable``
    wets the cloth and wipes the mirror, but leaves the faucet running: ``mirror=yes``;
``lackbranch``
    always reaches for the refill in the cabinet, no plan for when there is none:
    ``refill=no``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import py_trees

from pytest_logicenv.sim.controls import carry, fallback, sequence, when
from pytest_logicenv.sim.leaves import (
    Clean,
    Close,
    Exists,
    GoTo,
    InState,
    IsDirty,
    Open,
    PickUp,
    PutIn,
    PutOn,
    Refill,
    ToggleOff,
    ToggleOn,
    Wet,
)

Behaviour = py_trees.behaviour.Behaviour


def _mirror(*, wet: bool = True, turn_off: bool = True) -> Behaviour:
    off = [ToggleOff("faucet")] if turn_off else []
    at_faucet = [GoTo("faucet"), ToggleOn("faucet"), Wet("cloth"), *off] if wet else []
    wipe = sequence(
        "Wipe",
        GoTo("cloth"),
        PickUp("cloth"),
        *at_faucet,
        GoTo("mirror"),
        Clean("mirror", "cloth"),
        GoTo("vanity"),
        PutOn("cloth", "vanity"),
    )
    return when("Mirror", IsDirty("mirror"), wipe)


def _refill() -> Behaviour:
    """At the open cabinet: refill the soap bottle and put the refill back."""
    return sequence(
        "Refill",
        PickUp("refill"),
        GoTo("soap"),
        Refill("soap", "refill"),
        GoTo("cabinet"),
        PutIn("refill", "cabinet"),
    )


def _soap(*, without_refill: bool = True) -> Behaviour:
    refill = sequence("HasRefill", Exists("refill", in_="cabinet"), _refill())
    throw_away = carry("soap", "garbage_can", into=True)
    by_refill = fallback("ByRefill", refill, throw_away) if without_refill else _refill()
    return when(
        "Soap",
        InState("soap", used_up=True),
        sequence(
            "Restock",
            GoTo("cabinet"),
            Open("cabinet"),
            by_refill,
            GoTo("cabinet"),
            Close("cabinet"),
        ),
    )


def correct_policy() -> Behaviour:
    """A branch for every situation."""
    return sequence("BathroomMirror", _mirror(), _soap())


def counterfactual_policy() -> Behaviour:
    """Wipes the mirror with the dry cloth."""
    return sequence("BathroomMirror", _mirror(wet=False), _soap())


def unreachable_policy() -> Behaviour:
    """Leaves the faucet running after wetting the cloth."""
    return sequence("BathroomMirror", _mirror(turn_off=False), _soap())


def lackbranch_policy() -> Behaviour:
    """Always reaches for the refill; no plan for an empty cabinet."""
    return sequence("BathroomMirror", _mirror(), _soap(without_refill=False))


#: The py_trees policies by the fault they have (``correct`` has none).
POLICIES: Mapping[str, Callable[[], Behaviour]] = {
    "correct": correct_policy,
    "counterfactual": counterfactual_policy,
    "unreachable": unreachable_policy,
    "lackbranch": lackbranch_policy,
}
