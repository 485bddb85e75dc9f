"""Table calibration: the homography from camera pixels to table millimetres.

Four ArUco markers (dictionary ``DICT_4X4_50``, ids 0–3, printed by ``cardref markers``)
lie at the table corners: id 0 top left as the camera sees it, 1 top right, 2 bottom
right, 3 bottom left (seat 0 sits at the bottom edge).  Their centres span the table
rectangle of ``table_mm``.  Without markers, four corners clicked or typed by hand give
the same homography (:func:`calibrate_manual`).

A :class:`Calibration` is saved as JSON together with the seat zones
(:class:`~cardref.vision.zones.SeatLayout`), one file per table.  :class:`BumpWatcher`
re-finds the markers now and then and recalibrates when the camera was moved.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from .zones import DEFAULT_TABLE_MM, SeatLayout, ZoneError, default_layout

MARKER_DICT = cv2.aruco.DICT_4X4_50
MARKER_IDS = (0, 1, 2, 3)
CORNER_NAMES = ("top-left", "top-right", "bottom-right", "bottom-left")
CALIBRATION_VERSION = 1
#: A standard (poker-size) playing card's height; bridge-size cards are 88.9 mm.
CARD_HEIGHT_MM = 88.0


class CalibrationError(ValueError):
    """A calibration that cannot be made or used; ``code`` is stable."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)


def table_corners(table_mm: tuple[float, float]) -> np.ndarray:
    w, h = table_mm
    return np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float64)


def _homography(src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    H, _ = cv2.findHomography(src.astype(np.float64), dst.astype(np.float64), 0)
    if H is None or not np.all(np.isfinite(H)) or abs(np.linalg.det(H)) < 1e-12:
        raise CalibrationError("calibration.degenerate", "the four corners do not span a table (three in a line?)")
    return H / H[2, 2]


def apply_homography(H: np.ndarray, points: np.ndarray | Sequence[Sequence[float]]) -> np.ndarray:
    """Map ``N x 2`` points through ``H`` (returns ``N x 2`` float64)."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
    if len(pts) == 0:
        return pts
    ones = np.ones((len(pts), 1))
    out = np.hstack([pts, ones]) @ H.T
    return out[:, :2] / out[:, 2:3]


def _convex(quad: np.ndarray) -> bool:
    signs = []
    for i in range(4):
        a, b, c = quad[i], quad[(i + 1) % 4], quad[(i + 2) % 4]
        signs.append(np.sign((b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])))
    return all(s > 0 for s in signs) or all(s < 0 for s in signs)


@dataclass
class Calibration:
    """Pixels → table mm for one camera pose, plus the table's seat zones."""

    homography: np.ndarray  # 3x3, image pixels -> table mm
    image_size: tuple[int, int]  # width, height of the frames it was made for
    table_mm: tuple[float, float] = DEFAULT_TABLE_MM
    method: str = "aruco"  # "aruco" | "manual" | "simulated"
    corners_px: np.ndarray = field(default_factory=lambda: np.zeros((4, 2)))  # table corners in the image
    layout: SeatLayout | None = None
    marker_mm: float | None = None

    def to_table(self, points: np.ndarray | Sequence[Sequence[float]]) -> np.ndarray:
        return apply_homography(self.homography, points)

    def to_image(self, points: np.ndarray | Sequence[Sequence[float]]) -> np.ndarray:
        return apply_homography(np.linalg.inv(self.homography), points)

    def with_layout(self, layout: SeatLayout) -> Calibration:
        return replace(self, layout=layout)

    def card_height_px(self, card_h_mm: float = CARD_HEIGHT_MM) -> float:
        """How many pixels tall a card is at the table's centre (the mean of its height laid
        along and across the table: the camera may look slightly obliquely)."""
        cx, cy = self.table_mm[0] / 2, self.table_mm[1] / 2
        h = card_h_mm / 2
        ends = self.to_image([(cx, cy - h), (cx, cy + h), (cx - h, cy), (cx + h, cy)])
        return float((np.linalg.norm(ends[1] - ends[0]) + np.linalg.norm(ends[3] - ends[2])) / 2)

    def check_frame(self, width: int, height: int) -> None:
        """Raise when frames of this size cannot use this calibration."""
        if (width, height) != tuple(self.image_size):
            raise CalibrationError("calibration.size_mismatch",
                                   f"the calibration was made for {self.image_size[0]}x{self.image_size[1]} frames, "
                                   f"the camera gives {width}x{height}: recalibrate")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "version": CALIBRATION_VERSION,
            "method": self.method,
            "image_size": list(self.image_size),
            "table_mm": list(self.table_mm),
            "homography": [[float(v) for v in row] for row in self.homography],
            "corners_px": [[round(float(x), 2), round(float(y), 2)] for x, y in self.corners_px],
        }
        if self.marker_mm is not None:
            out["marker_mm"] = self.marker_mm
        if self.layout is not None:
            out["layout"] = self.layout.to_json()
        return out

    @classmethod
    def from_json(cls, obj: Any) -> Calibration:
        if not isinstance(obj, dict):
            raise CalibrationError("calibration.bad_file", "a calibration file must hold one JSON object")
        if obj.get("version") != CALIBRATION_VERSION:
            raise CalibrationError("calibration.bad_version",
                                   f"calibration version {obj.get('version')!r} is not {CALIBRATION_VERSION}")
        try:
            H = np.array(obj["homography"], dtype=np.float64)
            size = (int(obj["image_size"][0]), int(obj["image_size"][1]))
            table = (float(obj["table_mm"][0]), float(obj["table_mm"][1]))
            corners = np.array(obj.get("corners_px") or apply_homography(np.linalg.inv(H), table_corners(table)),
                               dtype=np.float64)
        except (KeyError, TypeError, ValueError, IndexError, np.linalg.LinAlgError) as exc:
            raise CalibrationError("calibration.bad_file", f"calibration file is incomplete or malformed: {exc}") from None
        if H.shape != (3, 3) or not np.all(np.isfinite(H)) or abs(np.linalg.det(H)) < 1e-12:
            raise CalibrationError("calibration.bad_file", "the homography must be an invertible 3x3 matrix")
        if corners.shape != (4, 2) or min(size) <= 0 or min(table) <= 0:
            raise CalibrationError("calibration.bad_file", "corners, image size or table size are malformed")
        layout = None
        if obj.get("layout") is not None:
            try:
                layout = SeatLayout.from_json(obj["layout"])
            except ZoneError as exc:
                raise CalibrationError("calibration.bad_zones", f"the seat zones are unusable: {exc}") from None
        marker_mm = obj.get("marker_mm")
        return cls(homography=H, image_size=size, table_mm=table, method=str(obj.get("method", "manual")),
                   corners_px=corners, layout=layout, marker_mm=None if marker_mm is None else float(marker_mm))


def save_calibration(cal: Calibration, path: str) -> None:
    """Write atomically (a crash never leaves half a file)."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".calib-", dir=folder)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(cal.to_json(), fh, indent=1)
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)


def load_calibration(path: str) -> Calibration:
    """Read a calibration file written by :func:`save_calibration`.  Every way the file can
    be wrong (missing, unreadable, not UTF-8 text such as a GBK or binary file, not JSON,
    a non-finite or over-long number, incomplete) raises :class:`CalibrationError` naming
    the file, never another exception."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        raise CalibrationError("calibration.missing", f"calibration file {path} does not exist") from None
    except OSError as exc:
        raise CalibrationError("calibration.unreadable", f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CalibrationError("calibration.bad_file",
                               f"{path} is not UTF-8 text (byte {exc.start} is {data[exc.start]:#04x}; saved in "
                               f"another encoding such as GBK, or not a calibration file): save it as UTF-8, or "
                               f"calibrate again with cardref calibrate") from None
    try:
        obj = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise CalibrationError("calibration.bad_file", f"{path} is not JSON ({exc.msg}, line {exc.lineno})") from None
    except (ValueError, RecursionError) as exc:
        raise CalibrationError("calibration.bad_file", f"{path} is not a usable calibration ({exc})") from None
    try:
        return Calibration.from_json(obj)
    except CalibrationError as exc:
        raise CalibrationError(exc.code, f"{path}: {exc}") from None


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number a calibration may hold")


def calibrate_manual(corners_px: Sequence[Sequence[float]], image_size: tuple[int, int],
                     table_mm: tuple[float, float] = DEFAULT_TABLE_MM, layout: SeatLayout | None = None) -> Calibration:
    """Calibrate from the four table corners in the image, in order top-left, top-right,
    bottom-right, bottom-left (where markers 0–3 would lie)."""
    quad = np.asarray(corners_px, dtype=np.float64)
    if quad.shape != (4, 2) or not np.all(np.isfinite(quad)):
        raise CalibrationError("calibration.bad_corners", "give exactly four corners as x,y pixel pairs")
    if not _convex(quad):
        raise CalibrationError("calibration.bad_corners",
                               "the four corners must form a convex quadrilateral in the order "
                               "top-left, top-right, bottom-right, bottom-left")
    H = _homography(quad, table_corners(table_mm))
    return Calibration(homography=H, image_size=image_size, table_mm=table_mm, method="manual",
                       corners_px=quad, layout=layout)


def parse_corners(text: str) -> list[tuple[float, float]]:
    """``"x,y x,y x,y x,y"`` (or ``;`` between points) → four points; raises CalibrationError."""
    parts = [p for p in text.replace(";", " ").split() if p]
    try:
        pts = [tuple(float(v) for v in p.split(",")) for p in parts]
    except ValueError:
        raise CalibrationError("calibration.bad_corners", f"cannot read corners {text!r}: use 'x,y x,y x,y x,y'") from None
    if len(pts) != 4 or any(len(p) != 2 for p in pts):
        raise CalibrationError("calibration.bad_corners", f"need four x,y corners, got {text!r}")
    return [(p[0], p[1]) for p in pts]


_DETECTOR: Any = None


def _aruco_detector() -> Any:
    global _DETECTOR
    if _DETECTOR is None:
        params = cv2.aruco.DetectorParameters()
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        _DETECTOR = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(MARKER_DICT), params)
    return _DETECTOR


def _detect(gray: np.ndarray, scale: float, found: dict[int, np.ndarray]) -> None:
    img = gray if scale == 1 else cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_LINEAR)
    corners, ids, _ = _aruco_detector().detectMarkers(img)
    if ids is None:
        return
    for quad, mid in zip(corners, ids.ravel(), strict=False):
        mid = int(mid)
        if mid in MARKER_IDS and mid not in found:
            found[mid] = quad.reshape(4, 2).astype(np.float64) / scale


def find_markers(frame_bgr: np.ndarray) -> dict[int, np.ndarray]:
    """The table markers visible in a frame: id → 4x2 corner pixels (only ids 0–3).

    Small markers (about 50 px) are sometimes missed at full size; when any is missing
    the frame is searched again at twice the size."""
    gray = frame_bgr if frame_bgr.ndim == 2 else cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
    found: dict[int, np.ndarray] = {}
    _detect(gray, 1.0, found)
    if len(found) < len(MARKER_IDS) and max(gray.shape) <= 2000:
        _detect(gray, 2.0, found)
    return found


def calibrate_from_markers(frame_bgr: np.ndarray, table_mm: tuple[float, float] = DEFAULT_TABLE_MM,
                           layout: SeatLayout | None = None, marker_mm: float | None = None) -> Calibration:
    """Find the four markers and calibrate; raises ``calibration.markers_missing`` naming
    the corners whose marker was not found."""
    found = find_markers(frame_bgr)
    missing = [i for i in MARKER_IDS if i not in found]
    if missing:
        where = ", ".join(f"{i} ({CORNER_NAMES[i]})" for i in missing)
        raise CalibrationError("calibration.markers_missing",
                               f"table marker(s) {where} not found; check they are in view and uncovered, "
                               "or calibrate by hand with --corners")
    centres = np.array([found[i].mean(axis=0) for i in MARKER_IDS])
    if not _convex(centres):
        raise CalibrationError("calibration.markers_misplaced",
                               "the markers are not laid out as a rectangle 0 top-left, 1 top-right, "
                               "2 bottom-right, 3 bottom-left")
    H = _homography(centres, table_corners(table_mm))
    h, w = frame_bgr.shape[:2]
    return Calibration(homography=H, image_size=(w, h), table_mm=table_mm, method="aruco",
                       corners_px=centres, layout=layout, marker_mm=marker_mm)


def ensure_layout(cal: Calibration, seats: int) -> Calibration:
    """The calibration with zones for ``seats`` seats (the default ones when it has none)."""
    if cal.layout is None:
        return cal.with_layout(default_layout(seats, cal.table_mm))
    if cal.layout.seats != seats:
        raise CalibrationError("calibration.seats_mismatch",
                               f"the calibration's zones are for {cal.layout.seats} seats, the game has {seats}")
    return cal


@dataclass
class BumpWatcher:
    """Re-finds the markers every ``every_s`` seconds; when all four are found and any
    moved more than ``tolerance_px`` from the calibration, returns a new calibration.

    Markers covered by a hand are simply not found, which is never taken for a bump."""

    calibration: Calibration
    every_s: float = 0.3
    tolerance_px: float = 4.0
    last_check: float = -1e9
    bumps: int = 0

    def check(self, t: float, frame_bgr: np.ndarray) -> Calibration | None:
        if t - self.last_check < self.every_s:
            return None
        self.last_check = t
        try:
            fresh = calibrate_from_markers(frame_bgr, self.calibration.table_mm, self.calibration.layout,
                                           self.calibration.marker_mm)
        except CalibrationError:
            return None
        moved = float(np.max(np.linalg.norm(fresh.corners_px - self.calibration.corners_px, axis=1)))
        if moved <= self.tolerance_px:
            return None
        self.calibration = fresh
        self.bumps += 1
        return fresh


def draw_calibration(frame_bgr: np.ndarray, cal: Calibration) -> np.ndarray:
    """A copy of the frame with the table outline and every zone drawn and named, to
    check a calibration by eye before editing its zones in the JSON file."""
    out = frame_bgr.copy()
    outline = cal.to_image(table_corners(cal.table_mm)).astype(np.int32)
    cv2.polylines(out, [outline.reshape(-1, 1, 2)], True, (255, 255, 255), 2, cv2.LINE_AA)
    for i, (x, y) in enumerate(outline):
        cv2.putText(out, str(i), (int(x) + 6, int(y) - 6), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 255, 255), 2)
    if cal.layout is None:
        return out
    for z in cal.layout.zones:
        poly = cal.to_image(np.array(z.polygon)).astype(np.int32)
        color = (0, 215, 255) if z.kind == "pile" else (255, 160, 40)
        cv2.polylines(out, [poly.reshape(-1, 1, 2)], True, color, 2, cv2.LINE_AA)
        cx, cy = cal.to_image(np.array([z.center]))[0]
        label = z.name if z.seat is None else f"seat {z.seat}"
        cv2.putText(out, label, (int(cx) - 30, int(cy)), cv2.FONT_HERSHEY_SIMPLEX, 0.7, color, 2, cv2.LINE_AA)
    return out
