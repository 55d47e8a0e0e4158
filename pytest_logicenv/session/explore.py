"""``--logicenv-explore=N``: does a pass hold beyond the one scene drawn for its situation?

A policy run that passed in its generated scene (and declares no fault) is run again in N
other scenes of the same situation, drawn by Hypothesis's engine from
:func:`pytest_logicenv.strategies.variations` under the active settings profile, with its
example database: a failing scene is shrunk to the plainest variation that still fails, saved
in the database (a rerun replays it first) and as a scene file, and reported in that test with
its explanation and the line that reproduces it. An exploration that cannot keep the
situation's facts true, or that Hypothesis refuses (a health check), fails that test alone
with the reason.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_logicenv.atomic import write_atomic
from pytest_logicenv.cache import safe_file_name
from pytest_logicenv.errors import SceneError
from pytest_logicenv.scenes.scene_json import scene_to_json
from pytest_logicenv.strategies import ScenePool, variations

if TYPE_CHECKING:
    from pytest_logicenv.logic.plan import Plan
    from pytest_logicenv.logic.trajectories import Trajectory
    from pytest_logicenv.scenes.catalog import Catalog
    from pytest_logicenv.scenes.scene_model import Scene
    from pytest_logicenv.scenes.variation import Variation
    from pytest_logicenv.sim.outcome import Outcome

#: Where the minimal failing scenes are saved, under the rootdir.
SAVED_DIR = Path(".logicenv", "explored")


@dataclass(frozen=True)
class Exploration:
    """The run's ``--logicenv-explore`` setting, and what an exploration needs from the
    session: the task's seed, its catalog (with the user's types) and where scenes go."""

    examples: int
    seed: int
    catalog: Callable[[], Catalog]
    folder: Path


@dataclass(frozen=True)
class Explored:
    """What exploring one run found: how many variations ran, and the plainest failing one
    (its description, outcome and saved scene), or why there was no exploration."""

    examples: int
    ran: int = 0
    shrinking: int = 0
    variation: str | None = None
    outcome: Outcome | None = None
    saved: Path | None = None
    problem: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "examples": self.examples,
            "ran": self.ran,
            "shrinking": self.shrinking,
            "variation": self.variation,
            "outcome": None if self.outcome is None else self.outcome.kind,
            "scene": None if self.outcome is None else self.outcome.scene,
            "saved": None if self.saved is None else str(self.saved),
            "problem": self.problem,
        }

    def lines(self, reproduce: str) -> list[str]:
        """What the failing test says about the exploration, and how to rerun it
        (``reproduce``: the command that reruns the test item)."""
        return [
            f"found by --logicenv-explore: the situation passed in its generated scene and "
            f"failed in variation {self.ran} of {self.examples}; shrunk in {self.shrinking} "
            f"more runs, the plainest that fails is: {self.variation}",
            f"scene saved: {_shown(self.saved)} (logicenv render, logicenv run --scene)",
            f"reproduce: {reproduce} --logicenv-explore={self.examples} (Hypothesis replays "
            "the saved example from its database first)",
        ]


def _shown(path: Path | None) -> str:
    """A path relative to the current folder when it is below it."""
    if path is None:
        return "(not saved)"
    cwd = Path.cwd()
    return str(path.relative_to(cwd)) if path.is_relative_to(cwd) else str(path)


class _Failing(Exception):
    """Raised in the explored test body: the variation whose scene the policy failed in."""

    def __init__(self, variation: Variation, scene: Scene, outcome: Outcome) -> None:
        super().__init__(outcome.kind)
        self.variation, self.scene, self.outcome = variation, scene, outcome


def explore(
    setting: Exploration,
    plan: Plan,
    trajectory: Trajectory,
    run: Callable[[Scene], Outcome],
    *,
    key: str,
    policy: Any = None,
) -> Explored:
    """Run ``run`` over variations of ``trajectory``'s scene; ``key`` names the exploration
    in Hypothesis's database (the test item and the policy); the distractors have the types
    the plan and ``policy`` (the policy run) name."""
    try:
        import hypothesis
        from hypothesis import errors
    except ImportError:
        return Explored(setting.examples, problem=_NO_HYPOTHESIS)
    pool = ScenePool(plan, trajectory, setting.seed, setting.catalog())
    ran, first = 0, 0  # variations run; the run that failed first

    def body(variation: Variation) -> None:
        nonlocal ran, first
        try:
            scene = pool.scene(variation)
        except SceneError:
            hypothesis.reject()
        ran += 1
        outcome = run(scene)
        if outcome.kind != "pass":
            first = first or ran
            raise _Failing(variation, scene, outcome)

    drawn = variations(plan, trajectory, catalog=pool.catalog, policy=policy)
    test = _settings(setting.examples)(hypothesis.given(drawn)(body))
    # The key Hypothesis keeps this exploration's examples under: hypothesis.find() passes
    # its database_key= on the same way, and without it every exploration would share one.
    test._hypothesis_internal_database_key = key.encode()
    try:
        test()
    except _Failing as found:
        saved = _save(setting.folder, key, found.scene)
        shrunk = found.variation.describe()
        return Explored(setting.examples, first, ran - first, shrunk, found.outcome, saved)
    except (errors.Unsatisfiable, errors.FailedHealthCheck) as error:
        if pool.invalid:  # Hypothesis gave up on the variations that could not be built
            return Explored(setting.examples, ran, problem=_unsatisfiable(pool, ran, error))
        return Explored(setting.examples, ran, problem=_health_check(error))
    return Explored(setting.examples, ran)


def _settings(examples: int) -> Any:
    """The active profile's settings, with ``examples`` variations, no deadline (a layout
    takes a fraction of a second), the first failure only, and no explain phase (its
    report would be about this module's function, not the user's test)."""
    from hypothesis import Phase, Verbosity, settings

    profile = settings()  # the active profile's
    quiet = profile.verbosity <= Verbosity.normal
    return settings(
        profile,
        max_examples=examples,
        deadline=None,
        report_multiple_bugs=False,
        phases=[phase for phase in profile.phases if phase is not Phase.explain],
        verbosity=Verbosity.quiet if quiet else profile.verbosity,
    )


def _save(folder: Path, key: str, scene: Scene) -> Path:
    path = folder / f"{safe_file_name(key.replace('::', '--').replace('/', '-'))}.json"
    write_atomic(path, json.dumps(scene_to_json(scene), indent=2) + "\n")
    return path


_NO_HYPOTHESIS = (
    "--logicenv-explore needs Hypothesis: pip install 'pytest-logicenv[explore]' "
    "(or pip install hypothesis)"
)


def _unsatisfiable(pool: Any, ran: int, error: Exception) -> str:
    return (
        f"--logicenv-explore could not keep this situation's facts true: {pool.invalid} scene "
        f"variations drawn could not be built or checked and {ran} ran, so Hypothesis gave "
        f"up ({type(error).__name__}: {_first_line(error)}); the last reason: "
        f"{pool.last_error}"
    )


def _health_check(error: Exception) -> str:
    return (
        f"--logicenv-explore: Hypothesis refused the exploration (FailedHealthCheck: "
        f"{_first_line(error)}); fix what it names, or suppress that health check in your "
        "Hypothesis settings profile"
    )


def _first_line(error: Exception) -> str:
    text = str(error).strip()
    return text.splitlines()[0].strip() if text else "no message"
