"""The detector's rule table (vision/detector/rules.py): names, switches and traces."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from cardref.vision.detector import Detector, DetectorError, RuleTrace
from cardref.vision.detector.merge import DEFAULT_MERGE, MergeSettings, index_size, merge_corners
from cardref.vision.detector.rules import RULE_NAMES, RULES, DetectorRules, card_difference, rule
from cardref.vision.types import CornerDetection

from .test_four_index import FOUR, fan, table


def test_every_rule_is_named_once_with_a_stage_and_a_sentence() -> None:
    assert len(set(RULE_NAMES)) == len(RULES)
    for r in RULES:
        assert r.stage in ("finder", "namer", "merge"), r
        assert r.does and r.name == r.name.lower() and " " not in r.name
    assert all(DetectorRules().on(r.name) is r.default for r in RULES)


def test_an_unknown_rule_is_a_clear_error_naming_the_known_ones() -> None:
    with pytest.raises(DetectorError, match="no detector rule 'spekcs'.*specks"):
        DetectorRules.without(["spekcs"])
    with pytest.raises(DetectorError, match="no detector rule"):
        rule("nope")


# Each merge rule switched off turns off its MergeSettings field (and nothing else).
MERGE_SWITCHES = [
    ("same-place", "same_place_ratio", 0.0),
    ("joint-reading", "joint_min", 0.0),
    ("frame-ratio", "adapt_after", 0),
    ("four-index", "four_index", False),
    ("four-index-sides", "four_index_sides", False),
    ("jumbo-diagonal", "jumbo", False),
]


@pytest.mark.parametrize(("name", "field", "off"), MERGE_SWITCHES)
def test_a_merge_rule_switched_off_turns_off_its_setting(name: str, field: str, off: object) -> None:
    base = MergeSettings()
    settings = DetectorRules.without([name]).merge_settings(base)
    assert getattr(settings, field) == off != getattr(base, field)
    changed = [f for f in base.__dataclass_fields__ if getattr(settings, f) != getattr(base, f)]
    assert changed == [field]


def test_every_merge_rule_has_a_switch() -> None:
    assert sorted(n for n, _, _ in MERGE_SWITCHES) == sorted(r.name for r in RULES if r.stage == "merge")
    assert DetectorRules().merge_settings(DEFAULT_MERGE) is DEFAULT_MERGE


def test_card_difference() -> None:
    assert card_difference(["AS"], ["AS", "AS"]) == "-AS"
    assert card_difference(["KD", "2C"], ["KH"]) == "+2C +KD -KH"
    assert card_difference(["QH"], ["QH"]) == ""


@dataclass
class FakeFinder:
    """A finder that sees given boxes at each frame width (the frame shrunk by a scale)."""

    by_width: dict[int, list[CornerDetection]]
    name: str = "fake"
    model_path: Path = Path("fake.onnx")
    names: tuple[str, ...] = ("corner",)

    def detect_corners(self, frame_bgr: np.ndarray) -> list[CornerDetection]:
        return list(self.by_width.get(frame_bgr.shape[1], []))


def _box(x: float, y: float, size: float, conf: float = 0.9, code: str = "AS") -> CornerDetection:
    return CornerDetection(code, conf, (x, y, x + 0.6 * size, y + size))


FRAME = np.full((640, 640, 3), 200, np.uint8)
# a close-up: large indices seen at full size and shrunk to 0.4, and a speck
CLOSE_UP = {640: [_box(100, 100, 90), _box(300, 100, 95), _box(500, 100, 88), _box(50, 500, 8)],
            256: [_box(40, 400, 36) for _ in range(1)]}  # 100..136 in frame pixels: a new index
# a webcam frame: a dozen small confident indices at full size
WEBCAM = {640: [_box(40 * i, 300, 16) for i in range(1, 6)], 256: [_box(10, 10, 8)]}


FINDER_CASES = [
    # (frame's boxes, rules off, boxes expected, rules in the trace)
    (CLOSE_UP, [], 4, ["second-look", "specks"]),  # 4 + 1 at 0.4 - 1 speck
    (CLOSE_UP, ["specks"], 5, ["second-look"]),
    (CLOSE_UP, ["second-look"], 4, []),
    (WEBCAM, [], 5, ["camera-scale"]),  # a webcam's scale: no second look
    (WEBCAM, ["camera-scale"], 6, ["second-look"]),
]


@pytest.mark.parametrize(("boxes", "off", "n", "traced"), FINDER_CASES)
def test_finder_rules_switch_and_trace(boxes, off, n, traced) -> None:
    det = Detector(FakeFinder(boxes), scales=(1.0, 0.4), rules=DetectorRules.without(off))
    trace = RuleTrace()
    found = det.find_corners(FRAME, trace)
    assert len(found) == n
    assert [name for name, _ in trace.changes] == traced
    assert det.find_corners(FRAME) == found  # the trace changes nothing


# a webcam frame far above the table: small indices, and the enlarged frame (1280 wide) shows
# them twice as large, one index more and a speck of noise (5 px in the frame's pixels)
SMALL = {640: [_box(40 * i, 300, 16) for i in range(1, 6)],
         1280: [_box(80 * i, 600, 32) for i in range(1, 6)] + [_box(900, 900, 30), _box(100, 1000, 10)]}
# nothing confident at the frame's own size: the enlarged look is taken too
FAINT = {640: [_box(100, 100, 14, conf=0.2)], 1280: [_box(200, 200, 28), _box(600, 200, 28)]}

ENLARGED_CASES = [
    # (frame's boxes, rules off, boxes expected, rules in the trace)
    (SMALL, [], 6, ["camera-scale", "enlarged-look"]),  # 5 + the new index; the speck dropped
    (SMALL, ["enlarged-look"], 5, ["camera-scale"]),
    (FAINT, [], 2, ["enlarged-look"]),  # the faint box is one of the two enlarged
    (CLOSE_UP, [], 4, ["second-look", "specks"]),  # a close-up's indices are large: never enlarged
]


@pytest.mark.parametrize(("boxes", "off", "n", "traced"), ENLARGED_CASES)
def test_enlarged_look_switches_and_traces(boxes, off, n, traced) -> None:
    det = Detector(FakeFinder(boxes), scales=(1.0, 0.4), enlarge=2.0, rules=DetectorRules.without(off))
    trace = RuleTrace()
    found = det.find_corners(FRAME, trace)
    assert len(found) == n
    assert [name for name, _ in trace.changes] == traced
    assert all(index_size(c) >= 8 for c in found if c not in boxes[640])


def test_a_frame_the_finder_saw_shrunk_is_enlarged_from_that_scale() -> None:
    """A 1080p frame is seen at 2/3 of its size: its enlarged look is at 4/3 (2560 wide), and
    the smallest box kept is 8 px as the finder first saw it (12 px of the frame's)."""
    frame = np.full((1080, 1920, 3), 200, np.uint8)
    seen = [_box(60 * i, 300, 21) for i in range(1, 6)]            # 14 px as the finder sees them
    bigger = [_box(80 * i, 400, 28) for i in range(1, 6)]           # the same, at 4/3
    boxes = {1920: seen, 2560: bigger + [_box(1200, 1200, 27), _box(100, 1300, 14)]}  # one more; a speck
    trace = RuleTrace()
    found = Detector(FakeFinder(boxes), enlarge=2.0).find_corners(frame, trace)
    assert len(found) == 6 and min(index_size(c) for c in found) > 12
    assert trace.changes == [("enlarged-look", "indices small: 5 boxes -> 6 with the frame at 1.33333x its size")]


def test_no_enlarged_look_unless_asked() -> None:
    """Live video (enlarge 1, the default) never takes it: about five times the finder's work."""
    assert len(Detector(FakeFinder(SMALL), scales=(1.0, 0.4)).find_corners(FRAME)) == 5


def test_merge_rules_trace_what_they_changed() -> None:
    corners, want = table(fan(["3S", "7H", "KD"], FOUR, 0.3), FOUR, 18.0)
    det = Detector(FakeFinder({}))
    trace = RuleTrace()
    cards = det.merge_cards(corners, None, trace)
    assert sorted(c.card for c in cards) == want
    changes = dict(trace.changes)
    assert changes["four-index-sides"] == "-3S -7H"  # without it the two covered cards count twice
    assert "four-index" in changes
    off = Detector(FakeFinder({}), rules=DetectorRules.without(["four-index-sides"]))
    assert len(off.merge_cards(corners)) == len(merge_corners(corners, MergeSettings(four_index_sides=False)))


@dataclass
class FakeNamer:
    inverted: bool = True
    seen: list[bool] | None = None

    def name(self, frame_bgr, corners):  # noqa: ANN001, ANN201
        self.seen = [*(self.seen or []), self.inverted]
        return [CornerDetection("AS" if self.inverted else "AC", c.conf, c.box) for c in corners]


@pytest.mark.parametrize(("off", "seen", "code"), [([], [True], "AS"), (["inverted-ink"], [False], "AC")])
def test_inverted_ink_rule_switches_the_namers_inverted_reading(off, seen, code) -> None:
    namer = FakeNamer()
    det = Detector(FakeFinder({}), namer=namer, rules=DetectorRules.without(off))  # type: ignore[arg-type]
    named = det.name_corners(FRAME, [_box(10, 10, 20)])
    assert namer.seen == seen and named[0].card == code
    assert namer.inverted is True  # the namer's own setting is left as it was
    trace = RuleTrace()
    det.name_corners(FRAME, [_box(10, 10, 20)], trace)
    assert trace.changes == ([("inverted-ink", "AC->AS")] if not off else [])


@pytest.mark.parametrize(("off", "calls"), [([], 1), (["joker-ink"], 0)])
def test_joker_ink_rule_switch(monkeypatch, off, calls) -> None:
    import cardref.vision.detector as detector

    called = []
    monkeypatch.setattr(detector, "settle_jokers", lambda frame, corners: called.append(1) or list(corners))
    det = Detector(FakeFinder({}), rules=DetectorRules.without(off))
    det.merge_cards([_box(10, 10, 20, code="SJ")], FRAME)
    assert len(called) == calls
