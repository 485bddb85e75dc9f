"""Homography and zone assignment on fixtures; calibration files and their errors."""

from __future__ import annotations

import json
import math
import random

import cv2
import numpy as np
import pytest

from cardref.vision.calibration import (
    BumpWatcher,
    CalibrationError,
    calibrate_from_markers,
    calibrate_manual,
    load_calibration,
    parse_corners,
    save_calibration,
    table_corners,
)
from cardref.vision.types import CardDetection, CornerDetection
from cardref.vision.zones import SeatLayout, Zone, ZoneError, default_layout, point_in_polygon, to_table

TABLE = (1000.0, 700.0)
# a fixture camera: where the four table corners appear in a 1280x720 image
QUAD = [(190.0, 60.0), (1090.0, 75.0), (1150.0, 690.0), (120.0, 670.0)]


def test_manual_calibration_maps_corners_and_inner_points():
    cal = calibrate_manual(QUAD, (1280, 720), TABLE)
    got = cal.to_table(QUAD)
    assert np.allclose(got, table_corners(TABLE), atol=1e-6)
    H_true, _ = cv2.findHomography(table_corners(TABLE), np.array(QUAD), 0)
    pts = np.array([[100.0, 100.0], [500.0, 350.0], [930.0, 640.0]])
    img = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), H_true).reshape(-1, 2)
    assert np.allclose(cal.to_table(img), pts, atol=1e-6)
    assert np.allclose(cal.to_image(pts), img, atol=1e-6)


@pytest.mark.parametrize("quad", [
    [(0, 0), (100, 0), (200, 0), (50, 50)],          # three in a line
    [(190, 60), (1150, 690), (1090, 75), (120, 670)],  # crossed order
    [(1, 2), (3, 4)],
])
def test_manual_calibration_rejects_bad_corners(quad):
    with pytest.raises(CalibrationError) as err:
        calibrate_manual(quad, (1280, 720), TABLE)
    assert err.value.code in ("calibration.bad_corners", "calibration.degenerate")


def test_parse_corners():
    assert parse_corners("1,2 3,4;5,6 7.5,8") == [(1, 2), (3, 4), (5, 6), (7.5, 8)]
    with pytest.raises(CalibrationError):
        parse_corners("1,2 3,4")
    with pytest.raises(CalibrationError):
        parse_corners("a,b c,d e,f g,h")


def test_save_load_roundtrip_with_zones(tmp_path):
    cal = calibrate_manual(QUAD, (1280, 720), TABLE, layout=default_layout(6, TABLE))
    path = tmp_path / "table.json"
    save_calibration(cal, str(path))
    back = load_calibration(str(path))
    assert np.allclose(back.homography, cal.homography)
    assert back.image_size == (1280, 720) and back.table_mm == TABLE and back.method == "manual"
    assert back.layout == cal.layout


@pytest.mark.parametrize("content,code", [
    (None, "calibration.missing"),
    ("{not json", "calibration.bad_file"),
    ("[1, 2]", "calibration.bad_file"),
    (json.dumps({"version": 99}), "calibration.bad_version"),
    (json.dumps({"version": 1, "homography": [[1, 0], [0, 1]], "image_size": [10, 10], "table_mm": [1, 1]}),
     "calibration.bad_file"),
    (json.dumps({"version": 1, "homography": [[0, 0, 0], [0, 0, 0], [0, 0, 1]], "image_size": [10, 10],
                 "table_mm": [1, 1]}), "calibration.bad_file"),
])
def test_bad_calibration_files(tmp_path, content, code):
    path = tmp_path / "cal.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(CalibrationError) as err:
        load_calibration(str(path))
    assert err.value.code == code


def test_bad_zones_in_calibration_file(tmp_path):
    obj = calibrate_manual(QUAD, (1280, 720), TABLE, layout=default_layout(4, TABLE)).to_json()
    obj["layout"]["zones"] = obj["layout"]["zones"][1:]  # seat 0 has no zone any more
    path = tmp_path / "cal.json"
    path.write_text(json.dumps(obj))
    with pytest.raises(CalibrationError) as err:
        load_calibration(str(path))
    assert err.value.code == "calibration.bad_zones"


def test_frame_size_mismatch_is_a_clear_error():
    cal = calibrate_manual(QUAD, (1280, 720), TABLE)
    with pytest.raises(CalibrationError) as err:
        cal.check_frame(640, 480)
    assert err.value.code == "calibration.size_mismatch"


def _rendered_table(bump_px: float = 0.0):
    from cardref.vision.simulate.faces import FaceSet
    from cardref.vision.simulate.render import CameraStyle, TableRenderer
    from cardref.vision.simulate.timeline import Timeline

    layout = default_layout(4, TABLE)
    tl = Timeline([], [], [], 1.0, [])
    style = CameraStyle(shake_px=0.0, noise=2.0, bump_at=0.0 if bump_px else None, bump_px=bump_px)
    r = TableRenderer(tl, layout, FaceSet(drawn_only=True), seed=5, style=style)
    img, dets = r.render(0.0)
    return r, img, dets


def test_markers_found_in_a_rendered_frame_give_the_true_homography():
    r, img, dets = _rendered_table()
    assert dets == []
    cal = calibrate_from_markers(img, TABLE)
    true = r.calibration()
    pts = np.array([[80, 80], [500, 350], [900, 620], [0, 0], [1000, 700]], dtype=float)
    err = np.linalg.norm(cal.to_table(true.to_image(pts)) - pts, axis=1)
    assert err.max() < 3.0  # mm


def test_markers_missing_names_the_corners():
    blank = np.full((720, 1280, 3), 90, np.uint8)
    with pytest.raises(CalibrationError) as err:
        calibrate_from_markers(blank, TABLE)
    assert err.value.code == "calibration.markers_missing"
    assert "top-left" in str(err.value) and "bottom-left" in str(err.value)


def test_bump_watcher_recalibrates_only_when_markers_moved():
    _, img, _ = _rendered_table()
    cal = calibrate_from_markers(img, TABLE, default_layout(4, TABLE))
    watcher = BumpWatcher(cal, every_s=0.0)
    assert watcher.check(1.0, img) is None  # same view
    blank = np.full_like(img, 90)
    assert watcher.check(2.0, blank) is None  # markers covered: not a bump
    _, bumped, _ = _rendered_table(bump_px=20.0)
    fresh = watcher.check(3.0, bumped)
    assert fresh is not None and watcher.bumps == 1
    assert fresh.layout == cal.layout
    moved = np.linalg.norm(fresh.corners_px - cal.corners_px, axis=1)
    assert moved.min() > 10


# ---------------------------------------------------------------------------- zones

@pytest.mark.parametrize("seats", [4, 6])
def test_default_layout_zones_are_disjoint_and_inside_the_table(seats):
    layout = default_layout(seats, TABLE)
    seat_zones = [z for z in layout.zones if z.kind == "seat"]
    assert sorted(z.seat for z in seat_zones) == list(range(seats))
    assert layout.pile is not None
    for x in range(0, 1001, 20):
        for y in range(0, 701, 20):
            inside = [z.name for z in layout.zones if z.contains((x, y))]
            assert len(inside) <= 1, (x, y, inside)
    for z in layout.zones:
        for x, y in z.polygon:
            assert 0 <= x <= TABLE[0] and 0 <= y <= TABLE[1]
        assert layout.zone_of(z.center) == z


@pytest.mark.parametrize("seats", [4, 6])
def test_seats_go_counter_clockwise_from_the_bottom(seats):
    layout = default_layout(seats, TABLE)
    cx, cy = TABLE[0] / 2, TABLE[1] / 2
    # seen from above with y pointing down the image, counter-clockwise means the
    # angle atan2(y, x) decreases from seat to seat
    angles = [math.degrees(math.atan2(layout.seat_zone(s).center[1] - cy, layout.seat_zone(s).center[0] - cx))
              for s in range(seats)]
    assert layout.seat_zone(0).center[1] > cy  # seat 0 at the bottom edge
    for a, b in zip(angles, angles[1:] + angles[:1], strict=True):
        step = (b - a) % 360
        assert 180 < step < 360, angles
    if seats == 6:
        for s in range(3):
            a, b = layout.seat_zone(s).center, layout.seat_zone((s + 3) % 6).center
            assert abs((a[0] + b[0]) / 2 - cx) < 60 and abs((a[1] + b[1]) / 2 - cy) < 60  # 对门 across


def test_zone_assignment_with_tolerance_and_outside():
    layout = default_layout(4, TABLE)
    z0 = layout.seat_zone(0)
    x0 = min(p[0] for p in z0.polygon)
    y_mid = z0.center[1]
    assert layout.zone_of((x0 - 10, y_mid)) is None
    assert layout.zone_of((x0 - 10, y_mid), tolerance=20) == z0
    assert layout.zone_of((-50, -50), tolerance=20) is None
    assert point_in_polygon((1, 1), ((0, 0), (2, 0), (2, 2), (0, 2)))
    assert not point_in_polygon((3, 1), ((0, 0), (2, 0), (2, 2), (0, 2)))


def test_layout_json_roundtrip_and_errors():
    layout = default_layout(6, TABLE)
    assert SeatLayout.from_json(json.loads(json.dumps(layout.to_json()))) == layout
    with pytest.raises(ZoneError):
        Zone("x", ((0, 0), (1, 1)), 0)
    with pytest.raises(ZoneError):
        SeatLayout(2, (Zone("a", ((0, 0), (1, 0), (1, 1)), 0), Zone("b", ((0, 0), (1, 0), (1, 1)), 0)))
    with pytest.raises(ZoneError):
        SeatLayout.from_json({"seats": 4, "zones": [{"polygon": "nope"}]})
    with pytest.raises(ZoneError):
        default_layout(5, TABLE)


def test_detections_map_to_table_points_and_zones():
    cal = calibrate_manual(QUAD, (1280, 720), TABLE, layout=default_layout(4, TABLE))
    layout = cal.layout
    target = np.array([layout.seat_zone(2).center, layout.seat_zone(1).center])
    px = cal.to_image(target)
    a = CornerDetection("QH", 0.9, (px[0][0] - 5, px[0][1] - 10, px[0][0] + 5, px[0][1] + 10))
    with_corners = CardDetection("QH", 0.9, a.box, (a,))
    box_only = CardDetection("7C", 0.8, (px[1][0] - 5, px[1][1] - 10, px[1][0] + 5, px[1][1] + 10))
    cards = to_table([with_corners, box_only], cal.to_table, layout)
    assert [c.zone for c in cards] == ["seat2", "seat1"]
    assert np.allclose(cards[0].points[0], target[0], atol=0.5)
    assert len(cards[1].quad) == 4
    assert to_table([], cal.to_table, layout) == []


def test_random_points_assigned_consistently_with_polygons():
    layout = default_layout(6, TABLE)
    rng = random.Random(3)
    for _ in range(300):
        p = (rng.uniform(0, 1000), rng.uniform(0, 700))
        z = layout.zone_of(p)
        hits = [q for q in layout.zones if q.contains(p)]
        assert (z is None) == (not hits)
        if z is not None:
            assert z in hits
