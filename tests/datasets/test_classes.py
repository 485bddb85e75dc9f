import pytest

from cardref.engine.cards import ALL_CARDS
from cardref.vision.classes import (
    CLASS_INDEX,
    CLASS_NAMES,
    NUM_CLASSES,
    REAL_CARDS_NAMES,
    REAL_CARDS_TO_OURS,
    class_id,
    foreign_class_map,
)


def test_class_list_fixed_order_and_unique():
    assert NUM_CLASSES == 54
    assert len(set(CLASS_NAMES)) == 54
    assert CLASS_NAMES[:13] == ("AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS")
    assert CLASS_NAMES[-2:] == ("SJ", "BJ")
    assert list(CLASS_NAMES) == [c.code for c in ALL_CARDS]
    assert all(CLASS_INDEX[n] == i for i, n in enumerate(CLASS_NAMES))
    assert all(n.isascii() for n in CLASS_NAMES)


def test_class_id_accepts_spellings():
    assert class_id("th") == CLASS_INDEX["10H"]
    assert class_id("BJ") == 53


def test_real_cards_map():
    assert REAL_CARDS_TO_OURS[40] is None  # BACK
    assert len(REAL_CARDS_NAMES) == 55
    mapped = [v for v in REAL_CARDS_TO_OURS.values() if v is not None]
    assert sorted(mapped) == list(range(54))
    for i, name in enumerate(REAL_CARDS_NAMES):
        if name != "BACK":
            assert CLASS_NAMES[REAL_CARDS_TO_OURS[i]] == name


def test_real_cards_yaml_matches_if_present():
    import pathlib

    import yaml

    from cardref.datasets.evaluate import REAL_CARDS

    p = pathlib.Path(REAL_CARDS) / "data.yaml"
    if not p.exists():
        pytest.skip("real-cards data set not on this machine")
    names = yaml.safe_load(p.read_text())["names"]
    assert [names[i] for i in sorted(names)] == list(REAL_CARDS_NAMES)


def test_foreign_map_rejects_unknown():
    with pytest.raises(ValueError, match="ZZ"):
        foreign_class_map(["AS", "ZZ"])
