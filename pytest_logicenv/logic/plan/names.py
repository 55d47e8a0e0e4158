"""Short, readable ids derived from text: subtask names, factor ids and value ids.

The paper's plain form has only questions and answers; test ids need names, so they are
derived here (``"Is there a toy on the floor?"`` -> ``toy``, ``"YES"`` -> ``yes``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# Words that carry no meaning in a question, for deriving short readable names.
_STOPWORDS = frozenset(
    [
        "there",
        "is",
        "are",
        "a",
        "an",
        "the",
        "any",
        "some",
        "does",
        "do",
        "did",
        "has",
        "have",
        "what",
        "which",
        "where",
        "who",
        "how",
        "it",
        "its",
        "this",
        "that",
        "of",
        "to",
        "for",
        "with",
        "be",
        "being",
        "been",
        "currently",
        "still",
        "my",
        "your",
    ]
)
# Words after which a name should stop ("a toy | on the floor", "the window | open").
_STOP_AFTER = frozenset(
    [
        "on",
        "in",
        "at",
        "inside",
        "under",
        "near",
        "by",
        "from",
        "into",
        "onto",
        "off",
        "open",
        "closed",
        "dirty",
        "clean",
        "empty",
        "full",
        "turned",
        "switched",
        "lit",
        "broken",
        "wet",
        "dry",
        "hot",
        "warm",
        "cold",
        "available",
        "present",
    ]
)
# Leading words an answer drops to become a value id ("in the fridge" -> "fridge").
_ANSWER_LEAD = frozenset({"in", "on", "at", "the", "a", "an", "inside", "under"})


def slug(text: str) -> str:
    """``"Other Types!"`` -> ``"other_types"``: lower case, ``[a-z0-9_]`` only."""
    return re.sub(r"_+", "_", re.sub(r"[^a-z0-9]+", "_", text.lower())).strip("_")


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def question_name(question: str, exclude: frozenset[str] = frozenset()) -> str:
    """A short name for a question: its first content words, up to two.

    >>> question_name("There is a wet wipe on the table?")
    'wipe'
    >>> question_name("What is the type of the toy on the floor?", frozenset({"toy"}))
    'type'
    """
    picked = _content_words(question, exclude)
    if not picked:  # only state words left ("Is the towel dirty?"): they are the content
        picked = [w for w in _words(question) if w not in _STOPWORDS and w not in exclude][:1]
    return "_".join(picked) or slug(question)[:24] or "factor"


def _content_words(question: str, exclude: frozenset[str]) -> list[str]:
    """Up to two words after the leading stop words, ending at the next stop word."""
    picked: list[str] = []
    for word in _words(question):
        if word in _STOPWORDS or word in exclude or word in _STOP_AFTER:
            if picked:
                break
            continue
        picked.append(word)
        if len(picked) == 2:
            break
    return picked


def answer_value(answer: str) -> str:
    """A value id for an answer: ``"YES"`` -> ``"yes"``, ``"in the fridge"`` -> ``"fridge"``."""
    words = _words(answer)
    while len(words) > 1 and words[0] in _ANSWER_LEAD:
        words = words[1:]
    return "_".join(words) or "value"


def answer_values(answers: Iterable[str]) -> list[str]:
    """Value ids for a question's answers; slugs of the whole answers when the short ids
    would collide."""
    answers = list(answers)
    values = [answer_value(a) for a in answers]
    if len(set(values)) != len(values):
        values = [slug(a) or f"value_{k}" for k, a in enumerate(answers)]
    return values


def unique(name: str, taken: set[str]) -> str:
    """``name``, or ``name_2``, ``name_3``, ... if taken; the result is marked taken."""
    candidate, n = name, 2
    while candidate in taken:
        candidate, n = f"{name}_{n}", n + 1
    taken.add(candidate)
    return candidate
