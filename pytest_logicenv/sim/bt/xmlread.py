"""Reading a BehaviorTree.CPP XML file into elements with line numbers, as leniently as BT.CPP.

BT.CPP parses with tinyxml2, which accepts what a strict XML parser refuses: a raw ``&&`` or
``<`` inside an attribute value (``_skipIf="a < 3 && b"``), an ``&`` that starts no entity in
text. Such characters are escaped before expat reads the text, without moving any line, so
every error still names the line the user wrote. DOCTYPEs are refused (no entity tricks), and
the input is bounded: file size, attribute length, nesting depth and element count each have a
limit whose error says which and how to fix it; echoed values are truncated.

>>> root = read_xml('<root><BehaviorTree ID="T">\\n<Script code="x := a < 3 && b"/>'
...                 '</BehaviorTree></root>', "t.xml")
>>> script = root.children[0].children[0]
>>> (script.tag, script.attrs["code"], script.line)
('Script', 'x := a < 3 && b', 2)
"""

from __future__ import annotations

import re
import xml.parsers.expat
from collections.abc import Mapping
from dataclasses import dataclass, field

from pytest_logicenv.errors import PolicyError

#: Largest policy file read, in characters.
MAX_FILE_CHARS = 4_000_000
#: Longest attribute value (a script, a fact) accepted.
MAX_ATTRIBUTE_CHARS = 20_000
#: Deepest element nesting accepted.
MAX_DEPTH = 200
#: Most elements one file may hold.
MAX_ELEMENTS = 100_000
#: How much of an offending value an error message repeats.
ECHO_CHARS = 60

# A tag with its attributes (quoted values may hold '<', '>' and '&'), a comment, CDATA or a
# processing instruction: the parts the lenient pass must tell apart.
_MARKUP = re.compile(
    r"<!--.*?-->|<!\[CDATA\[.*?\]\]>|<\?.*?\?>|<(?=[A-Za-z_:/])(?:[^<>\"']|\"[^\"]*\"|'[^']*')*>",
    re.S,
)
_QUOTED = re.compile(r"\"[^\"]*\"|'[^']*'")
# An '&' that starts no entity or character reference.
_BARE_AMP = re.compile(r"&(?!(?:[A-Za-z_][\w.-]*|#[0-9]+|#x[0-9A-Fa-f]+);)")


@dataclass(frozen=True)
class Element:
    """One XML element, with the file and line it starts on."""

    tag: str
    attrs: Mapping[str, str]
    line: int
    source: str
    children: tuple[Element, ...] = field(default=())

    @property
    def where(self) -> str:
        """``file:line``, for messages."""
        return f"{self.source}:{self.line}"


def echo(text: str) -> str:
    """``text`` quoted for a message, cut to :data:`ECHO_CHARS` characters.

    >>> echo("x" * 100)[-20:]
    "xxx... (100 chars)'"
    """
    if len(text) <= ECHO_CHARS:
        return repr(text)
    return repr(f"{text[:ECHO_CHARS]}... ({len(text)} chars)")


def tolerate(text: str) -> str:
    """``text`` with what tinyxml2 accepts and expat refuses escaped, lines unchanged.

    >>> tolerate('<a b="x < 1 && y"/> & more')
    '<a b="x &lt; 1 &amp;&amp; y"/> &amp; more'
    """
    out: list[str] = []
    end = 0
    for match in _MARKUP.finditer(text):
        out.append(_BARE_AMP.sub("&amp;", text[end : match.start()]))
        markup = match.group()
        if markup.startswith("<") and markup[1:2] not in ("!", "?"):
            markup = _QUOTED.sub(_escape_value, markup)
        out.append(markup)
        end = match.end()
    out.append(_BARE_AMP.sub("&amp;", text[end:]))
    return "".join(out)


def _escape_value(match: re.Match[str]) -> str:
    return _BARE_AMP.sub("&amp;", match.group()).replace("<", "&lt;")


def read_xml(text: str, source: str) -> Element:
    """Parse ``text`` (BT.CPP's lenient XML) into its document element; every problem is a
    :class:`PolicyError` naming ``source`` and the line."""
    if len(text) > MAX_FILE_CHARS:
        raise PolicyError(
            f"{source}: the file has more than the {MAX_FILE_CHARS} characters a policy may "
            "have; split it with <include path=...>"
        )
    return _Reader(source).parse(tolerate(text))


class _Reader:
    """One expat pass building :class:`Element` objects (expat gives line numbers)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.parser = xml.parsers.expat.ParserCreate()
        self.stack: list[tuple[str, dict[str, str], int, list[Element]]] = [("", {}, 0, [])]
        self.count = 0
        self.parser.StartElementHandler = self.start
        self.parser.EndElementHandler = self.end
        self.parser.StartDoctypeDeclHandler = self.doctype

    def fail(self, message: str) -> PolicyError:
        return PolicyError(f"{self.source}:{self.parser.CurrentLineNumber}: {message}")

    def start(self, tag: str, attrs: dict[str, str]) -> None:
        self.count += 1
        if self.count > MAX_ELEMENTS:
            raise self.fail(f"more than {MAX_ELEMENTS} elements; split the file with <include>")
        if len(self.stack) > MAX_DEPTH:
            raise self.fail(
                f"<{tag}> is nested more than {MAX_DEPTH} levels deep; move deep branches into "
                "their own <BehaviorTree> and call them with <SubTree ID=...>"
            )
        for name, value in attrs.items():
            if len(value) > MAX_ATTRIBUTE_CHARS:
                raise self.fail(
                    f"<{tag}> attribute {name}={echo(value)} is longer than "
                    f"{MAX_ATTRIBUTE_CHARS} characters; shorten it"
                )
        self.stack.append((tag, attrs, self.parser.CurrentLineNumber, []))

    def end(self, _tag: str) -> None:
        tag, attrs, line, children = self.stack.pop()
        self.stack[-1][3].append(Element(tag, attrs, line, self.source, tuple(children)))

    def doctype(self, *_: object) -> None:
        raise self.fail("DOCTYPE is not allowed in a policy file; remove it")

    def parse(self, text: str) -> Element:
        try:
            self.parser.Parse(text, True)
        except xml.parsers.expat.ExpatError as error:
            raise PolicyError(
                f"{self.source}:{error.lineno}:{error.offset}: malformed XML: "
                f"{xml.parsers.expat.ErrorString(error.code)}"
            ) from None
        except (UnicodeError, ValueError) as error:
            raise PolicyError(f"{self.source}: not readable as XML text ({error})") from None
        return self.stack[0][3][0]
