"""The plugin's plan source: which LLM it picks, and that it derives through it."""

from __future__ import annotations

import pytest
from fake_llm import MODEL, FakeLLMServer, answer, planner_script
from plan_answers import DECOMPOSITION, FACTORS, GOOD_PLAN, TASK

from pytest_logicenv.llm.config import API_KEY_VARS, BASE_URL_VARS, MODEL_VARS
from pytest_logicenv.session.generators import planner_for, scene_designer_for

pytest_plugins = ["pytester"]


@pytest.fixture(autouse=True)
def no_endpoint_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (*BASE_URL_VARS, *MODEL_VARS, *API_KEY_VARS):
        monkeypatch.delenv(name, raising=False)


def test_no_endpoint_means_no_planner(pytester: pytest.Pytester) -> None:
    assert planner_for(pytester.parseconfig()) is None


def test_the_ini_options_name_the_endpoint(
    pytester: pytest.Pytester, fake_llm: FakeLLMServer
) -> None:
    pytester.makeini(
        f"[pytest]\nlogicenv_llm_base_url = {fake_llm.base_url}\nlogicenv_llm_model = {MODEL}\n"
    )
    source = planner_for(pytester.parseconfig())
    assert source is not None
    assert source.name == f"llm:{MODEL}"
    fake_llm.respond_with(planner_script(DECOMPOSITION, FACTORS, [answer(GOOD_PLAN)]))
    plan, exchanges = source.derive(TASK, ["Kitchen"])
    assert [s.name for s in plan.subtasks] == ["drink", "food"]
    assert len(exchanges) == 3
    system, first = (m["content"] for m in fake_llm.requests[0].messages)
    assert "AlarmClock, " in system  # the catalog's types, and the task's described
    assert (
        "- Milk (a bottle of milk, a liquid container (filled)): carried; can be filled, broken, "
        "hot, cold; usually in Fridge" in first
    )


def test_the_environment_overrides_the_ini_model(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makeini("[pytest]\nlogicenv_llm_base_url = http://127.0.0.1:9/v1\n")
    monkeypatch.setenv("LOGICENV_LLM_MODEL", "from-env")
    source = planner_for(pytester.parseconfig())
    assert source is not None
    assert source.name == "llm:from-env"


def test_a_conftest_can_supply_its_own_llm(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(
        """
        from pytest_logicenv.llm.protocol import CallableLLM

        def pytest_logicenv_make_llm(config):
            return CallableLLM(lambda messages: "{}", model="house-model")
        """
    )
    source = planner_for(pytester.parseconfigure(pytester.path))
    assert source is not None
    assert source.name == "llm:house-model"


def test_the_scene_designer_asks_the_planners_llm(pytester: pytest.Pytester) -> None:
    assert scene_designer_for(pytester.parseconfig()) is None
    pytester.makeini("[pytest]\nlogicenv_llm_base_url = http://127.0.0.1:9/v1\n")
    pytester.makeconftest(
        """
        from pytest_logicenv.llm.protocol import CallableLLM

        def pytest_logicenv_make_llm(config):
            return CallableLLM(lambda messages: "{}", model="house-model")
        """
    )
    designer = scene_designer_for(pytester.parseconfigure(pytester.path))
    assert designer is not None
    assert designer.name == "llm:house-model"


def test_the_root_conftests_local_llm_is_inert_until_a_model_is_named(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The repository's own conftest.py, the example users copy, is loaded in this run.
    config = request.config
    monkeypatch.delenv("LOGICENV_LOCAL_LLM", raising=False)
    assert config.hook.pytest_logicenv_make_llm(config=config) is None
    monkeypatch.setenv("LOGICENV_LOCAL_LLM", "qwen2.5:14b")
    llm = config.hook.pytest_logicenv_make_llm(config=config)
    assert repr(llm) == "OpenAILLM(model='qwen2.5:14b', endpoint='http://localhost:11434/v1')"
    assert llm.config.timeout_s == 900.0
