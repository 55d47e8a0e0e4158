"""Everyday words for the catalog's types, from WordNet 3.0 as Debian's ``wordnet-base`` ships it.

Each type's WordNet sense (the first physical sense of its name, or the reviewed one of
:data:`SENSES`) gives its synonyms (the sense's other lemmas: a Sofa is a "couch", a GarbageCan
a "wastebin") and the kinds of it (hyponyms, :data:`DEPTH` levels down, each to the nearest
type above it: a "teakettle" is a Kettle). A compound whose first words spell a type but whose
sense is no kind of it is recorded as naming no type (a "bed sheet" is no Bed). The result,
with the source and the senses used, is committed as ``pytest_logicenv/data/wordnet-words.json``
and read by :mod:`pytest_logicenv.vocabulary`, whose reviewed table wins over it; ``python -m
pytest_logicenv.scenes.catalog.wordnet_words`` writes it again (``apt-get install wordnet-base``
and nltk, a development dependency, needed; a test holds the file to this module's output).

nltk's WordNet reader wants the ``lexnames`` file, which ``wordnet-base`` leaves out; it is the
fixed list of lexicographer file names of WordNet 3.0 (``lexnames(5WN)``), written here beside
a copy of the package's files (nltk reads only inside the folder it is given).
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import tempfile
import warnings
from collections.abc import Collection, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pytest_logicenv.errors import SceneError
from pytest_logicenv.scenes.catalog.loading import default_catalog
from pytest_logicenv.scenes.catalog.properties import STRUCTURAL_TYPES
from pytest_logicenv.vocabulary import WORDNET_FILE, singular, words_of

#: Where ``wordnet-base`` puts WordNet 3.0.
SOURCE = Path("/usr/share/wordnet")
#: The files of the WordNet database nltk's reader opens.
_FILES = ("data", "index")
_POS = ("noun", "verb", "adj", "adv")
#: WordNet 3.0's lexicographer files, in the order of their numbers (lexnames(5WN)).
LEXNAMES = (
    *("adj.all", "adj.pert", "adv.all", "noun.Tops", "noun.act", "noun.animal"),
    *("noun.artifact", "noun.attribute", "noun.body", "noun.cognition", "noun.communication"),
    *("noun.event", "noun.feeling", "noun.food", "noun.group", "noun.location", "noun.motive"),
    *("noun.object", "noun.person", "noun.phenomenon", "noun.plant", "noun.possession"),
    *("noun.process", "noun.quantity", "noun.relation", "noun.shape", "noun.state"),
    *("noun.substance", "noun.time", "verb.body", "verb.change", "verb.cognition"),
    *("verb.communication", "verb.competition", "verb.consumption", "verb.contact"),
    *("verb.creation", "verb.emotion", "verb.motion", "verb.perception", "verb.possession"),
    *("verb.social", "verb.stative", "verb.weather", "adj.ppl"),
)
#: The kinds of sense a household object's word has.
PHYSICAL = frozenset({"noun.artifact", "noun.food", "noun.plant", "noun.object"})
#: How many levels of kinds below a type's sense name that type.
DEPTH = 2
#: Reviewed: the sense a type means where the first physical sense of its name is another one
#: or its name is no WordNet word.
SENSES: Mapping[str, str] = {
    "Television": "television_receiver.n.01",
    "ArmChair": "armchair.n.01",
    "BasketBall": "basketball.n.02",
    "CellPhone": "cellular_telephone.n.01",
    "CoffeeMachine": "coffee_maker.n.01",
    "Cereal": "cereal.n.03",
    "Toilet": "toilet.n.02",
    "KeyChain": "key_ring.n.01",
    "PaperTowelRoll": "paper_towel.n.01",
    "SprayBottle": "atomizer.n.01",
    "GarbageBag": "bin_liner.n.01",
    "SoapBar": "bar_soap.n.01",
    "ShelvingUnit": "bookcase.n.01",
    "ShowerHead": "showerhead.n.01",
    "StoveBurner": "burner.n.02",
    "CounterTop": "countertop.n.01",
    "GarbageCan": "ashcan.n.01",
    "Fridge": "electric_refrigerator.n.01",
    "Laptop": "laptop.n.01",
    "Desktop": "desktop_computer.n.01",
    "HousePlant": "houseplant.n.01",
    "Cloth": "dishrag.n.01",
    "Safe": "safe.n.01",
    "Blinds": "window_blind.n.01",
    "Curtains": "curtain.n.01",
    "Stain": "stain.n.01",
    "Cup": "cup.n.01",
    "Pot": "pot.n.01",
    "Plate": "plate.n.04",
    "Pan": "pan.n.01",
    "Book": "book.n.02",
    "Painting": "painting.n.01",
    "Mirror": "mirror.n.01",
    "Box": "box.n.01",
    "Basket": "basket.n.01",
    "Toy": "plaything.n.01",
    "Vase": "vase.n.01",
    "Watch": "watch.n.01",
    "Statue": "statue.n.01",
    "Bread": "bread.n.01",
    "Milk": "milk.n.01",
}
#: Reviewed: WordNet's words for a type that a person in a household does not mean it by (a
#: "lower" berth is a Bed, "lumber" a BaseballBat, a "secretary" a Desk), or means many things by.
EXCLUDED = frozenset(
    (
        *("lower", "upper", "lumber", "tea maker", "term", "terminus", "terminal figure"),
        *("herm", "turtle", "spider", "secretary", "cock", "murphy", "crapper", "toilet bowl"),
        *("meat loaf", "meatloaf", "pan gravy", "dixie", "mangle", "wringer", "volume"),
        *("paper", "lounge", "frail", "toby", "sphinx", "salad bowl", "drop cloth", "gourd"),
        *("davenport", "hydrant", "ice machine", "scalpel", "surgical knife", "canopic jar"),
        *("canopic vase", "goggle box", "idiot box", "boob tube"),
        # the household pack's: a "fryer" is an appliance, a "pin" or a "pusher" no jewel or shoe
        *("pin", "walker", "pusher", "roaster", "fryer", "frier", "flipper", "solitaire"),
        *("spectator", "clamshell", "hen"),
    )
)
#: Reviewed: types whose WordNet sense is too broad for its kinds to be this type.
NO_KINDS = frozenset({"Box", "Toy", "Cloth", "Shelf", "Drawer", "Cabinet", "Painting", "Stain"})


def wordnet_missing(source: Path = SOURCE) -> str | None:
    """Why WordNet cannot be read from ``source`` here, or ``None``."""
    if importlib.util.find_spec("nltk") is None:
        return "nltk is not installed (pip install -e '.[dev]')"
    if not (source / "data.noun").is_file():
        return f"WordNet 3.0 is not in {source} (apt-get install wordnet-base)"
    return None


@contextmanager
def open_wordnet(source: Path = SOURCE) -> Iterator[Any]:
    """nltk's WordNet reader over a copy of ``source`` with its ``lexnames``."""
    missing = wordnet_missing(source)
    if missing is not None:
        raise SceneError(f"cannot read WordNet: {missing}")
    import nltk  # a development dependency: only this generator reads WordNet
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    class Reader(WordNetCorpusReader):  # type: ignore[misc]
        def map_wn(self, version: str = "wordnet") -> None:
            return None  # no Open Multilingual Wordnet: nothing to map to it

    with tempfile.TemporaryDirectory() as folder:
        for kind in _FILES:
            for pos in _POS:
                shutil.copyfile(source / f"{kind}.{pos}", Path(folder) / f"{kind}.{pos}")
        for pos in _POS:
            shutil.copyfile(source / f"{pos}.exc", Path(folder) / f"{pos}.exc")
        lines = (
            f"{i:02d}\t{name}\t{_POS.index(name.split('.')[0]) + 1}"
            for i, name in enumerate(LEXNAMES)
        )
        (Path(folder) / "lexnames").write_text("\n".join(lines) + "\n", encoding="utf-8")
        nltk.data.path.append(folder)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # "no multilingual functions": none needed
                yield Reader(folder, None)
        finally:
            nltk.data.path.remove(folder)


def _lemma_words(synset: Any) -> list[str]:
    """A sense's lemmas as everyday words: lower case, no proper names."""
    found = []
    for name in synset.lemma_names():
        if any(c.isupper() or c.isdigit() for c in name):
            continue
        found.append(" ".join(singular(w) for w in name.replace("-", " ").split("_")))
    return found


def type_senses(wn: Any, types: Collection[str]) -> dict[str, Any]:
    """Each type's WordNet sense: the reviewed one, else the first physical sense of its
    name (types with none are left out)."""
    senses = {}
    for name in sorted(types):
        if name in SENSES:
            senses[name] = wn.synset(SENSES[name])
            continue
        lemma = words_of(name).replace(" ", "_")
        physical = [s for s in wn.synsets(lemma, "n") if s.lexname() in PHYSICAL]
        if physical:
            senses[name] = physical[0]
    return senses


def _kinds(senses: Mapping[str, Any]) -> dict[str, tuple[int, str, str]]:
    """Every sense within :data:`DEPTH` below a type's, by name: (levels, type, its sense)."""
    found: dict[str, tuple[int, str, str]] = {}
    for name, sense in senses.items():
        level = [sense]
        for depth in range(DEPTH + 1 if name not in NO_KINDS else 1):
            for each in level:
                known = found.get(each.name())
                if known is None or known[0] > depth:
                    found[each.name()] = (depth, name, sense.name())
            level = [kind for each in level for kind in each.hyponyms()]
    return found


def word_table(wn: Any, types: Collection[str]) -> dict[str, Any]:
    """The committed table: each word's type and the sense it came by, and the compounds
    that name no type."""
    senses = type_senses(wn, types)
    kinds = _kinds(senses)
    words: dict[str, list[str]] = {}
    for synset_name, (_, name, _sense) in sorted(kinds.items()):
        for word in _lemma_words(wn.synset(synset_name)):
            first = _first_kind(wn, word, kinds)
            if first == synset_name and word != words_of(name) and word not in EXCLUDED:
                words[word] = [name, synset_name]
    return {
        "format": "logicenv-wordnet-words/1",
        "source": f"WordNet {wn.get_version()} (Debian wordnet-base), read by nltk",
        "senses": {name: sense.name() for name, sense in sorted(senses.items())},
        "words": dict(sorted(words.items())),
        "no_type": _compounds_naming_no_type(wn, types, kinds),
    }


def _first_kind(wn: Any, word: str, kinds: Mapping[str, Any]) -> str | None:
    """The most common sense of ``word`` that is a type's kind, if its most common physical
    sense is one (a "glass" is first the drinking glass, not the material)."""
    for synset in wn.synsets(word.replace(" ", "_"), "n"):
        if synset.lexname() in PHYSICAL:
            return str(synset.name()) if synset.name() in kinds else None
    return None


def _compounds_naming_no_type(
    wn: Any, types: Collection[str], kinds: Mapping[str, Any]
) -> dict[str, str]:
    """Compounds that start with a type's words and mean no type ("bed sheet")."""
    spelled = {words_of(name) for name in types}
    found = {}
    for synset in wn.all_synsets("n"):
        if synset.lexname() not in PHYSICAL or synset.name() in kinds:
            continue
        for word in _lemma_words(synset):
            head, _, rest = word.rpartition(" ")
            modifies_a_type = head in spelled and rest and rest not in spelled
            if modifies_a_type and word not in spelled and _first_kind(wn, word, kinds) is None:
                found[word] = str(synset.name())
    return dict(sorted(found.items()))


def main() -> None:  # pragma: no cover - run by hand to regenerate the committed table
    with open_wordnet() as wn:
        table = word_table(wn, set(default_catalog().types) - STRUCTURAL_TYPES)
    WORDNET_FILE.write_text(json.dumps(table, indent=1, ensure_ascii=False) + "\n")
    print(f"{WORDNET_FILE}: {len(table['words'])} words, {len(table['no_type'])} naming no type")


if __name__ == "__main__":  # pragma: no cover
    main()
