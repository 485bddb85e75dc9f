"""Rendered tables straight into the pipeline (no video file): camera bumps, the centre
pile, hands passing over cards, noisy detections."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from cardref.engine.events import GAME_SEATS
from cardref.vision.capture import Frame
from cardref.vision.simulate.deal import simulate_events
from cardref.vision.simulate.faces import FaceSet
from cardref.vision.simulate.oracle import OracleDetector, OracleNoise
from cardref.vision.simulate.render import CameraStyle, TableRenderer
from cardref.vision.simulate.timeline import Timing, build_timeline
from cardref.vision.watch import Pipeline
from cardref.vision.zones import default_layout

FPS = 10.0


class Replay:
    """A detector that returns what the renderer says is visible, with oracle noise."""

    def __init__(self, noise: OracleNoise, seed: int) -> None:
        self.truth: list = []
        self.oracle = OracleDetector(None, noise, seed)

    def detect(self, frame_bgr):
        return self.oracle.noisy(self.truth, frame_bgr.shape[:2])


def run_table(game: str, seed: int, *, plays: int, pile: bool = False, style: CameraStyle | None = None,
              noise: OracleNoise | None = None, distract_p: float = 0.25):
    seats = GAME_SEATS[game]
    layout = default_layout(seats)
    deal = simulate_events(game, seed)
    tl = build_timeline(deal.events, layout, random.Random(seed), max_plays=plays, pile=pile,
                        timing=Timing(distract_p=distract_p))
    renderer = TableRenderer(tl, layout, FaceSet(drawn_only=True), seed=seed, style=style)
    det = Replay(noise or OracleNoise(), seed)
    pipe = Pipeline(det, seats)
    got = []
    for i in range(int(tl.duration * FPS) + 1):
        img, truth = renderer.render(i / FPS)
        det.truth = truth
        got.extend(pipe.process(Frame(img, i, i / FPS)).plays)
    want = [(p.seat, Counter(p.cards)) for p in tl.plays]
    return want, [(p.seat, Counter(p.cards)) for p in got], got, tl, pipe


def test_camera_bumped_mid_deal_is_recalibrated_without_phantom_plays():
    style = CameraStyle(bump_at=7.0, bump_px=16.0)
    want, got, _, _, pipe = run_table("chaodipi-kangqi", 4, plays=5, style=style)
    assert pipe.stats.bumps >= 1
    assert got == want


def test_centre_pile_plays_are_given_to_the_seat_they_came_from():
    want, got, obs, _, _ = run_table("gouji-yucheng", 6, plays=7, pile=True)
    assert got == want
    assert all(p.zone == "pile" for p in obs)


def test_hands_passing_over_never_make_plays():
    want, got, _, tl, _ = run_table("guafeng-zibo", 9, plays=5, distract_p=1.0)
    assert len(tl.hands) >= 2 * len(tl.plays)  # a passing hand after every play
    assert got == want


@pytest.mark.parametrize("game", ["gouji-shandong", "chaodipi-mingchao"])
def test_noisy_detections_still_give_the_true_plays(game):
    want, got, obs, _, _ = run_table(game, 2, plays=5, noise=OracleNoise.named("harsh"))
    assert got == want
    for p in obs:
        assert 0 <= p.conf <= 1 and p.t_emit - p.t < 2.0


def test_a_frame_is_the_same_whatever_was_rendered_before_it():
    """The simulator's frames depend on the seed and the time only (its sensor noise once
    came from OpenCV's process-wide generator: a deal's video then changed with the deals,
    or the deck layouts, drawn before it in the same process)."""
    seats = GAME_SEATS["guafeng-zibo"]
    layout = default_layout(seats)
    deal = simulate_events("guafeng-zibo", 3)

    def renderer(seed: int) -> TableRenderer:
        tl = build_timeline(deal.events, layout, random.Random(seed), max_plays=2)
        return TableRenderer(tl, layout, FaceSet(drawn_only=True), seed=seed)

    first = renderer(3).render(1.0)[0]
    renderer(4).render(0.5)  # another deal drawn in between
    again = renderer(3).render(1.0)[0]
    assert np.array_equal(first, again)
    assert not np.array_equal(first, renderer(3).render(1.1)[0])  # and the noise still changes with time


def test_a_1080p_camera_at_the_same_place_sees_cards_half_as_large_again_and_plays_the_same():
    """``--resolution 1920x1080``: the camera keeps its place, so the table fills the frame as
    at 720p and every card is 1.5 times as many pixels across; the plays are unchanged."""
    heights = []
    for style in (None, CameraStyle(size=(1920, 1080))):
        want, got, _, tl, pipe = run_table("guafeng-zibo", 5, plays=3, style=style)
        assert got == want
        assert pipe.calibration.image_size == (style or CameraStyle()).size
        renderer = TableRenderer(tl, default_layout(GAME_SEATS["guafeng-zibo"]), FaceSet(drawn_only=True),
                                 seed=5, style=style)
        heights.append([d.box[3] - d.box[1] for d in renderer.render(tl.duration)[1]])
    small, large = heights
    assert len(small) == len(large) > 0
    assert np.median(large) / np.median(small) == pytest.approx(1.5, abs=0.05)
