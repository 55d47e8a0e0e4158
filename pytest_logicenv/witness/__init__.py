"""Witnesses: proof that a scene's task can be done, by the simulator's own actions.

A *witness* is a sequence of action calls that takes a scene from its start to every goal
fact of its trajectory's leaves, found by a best-first search over the simulator's world
states and then replayed as a policy: a scene without one is no valid test environment
(issue 21; ``docs/explanation/witness.md`` says why the search runs on the simulator rather
than a planning library, with the measurements).

The API (what the pipeline, the evaluation and the LLM refinement round call)::

    from pytest_logicenv.witness import Budget, find_witness
    result = find_witness(scene, trajectory, Budget(max_steps=60, max_ms=10000))
    result.verdict     # "found", "impossible" (ruled out by the rules, or the state space
                       # exhausted) or "budget"
    result.stopped_by  # why a search ended: STEPS, TIME, WALL ("wall time"), STATES; RULES
    result.calls       # WitnessCall(action, arguments): GoTo(blanket), PickUp(blanket), ...
    result.explain()   # "a passing sequence: GoTo(blanket), ..." or why there is none
    result.blockers    # per goal fact left false: Blocker(leaf, fact, refusals), as data
    result.to_json()   # the entry's <scene>.witness.json (witness_from_json reads it)

``trajectory`` may also be a sequence of goal facts (then blockers name no leaf). A
:class:`Blocker` says which leaf's goal fact was never made true and the calls on its objects
the simulator refused, in its own words (``PutIn(blanket, basket) needs basket has room for
blanket, but blanket (0.9 x 0.1 x 0.6 m) is larger than basket (0.35 x 0.2 x 0.3 m)``).

The modules, one job each:

* :mod:`.calls`: the calls a state allows, ground from the action table's preconditions;
* :mod:`.achievers`: the calls whose effect (tried on a copy) makes a fact or a broken
  precondition true;
* :mod:`.estimate`: the goal-distance estimate that orders the search, from the achievers;
* :mod:`.state_search`: weighted best-first search over world copies, the goal facts in
  stages, bounded in steps, CPU time and states;
* :mod:`.goal_agenda`: the order of those stages (an object placed after an action changes
  its states);
* :mod:`.blockers`: what refused the calls on a goal fact's objects (the diagnosis);
* :mod:`.ruled_out`: the goal facts no sequence can make true, proved from the rules no action
  changes before any search (``impossible`` whatever the budget);
* :mod:`.verdict`: the result, its explanation and its JSON;
* :mod:`.finding`: :func:`find_witness`, and the replay of a witness as a policy.
"""

from typing import TYPE_CHECKING

from pytest_logicenv.deferred import deferred_names

if TYPE_CHECKING:
    from pytest_logicenv.witness.blockers import Blocker, Goal, Refusal
    from pytest_logicenv.witness.finding import (
        WitnessRefused,
        as_policy,
        find_witness,
        goals_of,
        replay,
    )
    from pytest_logicenv.witness.verdict import (
        BUDGET,
        FOUND,
        IMPOSSIBLE,
        RULES,
        STATES,
        STEPS,
        TIME,
        WALL,
        WITNESS_FORMAT,
        Budget,
        WitnessCall,
        WitnessResult,
        witness_from_json,
    )

#: Public name -> the module that defines it: the read side (``verdict``) loads without the
#: search.
_DEFERRED = {
    "Blocker": "pytest_logicenv.witness.blockers",
    "Goal": "pytest_logicenv.witness.blockers",
    "Refusal": "pytest_logicenv.witness.blockers",
    "WitnessRefused": "pytest_logicenv.witness.finding",
    "as_policy": "pytest_logicenv.witness.finding",
    "find_witness": "pytest_logicenv.witness.finding",
    "goals_of": "pytest_logicenv.witness.finding",
    "replay": "pytest_logicenv.witness.finding",
    "BUDGET": "pytest_logicenv.witness.verdict",
    "Budget": "pytest_logicenv.witness.verdict",
    "FOUND": "pytest_logicenv.witness.verdict",
    "IMPOSSIBLE": "pytest_logicenv.witness.verdict",
    "RULES": "pytest_logicenv.witness.verdict",
    "STATES": "pytest_logicenv.witness.verdict",
    "STEPS": "pytest_logicenv.witness.verdict",
    "TIME": "pytest_logicenv.witness.verdict",
    "WALL": "pytest_logicenv.witness.verdict",
    "WITNESS_FORMAT": "pytest_logicenv.witness.verdict",
    "WitnessCall": "pytest_logicenv.witness.verdict",
    "WitnessResult": "pytest_logicenv.witness.verdict",
    "witness_from_json": "pytest_logicenv.witness.verdict",
}

__all__ = [
    "BUDGET",
    "FOUND",
    "IMPOSSIBLE",
    "RULES",
    "STATES",
    "STEPS",
    "TIME",
    "WALL",
    "WITNESS_FORMAT",
    "Blocker",
    "Budget",
    "Goal",
    "Refusal",
    "WitnessCall",
    "WitnessRefused",
    "WitnessResult",
    "as_policy",
    "find_witness",
    "goals_of",
    "replay",
    "witness_from_json",
]

__getattr__ = deferred_names(__name__, _DEFERRED)
