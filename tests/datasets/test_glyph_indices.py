"""Card indices printed from the installed fonts (datasets/glyph_indices.py, issue #33 item 3)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from cardref.datasets import glyph_indices as gi
from cardref.vision.classes import CLASS_NAMES
from cardref.vision.detector.namer import CROP_SIZE

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


@pytest.fixture(scope="module")
def fonts() -> gi.FontSet:
    if not DEJAVU.is_file():
        pytest.fail("fonts-dejavu-core is not installed: run tools/setup.sh")
    return gi.discover()


def test_fonts_are_sorted_by_what_they_draw(fonts) -> None:
    assert DEJAVU in fonts.suit_fonts and DEJAVU in fonts.rank_fonts
    assert gi.covers(DEJAVU, "\u2660\u2663\u2665\u2666A10JQK")
    assert not gi.covers(DEJAVU, "\u591f")  # 够: DejaVu Sans draws no CJK
    assert all(gi.covers(p, gi.SUIT_CHARS.values()) for p in fonts.suit_fonts)
    assert all(gi.covers(p, gi.RANK_CHARS) for p in fonts.rank_fonts)


def test_no_font_is_a_clear_error(tmp_path) -> None:
    (tmp_path / "broken.ttf").write_bytes(b"not a font")
    with pytest.raises(gi.GlyphFontError, match="fonts-dejavu-core"):
        gi.discover(tmp_path)


def test_patches_cover_the_52_codes_in_turn_and_repeat_with_the_seed(fonts) -> None:
    x, y = gi.glyph_patches(104, seed=3, fonts=fonts)
    assert x.shape == (208, CROP_SIZE, CROP_SIZE, 3) and x.dtype == np.uint8
    counts = Counter(CLASS_NAMES[k] for k in y)
    assert set(counts) == set(gi.CODES) and len(gi.CODES) == 52 and set(counts.values()) == {4}
    assert "SJ" not in counts and "BJ" not in counts
    x2, y2 = gi.glyph_patches(104, seed=3, fonts=fonts)
    assert np.array_equal(x, x2) and np.array_equal(y, y2)
    assert not np.array_equal(x, gi.glyph_patches(104, seed=4, fonts=fonts)[0])


def test_the_box_is_ink_tight(fonts) -> None:
    """Ink inside the returned box, none just outside its right and bottom edges (the top
    and left edges face the card's rounded corner)."""
    for seed in range(12):
        rng = np.random.default_rng(seed)
        drawn = gi.draw_index("10C" if seed % 2 else "QS", fonts.rank_fonts[seed % len(fonts.rank_fonts)],
                              fonts.suit_fonts[seed % len(fonts.suit_fonts)], rng)
        assert drawn is not None
        img, (x1, y1, x2, y2) = drawn
        img = img.astype(np.int32)
        inside = img[int(y1):int(y2), int(x1):int(x2)]
        assert np.abs(inside - np.median(inside.reshape(-1, 3), axis=0)).max() > 60
        right = img[int(y1):int(y2), int(x2) + 2:int(x2) + 4]
        below = img[int(y2) + 2:int(y2) + 4, int(x1):int(x2)]
        for strip in (right, below):
            assert np.abs(strip - np.median(strip.reshape(-1, 3), axis=0)).max() < 12


def test_the_camera_shows_the_index_at_webcam_to_phone_heights(fonts) -> None:
    sides = []
    for seed in range(30):
        rng = np.random.default_rng(seed)
        img, box = gi.draw_index("7H", DEJAVU, DEJAVU, rng)
        out, (x1, y1, x2, y2) = gi.through_camera(img, box, rng)
        assert out.dtype == np.uint8 and out.ndim == 3
        assert 0 <= x1 < x2 <= out.shape[1] and 0 <= y1 < y2 <= out.shape[0]
        sides.append(max(x2 - x1, y2 - y1))
    assert gi.INDEX_PX[0] - 1 <= min(sides) and max(sides) <= gi.INDEX_PX[1] + 1
    assert max(sides) / min(sides) > 3  # the whole range, not one scale
