"""The words people use for object types: one synonym table, and reading what a word means.

The table is WordNet 3.0's words for each type (``data/wordnet-words.json``, made by
``scenes/catalog/wordnet_words.py``: a sense's synonyms and its kinds) under the reviewed list
:data:`REVIEWED`, which wins where both have a word; WordNet's compounds that start with a
type's words but mean no type ("bed sheet") name nothing (:data:`NO_TYPE`).

The catalog's lexical retrieval (:meth:`~pytest_logicenv.scenes.catalog.Catalog.resolve`),
``logicenv types WORD`` and every did-you-mean (unknown types in plans, in designs, in type
files) read this one table through :class:`Vocabulary`, so "nightstand" means a SideTable
everywhere. It depends on nothing else of the package, so every stage may use it.

>>> SYNONYMS["nightstand"], words_of("CoffeeTable"), singular("boxes")
('SideTable', 'coffee table', 'box')
>>> a_or_an("AlarmClock"), a_or_an("Sofa"), a_or_an("UsbStick"), a_or_an("hour")
('an AlarmClock', 'a Sofa', 'a UsbStick', 'an hour')
>>> vocabulary = Vocabulary(frozenset({"SideTable", "Cup", "Pillow", "Sofa"}))
>>> vocabulary.meaning("a glass of water"), vocabulary.meaning("the sofa pillow")
('Cup', 'Pillow')
>>> vocabulary.suggestions("Nightstand"), vocabulary.suggestions("Sofaa")
(['SideTable'], ['Sofa'])
>>> Vocabulary(frozenset({"GarbageCan", "WateringCan", "Candle", "Pan"})).suggestions("Can")
['GarbageCan', 'WateringCan', 'Pan', 'Candle']
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

#: The words WordNet 3.0 gives the catalog's types (``scenes/catalog/wordnet_words.py`` makes it).
WORDNET_FILE = Path(__file__).resolve().parent / "data" / "wordnet-words.json"

#: Reviewed: words that name a type in everyday speech (lower case) -> type, over WordNet's.
#: Lexical retrieval also matches every type's own name split into words ("coffee table");
#: words are compared in the singular, so "boxes" finds "box".
REVIEWED: Mapping[str, str] = {
    "tea table": "CoffeeTable",
    "coffee table": "CoffeeTable",
    "table": "DiningTable",
    "kitchen table": "DiningTable",
    "couch": "Sofa",
    "settee": "Sofa",
    "armchair": "ArmChair",
    "laundry bin": "LaundryHamper",
    "hamper": "LaundryHamper",
    "bookshelf": "ShelvingUnit",
    "bookcase": "ShelvingUnit",
    "shelves": "ShelvingUnit",
    "shelving": "ShelvingUnit",
    "clock": "AlarmClock",
    "alarm": "AlarmClock",
    "light": "LightSwitch",
    "light switch": "LightSwitch",
    "switch": "LightSwitch",
    "lamp": "FloorLamp",
    "reading lamp": "DeskLamp",
    "tv": "Television",
    "television": "Television",
    "tv stand": "TVStand",
    "trash can": "GarbageCan",
    "bin": "GarbageCan",
    "dustbin": "GarbageCan",
    "waste basket": "GarbageCan",
    "fridge": "Fridge",
    "refrigerator": "Fridge",
    "counter": "CounterTop",
    "worktop": "CounterTop",
    "nightstand": "SideTable",
    "bedside table": "SideTable",
    "end table": "SideTable",
    "cushion": "Pillow",
    "sofa pillow": "Pillow",
    "phone": "CellPhone",
    "mobile": "CellPhone",
    "remote": "RemoteControl",
    "cup of coffee": "Mug",
    "coffee mug": "Mug",
    "glass": "Cup",
    "glass cleaner": "SprayBottle",
    "window cleaner": "SprayBottle",
    "tea kettle": "Kettle",
    "frying pan": "Pan",
    "saucepan": "Pot",
    "plant": "HousePlant",
    "picture": "Painting",
    "towel rack": "TowelHolder",
    "towel rail": "TowelHolder",
    "bath towel": "Towel",
    "toilet roll": "ToiletPaper",
    "soap": "SoapBar",
    "soap dispenser": "SoapBottle",
    "soap pump": "SoapBottle",
    "soap bottle": "SoapRefill",
    "bottle of soap": "SoapRefill",
    "computer": "Laptop",
    "notebook": "Laptop",
    "coffee maker": "CoffeeMachine",
    "washer": "WashingMachine",
    "dryer": "ClothesDryer",
    "rag": "Cloth",
    "sponge": "DishSponge",
    "teddy": "Toy",
    "teddy bear": "TeddyBear",
    "doll": "Toy",
    "toy": "Toy",
    "toy box": "ToyBox",
    "toybox": "ToyBox",
    "toy chest": "ToyBox",
    "wet wipe": "WetWipes",
    "wet wipes": "WetWipes",
    "wipes": "WetWipes",
    "wipe": "WetWipes",
    "mop": "Mop",
    "wet mop": "Mop",
    "stain": "Stain",
    "mark": "Stain",
    "dirty mark": "Stain",
    "spill": "Stain",
    "milk": "Milk",
    "carton of milk": "Milk",
    "shelf": "Shelf",
    "shelf level": "Shelf",
    "drinking glass": "Cup",
    "tumbler": "Cup",
    "wine glass": "Cup",
    "fruit bowl": "Bowl",
    "loaf": "Bread",
    "novel": "Book",
    "essay": "Book",
    # -- parts and fixtures AI2-THOR has
    "cupboard": "Cabinet",
    "kitchen cabinet": "Cabinet",
    "chest of drawer": "Dresser",
    "bedside drawer": "Drawer",
    "basin": "SinkBasin",
    "sink basin": "SinkBasin",
    "washbasin": "Sink",
    "wash basin": "Sink",
    "kitchen sink": "Sink",
    "tap": "Faucet",
    "faucet": "Faucet",
    "burner": "StoveBurner",
    "hotplate": "StoveBurner",
    "hot plate": "StoveBurner",
    "stove knob": "StoveKnob",
    "knob": "StoveKnob",
    "bath": "Bathtub",
    "tub": "Bathtub",
    "plastic tub": "FoodContainer",
    "storage tub": "FoodContainer",
    "tub of": "FoodContainer",
    "bath tub": "Bathtub",
    "curtain": "Curtains",
    "drape": "Curtains",
    "blind": "Blinds",
    "looking glass": "Mirror",
    "shower screen": "ShowerGlass",
    "shower door": "ShowerDoor",
    "television stand": "TVStand",
    "tv cabinet": "TVStand",
    "console table": "SideTable",
    # -- our household types
    "dish washer": "Dishwasher",
    "dishwashing machine": "Dishwasher",
    "cooker": "Stove",
    "hob": "Stove",
    "cooktop": "Stove",
    "stove top": "Stove",
    "oven": "Stove",
    "closet": "Wardrobe",
    "armoire": "Wardrobe",
    "clothes horse": "DryingRack",
    "airer": "DryingRack",
    "clothes rack": "DryingRack",
    "drying rack": "DryingRack",
    "laundry basket": "LaundryBasket",
    "washing basket": "LaundryBasket",
    "clothes basket": "LaundryBasket",
    "t shirt": "Shirt",
    "tshirt": "Shirt",
    "blouse": "Shirt",
    "clothes": "Shirt",
    "clothing": "Shirt",
    "garment": "Shirt",
    "pant": "Trousers",
    "jean": "Trousers",
    "trouser": "Trousers",
    "stocking": "Sock",
    "duvet": "Blanket",
    "quilt": "Blanket",
    "comforter": "Blanket",
    "bedspread": "Blanket",
    "tangerine": "Orange",
    "mandarin": "Orange",
    "cereal box": "Cereal",
    "cornflake": "Cereal",
    "muesli": "Cereal",
    "orange juice": "Juice",
    "jam jar": "Jar",
    "tupperware": "FoodContainer",
    "lunch box": "FoodContainer",
    "lunchbox": "FoodContainer",
    "food box": "FoodContainer",
    "food container": "FoodContainer",
    "wicker basket": "Basket",
    "bread basket": "Basket",
    "serving tray": "Tray",
    "soap refill": "SoapRefill",
    "refill bottle": "SoapRefill",
    "refill": "SoapRefill",
    "laundry detergent": "Detergent",
    "washing powder": "Detergent",
    "washing liquid": "Detergent",
    "washing up liquid": "Detergent",
    "pot plant": "HousePlant",
    "potted plant": "HousePlant",
    "bed cover": "Blanket",
}

#: Names that are no object type, though AI2-THOR's asset database has them, and the fix:
#: a door is an opening in a wall with a state, never a free object (issue 23).
NOT_OBJECT_TYPES: Mapping[str, str] = {
    name: (
        f"{name!r} is not an object: doors are openings in walls; name the door itself, "
        '"Door" (e.g. {"state": "Door", "open": false}, or {"exists": "Door", "as": '
        '"front_door", "attrs": {"kind": "front"}} for the door to the outside)'
    )
    for name in ("Doorway", "Doorframe")
}


def _wordnet_table() -> tuple[dict[str, str], frozenset[str]]:
    data = json.loads(WORDNET_FILE.read_text(encoding="utf-8"))
    words = {str(word): str(found[0]) for word, found in data["words"].items()}
    return words, frozenset(map(str, data["no_type"]))


_WORDNET_WORDS, _WORDNET_NO_TYPE = _wordnet_table()
#: Every word for a type: WordNet's, under the reviewed ones.
SYNONYMS: Mapping[str, str] = {**_WORDNET_WORDS, **REVIEWED}
#: Compounds that start with a type's words and mean no type ("bed sheet" is no Bed).
NO_TYPE: frozenset[str] = _WORDNET_NO_TYPE - frozenset(REVIEWED)


# --------------------------------------------------------------------------- words


def words_of(name: str) -> str:
    """``"CoffeeTable"`` -> ``"coffee table"``; plain text is lower-cased."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", " ", name)
    return re.sub(r"[_\-]+", " ", spaced).lower().strip()


def camel(text: str) -> str:
    return "".join(w.capitalize() for w in re.findall(r"[a-zA-Z0-9]+", text))


# Words whose first letter misleads: a vowel sounded as "y" or "w", a silent "h".
_CONSONANT_SOUND = ("uni", "use", "usu", "usb", "eu", "one", "once")
_VOWEL_SOUND = ("hour", "honest", "honour", "honor", "heir")


def a_or_an(word: str) -> str:
    """``word`` with its indefinite article, as it is said: "an AlarmClock", "a UsbStick"."""
    low = word.lower()
    vowel = low[:1] in ("a", "e", "i", "o", "u") and not low.startswith(_CONSONANT_SOUND)
    return f"{'an' if vowel or low.startswith(_VOWEL_SOUND) else 'a'} {word}"


def _phrase(text: str) -> tuple[str, ...]:
    return tuple(singular(w) for w in text.split())


def phrase_key(text: str) -> tuple[str, ...]:
    """What a phrase reads as when matched (lower case, singular words): two phrases with
    one key are one word to the table (``"Bath Towels"`` and ``"bath towel"``)."""
    return _phrase(" ".join(re.findall(r"[a-z0-9]+", words_of(text))))


def singular(word: str) -> str:
    if len(word) > 3 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ches", "shes", "xes", "sses")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us")):
        return word[:-1]
    return word


# --------------------------------------------------------------------------- meaning

#: Words a person may mean another type by, too: the table's reading comes first, these are
#: named beside it (a prompt shows both, so the model picks the one the task means).
ALSO: Mapping[str, tuple[str, ...]] = {
    "computer": ("Desktop",),
    "soap bottle": ("SoapBottle",),
    "teapot": ("Kettle",),
    # A bare "tub" is a bathtub in a home, but may be a food tub or a bucket; a bare "can" a
    # tin can, or the bin or watering can the sentence is about; a "tissue", the box of them.
    "tub": ("FoodContainer", "Bucket"),
    "can": ("GarbageCan", "WateringCan"),
    "tissue": ("TissueBox",),
    "lamp": ("DeskLamp",),
    "light": ("FloorLamp", "DeskLamp"),
}

#: What some types are where their names mislead (AI2-THOR's SoapBottle is a dispenser).
GLOSSES: Mapping[str, str] = {
    "SoapBottle": "a soap dispenser by a sink",
    "SoapRefill": "a bottle of soap that refills a dispenser",
    "SprayBottle": "a spray bottle, such as glass cleaner",
    "Kettle": "a kettle for boiling water",
    "Cup": "a cup or drinking glass",
    "Desktop": "a desktop computer",
    "Laptop": "a laptop computer",
    "Safe": "a strongbox",
    "LightSwitch": "the switch of a room's ceiling light",
    "Cloth": "a cleaning cloth or rag",
    "Pot": "a cooking pot",
}

#: Words that name a type as nouns and are verbs or adjectives too ("wipe the mirror", "light
#: it", "make the kitchen safe"): read as the type only where a noun stands.
VERB_OR_ADJECTIVE = frozenset(
    {"wipe", "light", "safe", "mark", "spill", "mop", "switch", "plant", "clock", "stain", "refill"}
)
# After a verb comes its object or a particle; a noun is rarely followed by these.
_OBJECT_START = frozenset(
    (
        *("it", "them", "the", "a", "an", "this", "that", "these", "those", "my", "your"),
        *("his", "her", "its", "our", "their", "up", "down", "off", "out", "away", "clean"),
        *("dry", "everything", "all"),
    )
)
# A clause ending in "make ... safe" says what something becomes: an adjective.
_BECOMING = frozenset(
    ("make", "makes", "keep", "keeps", "stay", "stays", "is", "are", "be", "feel", "get", "leave")
)
_CLAUSE_END = frozenset(".,;:!?")
_CONJUNCTIONS = frozenset(("and", "or", "then", "so", "before", "after", "while"))
_DETERMINERS = frozenset(("the", "a", "an", "this", "that", "my", "your", "its", "their", "our"))


def _tokens(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+|[.,;:!?]", words_of(text))


def _verb_use(tokens: list[str], i: int) -> bool:
    """Whether ``tokens[i]`` (a word of :data:`VERB_OR_ADJECTIVE`, not a plural) is a verb
    or an adjective here rather than the noun."""
    after = tokens[i + 1] if i + 1 < len(tokens) else "."
    if i > 0 and tokens[i - 1] in _DETERMINERS:
        return False  # "the safe", "a wipe"
    if after in _OBJECT_START:
        return True
    if after not in _CLAUSE_END and after not in _CONJUNCTIONS:
        return False
    before = []
    for token in reversed(tokens[:i]):
        if token in _CLAUSE_END:
            break
        before.append(token)
    return any(word in _BECOMING for word in before)


@dataclass(frozen=True)
class Vocabulary:
    """Type names and the words for them; ``hidden`` names are never a word's meaning (the
    floor, a doorway)."""

    types: Collection[str]
    synonyms: Mapping[str, str] = field(default_factory=lambda: dict(SYNONYMS))
    hidden: Collection[str] = frozenset({"Door", "Window", "Floor"})
    also: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: dict(ALSO))
    no_type: Collection[str] = NO_TYPE

    @cached_property
    def _phrases(self) -> dict[tuple[str, ...], str]:
        """Phrase -> the type it names; ``""`` for a compound that names none."""
        phrases: dict[tuple[str, ...], str] = {_phrase(p): "" for p in sorted(self.no_type)}
        for name in sorted(self.types):
            if name not in self.hidden:
                phrases[_phrase(words_of(name))] = name
        for phrase, name in self.synonyms.items():
            if name in self.types:
                phrases[_phrase(phrase)] = name
        return phrases

    @cached_property
    def _longest(self) -> int:
        return max(map(len, self._phrases), default=0)

    @cached_property
    def _alternatives(self) -> dict[tuple[str, ...], tuple[str, ...]]:
        return {
            _phrase(phrase): tuple(name for name in names if name in self.types)
            for phrase, names in self.also.items()
        }

    def _segments(self, text: str) -> tuple[list[tuple[int, int, str]], int]:
        """The phrases ``text`` holds as ``(start, end, type)`` in word positions, in order,
        and the number of words; a word belongs to the longest phrase it is part of, and a
        noun that is used as a verb or an adjective here names nothing."""
        tokens = _tokens(text)
        words = [singular(t) for t in tokens]
        taken = [t in _CLAUSE_END for t in tokens]
        found: list[tuple[int, int, str]] = []
        for n in range(min(self._longest, len(words)), 0, -1):
            for start in range(len(words) - n + 1):
                name = self._phrases.get(tuple(words[start : start + n]))
                if name is None or any(taken[start : start + n]):
                    continue
                if n == 1 and self._verb_here(tokens, start):
                    continue
                taken[start : start + n] = [True] * n
                if name:  # a compound that names no type hides the words inside it
                    found.append((start, start + n, name))
        return sorted(found), len(words)

    @staticmethod
    def _verb_here(tokens: list[str], i: int) -> bool:
        word = tokens[i]
        return word in VERB_OR_ADJECTIVE and _verb_use(tokens, i)

    def scored_meaning(self, text: str) -> tuple[str, float] | None:
        """The type whose name or synonym best matches ``text``, with its score: longer
        phrases win, then the one nearer the end (the head noun: "sofa pillow" is a pillow);
        a phrase right before another one is its modifier ("TV stand drawer": a drawer)."""
        segments, count = self._segments(text)
        heads = [
            (start, end, name)
            for i, (start, end, name) in enumerate(segments)
            if i + 1 == len(segments) or segments[i + 1][0] != end
        ]
        best: tuple[float, str] | None = None
        for start, end, name in heads:
            score = (end - start) + end / (count + 1) * 0.5
            if best is None or score > best[0]:
                best = (score, name)
        return None if best is None else (best[1], best[0])

    def mentioned(self, text: str) -> list[str]:
        """Every type ``text`` names, in the order first named, each followed by the other
        types its words may mean (:data:`ALSO`); a longer phrase hides the shorter ones
        inside it ("the coffee table" is a CoffeeTable, not a Mug for "coffee").

        >>> Vocabulary(frozenset({"Sofa", "Pillow", "Cup", "Mirror"})).mentioned(
        ...     "Put the sofa pillows away and wipe the mirror; a glass may be on the sofa.")
        ['Pillow', 'Mirror', 'Cup', 'Sofa']
        """
        words = [singular(t) for t in _tokens(text)]
        ordered: list[str] = []
        for start, end, name in self._segments(text)[0]:
            for each in (name, *self._alternatives.get(tuple(words[start:end]), ())):
                if each not in ordered:
                    ordered.append(each)
        return ordered

    def meaning(self, text: str) -> str | None:
        """The type ``text`` names by meaning (``"nightstand"``: SideTable), if any."""
        found = self.scored_meaning(text)
        return None if found is None else found[0]

    def readings(self) -> list[tuple[str, str, tuple[str, ...]]]:
        """Words whose type is not the one they spell: ``(words, type, other types they may
        mean)`` for each phrase of the table that ends with (or is) another type's name
        ("soap bottle" is a SoapRefill; "tv cabinet" a TVStand), and each word of
        :data:`ALSO`."""
        found: dict[str, tuple[str, tuple[str, ...]]] = {}
        spelled = {_phrase(words_of(n)): n for n in self.types if n not in self.hidden}
        for phrase, name in sorted(self.synonyms.items()):
            words = _phrase(phrase)
            others = self._alternatives.get(words, ())
            looks = [spelled[words[i:]] for i in range(len(words)) if words[i:] in spelled]
            if name in self.types and (others or looks[:1] not in ([], [name])):
                found[phrase] = (name, others)
        return [(phrase, name, others) for phrase, (name, others) in sorted(found.items())]

    def suggestions(self, name: str, limit: int = 4) -> list[str]:
        """Types close to ``name``: what it means first, then the types it is the last word
        of (a "Can": GarbageCan, WateringCan), then similar spellings."""
        close = difflib.get_close_matches(name, sorted(self.types), n=limit, cutoff=0.5)
        meant = self.meaning(words_of(name))
        first = [meant] if meant is not None else []
        first += self._ending_with(_phrase(words_of(name)))
        return list(dict.fromkeys((*first, *close)))[:limit]

    def _ending_with(self, words: tuple[str, ...]) -> list[str]:
        """The shown types whose name ends with ``words`` and is longer."""
        n = len(words)
        return [
            name
            for name in sorted(self.types)
            if name not in self.hidden
            and len(spelled := _phrase(words_of(name))) > n
            and spelled[-n:] == words
        ]
