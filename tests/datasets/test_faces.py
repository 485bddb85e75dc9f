import cv2
import numpy as np
import pytest

from cardref.datasets import faces
from cardref.vision.classes import CLASS_NAMES


def test_fixture_designs_are_complete(small_library):
    assert faces.list_designs() == sorted(small_library)
    for d in small_library:
        lib = faces.CardFaces(d)
        assert lib.codes[:52] == list(CLASS_NAMES[:52])
        assert lib.has_jokers, d  # both fixture decks carry a black and a red joker
        assert lib.codes == list(CLASS_NAMES)


def test_corner_boxes_sit_on_index_ink(small_library):
    for d in small_library:
        lib = faces.CardFaces(d)
        for code in lib.codes:
            im = lib.image(code)
            h, w = im.shape[:2]
            assert im.dtype == np.uint8 and im.shape[2] == 4
            assert 1.3 < h / w < 1.7
            boxes = lib.corner_boxes(code)
            assert len(boxes) >= 2, (d, code)
            # one index near the top-left corner, one near the bottom-right corner
            tl = min(boxes, key=lambda b: b[0] + b[1])
            br = max(boxes, key=lambda b: b[2] + b[3])
            assert tl[0] < 0.2 * w and tl[1] < 0.2 * h, (d, code, tl)
            assert br[2] > 0.8 * w and br[3] > 0.8 * h, (d, code, br)
            for x1, y1, x2, y2 in boxes:
                assert 0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h
                bw, bh = x2 - x1, y2 - y1
                assert 0.03 * w < bw < 0.35 * w and 0.05 * h < bh < 0.4 * h, (d, code, (x1, y1, x2, y2))
            for pts, (x1, y1, x2, y2) in zip(lib.corner_points(code), boxes, strict=True):
                assert len(pts) >= 4
                assert pts[:, 0].min() >= x1 and pts[:, 0].max() <= x2
                assert pts[:, 1].min() >= y1 and pts[:, 1].max() <= y2


def test_every_index_box_holds_rank_and_suit(small_library):
    """The box takes the whole index: the rank and the suit below it (at least two glyphs),
    also where the suit is large and reaches towards mid-card (kde-nicu-white)."""
    for d in small_library:
        lib = faces.CardFaces(d)
        for code in lib.codes[:52]:
            ink = faces._paper_and_ink(lib.image(code))[1]
            for x1, y1, x2, y2 in lib.corner_boxes(code):
                n, _labels, stats, _ = cv2.connectedComponentsWithStats(ink[y1:y2, x1:x2].astype(np.uint8))
                glyphs = int(np.count_nonzero(stats[1:, cv2.CC_STAT_AREA] >= 12))
                assert glyphs >= 2, (d, code, (x1, y1, x2, y2))


def test_index_glyphs_differ_between_ranks(small_library):
    """The boxed corners carry the rank: the 6 and the 9 of one suit give different crops."""
    lib = faces.CardFaces(small_library[0])
    crops = {}
    for code in ("6S", "9S", "10S"):
        x1, y1, x2, y2 = lib.corner_boxes(code)[0]
        crops[code] = lib.image(code)[y1:y2, x1:x2, :3].astype(int)
    a, b = crops["6S"], crops["9S"]
    h, w = min(a.shape[0], b.shape[0]), min(a.shape[1], b.shape[1])
    assert np.abs(a[:h, :w] - b[:h, :w]).mean() > 5
    assert crops["10S"].shape[1] >= crops["6S"].shape[1]  # "10" is the wider index


def test_split_is_deterministic_and_disjoint(small_library):
    fams = ["a", "b", "c", "d", "e", "f", "g", "h", "i"]
    held = faces.heldout_families(fams)
    assert held == faces.heldout_families(list(reversed(fams)))
    assert 1 <= len(held) < len(fams)
    train, heldout = faces.list_designs("train"), faces.list_designs("heldout")
    assert not set(train) & set(heldout)
    assert sorted(train + heldout) == faces.list_designs()


def test_pinned_heldout_families_keep_new_decks_in_training():
    """The shipped models' held-out families stay held out when decks are added to the
    library; the newly usable ones go to training."""
    fams = sorted(faces.HELDOUT_FAMILIES) + ["anglo", "penguins", "konqi-modern", "xskat-french"]
    assert faces.heldout_families(fams) == set(faces.HELDOUT_FAMILIES)
    assert faces.heldout_families(["anglo", "lattmann"]) == {"lattmann"}


def test_paper_is_read_along_every_side_of_a_flush_cut_face():
    """A face cut flush with the image (only its rounded corners transparent) whose index
    crosses the corner region: the paper is still the paper, not the index's colour."""
    h, w = 280, 200
    img = np.zeros((h, w, 4), np.uint8)
    img[:, :] = (235, 228, 200, 255)  # cream paper
    r = 12
    for y in range(r):
        for x in range(r):
            if (r - x) ** 2 + (r - y) ** 2 > r * r:
                for yy, xx in ((y, x), (y, w - 1 - x), (h - 1 - y, x), (h - 1 - y, w - 1 - x)):
                    img[yy, xx] = 0
    for ys in (slice(6, 70), slice(h - 70, h - 6)):  # an index in each corner (as kde-dondorf)
        for xs in (slice(5, 34), slice(w - 34, w - 5)):
            img[ys, xs, :3] = (200, 20, 20)
    _inner, ink = faces._paper_and_ink(img)
    assert ink[100:180, 60:140].sum() == 0  # the paper is not ink
    assert ink[20:60, 15:30].all()  # the index is


@pytest.mark.parametrize("design", ["kde-penguins"])
def test_kde_decks_cut_from_the_whole_sheet(design):
    """rsvg-convert mis-measures this deck's cards by id; resvg's bounds cut every face whole,
    and the corner indices are found on all 52."""
    if faces._resvg_binary() is None:
        pytest.fail("resvg (PyPI resvg-cli) is not installed: run tools/setup.sh")
    src = next((s for s in faces._sources() if s.name == design), None)
    if src is None:
        pytest.fail("the Debian card-deck packages are not installed: run tools/setup.sh")
    cut = faces._normalise(faces._render_kde_sheet(src))
    assert set(CLASS_NAMES[:52]) <= set(cut)
    assert len({im.shape for code, im in cut.items() if code in CLASS_NAMES[:52]}) == 1
    h, w = cut["AS"].shape[:2]
    assert 1.3 < h / w < 1.5 and w == faces.FACE_WIDTH
    boxes = faces.find_corner_boxes(cut)
    assert set(CLASS_NAMES[:52]) <= set(boxes)


def test_unknown_design_is_a_clear_error(small_library):
    with pytest.raises(faces.FaceError, match="nope"):
        faces.CardFaces("nope")
    with pytest.raises(ValueError):
        faces.list_designs("everything")


def test_gimp_pattern_reader(tmp_path):
    import struct

    from cardref.datasets.backgrounds import read_gimp_pattern

    name = b"t\x00"
    px = np.arange(2 * 3 * 3, dtype=np.uint8).reshape(2, 3, 3)
    header = struct.pack(">5I", 24 + len(name), 1, 3, 2, 3) + b"GPAT" + name
    p = tmp_path / "t.pat"
    p.write_bytes(header + px.tobytes())
    assert np.array_equal(read_gimp_pattern(p), px)
    p.write_bytes(b"\x00" * 40)
    with pytest.raises(ValueError):
        read_gimp_pattern(p)
