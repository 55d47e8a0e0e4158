"""Rule-guided iterative refinement (paper 4.2): a chat in steps, each answered with one JSON
object that rules check; violations go back to the model, which answers again, bounded. What
a later stage finds (a scene without a witness) goes back the same way, as a step of its own
whose prompt is the feedback (:meth:`Conversation.resume`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from pytest_logicenv.errors import AnswerError, LLMError, Rejected, Violation
from pytest_logicenv.llm.answers import parse_json_answer
from pytest_logicenv.llm.exchange import Exchange, Message
from pytest_logicenv.llm.protocol import LLM

T = TypeVar("T")


#: Makes the error of a step still wrong after the last round from ``(what, violations of
#: the last answer, every exchange so far)``.
Failure = Callable[[str, Sequence[Violation], tuple[Exchange, ...]], LLMError]


class Conversation:
    """A chat in steps, each answered with one JSON object (the planner's three, the scene
    designer's one): rule-guided iterative refinement. ``read`` turns an answer into a value
    or raises :class:`Rejected`; the violations go back to the model, which answers again, up
    to ``max_rounds`` answers per step; then ``fail`` makes the error. A step's accepted answer
    stays in the history; a rejected one only until the model's next answer, so the context
    does not grow with each round.

    >>> from pytest_logicenv.llm.protocol import CallableLLM
    >>> answers = iter(['{"n": -1}', '{"n": 2}'])
    >>> talk = Conversation(CallableLLM(lambda m: next(answers), model="m"), "Count.", 3,
    ...                     lambda what, violations, exchanges: LLMError(what))
    >>> def positive(data):
    ...     if data["n"] < 1:
    ...         raise Rejected([Violation("range", "n", "must be positive")])
    ...     return data["n"]
    >>> talk.step("count", "How many?", positive), len(talk.rejected), len(talk.exchanges)
    (2, 1, 2)
    """

    def __init__(self, llm: LLM, system: str, max_rounds: int, fail: Failure) -> None:
        self.llm = llm
        self.history: list[Message] = [Message("system", system)]
        self.max_rounds = max_rounds
        self.fail = fail
        self.exchanges: list[Exchange] = []
        self.rejected: list[tuple[Violation, ...]] = []  # of the current step

    def step(self, purpose: str, prompt: str, read: Callable[[dict[str, Any]], T]) -> T:
        self.rejected = []
        asked = [Message("user", prompt)]
        for round_number in range(1, self.max_rounds + 1):
            label = purpose if round_number == 1 else f"{purpose}#{round_number}"
            exchange = self.llm.complete([*self.history, *asked], purpose=label)
            self.exchanges.append(exchange)
            try:
                value = read(parse_json_answer(exchange.response))
            except AnswerError as error:
                violations: tuple[Violation, ...] = (Violation("syntax", "answer", error.reason),)
            except Rejected as rejection:
                violations = rejection.violations
            else:
                self.history += [asked[0], Message("assistant", exchange.response)]
                return value
            self.rejected.append(violations)
            asked = [
                asked[0],
                Message("assistant", exchange.response),
                Message("user", feedback(violations, truncated=exchange.truncated)),
            ]
        raise self.fail(
            f"{purpose}: the answer of model {self.llm.model!r} after {self.max_rounds} "
            f"round{'s' if self.max_rounds != 1 else ''}",
            self.rejected[-1],
            tuple(self.exchanges),
        )

    def resume(
        self,
        purpose: str,
        violations: Sequence[Violation],
        read: Callable[[dict[str, Any]], T],
        *,
        heading: str,
    ) -> T:
        """Send what a later stage found in an accepted answer (``violations``, after
        ``heading``) back to the model, in the same conversation: a step whose prompt is that
        feedback, refined as every step is."""
        return self.step(purpose, feedback(violations, heading=heading), read)


def feedback(
    violations: Sequence[Violation], *, truncated: bool = False, heading: str = "Your answer"
) -> str:
    """The message that sends rule violations back to the model; ``heading`` says whose
    problems they are (a later stage's: "The scenes built from your plan").

    >>> print(feedback([Violation("grounding", "subtasks[0](toy).tree", "add a branch")]))
    Your answer has 1 problem:
    - [grounding] subtasks[0](toy).tree: add a branch
    Correct every problem and answer again with the complete JSON object only.
    """
    count = len(violations)
    lines = [f"{heading} has {count} problem{'s' if count != 1 else ''}:"]
    lines += [f"- {violation}" for violation in violations]
    if truncated:
        lines.append(
            "Your answer was cut off at the server's length limit: be more concise (short "
            "texts, no keys beyond the format)."
        )
    lines.append("Correct every problem and answer again with the complete JSON object only.")
    return "\n".join(lines)
