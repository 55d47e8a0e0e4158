"""``--logicenv-mutate``: each policy run also runs the policy's mutants in the same scene.

The fixture hands every run that declares no fault here: the policy's mutants
(:mod:`pytest_logicenv.mutation`) are made once per policy and task in a process, and run in
the item's scene when the policy passed there; what they did goes into the run's record, and
the session's report joins the scenes into the mutation score
(:mod:`pytest_logicenv.report.mutation`). A policy with nothing to mutate gets a warning in its
test.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pytest_logicenv.errors import LogicEnvWarning
from pytest_logicenv.mutation import mutants_of, run_mutants

if TYPE_CHECKING:
    from pytest_logicenv.logic.plan import Plan
    from pytest_logicenv.mutation import Mutants
    from pytest_logicenv.sim.outcome import Outcome

# (policy, plan) -> (the policy, its mutants): kept with the policy itself, so
# that an id is never taken for another policy's after it was freed.
_MADE: dict[tuple[int, str], tuple[Any, Mutants]] = {}
_MADE_SIZE = 256


def mutants_in_scene(
    runnable: Any, plan: Plan, outcome: Outcome, run: Callable[[Any], Outcome], label: str
) -> dict[str, Any]:
    """The policy's mutants run in this scene (``run``), as the record's JSON."""
    mutants = _mutants(runnable, plan)
    found = run_mutants(mutants, outcome.kind, run)
    if "nothing" in found:
        warnings.warn(
            LogicEnvWarning(f"--logicenv-mutate: {label} {found['nothing']}"), stacklevel=4
        )
    return found


def _mutants(runnable: Any, plan: Plan) -> Mutants:
    key = (id(runnable), repr(plan))
    made = _MADE.get(key)
    if made is None or made[0] is not runnable:
        if len(_MADE) >= _MADE_SIZE:
            _MADE.pop(next(iter(_MADE)))
        made = _MADE[key] = (runnable, mutants_of(runnable, plan))
    return made[1]
