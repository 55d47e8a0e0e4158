"""A user's own object types: a type file that the plugin and every ``logicenv`` command read.

Name it with the ini option ``logicenv_types`` (or ``--logicenv-types``; ``logicenv ...
--types``). It is JSON, or TOML on Python 3.11+ (``tomllib``)::

    [types.Trophy]                      # {"types": {"Trophy": {...}}} in JSON
    properties = ["pickupable", "breakable"]   # exactly one of pickupable/moveable/static
    size = [0.2, 0.35, 0.2]             # metres: x (width), y (height), z (depth)
    rooms = ["LivingRoom", "Study"]     # where it usually is
    stand_in = "Statue"                 # the AI2-THOR type whose asset exports it
    parents = {ShelvingUnit = 1.0}      # what it usually rests on, with a weight
    attrs = {metal = ["gold", "silver"]}   # attribute values a plan may use
    states = {}                         # states it starts in (e.g. {dirty = true})
    on_floor = false                    # stands on the floor (default true)
    on_wall = false                     # hangs on a wall
    container = false                   # things go in it, not on it
    placement = ["edge"]                # corner, edge, middle (where on the floor)
    parts = {Drawer = 2}                # what it is made of
    synonyms = ["cup", "award"]         # everyday words for it
    description = "a sports trophy"

    [synonyms]                          # more words for any type
    "bedside cabinet" = "SideTable"

Every problem is reported at once, each with its line, the type and key it is about, and the
fix (:class:`~pytest_logicenv.errors.TypeFileError`).

>>> import tempfile
>>> from pytest_logicenv.scenes.catalog.loading import default_catalog
>>> folder = Path(tempfile.mkdtemp())
>>> path = folder / "types.json"
>>> _ = path.write_text('{"types": {"Trophy": {"properties": ["pickupable"], '
...                     '"size": [0.2, 0.3, 0.2], "stand_in": "Statue"}}}')
>>> load_catalog(path).type("Trophy").custom
True
>>> _ = path.write_text('{"types": {"Trophy": {\\n"properties": ["pickable"],\\n'
...                     '"size": [0.2, 0.3, 0.2]}}}')
>>> load_catalog(path)
Traceback (most recent call last):
...
pytest_logicenv.errors.TypeFileError: ...types.json: 1 problem
  [types] line 2 (Trophy.properties): unknown property 'pickable'; did you mean 'pickupable'?
"""

from __future__ import annotations

import difflib
import hashlib
import json
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from pytest_logicenv.bounded import Limits, check_shape, read_text_file
from pytest_logicenv.errors import SceneError, TypeFileError, Violation
from pytest_logicenv.scenes.catalog.custom import CustomSpec
from pytest_logicenv.scenes.catalog.extensions import EXTENSION_KEYS, TypeExtension
from pytest_logicenv.scenes.catalog.loading import default_catalog, extend_catalog
from pytest_logicenv.scenes.catalog.parts import PartSpec, part_problems
from pytest_logicenv.scenes.catalog.properties import PRIMARY_PROPERTIES, STATE_PROPERTY
from pytest_logicenv.scenes.catalog.type_model import Catalog
from pytest_logicenv.scenes.design.templates import room_type
from pytest_logicenv.scenes.scene_model import PROPERTIES
from pytest_logicenv.vocabulary import a_or_an, phrase_key, words_of

#: The ini option (and, as ``--logicenv-types``, the pytest option) naming the type file.
TYPES_INI = "logicenv_types"
#: The keys a type may have, and the largest extent (metres) a type may be.
TYPE_KEYS: tuple[str, ...] = (
    "properties",
    "size",
    "rooms",
    "stand_in",
    "parents",
    "attrs",
    "states",
    "on_floor",
    "on_wall",
    "container",
    "placement",
    "parts",
    "synonyms",
    "description",
)
MAX_EXTENT = 6.0
MAX_PARTS = 8
#: Most types one file defines, and the longest name (a type name is one word).
MAX_TYPES = 1000
MAX_NAME_CHARS = 64
#: What a type file may hold: a type is an object of short lists (five levels deep with
#: ``{"types": {"T": {"attrs": {"k": ["v"]}}}}``).
TYPE_FILE_LIMITS = Limits(kind="a type file", chars=2_000_000, depth=8, items=200_000, string=2_000)
SPOTS = ("corner", "edge", "middle")


@dataclass(frozen=True)
class TypeFile:
    """What a type file adds: its types, its synonyms and what it adds to known types."""

    path: Path
    specs: tuple[CustomSpec, ...]
    synonyms: Mapping[str, str] = field(default_factory=dict)
    extensions: tuple[TypeExtension, ...] = ()


def load_catalog(*types_files: Path | str | None) -> Catalog:
    """The default catalog, with the types of each type file given (the run's, then a
    plan's: a later file may add to an earlier one's types), read again when one changes."""
    files = tuple(dict.fromkeys(_stamp(Path(f)) for f in types_files if f is not None and str(f)))
    return _extended(files) if files else default_catalog()


def _stamp(path: Path) -> tuple[str, int, int]:
    try:
        stat = path.stat()
    except OSError:
        missing = "no such type file; check the path in logicenv_types (or the plan's types)"
        raise TypeFileError(str(path), [Violation("types", "file", missing)]) from None
    return str(path.resolve()), stat.st_mtime_ns, stat.st_size


@lru_cache(maxsize=8)
def _extended(files: tuple[tuple[str, int, int], ...]) -> Catalog:
    catalog = default_catalog()
    for path, _mtime, _size in files:
        types = read_type_file(Path(path), catalog)
        catalog = extend_catalog(catalog, types.specs, types.synonyms, types.extensions)
    return catalog


def type_digests(*types_files: Path | str | None) -> tuple[tuple[str, str], ...]:
    """Each type the files define or add to, with a short digest of its definitions (none
    without a file, or for one that cannot be read: :func:`load_catalog` says what is
    wrong). A cache entry records the digests of the types its plan uses, so that editing
    one type, or adding another, changes only the entries that use it (``pipeline.cached``)."""
    found: dict[str, list[str]] = {}
    for types_file in types_files:
        for name, digest in _file_digests(types_file):
            found.setdefault(name, []).append(digest)
    return tuple(sorted((name, "+".join(digests)) for name, digests in found.items()))


def _file_digests(types_file: Path | str | None) -> tuple[tuple[str, str], ...]:
    if types_file is None or str(types_file) == "":
        return ()
    try:
        _, data = _parse(Path(types_file))
    except TypeFileError:
        return ()
    types = data.get("types") if isinstance(data, Mapping) else None
    if not isinstance(types, Mapping):
        return ()
    return tuple(sorted((str(name), _digest(spec)) for name, spec in types.items()))


def _digest(spec: Any) -> str:
    text = json.dumps(spec, sort_keys=True, default=str, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def read_type_file(path: Path, base: Catalog) -> TypeFile:
    """Read and check a type file against ``base``; a :class:`TypeFileError` lists every
    problem."""
    text, data = _parse(path)
    reader = _Reader(path, text, base)
    specs, synonyms = reader.document(data)
    if reader.problems:  # in the file's order
        problems = sorted(reader.problems, key=lambda v: int(v.location.split()[1]))
        raise TypeFileError(str(path), problems)
    return TypeFile(path, specs, synonyms, tuple(reader.extensions))


# --------------------------------------------------------------------------- parsing


def _parse(path: Path) -> tuple[str, Any]:
    def fail(reason: str) -> TypeFileError:
        return _file_problem(path, reason.removeprefix(f"{path}: "))

    try:
        text = read_text_file(path, fail, TYPE_FILE_LIMITS)
    except FileNotFoundError as error:
        raise fail(f"cannot read it ({error.strerror})") from None
    if path.suffix == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise _syntax(path, error.lineno, f"not valid JSON: {error.msg}") from None
        except RecursionError:
            data = _too_deep()
    elif path.suffix == ".toml":
        data = _parse_toml(path, text)
    else:
        raise fail("a type file is JSON (.json) or TOML (.toml); rename it")
    return text, check_shape(data, str(path), fail, TYPE_FILE_LIMITS)


def _too_deep() -> Any:
    """What stands for data nested past Python's stack: deeper than any limit."""
    data: Any = []
    for _ in range(TYPE_FILE_LIMITS.depth + 1):
        data = [data]
    return data


def _file_problem(path: Path, message: str) -> TypeFileError:
    return TypeFileError(str(path), [Violation("types", "file", message)])


def _parse_toml(path: Path, text: str) -> Any:
    if sys.version_info < (3, 11):
        raise _file_problem(
            path,
            "TOML type files need Python 3.11 or later (tomllib); write the same "
            'content as JSON ({"types": {"Name": {...}}}) in a .json file',
        )
    import tomllib

    try:
        return tomllib.loads(text)
    except RecursionError:
        return _too_deep()
    except tomllib.TOMLDecodeError as error:
        found = re.search(r"line (\d+)", str(error))
        line = int(found.group(1)) if found else 1
        raise _syntax(path, line, f"not valid TOML: {error}") from None


def _syntax(path: Path, line: int, message: str) -> TypeFileError:
    return TypeFileError(str(path), [Violation("types", f"line {line}", message)])


# --------------------------------------------------------------------------- checking


class _Reader:
    """Checks a parsed type file key by key, collecting every problem with its line."""

    def __init__(self, path: Path, text: str, base: Catalog) -> None:
        self.path = path
        self.lines = text.splitlines()
        self.base = base
        self.problems: list[Violation] = []
        self.names: set[str] = set()
        self.extensions: list[TypeExtension] = []

    def problem(self, type_name: str, key: str, message: str) -> None:
        where = f"{type_name}.{key}" if key else type_name
        line = _locate(self.lines, type_name, key)
        self.problems.append(Violation("types", f"line {line} ({where})", message))

    def document(self, data: Any) -> tuple[tuple[CustomSpec, ...], dict[str, str]]:
        if not isinstance(data, Mapping):
            self.problem("", "", 'the file must hold an object: {"types": {"Name": {...}}}')
            return (), {}
        for key in set(data) - {"types", "synonyms"}:
            self.problem(
                key, "", f"unknown section {key!r}; a type file has 'types' and 'synonyms'"
            )
        types = data.get("types", {})
        if not isinstance(types, Mapping) or not types:
            self.problem("types", "", "'types' must map type names to their descriptions")
            types = {}
        if len(types) > MAX_TYPES:
            self.problem("types", "", f"more than {MAX_TYPES} types; is this a type file?")
            types = {}
        self.names = {str(name) for name in types}
        specs = tuple(
            spec for name, raw in types.items() if (spec := self.type(str(name), raw)) is not None
        )
        self.part_cycles(specs)
        synonyms = self.synonyms(data.get("synonyms", {}))
        self.own_words(specs, synonyms)
        return specs, synonyms

    def part_cycles(self, specs: Sequence[CustomSpec]) -> None:
        """Parts that lead back to their type, or that bring too many: completing a design
        with them would never end."""
        parts = {**self.base.parts, **{spec.name: spec.parts for spec in specs if spec.parts}}
        mine = {spec.name for spec in specs}
        for name, why in part_problems(parts).items():
            if name in mine:
                self.problem(name, "parts", why)

    def synonyms(self, raw: Any) -> dict[str, str]:
        if not isinstance(raw, Mapping):
            self.problem("synonyms", "", "'synonyms' must map words to type names")
            return {}
        found = {}
        for word, name in raw.items():
            if self.known_type(str(name), "synonyms", "", f"the word {word!r} names"):
                found[str(word).lower()] = str(name)
        return found

    def own_words(self, specs: Sequence[CustomSpec], synonyms: Mapping[str, str]) -> None:
        """A word of the file means one type, and never takes over a word that already
        means another (a type's name, or a built-in synonym: ``"window" = "Trophy"`` would
        make every window a trophy)."""
        taken = {phrase_key(words_of(name)): name for name in self.base.types}
        taken.update({phrase_key(w): t for w, t in self.base.synonyms.items()})
        taken.update({phrase_key(words_of(spec.name)): spec.name for spec in specs})
        claims = [(word, name, "synonyms", "") for word, name in synonyms.items()]
        claims += [(w, spec.name, spec.name, "synonyms") for spec in specs for w in spec.synonyms]
        mine: dict[tuple[str, ...], str] = {}
        for word, name, where, key in claims:
            key_of = phrase_key(word)
            owner = taken.get(key_of) or mine.get(key_of)
            if owner is not None and owner != name:
                builtin = "" if key_of in mine else " (a built-in word)"
                self.problem(
                    where,
                    key,
                    f"the word {word!r} already means {owner}{builtin}; it cannot also mean "
                    f"{name}: pick another word",
                )
            else:
                mine[key_of] = name

    # -- one type ---------------------------------------------------------------------------

    def type(self, name: str, raw: Any) -> CustomSpec | None:
        before = len(self.problems)
        if len(name) > MAX_NAME_CHARS:
            self.problem(
                name[:MAX_NAME_CHARS], "", f"a type name has at most {MAX_NAME_CHARS} letters"
            )
            return None
        if not re.fullmatch(r"[A-Z][A-Za-z0-9]*", name):
            fixed = "".join(w.capitalize() for w in re.findall(r"[A-Za-z0-9]+", name)) or "Name"
            self.problem(name, "", f"a type name is one capitalized word, e.g. {fixed!r}")
        elif self.base.has(name):
            self.extension(name, raw)
            return None
        if not isinstance(raw, Mapping):
            self.problem(name, "", "a type is an object of keys such as properties and size")
            return None
        for key in set(raw) - set(TYPE_KEYS):
            close = difflib.get_close_matches(str(key), TYPE_KEYS, n=1)
            hint = f"did you mean {close[0]!r}?" if close else f"keys: {', '.join(TYPE_KEYS)}"
            self.problem(name, str(key), f"unknown key {key!r}; {hint}")
        properties = self.properties(name, raw.get("properties"))
        spec = CustomSpec(
            name=name,
            properties=properties,
            rooms=self.rooms(name, raw.get("rooms", [])),
            size=self.size(name, raw.get("size")),
            stand_in=self.stand_in(name, raw.get("stand_in")),
            attrs=self.attrs(name, raw.get("attrs", {})),
            states=self.states(name, raw.get("states", {}), properties),
            parents=self.parents(name, raw.get("parents", {})),
            on_floor=self.flag(name, raw, "on_floor", not raw.get("on_wall", False)),
            on_wall=self.flag(name, raw, "on_wall", False),
            container=self.flag(name, raw, "container", False),
            placement=self.placement(name, raw.get("placement", [])),
            parts=self.parts(name, raw.get("parts", {})),
            synonyms=tuple(str(w).lower() for w in self.strings(name, "synonyms", raw)),
            description=str(raw.get("description", "")),
        )
        return spec if len(self.problems) == before else None

    def extension(self, name: str, raw: Any) -> None:
        """An entry named after a known type: what it adds to that type."""
        before = len(self.problems)
        whose = "ours" if self.base.type(name).custom else "AI2-THOR's"
        if not isinstance(raw, Mapping):
            self.problem(name, "", f"{name} is {whose}; add to it with keys such as properties")
            return
        for key in set(raw) - set(EXTENSION_KEYS):
            self.problem(
                name,
                str(key),
                f"{name} is a type already ({whose}): a type file may add "
                f"{', '.join(EXTENSION_KEYS)} to it, not {key!r}; to change its {key}, define "
                "a type of your own under another name",
            )
        known = self.base.type(name)
        properties = self.added_properties(name, raw.get("properties", []))
        extension = TypeExtension(
            name=name,
            properties=properties,
            states=self.states(name, raw.get("states", {}), (*known.properties, *properties)),
            attrs=self.attrs(name, raw.get("attrs", {})),
            rooms=self.rooms(name, raw.get("rooms", [])),
            parents=self.parents(name, raw.get("parents", {})),
            synonyms=tuple(str(w).lower() for w in self.strings(name, "synonyms", raw)),
            description=str(raw.get("description", "")),
        )
        if len(self.problems) == before:
            self.extensions.append(extension)

    def added_properties(self, name: str, raw: Any) -> tuple[str, ...]:
        if not _string_list(raw):
            self.problem(name, "properties", 'list the properties it adds, e.g. ["toggleable"]')
            return ()
        for prop in raw:
            if prop not in PROPERTIES:
                close = difflib.get_close_matches(prop, PROPERTIES, n=1)
                hint = f"did you mean {close[0]!r}?" if close else "logicenv types lists them"
                self.problem(name, "properties", f"unknown property {prop!r}; {hint}")
        primary = [p for p in raw if p in PRIMARY_PROPERTIES]
        if len(primary) > 1:
            self.problem(
                name,
                "properties",
                f"at most one of {', '.join(PRIMARY_PROPERTIES)} (it replaces how a {name} "
                f"moves); it has {', '.join(primary)}",
            )
        return tuple(dict.fromkeys(raw))

    def properties(self, name: str, raw: Any) -> tuple[str, ...]:
        if not _string_list(raw):
            self.problem(name, "properties", 'list its properties, e.g. ["pickupable"]')
            return ()
        unknown = [prop for prop in raw if prop not in PROPERTIES]
        for prop in unknown:
            close = difflib.get_close_matches(prop, PROPERTIES, n=1)
            hint = (
                f"did you mean {close[0]!r}?" if close else f"properties: {', '.join(PROPERTIES)}"
            )
            self.problem(name, "properties", f"unknown property {prop!r}; {hint}")
        primary = [p for p in raw if p in PRIMARY_PROPERTIES]
        if not unknown and len(primary) != 1:
            self.problem(
                name,
                "properties",
                f"say how it moves with exactly one of {', '.join(PRIMARY_PROPERTIES)} "
                f"(it has {', '.join(primary) or 'none'})",
            )
        return tuple(dict.fromkeys(raw))

    def rooms(self, name: str, raw: Any) -> tuple[str, ...]:
        if not _string_list(raw):
            self.problem(name, "rooms", 'list room types, e.g. ["Kitchen", "Bedroom"]')
            return ()
        rooms = []
        for room in raw:
            try:
                rooms.append(room_type(room))
            except SceneError as error:
                self.problem(name, "rooms", str(error))
        return tuple(rooms)

    def size(self, name: str, raw: Any) -> tuple[float, float, float]:
        ok = (
            isinstance(raw, Sequence)
            and not isinstance(raw, str)
            and len(raw) == 3
            and all(_number(v) and 0 < float(v) <= MAX_EXTENT for v in raw)
        )
        if not ok:
            self.problem(
                name,
                "size",
                f"give its bounding box in metres as [x, y, z], each above 0 and at most "
                f"{MAX_EXTENT:g} (e.g. [0.3, 0.2, 0.3]); got {raw!r}",
            )
            return (0.3, 0.3, 0.3)
        return float(raw[0]), float(raw[1]), float(raw[2])

    def stand_in(self, name: str, raw: Any) -> str | None:
        if raw is None:
            return None
        if not isinstance(raw, str) or not self.base.has(raw):
            close = self.base.suggestions(str(raw))
            hint = f"; did you mean {', '.join(close)}?" if close else ""
            self.problem(name, "stand_in", f"{raw!r} is not an AI2-THOR type{hint}")
            return None
        stand_in = self.base.type(raw)
        if stand_in.custom or not stand_in.exportable:
            exportable = "an AI2-THOR type with assets (e.g. Statue, Box, Cloth)"
            self.problem(name, "stand_in", f"{raw} has no AI2-THOR asset; name {exportable}")
            return None
        return raw

    def attrs(self, name: str, raw: Any) -> dict[str, tuple[str, ...]]:
        if not isinstance(raw, Mapping) or not all(_string_list(v) for v in raw.values()):
            self.problem(name, "attrs", 'map each attribute to its values: {"colour": ["red"]}')
            return {}
        return {str(k): tuple(v) for k, v in raw.items()}

    def states(self, name: str, raw: Any, properties: tuple[str, ...]) -> dict[str, bool]:
        if not isinstance(raw, Mapping):
            self.problem(name, "states", 'map states to true or false: {"dirty": true}')
            return {}
        states = {}
        for state, flag in raw.items():
            needed = STATE_PROPERTY.get(str(state))
            if needed is None:
                self.problem(
                    name, "states", f"unknown state {state!r}; states: {', '.join(STATE_PROPERTY)}"
                )
            elif not isinstance(flag, bool):
                self.problem(name, "states", f"state {state!r} is true or false, not {flag!r}")
            elif needed not in properties:
                self.problem(
                    name,
                    "states",
                    f"{a_or_an(name)} cannot be {state}: add {needed!r} to its properties, or drop "
                    "the state",
                )
            else:
                states[str(state)] = flag
        return states

    def parents(self, name: str, raw: Any) -> dict[str, float]:
        if not isinstance(raw, Mapping):
            self.problem(name, "parents", 'map the types it rests on to a weight: {"Desk": 1.0}')
            return {}
        parents = {}
        for parent, weight in raw.items():
            if not self.known_type(str(parent), name, "parents", "it rests on"):
                continue
            if not _number(weight) or not 0 < float(weight) <= 1:
                self.problem(name, "parents", f"the weight of {parent} is above 0, at most 1")
                continue
            parents[str(parent)] = float(weight)
        return parents

    def flag(self, name: str, raw: Mapping[str, Any], key: str, default: bool) -> bool:
        value = raw.get(key, default)
        if not isinstance(value, bool):
            self.problem(name, key, f"{key} is true or false, not {value!r}")
            return default
        return value

    def placement(self, name: str, raw: Any) -> tuple[str, ...]:
        if not _string_list(raw) or any(spot not in SPOTS for spot in raw):
            self.problem(name, "placement", f"list where it stands among {', '.join(SPOTS)}")
            return ()
        return tuple(raw)

    def parts(self, name: str, raw: Any) -> tuple[PartSpec, ...]:
        if not isinstance(raw, Mapping):
            self.problem(name, "parts", 'map part types to how many: {"Drawer": 2}')
            return ()
        parts = []
        for part, count in raw.items():
            if not self.known_type(str(part), name, "parts", "its part"):
                continue
            if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= MAX_PARTS:
                self.problem(name, "parts", f"{part}: a count from 1 to {MAX_PARTS}, not {count!r}")
                continue
            parts.append(PartSpec(str(part), count))
        return tuple(parts)

    def strings(self, name: str, key: str, raw: Mapping[str, Any]) -> list[str]:
        value = raw.get(key, [])
        if not _string_list(value):
            self.problem(name, key, f"{key} is a list of words")
            return []
        return list(value)

    def known_type(self, ref: str, name: str, key: str, role: str) -> bool:
        if self.base.has(ref) or ref in self.names:
            return True
        close = self.base.suggestions(ref)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        self.problem(name, key, f"{role} {ref!r}, which is no type{hint}")
        return False


def _string_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _locate(lines: Sequence[str], type_name: str, key: str) -> int:
    """The 1-based line a problem is about: the key inside the type's entry, else the type,
    else the first line (JSON and TOML keep no positions, so this searches the text)."""
    quoted = re.escape(type_name)
    starts = (
        rf'^\s*\[\s*types\.\s*"?{quoted}"?\s*\]',  # TOML [types.Name]
        rf"^\s*\[\s*{quoted}\s*\]",  # TOML [synonyms]
        rf'"{quoted}"\s*:',  # JSON "Name":
        rf"^\s*{quoted}\s*=",  # TOML inline Name = {...}
    )
    start = next(
        (i for i, line in enumerate(lines) if any(re.search(p, line) for p in starts)), None
    )
    if start is None:
        return 1
    if key:
        key_pattern = (
            rf'("{re.escape(key)}"\s*:|^\s*{re.escape(key)}\s*=|[{{,]\s*{re.escape(key)}\s*=)'
        )
        for i in range(start, len(lines)):
            if i > start and re.search(r"^\s*\[", lines[i]):  # the next TOML table
                break
            if re.search(key_pattern, lines[i]):
                return i + 1
    return start + 1
