"""Scene variations and the Hypothesis strategies that draw them: every scene drawn keeps its
situation's facts true and passes the checks generated scenes pass; zeros are the plainest
scene; distractors go only where the situation allows them."""

from __future__ import annotations

import pytest
from helpers import ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.vendor.pretty import pretty

from pytest_logicenv.errors import LogicEnvError, SceneError
from pytest_logicenv.logic.facts import describe, false_facts
from pytest_logicenv.logic.plan import load_plan
from pytest_logicenv.logic.trajectories import select
from pytest_logicenv.scenes.design import DistractorRequest, trajectory_facts
from pytest_logicenv.scenes.physics import check_scene
from pytest_logicenv.scenes.variation import Variation, distractor_types, vary_scene
from pytest_logicenv.strategies import DrawnScene, ScenePool, scenes, variations

pytest_plugins = ["pytester"]

PLAN = load_plan(ROOT / "tests" / "data" / "tidy_book_plan.json")
BOOK_YES, BOOK_NO = select(PLAN).trajectories
EXAMPLES = load_plan(ROOT / "example_agents" / "plans" / "breakfast.json")
SLOW = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=8)


def test_the_plainest_variation_has_the_task_objects_alone() -> None:
    scene = vary_scene(PLAN, BOOK_YES, Variation())
    assert sorted(obj.id for obj in scene.objects) == ["book", "sofa"]
    assert scene.id.startswith("book=yes~")
    assert scene.provenance.notes[-1] == (
        "variation: the task objects alone, seeds 0, no distractors"
    )


def test_distractors_are_of_the_types_the_facts_and_the_policy_name_that_stand_alone() -> None:
    assert distractor_types(PLAN) == ("Book", "Sofa")
    assert distractor_types(PLAN, also=("Window", "Drawer", "Doorway")) == (
        "Book",
        "Sofa",
        "Window",  # one more window; no drawer without its whole, no second doorway
    )
    assert "Cabinet" not in distractor_types(EXAMPLES)  # a part of a counter only


STUDY = load_plan(ROOT / "example_agents" / "plans" / "study_night.json")


def test_a_static_distractor_stands_where_its_type_may_stand_with_its_parts() -> None:
    study = select(STUDY).trajectories[0]
    desk = vary_scene(STUDY, study, Variation(distractors=(DistractorRequest("Desk", 1),)))
    [extra] = [o for o in desk.objects if o.type == "Desk" and o.role is None]
    assert (extra.room, extra.parent, extra.relation) == ("study", None, "on")
    assert [o.type for o in desk.objects if o.part_of == extra.id] == ["Drawer"]
    assert ("edge", extra.id) in [(r.kind, r.subject) for r in desk.relations]  # against a wall
    painting = vary_scene(STUDY, study, Variation(distractors=(DistractorRequest("Painting"),)))
    assert [o.relation for o in painting.objects if o.type == "Painting"] == ["wall"]


def test_a_distractor_window_is_one_more_window_in_its_room() -> None:
    study = select(STUDY).trajectories[0]
    plain = vary_scene(STUDY, study, Variation(furnished=True))
    more = vary_scene(
        STUDY, study, Variation(furnished=True, distractors=(DistractorRequest("Window", 1),))
    )
    rooms = [w.room for w in plain.windows]
    assert sorted(w.room for w in more.windows) == sorted([*rooms, "study"])
    reversed_ = vary_scene(
        STUDY,
        study,
        Variation(furnished=True, distractors=(DistractorRequest("Window", 1),), reverse=True),
    )
    assert reversed_.windows == more.windows[::-1]  # "the first window" is another one


def test_a_distractor_goes_only_where_the_absent_facts_allow() -> None:
    on_floor = Variation(distractors=(DistractorRequest("Book", 0, 0),))
    with_book = vary_scene(PLAN, BOOK_YES, on_floor)
    assert [(o.id, o.role, o.parent) for o in with_book.objects if o.type == "Book"] == [
        ("book", "book", None),
        ("book_1", None, None),
    ]
    without_book = vary_scene(PLAN, BOOK_NO, on_floor)  # no book may lie on the floor
    assert not [o for o in without_book.objects if o.type == "Book"]
    assert any("distractor Book on the floor" in n for n in without_book.provenance.notes)
    on_sofa = vary_scene(PLAN, BOOK_NO, Variation(distractors=(DistractorRequest("Book", 0, 1),)))
    assert [(o.id, o.parent) for o in on_sofa.objects if o.type == "Book"] == [("book_1", "sofa")]


def test_reversing_the_objects_keeps_the_layout() -> None:
    plain = vary_scene(PLAN, BOOK_YES, Variation(furnished=True))
    reversed_ = vary_scene(PLAN, BOOK_YES, Variation(furnished=True, reverse=True))
    assert reversed_.objects == plain.objects[::-1]


@SLOW
@given(scenes(PLAN, BOOK_YES))
def test_every_scene_drawn_keeps_the_situation_and_passes_the_checks(drawn: DrawnScene) -> None:
    scene = drawn.scene
    assert drawn.trajectory == BOOK_YES
    assert [describe(fact) for fact in drawn.goal] == ["book on sofa"]
    assert not false_facts(trajectory_facts(PLAN, BOOK_YES), scene)
    assert check_scene(scene).passed
    assert [o.role for o in scene.objects if o.type == "Book"].count("book") == 1


@SLOW
@given(scenes(PLAN))
def test_without_a_trajectory_the_scenes_are_of_the_selected_situations(
    drawn: DrawnScene,
) -> None:
    assert drawn.scene.provenance.trajectory == drawn.trajectory.id in ("book=yes", "book=no")
    assert drawn.goal == drawn.trajectory.goal
    assert repr(drawn).startswith(f"DrawnScene({drawn.trajectory.id}: ")


@given(variations(PLAN, BOOK_YES))
def test_every_choice_of_a_variation_is_valid_and_zero_is_plain(variation: Variation) -> None:
    assert all(d.type in ("Book", "Sofa") for d in variation.distractors)
    assert len(variation.distractors) <= 3
    assert variation.describe()


def test_variations_shrink_to_the_plainest() -> None:
    from hypothesis import find

    assert find(variations(PLAN, BOOK_YES), lambda v: True) == Variation()
    shrunk = find(variations(PLAN, BOOK_YES), lambda v: len(v.distractors) > 0)
    assert shrunk == Variation(distractors=(DistractorRequest("Book"),))


def test_the_pool_builds_each_layout_once_and_keeps_why_one_failed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import pytest_logicenv.strategies as strategies

    calls: list[Variation] = []

    def build(plan: object, trajectory: object, variation: Variation, **_: object) -> object:
        calls.append(variation)
        if variation.furnished:
            raise SceneError("no room for the sofa")
        return vary_scene(PLAN, BOOK_YES, variation)

    monkeypatch.setattr(strategies, "vary_scene", build)
    pool = ScenePool(PLAN, BOOK_YES)
    pool.scene(Variation())
    pool.scene(Variation(reverse=True))  # the same layout, reversed
    with pytest.raises(SceneError, match="no room"):
        pool.scene(Variation(furnished=True))
    with pytest.raises(SceneError):
        pool.scene(Variation(furnished=True))
    assert calls == [Variation(), Variation(furnished=True)]
    assert pool.invalid == 2
    assert str(pool.last_error) == "no room for the sofa"


def test_a_plan_naming_only_parts_draws_no_distractors_unless_the_policy_names_more() -> None:
    from pytest_logicenv.logic.facts import parse_facts
    from pytest_logicenv.logic.plan import Plan
    from pytest_logicenv.sim.controls import sequence
    from pytest_logicenv.sim.leaves import GoTo, Open, Select

    plan = Plan("open", (), setting=parse_facts([{"exists": "Drawer", "as": "drawer"}], "s"))
    assert find_all(variations(plan)) == {()}

    def policy() -> object:
        drawer = Select("Drawer", part_of="Dresser")
        return sequence("Open", GoTo(drawer), Open(drawer))

    drawn = find_all(variations(plan, policy=policy))
    assert {d.type for requests in drawn for d in requests} == {"Dresser"}


def find_all(strategy: st.SearchStrategy[Variation]) -> set[tuple[DistractorRequest, ...]]:
    found: set[tuple[DistractorRequest, ...]] = set()

    @settings(max_examples=20, database=None)
    @given(strategy)
    def collect(variation: Variation) -> None:
        found.add(variation.distractors)

    collect()
    return found


FIRST_BOOK = """
from pytest_logicenv.sim.controls import sequence, when
from pytest_logicenv.sim.leaves import Exists, GoTo, PickUp, PutOn


def first_book():  # takes the first book it finds: right while the scene has one book only
    return when("Book", Exists("book", on="Floor"),
                sequence("Tidy", GoTo("Book", any=True), PickUp("Book", any=True), GoTo("sofa"),
                         PutOn("Book", "sofa", any=True)))
"""


def _docstring_example() -> str:
    """The property test of the ``strategies`` docstring, as a user copies it."""
    import textwrap

    import pytest_logicenv.strategies as strategies

    doc = strategies.__doc__ or ""
    block = doc.split("the whole scene::\n", 1)[1].split("\n\nThe plugin's", 1)[0]
    return textwrap.dedent(block)


#: The project's Hypothesis profile: the same examples on every run, first failure unshrunk
#: (shrinking lays out dozens of scenes more).
FAST_PROFILE = """
from hypothesis import Phase, settings

settings.register_profile(
    "quick", derandomize=True, database=None, phases=[Phase.explicit, Phase.generate]
)
settings.load_profile("quick")
"""


@pytest.mark.slow
def test_the_docstring_example_finds_a_fault_only_the_goal_shows(
    pytester: pytest.Pytester,
) -> None:
    pytester.makepyfile(policies=FIRST_BOOK)
    pytester.makeconftest(FAST_PROFILE)
    (pytester.path / "plans").mkdir()
    (pytester.path / "plans" / "tidy.json").write_text(
        (ROOT / "tests" / "data" / "tidy_book_plan.json").read_text()
    )
    example = "from policies import first_book as tidy_policy\n" + _docstring_example()
    pytester.makepyfile(test_property=example)
    pytester.makeini("[pytest]\naddopts = -p no:cacheprovider\npythonpath = .\n")
    result = pytester.runpytest_subprocess()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*_ test_tidy_everywhere _*",
            "Unreachable: the policy returned SUCCESS but 1 goal fact is false",
            "situation: Is there a book on the floor? = yes",
            # The role as the policy names it, with its type when the scene has several books.
            'goal not met: "*book* on sofa"',
        ]
    )
    # Hypothesis's falsifying example, with the plugin on, short: the variation, not the scene.
    result.stdout.fnmatch_lines(
        ["*: test_tidy_everywhere(", "    drawn=DrawnScene(book=yes: *; goal: book on sofa),", ")"]
    )
    assert len(result.stdout.lines) < 80


def test_scenes_take_the_path_of_a_plan_and_refuse_what_is_neither() -> None:
    path = ROOT / "tests" / "data" / "tidy_book_plan.json"
    found: list[DrawnScene] = []

    @settings(settings.get_profile("logicenv"), max_examples=1, database=None)
    @given(scenes(str(path), BOOK_YES))
    def draw(drawn: DrawnScene) -> None:
        found.append(drawn)

    draw()
    assert found[0].plan == PLAN
    assert repr(found[0]).startswith("DrawnScene(book=yes: ")
    assert pretty(found[0]) == repr(found[0])  # as Hypothesis prints a falsifying example
    with pytest.raises(TypeError, match=r"scenes\(plan\): 42 is neither a Plan nor the path"):
        scenes(42)  # type: ignore[arg-type]
    with pytest.raises(LogicEnvError, match=r"nope\.json"):
        scenes(str(path.with_name("nope.json")))
