"""The ``logic_env`` fixture's value: one environment of a task, and a way to run a policy in it.

>>> # in a test marked @pytest.mark.logic_env("...")
>>> # def test_tidy(logic_env):
>>> #     logic_env.run(tidy_policy).assert_ok()
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

from .cache import Entry
from .environments import Case, load_plan_of
from .errors import LogicEnvError
from .facts import Fact
from .plan import Plan, located_facts
from .scene import Scene, load_scene


@lru_cache(maxsize=64)
def known_names(entry_root: Path) -> frozenset[str]:
    """Names a policy of this task may use though a scene lacks them: every catalog type and
    room type, and every role and type the plan's facts name. Anything else a policy names
    (a typo such as ``wet_wipe`` for ``wet_wipes``) is an error before the run, not a
    misleading lackbranch."""
    from .catalog import default_catalog
    from .runner import vocabulary

    entry = Entry(entry_root)
    plan = load_plan_of(entry, fix=f"regenerate {entry.root}")
    names = set(vocabulary([], [fact for _, fact in located_facts(plan)]))
    names.update(default_catalog().types)
    names.update(plan.rooms)
    return frozenset(names)


class LogicEnv:
    """One generated environment (a solved scene for one trajectory) of a marked test.

    Attributes a test may read: ``trajectory_id``, ``situation`` (question/answer pairs),
    ``conditions``, ``goal`` (facts), ``scene`` (the :class:`~pytest_logicenv.scene.Scene`),
    ``plan``, ``scene_path``, ``picture`` (SVG) and ``house_json`` (the AI2-THOR house).
    """

    def __init__(
        self,
        case: Case,
        *,
        expect_fault: str | None = None,
        max_ticks: int | None = None,
        base_dir: Path | None = None,
        on_outcome: Callable[[Any], None] = lambda outcome: None,
    ) -> None:
        self.case = case
        self.expect_fault = expect_fault
        self.max_ticks = max_ticks
        self.base_dir = base_dir
        self._on_outcome = on_outcome
        self.outcomes: list[Any] = []

    def __repr__(self) -> str:
        return f"<LogicEnv {self.trajectory_id} in {self.case.entry_root.name}>"

    @property
    def trajectory_id(self) -> str:
        return self.case.trajectory_id

    @property
    def situation(self) -> tuple[tuple[str, str], ...]:
        return self.case.situation

    @property
    def conditions(self) -> tuple[tuple[str, str], ...]:
        return self.case.conditions

    @property
    def goal(self) -> tuple[Fact, ...]:
        return self.case.goal

    @cached_property
    def scene(self) -> Scene:
        return load_scene(self.case.scene_path)

    @cached_property
    def plan(self) -> Plan:
        entry = Entry(self.case.entry_root)
        return load_plan_of(entry, fix=f"regenerate {entry.root}")

    @property
    def scene_path(self) -> Path:
        return self.case.scene_path

    @property
    def picture(self) -> Path:
        return self.case.picture_path

    @property
    def house_json(self) -> Path:
        return self.case.house_path

    def run(self, policy: Any, *, max_ticks: int | None = None) -> Any:
        """Run ``policy`` (a py_trees root, a factory returning one, or a BehaviorTree.CPP
        XML path, relative paths taken from the test file's folder) in this environment and
        return its outcome; ``outcome.assert_ok()`` fails the test with an explanation."""
        from .runner import run_policy

        if isinstance(policy, str | Path) and self.base_dir is not None:
            candidate = Path(policy)
            if not candidate.is_absolute() and (self.base_dir / candidate).exists():
                policy = self.base_dir / candidate
        ticks = max_ticks or self.max_ticks
        options: dict[str, Any] = {"goal": self.goal, "situation": self.situation}
        if ticks:
            options["max_ticks"] = ticks
        try:
            outcome = run_policy(
                policy, self.scene, known=known_names(self.case.entry_root), **options
            )
        except LogicEnvError as error:  # a policy that cannot be built: fail this test only
            import pytest

            pytest.fail(f"the policy cannot run: {error}", pytrace=False)
        if self.expect_fault is not None:
            outcome = outcome.expecting(self.expect_fault)
        self.outcomes.append(outcome)
        self._on_outcome(outcome)
        return outcome
