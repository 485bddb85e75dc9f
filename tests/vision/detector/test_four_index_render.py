"""The shipped detector on rendered four-index cards: one entry per card (issue #33, item 6).

A few small frames of a drawn deck printed with an index in all four corners
(``datasets/drawn_decks.draw_face(..., four_corner=True)``), on felt, at a webcam's scale.
The merge's geometry is tested without a model in test_four_index.py; this checks that the
finder and the namer give it what it needs on real pixels.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from cardref.datasets.drawn_decks import deck_style, draw_face

DECK = 7  # a drawn deck whose indices the shipped namer reads (suits of other decks it mixes up)
CARD_PX = 100  # card height: indices about 18 px tall, a webcam's scale


def _place(canvas: np.ndarray, face_rgba: np.ndarray, cx: float, cy: float, angle: float) -> None:
    h0, w0 = face_rgba.shape[:2]
    m = cv2.getRotationMatrix2D((w0 / 2, h0 / 2), -angle, CARD_PX / h0)
    m[0, 2] += cx - w0 / 2
    m[1, 2] += cy - h0 / 2
    warped = cv2.warpAffine(face_rgba, m, (canvas.shape[1], canvas.shape[0]), flags=cv2.INTER_AREA,
                            borderValue=(0, 0, 0, 0))
    alpha = warped[:, :, 3:4].astype(np.float32) / 255.0
    canvas[:] = (canvas * (1 - alpha) + warped[:, :, 2::-1] * alpha).astype(np.uint8)  # RGB face on a BGR frame


def render(cards: list[tuple[str, float, float, float]], four_corner: bool = True) -> np.ndarray:
    """A 480x640 BGR frame of felt with ``cards`` (code, centre x, centre y, degrees), the last on top."""
    st = deck_style(DECK)
    frame = np.empty((480, 640, 3), np.uint8)
    frame[:] = (60, 110, 40)
    for code, x, y, angle in cards:
        _place(frame, draw_face(code, st, four_corner), x, y, angle)
    return frame


def test_a_drawn_four_corner_face_has_an_index_in_each_corner() -> None:
    st = deck_style(DECK)
    two, four = draw_face("7H", st), draw_face("7H", st, four_corner=True)
    h, w = two.shape[:2]
    paper = np.array(st.paper)

    def inked(face: np.ndarray, rows: slice, cols: slice) -> bool:
        return int(np.abs(face[rows, cols, :3].astype(int) - paper).max()) > 120

    top_right, bottom_left = (slice(0, h // 4), slice(w * 3 // 4, w)), (slice(h * 3 // 4, h), slice(0, w // 4))
    assert not inked(two, *top_right) and not inked(two, *bottom_left)
    assert inked(four, *top_right) and inked(four, *bottom_left)
    np.testing.assert_array_equal(two[: h // 4, : w // 2], four[: h // 4, : w // 2])  # the top-left index as before


W = CARD_PX / deck_style(DECK).aspect
SCENES = [
    # (what, cards, expected codes)
    ("one card alone", [("7H", 320, 240, 4)], ["7H"]),
    ("a fan of three", [(c, 240 + i * 0.32 * W, 240, 0) for i, c in enumerate(["KD", "3S", "7H"])], ["3S", "7H", "KD"]),
    ("two identical cards from two decks, fanned", [("7S", 260, 240, 0), ("7S", 260 + 0.35 * W, 240, 0)], ["7S", "7S"]),
    ("two identical cards from two decks, apart", [("7S", 220, 240, 0), ("7S", 400, 240, 3)], ["7S", "7S"]),
]


@pytest.fixture(scope="module")
def detector():
    from cardref.vision.detector import load_detector

    return load_detector(int8=False, scales=(1.0,))


@pytest.mark.parametrize(("what", "cards", "want"), SCENES, ids=[s[0] for s in SCENES])
def test_shipped_detector_counts_each_four_index_card_once(detector, what, cards, want) -> None:
    found = detector.detect(render(cards))
    assert sorted(c.card for c in found) == want, what


def test_without_the_side_rule_the_fan_counts_covered_cards_twice(detector) -> None:
    """What the four-index-sides rule does on these pixels: the fan's covered cards each show
    their two left indices, which count as two cards without it."""
    from dataclasses import replace

    from cardref.vision.detector.rules import DetectorRules

    _, cards, want = SCENES[1]
    frame = render(cards)
    corners = detector.detect_corners(frame)
    off = replace(detector, rules=DetectorRules.without(["four-index-sides"]))
    assert sorted(c.card for c in detector.merge_cards(corners, frame)) == want
    assert len(off.merge_cards(corners, frame)) > len(want)
