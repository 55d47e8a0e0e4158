"""A scripted OpenAI-compatible HTTP server on 127.0.0.1, for testing the LLM path end to end.

The real ``openai`` client talks to it over real sockets. Each request to
``POST /v1/chat/completions`` (or ``/chat/completions``) is recorded and answered by the next
reply of the script: a queue of replies, or a function of the request. Replies can be answers
or faults: a delay past the client's timeout, an answer trickled a byte at a time, a 429 with
``Retry-After``, a 500, a malformed body, a dropped connection, a 400 for ``response_format``.

    with FakeLLMServer([answer('{"ok": true}')]) as server:
        OpenAI(base_url=server.base_url, api_key="x").chat.completions.create(...)

``latency_s`` delays every answer by a fixed time, as a model takes time to answer;
``max_in_flight`` is the most requests the server was answering at once (what a bound on the
client's concurrency must keep low, and concurrency must raise).
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MODEL = "fake-model"


@dataclass(frozen=True)
class Request:
    """One request the server received."""

    path: str
    headers: Mapping[str, str]
    body: Any  # the parsed JSON body, or the raw text if it was not JSON

    @property
    def messages(self) -> list[dict[str, str]]:
        return list(self.body.get("messages", [])) if isinstance(self.body, dict) else []

    def header(self, name: str) -> str | None:
        """A request header, whatever the case the client sent it in."""
        return {k.lower(): v for k, v in self.headers.items()}.get(name.lower())


@dataclass(frozen=True)
class Reply:
    """An HTTP response: status, headers, body text; optionally after ``delay_s`` seconds,
    its body sent one byte every ``trickle_s`` seconds, or no response at all (``drop``: the
    connection is closed)."""

    status: int = 200
    body: str = ""
    headers: Mapping[str, str] = field(default_factory=dict)
    content_type: str = "application/json"
    delay_s: float = 0.0
    drop: bool = False
    trickle_s: float = 0.0


def completion(content: str, *, model: str = MODEL, finish_reason: str = "stop") -> dict[str, Any]:
    """An OpenAI-shaped chat completion object."""
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content},
                "finish_reason": finish_reason,
            }
        ],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }


def answer(content: str | Mapping[str, Any], **kwargs: Any) -> Reply:
    """A successful answer; a mapping is sent as its JSON text."""
    text = content if isinstance(content, str) else json.dumps(content)
    return Reply(200, json.dumps(completion(text, **kwargs)))


def error(status: int, message: str, headers: Mapping[str, str] | None = None) -> Reply:
    """An OpenAI-shaped error response."""
    body = {"error": {"message": message, "type": "fake_error", "code": None}}
    return Reply(status, json.dumps(body), dict(headers or {}))


def rate_limited(retry_after: str = "1") -> Reply:
    return error(429, "Rate limit reached", {"Retry-After": retry_after})


def server_error() -> Reply:
    return error(500, "The server had an error while processing your request")


def slow(reply: Reply, seconds: float) -> Reply:
    return Reply(reply.status, reply.body, reply.headers, reply.content_type, seconds)


def trickled(reply: Reply, every_s: float) -> Reply:
    """``reply`` with its body sent a byte at a time, ``every_s`` apart: never silent for long,
    but slow in all (a per-read timeout never fires)."""
    return Reply(reply.status, reply.body, reply.headers, reply.content_type, trickle_s=every_s)


def malformed_body() -> Reply:
    """A 200 whose JSON body is cut off mid-object."""
    return Reply(200, json.dumps(completion("fine"))[:40])


def truncated(content: str) -> Reply:
    """A valid completion whose answer text was cut off at the length limit."""
    return answer(content[: max(1, len(content) // 2)], finish_reason="length")


def dropped() -> Reply:
    return Reply(drop=True)


Responder = Callable[[Request], Reply]


def rejects_response_format(inner: Responder) -> Responder:
    """A server without JSON mode: a 400 for any request carrying ``response_format``,
    as older vLLM and some proxies answer."""

    def respond(request: Request) -> Reply:
        if isinstance(request.body, dict) and "response_format" in request.body:
            return error(400, "Unrecognized request argument supplied: response_format")
        return inner(request)

    return respond


def planner_script(
    decomposition: Mapping[str, Any], factors: Mapping[str, Any], plans: Iterable[Reply]
) -> Responder:
    """Answers for the planner's three steps: the step-1 and step-2 answers whenever those
    steps are asked (again), and the next of ``plans`` for each step-3 request (the first
    answer, then one per round of feedback)."""
    pending = deque(plans)

    def respond(request: Request) -> Reply:
        steps = [m["content"] for m in request.messages if m.get("role") == "user"]
        current = next((s for s in reversed(steps) if s.lstrip().startswith(("Task:", "Step"))), "")
        if current.startswith("Task:"):
            return answer(decomposition)
        if current.startswith("Step 2"):
            return answer(factors)
        if not pending:
            return error(500, "fake LLM server: no plan answer left in the test's script")
        return pending.popleft()

    return respond


class FakeLLMServer:
    """The server; use as a context manager. ``script`` is a queue of replies (``push`` adds
    more) or a function of the request. An exhausted queue answers 500 saying so."""

    def __init__(self, script: Iterable[Reply] | Responder = (), *, latency_s: float = 0.0) -> None:
        self.requests: list[Request] = []
        self.latency_s = latency_s
        self.in_flight = 0
        self.max_in_flight = 0
        self._queue: deque[Reply] = deque()
        self._responder: Responder | None = None
        if callable(script):
            self._responder = script
        else:
            self._queue.extend(script)
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._httpd.daemon_threads = True
        # A short poll interval so that stopping takes milliseconds, not half a second.
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def push(self, *replies: Reply) -> None:
        """Queue replies, answered in order."""
        with self._lock:
            self._queue.extend(replies)

    def respond_with(self, responder: Responder) -> None:
        """Answer every request with ``responder(request)`` from now on."""
        with self._lock:
            self._responder = responder

    def start(self) -> FakeLLMServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()  # wakes delayed replies
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> FakeLLMServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _flight(self, step: int) -> None:
        with self._lock:
            self.in_flight += step
            self.max_in_flight = max(self.max_in_flight, self.in_flight)

    def _next_reply(self, request: Request) -> Reply:
        with self._lock:
            self.requests.append(request)
            if self._responder is not None:
                responder = self._responder
            elif self._queue:
                return self._queue.popleft()
            else:
                return error(500, "fake LLM server: the test's script has no reply left")
        return responder(request)

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length).decode("utf-8", "replace")
                route = self.path.split("?", 1)[0].rstrip("/")
                if route not in ("/v1/chat/completions", "/chat/completions"):
                    self._send(error(404, f"no route {self.path}"))
                    return
                try:
                    body: Any = json.loads(raw)
                except ValueError:
                    body = raw
                request = Request(self.path, dict(self.headers.items()), body)
                server._flight(+1)
                try:
                    reply = server._next_reply(request)
                    wait = reply.delay_s + server.latency_s
                    if wait and server._stopping.wait(wait):
                        return
                    if reply.drop:
                        self.close_connection = True
                        return
                    self._send(reply)
                finally:
                    server._flight(-1)

            def _send(self, reply: Reply) -> None:
                data = reply.body.encode("utf-8")
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", reply.content_type)
                    self.send_header("Content-Length", str(len(data)))
                    for name, value in reply.headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    if not reply.trickle_s:
                        self.wfile.write(data)
                        return
                    for byte in data:
                        self.wfile.write(bytes([byte]))
                        self.wfile.flush()
                        if server._stopping.wait(reply.trickle_s):
                            return
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout): nothing to answer

            def log_message(self, format: str, *args: Any) -> None:
                pass  # keep test output clean

        return Handler
