"""The words people use for object types: one synonym table, and reading what a word means.

The catalog's lexical retrieval (:meth:`~pytest_logicenv.scenes.catalog.Catalog.resolve`),
``logicenv types WORD`` and every did-you-mean (unknown types in plans, in designs, in type
files) read this one table through :class:`Vocabulary`, so "nightstand" means a SideTable
everywhere. It depends on nothing else of the package, so every stage may use it.

>>> SYNONYMS["nightstand"], words_of("CoffeeTable"), singular("boxes")
('SideTable', 'coffee table', 'box')
>>> vocabulary = Vocabulary(frozenset({"SideTable", "Cup", "Pillow", "Sofa"}))
>>> vocabulary.meaning("a glass of water"), vocabulary.meaning("the sofa pillow")
('Cup', 'Pillow')
>>> vocabulary.suggestions("Nightstand"), vocabulary.suggestions("Sofaa")
(['SideTable'], ['Sofa'])
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from functools import cached_property

#: Words that name a type in everyday speech (lower case) -> type. Lexical retrieval also
#: matches every type's own name split into words ("coffee table"); words are compared in the
#: singular, so "boxes" finds "box".
SYNONYMS: Mapping[str, str] = {
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
    "frying pan": "Pan",
    "saucepan": "Pot",
    "plant": "HousePlant",
    "picture": "Painting",
    "towel rack": "TowelHolder",
    "towel rail": "TowelHolder",
    "bath towel": "Towel",
    "toilet roll": "ToiletPaper",
    "soap": "SoapBar",
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
}


# --------------------------------------------------------------------------- words


def words_of(name: str) -> str:
    """``"CoffeeTable"`` -> ``"coffee table"``; plain text is lower-cased."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", " ", name)
    return re.sub(r"[_\-]+", " ", spaced).lower().strip()


def camel(text: str) -> str:
    return "".join(w.capitalize() for w in re.findall(r"[a-zA-Z0-9]+", text))


def singular(word: str) -> str:
    if len(word) > 3 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ches", "shes", "xes", "sses")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us")):
        return word[:-1]
    return word


# --------------------------------------------------------------------------- meaning


@dataclass(frozen=True)
class Vocabulary:
    """Type names and the words for them; ``hidden`` names are never a word's meaning (the
    floor, a doorway)."""

    types: Collection[str]
    synonyms: Mapping[str, str] = field(default_factory=lambda: dict(SYNONYMS))
    hidden: Collection[str] = frozenset({"Doorway", "Doorframe", "Window", "Floor"})

    @cached_property
    def _phrases(self) -> dict[tuple[str, ...], str]:
        phrases: dict[tuple[str, ...], str] = {}
        for name in sorted(self.types):
            if name not in self.hidden:
                phrases[tuple(singular(w) for w in words_of(name).split())] = name
        for phrase, name in self.synonyms.items():
            if name in self.types:
                phrases[tuple(singular(w) for w in phrase.split())] = name
        return phrases

    def scored_meaning(self, text: str) -> tuple[str, float] | None:
        """The type whose name or synonym best matches ``text``, with its score."""
        words = [singular(w) for w in re.findall(r"[a-z0-9]+", words_of(text))]
        best: tuple[float, str] | None = None
        for phrase, name in self._phrases.items():
            n = len(phrase)
            for start in range(len(words) - n + 1):
                if tuple(words[start : start + n]) != phrase:
                    continue
                # Longer phrases win; among equals, the one nearer the end (the head noun:
                # "sofa pillow" is a pillow).
                score = n + (start + n) / (len(words) + 1) * 0.5
                if best is None or score > best[0]:
                    best = (score, name)
        return None if best is None else (best[1], best[0])

    def mentioned(self, text: str) -> list[str]:
        """Every type ``text`` names, in the order first named; a longer phrase hides the
        shorter ones inside it ("the coffee table" is a CoffeeTable, not a Mug for "coffee").

        >>> Vocabulary(frozenset({"Sofa", "Pillow", "Cup", "Mirror"})).mentioned(
        ...     "Put the sofa pillows away and wipe the mirror; a glass may be on the sofa.")
        ['Pillow', 'Mirror', 'Cup', 'Sofa']
        """
        words = [singular(w) for w in re.findall(r"[a-z0-9]+", words_of(text))]
        taken = [False] * len(words)
        found: list[tuple[int, str]] = []
        # Longest phrases first, so that a word belongs to the longest phrase it is part of.
        for phrase, name in sorted(self._phrases.items(), key=lambda item: -len(item[0])):
            n = len(phrase)
            for start in range(len(words) - n + 1):
                span = range(start, start + n)
                if tuple(words[start : start + n]) == phrase and not any(taken[i] for i in span):
                    found.append((start, name))
                    for i in span:
                        taken[i] = True
        ordered: list[str] = []
        for _, name in sorted(found):
            if name not in ordered:
                ordered.append(name)
        return ordered

    def meaning(self, text: str) -> str | None:
        """The type ``text`` names by meaning (``"nightstand"``: SideTable), if any."""
        found = self.scored_meaning(text)
        return None if found is None else found[0]

    def suggestions(self, name: str, limit: int = 4) -> list[str]:
        """Types close to ``name``: what it means first, then similar spellings."""
        close = difflib.get_close_matches(name, sorted(self.types), n=limit, cutoff=0.5)
        meant = self.meaning(words_of(name))
        if meant is not None:
            close = [meant, *(c for c in close if c != meant)]
        return close[:limit]
