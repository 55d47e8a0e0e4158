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

import inspect
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_logicenv.atomic import write_atomic
from pytest_logicenv.cache import safe_file_name
from pytest_logicenv.errors import SceneError
from pytest_logicenv.sim.judge import judge
from pytest_logicenv.sim.situation_file import situation_document
from pytest_logicenv.strategies import ScenePool, variations
from pytest_logicenv.workdir import work_folder

if TYPE_CHECKING:
    from pytest_logicenv.scenes.catalog import Catalog
    from pytest_logicenv.scenes.scene_model import Scene
    from pytest_logicenv.scenes.variation import Variation
    from pytest_logicenv.sim.judge import Situation
    from pytest_logicenv.sim.outcome import Outcome

#: Where the minimal failing scenes are saved, under the rootdir's ``.logicenv/``.
SAVED_DIR = "explored"


@dataclass(frozen=True)
class Exploration:
    """The run's ``--logicenv-explore`` setting, and what an exploration needs from the
    session: the task's seed, its catalog (with the user's types) and the rootdir (scenes go
    to its ``.logicenv/explored``)."""

    examples: int
    seed: int
    catalog: Callable[[], Catalog]
    rootdir: Path


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
    #: The policy as ``logicenv run`` names it (``POLICY`` when it has no such name).
    policy: str = "POLICY"

    def to_json(self) -> dict[str, Any]:
        return {
            "examples": self.examples,
            "ran": self.ran,
            "shrinking": self.shrinking,
            "variation": self.variation,
            "outcome": None if self.outcome is None else self.outcome.kind,
            "scene": None if self.outcome is None else self.outcome.scene,
            "saved": None if self.saved is None else _shown(self.saved),
            "problem": self.problem,
        }

    def lines(self, reproduce: str) -> list[str]:
        """What the failing test says about the exploration, and how to rerun it
        (``reproduce``: the command that reruns the test item)."""
        return [
            f"found by --logicenv-explore: the situation passed in its generated scene and "
            f"failed in variation {self.ran} of {self.examples}; shrunk in {self.shrinking} "
            f"more runs, the plainest that fails is: {self.variation}",
            f"scene saved with its situation: {_shown(self.saved)} (logicenv render draws it)",
            f"judge it again as this test did: logicenv run {self.policy} --scene "
            f"{_shown(self.saved)}",
            f"reproduce: {reproduce} --logicenv-explore={self.examples} (Hypothesis replays "
            "the saved example from its database first)",
        ]


def command_policy(policy: Any) -> str:
    """``policy`` as ``logicenv run`` takes it: ``file.py:name`` for a module-level function,
    ``file.xml --tree ID`` for BehaviorTree.CPP XML, else ``POLICY``."""
    source, main = getattr(policy, "source", None), getattr(policy, "main", None)
    if isinstance(source, str) and isinstance(main, str):  # an XmlPolicy
        return f"{_shown(Path(source))} --tree {main}"
    if isinstance(policy, str | os.PathLike):
        return _shown(Path(policy))
    name = getattr(policy, "__qualname__", "")
    try:
        file = inspect.getsourcefile(policy)
    except TypeError:  # a behaviour instance, a builtin
        file = None
    if file is None or not name or "<" in name:  # a lambda or a local function
        return "POLICY"
    return f"{_shown(Path(file))}:{name}"


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


def explore(setting: Exploration, situation: Situation, policy: Any, *, key: str) -> Explored:
    """Judge ``policy`` in variations of ``situation``'s scene; ``key`` names the exploration
    in Hypothesis's database (the test item and the policy); the distractors have the types
    the plan and the policy name."""
    try:
        import hypothesis
        from hypothesis import errors
    except ImportError:
        return Explored(setting.examples, problem=_NO_HYPOTHESIS)
    plan, trajectory = situation.plan, situation.trajectory
    if plan is None or trajectory is None:  # never from the fixture: its situations have both
        return Explored(setting.examples, problem=f"{key}: a situation without a plan")
    pool = ScenePool(plan, trajectory, setting.seed, setting.catalog())
    ran, first = 0, 0  # variations run; the run that failed first

    def body(variation: Variation) -> None:
        nonlocal ran, first
        try:
            scene = pool.scene(variation)
        except SceneError:
            hypothesis.reject()
        ran += 1
        outcome = judge(policy, situation.in_scene(scene))
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
        saved = _save(setting.rootdir, key, situation.in_scene(found.scene))
        shrunk = found.variation.describe()
        return Explored(
            setting.examples, first, ran - first, shrunk, found.outcome, saved,
            policy=command_policy(policy),
        )  # fmt: skip
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


def _save(rootdir: Path, key: str, situation: Situation) -> Path:
    """The failing scene with its situation, so ``logicenv run --scene`` judges it as here."""
    name = safe_file_name(key.replace("::", "--").replace("/", "-"))
    path = work_folder(rootdir, SAVED_DIR) / f"{name}.json"
    write_atomic(path, json.dumps(situation_document(situation, key), indent=2) + "\n")
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
