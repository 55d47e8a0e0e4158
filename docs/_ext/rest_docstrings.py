"""A griffe extension for the API pages: the package's docstrings are reStructuredText-ish
(``:class:`~a.B``` roles, ``>>>`` doctests that pytest runs), the site is Markdown. Roles become
code spans and doctests become Python console blocks, so neither reads as Markdown syntax."""

from __future__ import annotations

import re
from typing import Any

import griffe

#: ``:class:`~pytest_logicenv.x.Y``` -> ``Y``; ``:mod:`.bt``` -> ``.bt``; a role's text kept.
ROLE = re.compile(r":(?:py:)?(?:mod|class|func|meth|data|attr|exc|obj):`~?([^`]+)`")


def _role(match: re.Match[str]) -> str:
    target = match[1]
    short = match[0].split("`")[1].startswith("~")
    return f"`{target.rsplit('.', 1)[-1] if short else target}`"


def markdown(text: str) -> str:
    """``text`` with its roles as code spans and its doctests fenced."""
    out: list[str] = []
    in_doctest = False
    for line in ROLE.sub(_role, text).splitlines():
        starts = line.lstrip().startswith(">>>")
        if starts and not in_doctest:
            out.append("```pycon")
            in_doctest = True
        elif in_doctest and not line.strip():
            out.append("```")
            in_doctest = False
        out.append(line)
    if in_doctest:
        out.append("```")
    return "\n".join(out)


class RestDocstrings(griffe.Extension):
    """Rewrite every docstring as :func:`markdown` does before mkdocstrings renders it."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown(obj.docstring.value)
