"""The LLM client through the real ``openai`` package against a scripted local server."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from email.utils import format_datetime

import pytest
from fake_llm import (
    MODEL,
    FakeLLMServer,
    Reply,
    Request,
    answer,
    dropped,
    error,
    malformed_body,
    rate_limited,
    rejects_response_format,
    server_error,
    slow,
)
from hypothesis import given
from hypothesis import strategies as st

from pytest_logicenv.errors import AnswerError, LLMError
from pytest_logicenv.llm.answers import parse_json_answer
from pytest_logicenv.llm.client import OpenAILLM, llm_from_env, retry_after_seconds
from pytest_logicenv.llm.config import LLMConfig
from pytest_logicenv.llm.exchange import (
    LLMRequestError,
    Message,
    exchange_from_json,
    exchange_to_json,
)

KEY = "sk-test-0123456789abcdef"
HELLO = [Message("system", "Answer in JSON."), Message("user", "Say hello.")]


def client(
    server: FakeLLMServer, waits: list[float] | None = None, **overrides: object
) -> OpenAILLM:
    settings: dict[str, object] = {"api_key": KEY, "backoff_s": 0.001, "timeout_s": 5.0}
    settings.update(overrides)
    config = LLMConfig(server.base_url, MODEL, **settings)  # type: ignore[arg-type]
    return OpenAILLM(config, sleep=(waits.append if waits is not None else lambda s: None))


# --------------------------------------------------------------------------- configuration


def test_no_endpoint_in_the_environment_means_no_llm() -> None:
    assert LLMConfig.from_env({"OPENAI_API_KEY": KEY}) is None  # a key alone does not opt in
    assert llm_from_env({}) is None


def test_environment_names_the_endpoint_model_and_key() -> None:
    config = LLMConfig.from_env(
        {
            "OPENAI_BASE_URL": "http://127.0.0.1:9/v1/",
            "LOGICENV_LLM_MODEL": "qwen2.5",
            "OPENAI_API_KEY": KEY,
            "LOGICENV_LLM_TIMEOUT_S": "7.5",
            "LOGICENV_LLM_MAX_RETRIES": "0",
        }
    )
    assert config is not None
    assert (config.endpoint, config.model, config.api_key) == (
        "http://127.0.0.1:9/v1",
        "qwen2.5",
        KEY,
    )
    assert (config.timeout_s, config.max_retries) == (7.5, 0)
    assert KEY not in repr(config)
    only_model = LLMConfig.from_env({"LOGICENV_LLM_MODEL": "gpt-4o-mini"})
    assert only_model is not None
    assert only_model.endpoint == "https://api.openai.com/v1"


def test_defaults_fill_what_the_environment_leaves_unset() -> None:
    ini = {"LOGICENV_LLM_BASE_URL": "http://127.0.0.1:8000/v1", "LOGICENV_LLM_MODEL": "ini-model"}
    config = LLMConfig.from_env(
        {"LOGICENV_LLM_MODEL": "env-model", "LOGICENV_LLM_BASE_URL": ""}, ini
    )
    assert config is not None
    assert (config.endpoint, config.model) == ("http://127.0.0.1:8000/v1", "env-model")
    assert LLMConfig.from_env({}, {"LOGICENV_LLM_BASE_URL": ""}) is None


@pytest.mark.parametrize(
    ("environ", "expected"),
    [
        ({"LOGICENV_LLM_BASE_URL": "http://127.0.0.1:9/v1"}, "set LOGICENV_LLM_MODEL"),
        ({"LOGICENV_LLM_MODEL": "m", "LOGICENV_LLM_TIMEOUT_S": "soon"}, "LOGICENV_LLM_TIMEOUT_S"),
        ({"LOGICENV_LLM_BASE_URL": "localhost:8000", "LOGICENV_LLM_MODEL": "m"}, "http://"),
    ],
)
def test_a_half_configured_endpoint_is_an_error_that_says_what_to_set(
    environ: dict[str, str], expected: str
) -> None:
    with pytest.raises(LLMError, match=expected):
        LLMConfig.from_env(environ)


def test_importing_the_llm_path_does_not_import_openai() -> None:
    code = (
        "import sys, pytest_logicenv.llm.client, pytest_logicenv.llm.planner, "
        "pytest_logicenv.cli.plan; "
        "print('openai' in sys.modules)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "False", result.stderr


# --------------------------------------------------------------------------- exchanges


def test_an_exchange_records_request_parameters_answer_and_timing_but_not_the_key(
    fake_llm: FakeLLMServer,
) -> None:
    fake_llm.push(answer({"hello": "world"}, model="fake-model-2024"))
    exchange = client(fake_llm, seed=7).complete(HELLO, purpose="demo")

    assert exchange.response == '{"hello": "world"}'
    assert (exchange.model, exchange.response_model) == (MODEL, "fake-model-2024")
    assert exchange.messages == tuple(HELLO)
    assert exchange.parameters == {
        "temperature": 0.0,
        "seed": 7,
        "response_format": {"type": "json_object"},
    }
    assert exchange.finish_reason == "stop"
    assert exchange.usage["total_tokens"] == 15
    assert [a.outcome for a in exchange.attempts] == ["ok"]
    assert exchange.elapsed_s > 0
    assert exchange.started_at.endswith("+00:00")
    # What the server saw: the same request, with the key sent as a bearer token.
    (request,) = fake_llm.requests
    assert request.body["messages"] == [m.to_json() for m in HELLO]
    assert request.body["temperature"] == 0
    assert request.body["seed"] == 7
    assert request.header("Authorization") == f"Bearer {KEY}"
    # ... and what is recorded: never the key.
    document = exchange_to_json(exchange)
    assert KEY not in json.dumps(document)
    assert exchange_from_json(json.loads(json.dumps(document))) == exchange
    assert document["key"] == exchange.key
    assert len(exchange.key) == 16


def test_a_corrupt_exchange_document_is_a_clear_error() -> None:
    with pytest.raises(LLMError, match=r"llm/x\.json: not a recorded LLM exchange"):
        exchange_from_json({"format": "logicenv-llm-exchange/1"}, "llm/x.json")


# --------------------------------------------------------------------------- faults


def test_a_timeout_is_retried_and_the_retry_answers(fake_llm: FakeLLMServer) -> None:
    fake_llm.push(slow(answer("{}"), 2.0), answer('{"late": false}'))
    exchange = client(fake_llm, timeout_s=0.3, max_retries=1).complete(HELLO, purpose="t")
    assert exchange.response == '{"late": false}'
    assert [a.outcome for a in exchange.attempts] == ["timeout", "ok"]


def test_timeouts_on_every_attempt_end_in_an_error_naming_endpoint_model_and_fix(
    fake_llm: FakeLLMServer,
) -> None:
    fake_llm.respond_with(lambda request: slow(answer("{}"), 2.0))
    with pytest.raises(LLMRequestError) as caught:
        client(fake_llm, timeout_s=0.3, max_retries=1).complete(HELLO, purpose="plan.tree")
    message = str(caught.value)
    assert f"model {MODEL!r} at {fake_llm.base_url}, 2 attempts" in message
    assert "(plan.tree)" in message
    assert "did not answer within 0.3 s; raise LOGICENV_LLM_TIMEOUT_S" in message
    assert [a.outcome for a in caught.value.attempts] == ["timeout", "timeout"]
    assert len(fake_llm.requests) == 2


def test_a_429_waits_as_long_as_retry_after_says(fake_llm: FakeLLMServer) -> None:
    fake_llm.push(rate_limited("2"), answer("{}"))
    waits: list[float] = []
    exchange = client(fake_llm, waits).complete(HELLO, purpose="t")
    assert waits == [2.0]
    assert [(a.outcome, a.waited_s) for a in exchange.attempts] == [("http 429", 2.0), ("ok", 0)]


def test_a_retry_after_date_is_honoured(fake_llm: FakeLLMServer) -> None:
    when = datetime.now(timezone.utc) + timedelta(seconds=30)
    fake_llm.push(rate_limited(format_datetime(when, usegmt=True)), answer("{}"))
    waits: list[float] = []
    client(fake_llm, waits).complete(HELLO, purpose="t")
    (wait,) = waits
    assert 25 <= wait <= 30


def test_an_unreasonable_retry_after_fails_at_once_instead_of_waiting(
    fake_llm: FakeLLMServer,
) -> None:
    fake_llm.push(rate_limited("600"), answer("{}"))
    waits: list[float] = []
    with pytest.raises(LLMError, match="asks to wait 600 s, more than 60 s; try again later"):
        client(fake_llm, waits).complete(HELLO, purpose="t")
    assert waits == []
    assert len(fake_llm.requests) == 1


def test_server_errors_back_off_and_recover(fake_llm: FakeLLMServer) -> None:
    fake_llm.push(server_error(), server_error(), answer("{}"))
    waits: list[float] = []
    exchange = client(fake_llm, waits, backoff_s=0.5, max_retries=2).complete(HELLO, purpose="t")
    assert waits == [0.5, 1.0]  # doubling from backoff_s
    assert [a.outcome for a in exchange.attempts] == ["http 500", "http 500", "ok"]


def test_retries_are_bounded(fake_llm: FakeLLMServer) -> None:
    fake_llm.respond_with(lambda request: server_error())
    with pytest.raises(LLMError, match="the server failed on every attempt"):
        client(fake_llm, max_retries=3).complete(HELLO, purpose="t")
    assert len(fake_llm.requests) == 4


def test_a_malformed_body_is_retried(fake_llm: FakeLLMServer) -> None:
    fake_llm.push(malformed_body(), answer('{"ok": true}'))
    exchange = client(fake_llm).complete(HELLO, purpose="t")
    assert exchange.response == '{"ok": true}'
    assert exchange.attempts[0].outcome == "bad body"
    assert "JSONDecodeError" in exchange.attempts[0].detail


def test_a_server_that_does_not_speak_chat_completions_is_named(
    fake_llm: FakeLLMServer,
) -> None:
    fake_llm.respond_with(
        lambda request: Reply(200, "<html>hello</html>", content_type="text/html")
    )
    with pytest.raises(LLMError, match="not chat completions; is this an OpenAI-compatible"):
        client(fake_llm, max_retries=1).complete(HELLO, purpose="t")


def test_a_dropped_connection_is_retried(fake_llm: FakeLLMServer) -> None:
    fake_llm.push(dropped(), answer("{}"))
    exchange = client(fake_llm).complete(HELLO, purpose="t")
    assert [a.outcome for a in exchange.attempts] == ["connection", "ok"]


def test_no_server_at_the_address_is_an_error_that_says_how_to_configure_one() -> None:
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = LLMConfig(f"http://127.0.0.1:{port}/v1", "llama3", max_retries=1, backoff_s=0.001)
    with pytest.raises(LLMError) as caught:
        OpenAILLM(config, sleep=lambda s: None).complete(HELLO, purpose="t")
    message = str(caught.value)
    assert f"model 'llama3' at http://127.0.0.1:{port}/v1, 2 attempts" in message
    assert "the connection failed" in message
    assert "set LOGICENV_LLM_BASE_URL" in message


def test_json_mode_is_dropped_when_the_server_rejects_it_and_not_sent_again(
    fake_llm: FakeLLMServer,
) -> None:
    fake_llm.respond_with(rejects_response_format(lambda request: answer('{"ok": 1}')))
    llm = client(fake_llm, max_retries=0)  # falling back is not a retry
    first = llm.complete(HELLO, purpose="t")
    second = llm.complete(HELLO, purpose="t")
    assert [a.outcome for a in first.attempts] == ["http 400", "ok"]
    assert "response_format" not in first.parameters
    assert [a.outcome for a in second.attempts] == ["ok"]
    assert ["response_format" in r.body for r in fake_llm.requests] == [True, False, False]


def test_a_seed_the_server_rejects_is_dropped(fake_llm: FakeLLMServer) -> None:
    fake_llm.push(error(400, "Unknown parameter: 'seed'."), answer("{}"))
    exchange = client(fake_llm, json_mode=False).complete(HELLO, purpose="t")
    assert exchange.parameters == {"temperature": 0.0}
    assert "seed" not in fake_llm.requests[1].body


def test_a_fixed_temperature_model_gets_requests_without_temperature(
    fake_llm: FakeLLMServer,
) -> None:
    fake_llm.push(
        error(400, "Unsupported value: 'temperature' does not support 0 with this model."),
        answer("{}"),
    )
    exchange = client(fake_llm).complete(HELLO, purpose="t")
    assert exchange.parameters == {"seed": 0, "response_format": {"type": "json_object"}}


def test_a_bad_request_without_optional_parameters_is_not_retried(
    fake_llm: FakeLLMServer,
) -> None:
    fake_llm.respond_with(lambda request: error(400, "messages: too long"))
    with pytest.raises(LLMError, match="rejected the request as malformed") as caught:
        client(fake_llm, json_mode=False, seed=None).complete(HELLO, purpose="t")
    assert "HTTP 400: messages: too long" in str(caught.value)
    assert len(fake_llm.requests) == 1


def test_a_refused_key_is_reported_without_echoing_it(fake_llm: FakeLLMServer) -> None:
    def echo_key(request: Request) -> Reply:
        return error(401, f"Incorrect API key provided: {request.header('authorization')}")

    fake_llm.respond_with(echo_key)
    with pytest.raises(LLMError) as caught:
        client(fake_llm).complete(HELLO, purpose="t")
    message = str(caught.value)
    assert "set LOGICENV_LLM_API_KEY" in message
    assert "Incorrect API key provided: Bearer ***" in message
    assert KEY not in message
    assert len(fake_llm.requests) == 1


def test_an_unknown_model_points_at_the_model_and_base_url(fake_llm: FakeLLMServer) -> None:
    fake_llm.push(error(404, "The model `fake-model` does not exist"))
    with pytest.raises(LLMError, match="check LOGICENV_LLM_MODEL, and that LOGICENV_LLM_BASE_URL"):
        client(fake_llm).complete(HELLO, purpose="t")


def test_the_plain_chat_completions_path_is_used(fake_llm: FakeLLMServer) -> None:
    fake_llm.push(answer("{}"))
    client(fake_llm).complete(HELLO, purpose="t")
    assert fake_llm.requests[0].path == "/v1/chat/completions"


# --------------------------------------------------------------------------- reading answers


def test_retry_after_forms() -> None:
    assert retry_after_seconds({"Retry-After": "1.5"}) == 1.5
    assert retry_after_seconds({"retry-after-ms": "20", "retry-after": "9"}) == 0.02
    assert retry_after_seconds({"retry-after": "soon"}) is None
    assert retry_after_seconds({}) is None


json_objects = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=12,
).map(lambda value: {"value": value})


@given(
    document=json_objects,
    before=st.sampled_from(["", "Here is the plan:\n", "<think>{not json}</think>\n"]),
    fence=st.sampled_from([("", ""), ("```json\n", "\n```"), ("```\n", "\n```")]),
    after=st.sampled_from(["", "\nLet me know if you need more.", "\n{"]),
)
def test_an_answer_wrapped_in_prose_and_fences_reads_back(
    document: dict[str, object], before: str, fence: tuple[str, str], after: str
) -> None:
    text = before + fence[0] + json.dumps(document, indent=1) + fence[1] + after
    assert parse_json_answer(text) == document


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "the answer is empty"),
        ("I cannot help with that.", "holds no JSON object"),
        ('{"subtasks": [{"name": "a"', "ends before it is complete (cut off?)"),
        ('{"a": 1,}', "not valid JSON: Expecting property name"),
        ("__import__('os').system('echo no')", "holds no JSON object"),
    ],
)
def test_answers_that_are_not_a_json_object_say_why(text: str, reason: str) -> None:
    with pytest.raises(AnswerError, match=re.escape(reason)):
        parse_json_answer(text)
