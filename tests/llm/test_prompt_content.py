"""What the two system prompts say of the world is the catalog's word: every type, state and
room they name exists, and every fact they state of a type holds in the catalog.

The planner's prompt is taken as ``logicenv plan`` sends it to the (scripted) model; the
designer's as the LLM scene designer opens its conversation with.
"""

from __future__ import annotations

import re

import pytest
from fake_llm import FakeLLMServer, answer, planner_script
from plan_answers import DECOMPOSITION, FACTORS, GOOD_PLAN
from scripted_endpoint import use_scripted_server

from pytest_logicenv.cli import main
from pytest_logicenv.llm.design_prompts import example_situation, mark
from pytest_logicenv.llm.design_prompts import system_prompt as designer_prompt
from pytest_logicenv.llm.world_prompt import rooms_text, states_of, type_gloss
from pytest_logicenv.logic.facts import STATES
from pytest_logicenv.scenes.catalog import Catalog, default_catalog, usual_rooms
from pytest_logicenv.scenes.design.templates import ROOM_TYPES

# A task that names a thing with several readings, one with none, and a wall type.
TASK = (
    "Refill the soap dispenser from the soap bottle, put the watermelon in the fridge, "
    "hang the towel on the towel holder and put the alarm clock on the computer desk."
)
# Capitalized words of the prompts that are English (or a format's placeholders: a type T,
# references A, B, R), not type names.
ENGLISH = frozenset(
    (
        *("A", "B", "R", "T", "AI2-THOR", "ProcTHOR", "JSON", "CamelCase", "TV", "YES", "NO"),
        *("An", "Answer", "Add", "Clean", "Design", "Do", "Each", "Every", "Example", "Facts"),
        *("Furnish", "Give", "If", "In", "It", "Keep", "Living", "Materials", "Miss", "No"),
        *("Object", "Objects", "Only", "Please", "Put", "Relations", "Room", "Rooms", "Rules"),
        *("Situation", "States", "Step", "Subtask", "Task", "Test", "The", "There", "Things"),
        *("This", "Types", "Use", "What", "When", "Words", "Work", "You", "Your"),
    )
)


@pytest.fixture
def catalog() -> Catalog:
    return default_catalog()


@pytest.fixture
def planner_messages(fake_llm: FakeLLMServer, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    use_scripted_server(fake_llm, monkeypatch)
    monkeypatch.setenv("LOGICENV_LLM_API_KEY", "sk-prompt-test")
    fake_llm.respond_with(planner_script(DECOMPOSITION, FACTORS, [answer(GOOD_PLAN)]))
    monkeypatch.setenv("LOGICENV_LLM_MAX_RETRIES", "0")
    assert main(["plan", TASK, "--rooms", "Kitchen"]) == 0
    return [m["content"] for m in fake_llm.requests[0].messages]


def _names(text: str) -> set[str]:
    """The capitalized words of ``text`` outside JSON strings of the worked example."""
    return set(re.findall(r"(?<![\w\"-])[A-Z][A-Za-z0-9]*(?:-[A-Z]+)?(?![\w-])", text))


def _unknown(text: str, catalog: Catalog) -> set[str]:
    materials = {*catalog.floor_materials, *catalog.wall_materials}
    known = {*catalog.types, *ROOM_TYPES, *materials, *ENGLISH, "Floor"}
    return _names(text) - known


def test_every_capitalized_name_in_either_system_prompt_is_a_type_a_room_or_english(
    planner_messages: list[str], catalog: Catalog
) -> None:
    planner, first = planner_messages
    assert _unknown(planner, catalog) == set()
    told = "\n".join(line for line in first.splitlines() if not line.startswith("Task: "))
    assert _unknown(told, catalog) == set()
    assert _unknown(designer_prompt(catalog), catalog) == set()
    assert re.search(r"\bDoorway\b", planner) is None  # a door is a Door, never a Doorway


def test_the_states_each_type_is_listed_with_are_the_catalogs(
    planner_messages: list[str], catalog: Catalog
) -> None:
    planner = planner_messages[0]
    assert f"States: {', '.join(STATES)}." in planner
    listing = planner.split("the first message describes the task's own: ", 1)[1]
    listing = listing.split(".\n", 1)[0]
    entries = dict(
        re.findall(r"([A-Z]\w*)(?: \(([^()]*(?:\([^()]*\)[^()]*)*)\))?(?:, |$)", listing)
    )
    assert set(entries) == set(catalog.types)
    for name, note in entries.items():
        obj_type = catalog.type(name)
        expected = "; ".join(b for b in (", ".join(states_of(obj_type)), type_gloss(obj_type)) if b)
        assert note == expected, name
        named_states = set(re.findall(r"\b(" + "|".join(STATES) + r")\b", note.split(";")[0]))
        assert named_states <= set(STATES)


def test_the_type_notes_rooms_are_where_the_designer_puts_each_type(
    planner_messages: list[str], catalog: Catalog
) -> None:
    first = planner_messages[1]
    notes = re.findall(r"^- (\w+)(?: \([^)]*\))?: (.*)$", first, re.MULTILINE)
    assert {name for name, _ in notes} >= {"SoapBottle", "SoapRefill", "Fridge", "TowelHolder"}
    for name, note in notes:
        obj_type = catalog.type(name)
        assert note.endswith(rooms_text(obj_type)), name
        rooms = note.rsplit("rooms ", 1)[1].split(", ") if "; rooms " in note else []
        assert all(room in ROOM_TYPES for room in rooms)
        if rooms:
            assert tuple(rooms) == usual_rooms(obj_type, ROOM_TYPES)
    # The dining room a dining table and its chairs stand in is said (ProcTHOR lists none).
    assert "DiningRoom" in rooms_text(catalog.type("DiningTable"))
    assert rooms_text(catalog.type("Cabinet")) == "any room"  # a dresser's cabinet, too


def test_the_words_the_planner_is_told_mean_what_the_vocabulary_reads(
    planner_messages: list[str], catalog: Catalog
) -> None:
    planner = planner_messages[0]
    words = planner.split("Words in tasks and the types they mean: ", 1)[1].split(".\n", 1)[0]
    readings = re.findall(r'"([^"]+)" -> (\w+)(?: \(or ([\w ]+)\))?', words)
    assert ("soap bottle", "SoapRefill", "SoapBottle") in readings
    for phrase, name, others in readings:
        assert catalog.vocabulary.meaning(phrase) == name, phrase
        assert catalog.vocabulary.mentioned(phrase) == [
            name,
            *(others.split(" or ") if others else []),
        ]
    assert "SoapBottle (used_up; a soap dispenser by a sink)" in planner
    assert "closest type that has what the task needs" in planner


def test_the_designers_marks_say_what_the_checker_requires(catalog: Catalog) -> None:
    prompt = designer_prompt(catalog)
    listing = prompt.split("come with their whole): ", 1)[1].split(".\n", 1)[0]
    entries = re.findall(r"(\w+)(?: \(([a-z, ]+)\))?(?:, |$)", listing)
    assert len(entries) > 100
    for name, shown in entries:
        if name in catalog.types:
            obj_type = catalog.type(name)
            assert shown == mark(obj_type), name
            # The request checker refuses a floor support exactly for these (request_objects).
            assert ("wall" in shown) == (obj_type.on_wall and not obj_type.on_floor)
    assert "TowelHolder (wall, on)" in listing


def test_no_generated_text_says_a_before_a_vowel(
    planner_messages: list[str], catalog: Catalog
) -> None:
    texts = [*planner_messages, designer_prompt(catalog), example_situation()[2]]
    for text in texts:
        assert re.findall(r"\ba [AEIO][a-z]*[A-Z]\w*", text) == []


def test_the_designer_situation_states_each_fact_once() -> None:
    facts = example_situation()[2].split("Facts this scene makes true: ", 1)[1].split("\n")[0]
    items = facts.split("; ")
    assert len(items) == len(set(items))
    # The setting's "a Toy on the Floor" is implied by the situation's doll on the floor.
    assert "a Toy (toy) on Floor with kind=doll" in items
    assert "a Toy (toy) on Floor" not in items
