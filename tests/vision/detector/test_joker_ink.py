"""Big or small joker by the colour of the ink: the redness measure against the card's own
paper, the corners it renames (jokers only, both ways, only when the ink is clear), and
what it leaves to the namer (greyscale frames, light ink on dark cards)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from cardref.vision.detector import Detector
from cardref.vision.detector.joker_ink import BLACK_INK, RED_INK, redness, settle_jokers
from cardref.vision.detector.namer import crop_corner
from cardref.vision.types import CornerDetection

FELT = (60, 120, 50)  # BGR
RED = (40, 40, 200)
BLACK = (35, 35, 35)
WHITE = (245, 245, 245)
BOX = (48.0, 38.0, 62.0, 62.0)  # one joker mark, a webcam's dozen pixels wide


def _frame(ink: tuple[int, int, int], paper: tuple[int, int, int] = WHITE, light: tuple[float, float, float] = (1, 1, 1)) -> np.ndarray:
    """A card's corner at the frame's left edge on felt, a joker mark (a ring over the letter J) in ``ink``;
    ``light`` tints the whole frame (per BGR channel), as a warm lamp does."""
    frame = np.full((120, 160, 3), FELT, np.uint8)
    cv2.rectangle(frame, (40, 30), (150, 115), paper, -1)
    cv2.circle(frame, (55, 44), 5, ink, 2)
    cv2.putText(frame, "J", (50, 60), cv2.FONT_HERSHEY_SIMPLEX, 0.45, ink, 2)
    return np.clip(frame.astype(np.float32) * np.asarray(light, np.float32), 0, 255).astype(np.uint8)


def _joker(code: str) -> CornerDetection:
    other = "BJ" if code == "SJ" else "SJ"
    return CornerDetection(code, 0.8, BOX, ((code, 0.7), (other, 0.25), ("8H", 0.05)))


@pytest.mark.parametrize(("ink", "light", "red"), [
    (RED, (1, 1, 1), True),
    (BLACK, (1, 1, 1), False),
    (RED, (0.55, 0.8, 1.0), True),     # a warm lamp: the paper turns orange, the red ink stays red against it
    (BLACK, (0.55, 0.8, 1.0), False),  # ... and black ink stays black
    (RED, (0.5, 0.5, 0.5), True),      # a dim table
])
def test_redness_is_measured_against_the_cards_own_paper(ink, light, red: bool) -> None:
    r = float(redness([crop_corner(_frame(ink, light=light), BOX)])[0])
    assert (r >= RED_INK) if red else (r <= BLACK_INK), r


def test_green_felt_beside_a_black_mark_is_not_red() -> None:
    box = (38.0, 30.0, 56.0, 56.0)  # a box straddling the card's edge: a third of it is felt
    assert float(redness([crop_corner(_frame(BLACK), box)])[0]) <= BLACK_INK


@pytest.mark.parametrize(("ink", "read", "named"), [
    (RED, "SJ", "BJ"),    # the namer's small joker printed red is the big one
    (BLACK, "BJ", "SJ"),  # and a black big joker the small one
    (RED, "BJ", "BJ"),
    (BLACK, "SJ", "SJ"),
])
def test_a_joker_is_named_by_its_ink(ink, read: str, named: str) -> None:
    out = settle_jokers(_frame(ink), [_joker(read)])
    assert out[0].card == named
    assert out[0].alts[0] == (named, 0.7)  # the likelier joker reading now belongs to the code given
    assert {c for c, _ in out[0].alts} == {"SJ", "BJ", "8H"}
    assert out[0].conf == 0.8 and out[0].box == BOX


def test_ink_in_between_is_left_to_the_namer() -> None:
    pink = (200, 200, 225)  # faint pink: neither clearly red nor clearly black
    frame = _frame(pink)
    r = float(redness([crop_corner(frame, BOX)])[0])
    assert BLACK_INK < r < RED_INK
    assert settle_jokers(frame, [_joker("SJ")])[0].card == "SJ"
    assert settle_jokers(frame, [_joker("BJ")])[0].card == "BJ"


def test_only_jokers_are_renamed() -> None:
    heart = CornerDetection("AH", 0.9, BOX, (("AH", 0.9),))
    assert settle_jokers(_frame(BLACK), [heart]) == [heart]


def test_a_greyscale_frame_says_nothing_about_colour() -> None:
    grey = cv2.cvtColor(cv2.cvtColor(_frame(RED), cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    assert settle_jokers(grey, [_joker("BJ")])[0].card == "BJ"  # its ink measures black: not trusted


def test_light_ink_on_a_dark_card_is_left_to_the_namer() -> None:
    gold_on_black = _frame((60, 170, 210), paper=(30, 30, 30))  # the black-and-gold deck's big joker
    assert settle_jokers(gold_on_black, [_joker("BJ")])[0].card == "BJ"
    assert settle_jokers(gold_on_black, [_joker("SJ")])[0].card == "SJ"


def test_the_detector_names_jokers_by_ink_when_it_has_the_frame() -> None:
    det = Detector(backend=None)  # merging needs no finder
    corners = [_joker("SJ")]
    assert [c.card for c in det.merge_cards(corners)] == ["SJ"]             # no frame: the namer's reading
    assert [c.card for c in det.merge_cards(corners, _frame(RED))] == ["BJ"]
    det.jokers_by_ink = False
    assert [c.card for c in det.merge_cards(corners, _frame(RED))] == ["SJ"]
