"""Drawn decks: deterministic, complete, their indices found like any design's, and varied."""

from __future__ import annotations

import numpy as np
import pytest

from cardref.datasets import drawn_decks, faces
from cardref.vision.classes import CLASS_NAMES


def test_a_drawn_deck_is_complete_and_deterministic() -> None:
    a, b = drawn_decks.draw_deck(1), drawn_decks.draw_deck(1)
    assert list(a) == list(CLASS_NAMES)
    assert all(np.array_equal(a[c], b[c]) for c in CLASS_NAMES)
    shapes = {im.shape for im in a.values()}
    assert len(shapes) == 1
    h, w, ch = shapes.pop()
    assert ch == 4 and w == drawn_decks.FACE_W and 1.3 < h / w < 1.55


def test_the_library_finds_every_drawn_index_with_rank_and_suit() -> None:
    for n in range(drawn_decks.DRAWN_DECKS):
        cut = faces._normalise(drawn_decks.draw_deck(n))
        boxes = faces.find_corner_boxes(cut)
        assert set(boxes) == set(CLASS_NAMES), n
        for code in ("AC", "7S", "10H", "KD"):
            ink = faces._paper_and_ink(cut[code])[1]
            tl = min(boxes[code], key=lambda b: b[0] + b[1])
            x1, y1, x2, y2 = tl
            rows = ink[y1:y2, x1:x2].any(axis=1)
            assert rows.sum() > 0.6 * (y2 - y1), (n, code, tl)  # rank and suit, not a speck


def test_decks_differ_in_their_suit_shapes() -> None:
    """The point of drawn decks: clubs (and spades) of one deck are not those of another."""
    clubs = [drawn_decks.suit_mask("C", 40, drawn_decks.deck_style(n).suits) for n in range(3)]
    spades = [drawn_decks.suit_mask("S", 40, drawn_decks.deck_style(n).suits) for n in range(3)]

    def differ(x: np.ndarray, y: np.ndarray) -> float:
        w = min(x.shape[1], y.shape[1])
        return float(np.abs(x[:, :w].astype(int) - y[:, :w].astype(int)).mean())

    assert differ(clubs[0], clubs[1]) > 3 and differ(clubs[1], clubs[2]) > 3
    assert all(differ(c, s) > 10 for c, s in zip(clubs, spades, strict=True))  # a club is not a spade


def test_later_decks_widen_the_typefaces_and_suit_shapes() -> None:
    """The decks after the first generation draw their ranks in more typefaces than DejaVu
    and their clubs from a wider range (tight lobes like the held-out aisleriot-plastic's)."""
    first = [drawn_decks.deck_style(n) for n in range(drawn_decks.FIRST_GENERATION)]
    later = [drawn_decks.deck_style(n) for n in range(drawn_decks.FIRST_GENERATION, drawn_decks.DRAWN_DECKS)]
    assert {s.font for s in first} <= set(drawn_decks.FONTS)
    folders = {s.font.rsplit("/", 1)[0] for s in later}
    assert {"truetype/liberation", "truetype/freefont", "opentype/urw-base35"} <= folders
    assert folders <= set(drawn_decks.FONT_PACKAGES)
    assert min(s.suits.lobe for s in later) < min(s.suits.lobe for s in first)
    assert any(s.stroke > 0 for s in later)


def test_drawn_decks_train_and_never_join_the_held_out_split(small_library, monkeypatch) -> None:
    sources = [faces.DesignSource("drawn-00", "drawn", faces.Path("drawn-00")),
               faces.DesignSource("aisleriot-plastic", "aisleriot", faces.AISLERIOT_DIR / "plastic.svgz")]
    monkeypatch.setattr(faces, "_sources", lambda: sources)
    faces._all_meta.cache_clear()
    assert faces.list_designs("train") == ["drawn-00"]
    assert faces.list_designs("heldout") == ["aisleriot-plastic"]
    lib = faces.CardFaces("drawn-00")
    assert lib.has_jokers and lib.family == "drawn-00"


def test_without_the_fonts_a_drawn_deck_is_left_out_with_the_reason(small_library, monkeypatch, tmp_path) -> None:
    monkeypatch.setattr(drawn_decks, "FONT_DIR", tmp_path / "no-fonts")
    monkeypatch.setattr(faces, "CACHE_DIR", tmp_path / "cache")
    monkeypatch.setattr(faces, "_sources", lambda: [faces.DesignSource("drawn-01", "drawn", faces.Path("drawn-01"))])
    faces._all_meta.cache_clear()
    assert faces.list_designs() == []
    assert "fonts-dejavu-core" in faces.design_reasons()["drawn-01"]


def test_a_later_deck_without_its_font_names_the_package(monkeypatch, tmp_path) -> None:
    monkeypatch.setattr(drawn_decks, "FONT_ROOT", tmp_path / "no-fonts")
    n = next(n for n in range(drawn_decks.FIRST_GENERATION, drawn_decks.DRAWN_DECKS)
             if "urw-base35" in drawn_decks.deck_style(n).font)
    with pytest.raises(drawn_decks.DrawnDeckError, match="fonts-urw-base35"):
        drawn_decks.draw_deck(n)


def test_designs_are_walked_lazily_and_agree_with_the_list(small_library, monkeypatch) -> None:
    """iter_designs gives list_designs' designs, split by split, and building stops at the
    designs walked past (a short simulated run does not render the whole library)."""
    sources = [faces.DesignSource("drawn-00", "drawn", faces.Path("drawn-00")),
               faces.DesignSource("drawn-01", "drawn", faces.Path("drawn-01")),
               faces.DesignSource("aisleriot-plastic", "aisleriot", faces.AISLERIOT_DIR / "plastic.svgz")]
    monkeypatch.setattr(faces, "_sources", lambda: sources)
    faces._all_meta.cache_clear()
    built: list[str] = []
    real_build = faces._build
    monkeypatch.setattr(faces, "_build", lambda src: (built.append(src.name), real_build(src))[1])
    walk = faces.iter_designs("train")
    assert next(walk) == "drawn-00"
    assert "drawn-01" not in built  # not reached yet
    assert [*walk] == ["drawn-01"]
    assert faces.list_sources() == ["aisleriot-plastic", "drawn-00", "drawn-01"]
    for split in (None, "train", "heldout"):
        assert sorted(faces.iter_designs(split)) == faces.list_designs(split)
    assert [*faces.iter_designs(None, order=["drawn-01", "aisleriot-plastic", "nope"])] == [
        "drawn-01", "aisleriot-plastic"]
    with pytest.raises(ValueError, match="split"):
        next(faces.iter_designs("everything"))
