"""The synonym table's WordNet part: the committed file is what the generator makes from WordNet
3.0 as Debian's ``wordnet-base`` ships it, read by nltk (skipped, with the reason, where either is
missing); every word names a catalog type; the reviewed list wins over WordNet."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_logicenv.errors import SceneError
from pytest_logicenv.scenes.catalog import default_catalog
from pytest_logicenv.scenes.catalog.properties import STRUCTURAL_TYPES
from pytest_logicenv.scenes.catalog.wordnet_words import open_wordnet, word_table, wordnet_missing
from pytest_logicenv.vocabulary import NO_TYPE, REVIEWED, SYNONYMS, WORDNET_FILE

MISSING = wordnet_missing()
needs_wordnet = pytest.mark.skipif(MISSING is not None, reason=f"cannot read WordNet: {MISSING}")


def committed() -> dict[str, object]:
    data: dict[str, object] = json.loads(WORDNET_FILE.read_text(encoding="utf-8"))
    return data


@pytest.mark.slow
@needs_wordnet
def test_the_committed_table_is_what_the_generator_makes_from_wordnet() -> None:
    with open_wordnet() as wn:
        table = word_table(wn, set(default_catalog().types) - STRUCTURAL_TYPES)
    assert table == committed(), (
        "regenerate it: python -m pytest_logicenv.scenes.catalog.wordnet_words"
    )


@needs_wordnet
def test_nltk_reads_debians_wordnet_with_the_lexnames_it_leaves_out() -> None:
    with open_wordnet() as wn:
        assert wn.get_version() == "3.0"
        sofa = wn.synset("sofa.n.01")
        assert sofa.lexname() == "noun.artifact"
        assert sofa.lemma_names() == ["sofa", "couch", "lounge"]
        assert wn.synset("bed_linen.n.01").lexname() == "noun.artifact"


def test_a_missing_wordnet_says_how_to_install_it(tmp_path: Path) -> None:
    said = wordnet_missing(tmp_path)
    assert said is not None
    assert said.endswith(
        f"WordNet 3.0 is not in {tmp_path} (apt-get install wordnet-base)"
    ) or said.startswith("nltk is not installed")
    with pytest.raises(SceneError, match="cannot read WordNet: "), open_wordnet(tmp_path):
        pass


def test_every_word_names_a_catalog_type_and_the_reviewed_list_wins() -> None:
    data = committed()
    types = default_catalog().types
    words = data["words"]
    assert isinstance(words, dict)
    assert not [word for word, (name, _) in words.items() if name not in types]
    assert words["teakettle"][0] == "Kettle"  # a kind of kettle
    assert "teapot" not in words  # the household pack's Teapot: its own name, no kind of Pot
    for word, name in (
        ("wastebin", "GarbageCan"),
        ("telly", "Television"),
        ("teakettle", "Kettle"),
    ):
        assert word not in REVIEWED
        assert SYNONYMS[word] == name  # from WordNet alone
    assert "bed sheet" not in NO_TYPE  # a BedSheet now (the household pack): no kind of Bed
    assert "apple tree" in NO_TYPE  # no kind of apple
    assert "towel rack" not in NO_TYPE  # the reviewed list names it: a TowelHolder
