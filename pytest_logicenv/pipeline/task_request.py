"""The data at the pipeline's arrows: what a marked test asks for (:class:`TaskRequest`), how
generation may proceed (:class:`Mode`), the pluggable parts (:class:`Builders`) and what comes
back (:class:`Environments` of :class:`Case` s)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

from pytest_logicenv.cache import Cache, Entry, entry_key
from pytest_logicenv.errors import Violation
from pytest_logicenv.logic.facts import Fact
from pytest_logicenv.logic.plan import Plan
from pytest_logicenv.logic.trajectories import Trajectory
from pytest_logicenv.pipeline.witness_files import WITNESS_SUFFIX
from pytest_logicenv.scenes.catalog import Catalog
from pytest_logicenv.scenes.scene_model import Scene
from pytest_logicenv.witness import Budget

#: The designer a request uses unless it says otherwise (``--logicenv-designer``).
DEFAULT_DESIGNER = "procedural"

#: Builds one solved, checked scene for a trajectory: ``(plan, trajectory, seed) -> Scene``.
SceneBuilder = Callable[[Plan, Trajectory, int], Scene]


class PlanSource(Protocol):
    """Something that derives a plan from a task (an LLM planner)."""

    @property
    def name(self) -> str:
        """Who makes the plan, as the manifest records it (``llm:deepseek-chat``)."""
        ...

    def derive(self, task: str, rooms: Sequence[str]) -> tuple[Plan, list[dict[str, Any]]]:
        """The plan and the LLM exchanges (as JSON objects) that made it."""
        ...

    def refine(self, violations: Sequence[Violation]) -> tuple[Plan, list[dict[str, Any]]]:
        """The plan answered, in the conversation of the last ``derive``, to what that plan's
        scenes showed (``violations``), and the new exchanges; raises
        ``llm.exchange.PlanDerivationError`` when the answer stays wrong after its rounds."""
        ...


class SceneSource(Protocol):
    """A scene builder that asks an LLM (``llm.scene_designer.LLMSceneBuilder``)."""

    @property
    def name(self) -> str:
        """Who designs the scenes, as the manifest records it (``llm:deepseek-chat``)."""
        ...

    def __call__(self, plan: Plan, trajectory: Trajectory, seed: int) -> Scene: ...

    def take_exchanges(self) -> list[dict[str, Any]]:
        """The LLM exchanges (as JSON objects) made since the last call."""
        ...


@dataclass(frozen=True)
class TaskRequest:
    """What a ``logic_env`` marker asks for."""

    task: str
    plan_file: Path | None = None
    rooms: tuple[str, ...] = ()
    select: str = "minimal"
    seed: int = 0
    designer: str = DEFAULT_DESIGNER
    #: The user's types (of a type file), each with a digest of its definition: an entry
    #: records those its plan uses (not part of the key: a type the plan does not use
    #: changes nothing, see ``pipeline.cached``).
    types: tuple[tuple[str, str], ...] = ()

    def settings(self, rootdir: Path, cache_root: Path | None = None) -> dict[str, Any]:
        """The settings that, with the task text, identify a cache entry.

        The plan file is named relative to the folder that holds the cache (the project the
        cache is committed in), else to the rootdir, else absolutely: never relative to the
        working directory, so running from another folder finds the same entry. With the
        default ``cache/`` at the rootdir, both give the same name.

        >>> request = TaskRequest("t", plan_file=Path("/p/tests/plan.json"))
        >>> request.settings(Path("/p/tests"), Path("/p/cache"))["plan_file"]
        'tests/plan.json'
        """
        bases = (rootdir,) if cache_root is None else (cache_root.parent, rootdir)
        plan_file = None if self.plan_file is None else _named_from(self.plan_file, bases)
        settings: dict[str, Any] = {
            "select": self.select,
            "seed": self.seed,
            "rooms": list(self.rooms),
            "plan_file": plan_file,
        }
        if self.designer != DEFAULT_DESIGNER:  # left out by default: existing keys stay
            settings["designer"] = self.designer
        return settings

    def type_digests(self, names: Collection[str]) -> dict[str, str]:
        """The digests of the user's types among ``names`` (the types a plan uses)."""
        return {name: digest for name, digest in self.types if name in names}


def _named_from(path: Path, bases: Sequence[Path]) -> str:
    """``path`` relative to the first of ``bases`` that holds it (POSIX), else absolute."""
    resolved = _resolved(path)
    for base in bases:
        try:
            return resolved.relative_to(_resolved(base)).as_posix()
        except ValueError:
            continue
    return resolved.as_posix()


@lru_cache(maxsize=1024)
def _resolved(path: Path) -> Path:
    """A path resolved once per process (collection asks for the same plan file and cache
    folder for every marked function; resolving walks every component)."""
    return path.resolve()


def entry_key_of(request: TaskRequest, cache_root: Path, rootdir: Path) -> str:
    """The key of the cache entry a request uses (the same in every working directory)."""
    return entry_key(request.task, request.settings(rootdir, cache_root))


@dataclass(frozen=True)
class Mode:
    """How generation may proceed in this run: ``offline`` never calls an LLM; ``strict``
    (CI) never writes the cache, so a missing or stale entry is an error, unless
    ``regenerate`` asks for the entries anew."""

    regenerate: bool = False
    offline: bool = False
    run_id: str = ""
    strict: bool = False
    #: The run's options a command that fixes an entry must repeat (``--logicenv-cache-dir``).
    options: tuple[str, ...] = ()
    #: What allows LLM calls where the CI variable forbids them, for messages.
    allow_llm: str = "--logicenv-allow-ci (ini: logicenv_allow_ci = true)"


@dataclass(frozen=True)
class Case:
    """One environment of a task: what a parametrized test item needs, cheap to carry."""

    entry_root: Path
    trajectory_id: str
    situation: tuple[tuple[str, str], ...]
    goal: tuple[Fact, ...]
    conditions: tuple[tuple[str, str], ...]

    @property
    def scene_path(self) -> Path:
        return Entry(self.entry_root).scene_path(self.trajectory_id)

    @property
    def picture_path(self) -> Path:
        return Entry(self.entry_root).scene_path(self.trajectory_id, ".svg")

    @property
    def house_path(self) -> Path:
        return Entry(self.entry_root).scene_path(self.trajectory_id, ".house.json")

    @property
    def witness_path(self) -> Path:
        return Entry(self.entry_root).scene_path(self.trajectory_id, WITNESS_SUFFIX)


@dataclass(frozen=True)
class Environments:
    """A task's cache entry and its cases, in selection order; ``rebuilt`` says why an
    existing entry was rebuilt (a hand edit, a damaged file, an older format)."""

    entry: Entry
    cases: tuple[Case, ...]
    generated: bool = False
    notes: tuple[str, ...] = field(default=())
    rebuilt: str | None = None


@dataclass(frozen=True)
class Builders:
    """The pluggable parts of generation. With ``llm_scenes``, an LLM designs the scenes
    instead of ``scene``: it gives the designer when scenes must be made (``None``: no LLM
    is configured, and a cache miss is an error, as for the planner)."""

    scene: SceneBuilder
    planner: Callable[[], PlanSource | None] = lambda: None
    known_types: Callable[[], frozenset[str] | None] = lambda: None
    on_scene: Callable[[Scene, Trajectory], None] = lambda scene, trajectory: None
    llm_scenes: Callable[[], SceneSource | None] | None = None
    #: What a plan an LLM derived must pass beyond the plan rules, ``(plan, strategy) ->
    #: violations`` (``llm.planner.acceptance_violations`` with the run's catalog): a kept
    #: ``plan.json`` of an LLM is checked with it again (``failed_plans.check_kept``).
    plan_checks: Callable[[Plan, str], Sequence[Violation]] | None = None
    #: The goals of a plan no action reaches (``sim.achievable.goal_violations`` with the
    #: run's catalog): a hand-written plan with one is its test's error, before any scene.
    goal_checks: Callable[[Plan], Sequence[Violation]] | None = None
    #: How far the search for each scene's witness may go (``pipeline/witnesses.py``).
    witness_budget: Budget = field(default_factory=Budget)
    #: The run's catalog: what a scene without a witness tells the model names its types
    #: (``pipeline/witness_feedback.py``; ``None``: it names none).
    catalog: Catalog | None = None


@dataclass(frozen=True)
class Where:
    """Where a generation happens, for messages that name the test, entry and fix."""

    cache: Cache
    entry: Entry
    mode: Mode
    nodeid: str
    rootdir: Path

    def shown(self, path: Path) -> str:
        """A path as the user best reads it: relative to the rootdir when inside it."""
        try:
            return path.resolve().relative_to(self.rootdir.resolve()).as_posix()
        except ValueError:
            return str(path)
