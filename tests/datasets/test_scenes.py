import math

import numpy as np
import pytest

from cardref.datasets import scenes
from cardref.datasets.faces import get_faces
from cardref.datasets.generate import generate
from cardref.vision.classes import CLASS_INDEX, CLASS_NAMES

MARKER = (0, 255, 0)


def test_same_seed_same_scene(small_library):
    a = scenes.render_scene(7, small_library)
    b = scenes.render_scene(7, small_library)
    assert np.array_equal(a.image, b.image)
    assert [(x.cls, x.box) for x in a.labels] == [(x.cls, x.box) for x in b.labels]
    c = scenes.render_scene(8, small_library)
    assert not np.array_equal(a.image, c.image)


def test_labels_are_valid(small_library):
    for seed in range(6):
        s = scenes.render_scene(seed, small_library)
        h, w = s.image.shape[:2]
        assert s.image.dtype == np.uint8 and s.image.shape == (320, 320, 3)
        for lab in s.labels:
            x1, y1, x2, y2 = lab.box
            assert 0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h
            assert CLASS_NAMES[lab.cls] == lab.card
            assert lab.visible >= scenes.SceneConfig().min_visible
        for line in scenes.yolo_lines(s):
            c, *vals = line.split()
            assert 0 <= int(c) < 54 and all(0 <= float(v) <= 1 for v in vals)


class _MarkerFaces:
    """A deck whose index ink is painted pure green on plain white paper."""

    def __init__(self, real):
        self._real = real
        self.codes = real.codes

    def image(self, code):
        im = self._real.image(code).copy()
        im[:, :, :3] = 255
        for pts in self._real.corner_points(code):
            xs = np.clip(pts[:, 0].astype(int), 0, im.shape[1] - 1)
            ys = np.clip(pts[:, 1].astype(int), 0, im.shape[0] - 1)
            im[ys, xs, :3] = MARKER
        return im

    def back(self):
        return None

    def corner_points(self, code):
        return self._real.corner_points(code)


@pytest.mark.parametrize("angle_deg,tilt", [(0, 0.0), (37, 0.0), (-120, 35.0), (200, 30.0)])
def test_boxes_land_on_the_glyphs(small_library, monkeypatch, angle_deg, tilt):
    """Paint the glyphs green, render one card turned and tilted: each box hugs its green blob."""
    design = small_library[0]
    real = get_faces(design)
    monkeypatch.setattr(scenes, "get_faces", lambda d: _MarkerFaces(real))
    monkeypatch.setattr(scenes, "random_background", lambda rng, h, w: np.full((h, w, 3), 128, np.uint8))
    cfg = scenes.SceneConfig(width=320, height=320, card_px=(150, 150), large_share=0.0, max_tilt_deg=tilt,
                             hand_p=0.0, clutter_p=0.0, back_p=0.0, photometric=False)
    s = scenes.render_scene(3, [design], cfg, cards=[(design, "10H", 0.0, 0.0, math.radians(angle_deg))])
    assert len(s.labels) == 2 and {lab.card for lab in s.labels} == {"10H"}
    im = s.image.astype(int)
    green = im[:, :, 1] - np.maximum(im[:, :, 0], im[:, :, 2]) > 40  # also faint, partly covered pixels
    ys, xs = np.nonzero(green)
    assert len(xs) > 50
    centres = np.array([[(b.box[0] + b.box[2]) / 2, (b.box[1] + b.box[3]) / 2] for b in s.labels])
    owner = np.argmin(((np.stack([xs, ys], 1)[:, None, :] - centres[None]) ** 2).sum(-1), axis=1)
    for k, lab in enumerate(s.labels):
        bx, by = xs[owner == k], ys[owner == k]
        x1, y1, x2, y2 = lab.box
        assert abs(bx.min() - x1) <= 2 and abs(by.min() - y1) <= 2, (lab.box, bx.min(), by.min())
        assert abs(bx.max() + 1 - x2) <= 2 and abs(by.max() + 1 - y2) <= 2, (lab.box, bx.max(), by.max())


def test_covered_corner_is_not_labelled(small_library, monkeypatch):
    """A second card placed over the first card's top-left index removes that label only."""
    design = small_library[0]
    monkeypatch.setattr(scenes, "random_background", lambda rng, h, w: np.full((h, w, 3), 128, np.uint8))
    cfg = scenes.SceneConfig(card_px=(120, 120), large_share=0.0, max_tilt_deg=0.0, hand_p=0.0,
                             clutter_p=0.0, back_p=0.0, photometric=False)
    alone = scenes.render_scene(1, [design], cfg, cards=[(design, "9S", 0.0, 0.0, 0.0)])
    assert [lab.card for lab in alone.labels] == ["9S", "9S"]
    # the 9S is ~82 x 120 units; a card shifted up-left by half a card covers its top-left index
    covered = scenes.render_scene(1, [design], cfg, cards=[(design, "9S", 0.0, 0.0, 0.0),
                                                           (design, "6D", -45.0, -65.0, 0.0)])
    nine = [lab for lab in covered.labels if lab.card == "9S"]
    assert len(nine) == 1
    x1, y1, x2, y2 = nine[0].box
    assert x1 > 160 and y1 > 160  # the bottom-right one survives
    assert CLASS_INDEX["6D"] in {lab.cls for lab in covered.labels}


def test_generate_is_deterministic_across_workers(small_library, tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    generate(a, 4, seed=5, split="train", workers=1, progress=False)
    generate(b, 4, seed=5, split="train", workers=2, progress=False)
    for sub in ("images/train", "labels/train"):
        fa, fb = sorted((a / sub).iterdir()), sorted((b / sub).iterdir())
        assert [p.name for p in fa] == [p.name for p in fb] and len(fa) == 4
        for x, y in zip(fa, fb, strict=True):
            assert x.read_bytes() == y.read_bytes()
    assert (a / "meta" / "train.jsonl").read_text() == (b / "meta" / "train.jsonl").read_text()
    yaml_text = (a / "data.yaml").read_text()
    assert "nc: 54" in yaml_text and "  53: 'BJ'" in yaml_text and "  0: 'AS'" in yaml_text


def _sharpness(img: np.ndarray) -> float:
    grey = img.astype(np.float32).mean(axis=2)
    lap = grey[1:-1, 1:-1] * 4 - grey[:-2, 1:-1] - grey[2:, 1:-1] - grey[1:-1, :-2] - grey[1:-1, 2:]
    return float(lap.var())


def test_harsh_optics_blur_more_than_the_webcam_default(small_library):
    # v1 used HARSH_OPTICS: about a third of its indices were unreadable; the default keeps
    # the blur a settled card shows on a webcam.  Same seeds, same layout: only optics differ.
    always = {k: (1.0, *v[1:]) for k, v in scenes.HARSH_OPTICS.items()}
    soft = scenes.SceneConfig(photometric=True, defocus=(1.0, 0.3, 0.8), motion=(1.0, 1, 2), soften=(1.0, 0.75, 0.92))
    harsh = scenes.SceneConfig(photometric=True, **always)
    s_soft = [_sharpness(scenes.render_scene(seed, small_library, soft).image) for seed in range(4)]
    s_harsh = [_sharpness(scenes.render_scene(seed, small_library, harsh).image) for seed in range(4)]
    assert all(a > b for a, b in zip(s_soft, s_harsh, strict=True))
    for seed in range(2):  # the labels do not depend on the optics
        a = scenes.render_scene(seed, small_library, soft).labels
        b = scenes.render_scene(seed, small_library, harsh).labels
        assert [(x.card, x.box) for x in a] == [(x.card, x.box) for x in b]


def _face(rgb: tuple[int, int, int]) -> np.ndarray:
    """A 2x2 RGBA face: white paper, then ``rgb`` ink."""
    face = np.full((2, 2, 4), 255, np.uint8)
    face[1, :, :3] = rgb
    return face


def test_one_ink_dark_deck_maps_all_ink_to_the_ink():
    """A one-ink dark deck (black-and-gold): paper becomes the dark paper, black and red ink alike
    become the ink, by their darkness."""
    paper, ink = np.array([20, 20, 30], np.float32), np.array([230, 200, 90], np.float32)
    assert scenes._darken(_face((255, 255, 255)), paper, ink)[0, 0, :3].tolist() == [20, 20, 30]
    assert scenes._darken(_face((0, 0, 0)), paper, ink)[1, 0, :3].tolist() == [230, 200, 90]
    assert scenes._darken(_face((0, 0, 0)), paper, ink)[1, 0, 3] == 255  # alpha kept


def test_two_tone_dark_deck_keeps_the_suit_colour():
    """A two-toned dark deck: black ink (spades, clubs) becomes silver, red ink (hearts,
    diamonds) gold, so a red suit still looks different from a black one."""
    paper = np.array([15, 15, 15], np.float32)
    silver, gold = np.array([200, 200, 200], np.float32), np.array([220, 170, 60], np.float32)
    black = scenes._darken(_face((0, 0, 0)), paper, silver, gold)[1, 0, :3].astype(int)
    red = scenes._darken(_face((210, 0, 10)), paper, silver, gold)[1, 0, :3].astype(int)
    white = scenes._darken(_face((0, 0, 0)), paper, silver, gold)[0, 0, :3].astype(int)
    assert black.tolist() == [200, 200, 200]
    assert np.abs(red - [220, 170, 60]).max() <= 2
    assert white.tolist() == [15, 15, 15]


def test_dark_deck_inks_two_toned_at_their_share():
    """A share ``two_tone_p`` of the dark decks is two-toned (gold or red beside the ink);
    the draw depends on the deck's paper and first ink only, so it repeats; at 0 every dark
    deck keeps its one ink, as in the data the shipped models were trained on."""
    rng = np.random.default_rng(0)
    kinds = []
    for _ in range(200):
        paper, ink = rng.uniform(10, 60, 3), rng.uniform(150, 250, 3)
        assert scenes._dark_deck_inks(paper, ink, 0.0) == (ink, None)
        a, b = scenes._dark_deck_inks(paper, ink, 0.5), scenes._dark_deck_inks(paper, ink, 0.5)
        assert np.array_equal(a[0], b[0]) and (a[1] is None) == (b[1] is None)
        kinds.append(a[1] is not None)
        if a[1] is None:
            assert np.array_equal(a[0], ink)
        else:
            assert a[1][0] > a[1][2]  # gold or red: more red than blue
        assert scenes._dark_deck_inks(paper, ink, 1.0)[1] is not None
    assert 0.35 < np.mean(kinds) < 0.65


def test_two_toned_decks_leave_the_rest_of_the_table_as_it_was(small_library):
    """Turning two-toned decks on recolours the dark decks only: the same seed places the
    same cards (same labels), and a scene without a dark deck is the same image."""
    base = scenes.SceneConfig(dark_deck_p=0.5)
    two = scenes.SceneConfig(dark_deck_p=0.5, two_tone_p=1.0)
    differ = 0
    for seed in range(6):
        a = scenes.render_scene(seed, small_library, base)
        b = scenes.render_scene(seed, small_library, two)
        assert [(x.cls, x.box) for x in a.labels] == [(x.cls, x.box) for x in b.labels]
        differ += not np.array_equal(a.image, b.image)
    assert differ > 0
