"""Draw a :class:`~.timeline.Timeline` as webcam frames, with the true detections.

The table is painted in table millimetres on a canvas (felt, the four ArUco markers,
the cards, the hands) and warped into a 1280x720 camera image through a slightly
oblique camera; then the camera's faults are added: a slow lighting drift and a
moving shadow, sensor noise, a little blur and shake.  For every frame the renderer also
returns what a perfect detector would report: each card whose rank-and-suit corner index
is visible, with the box around its visible indices (like the real detector's merged
cards), which the oracle detector replays.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import cv2
import numpy as np

from ..calibration import MARKER_DICT, Calibration, table_corners
from ..types import CardDetection, CornerDetection
from ..zones import SeatLayout
from .faces import FaceSet
from .timeline import CARD_W_MM, CardPath, HandPath, Timeline

MARGIN_MM = 90.0


@dataclass(frozen=True)
class CameraStyle:
    """How bad the camera is.  ``shake_px`` is the standard deviation of the jitter."""

    size: tuple[int, int] = (1280, 720)
    px_per_mm: float = 1.6  # canvas resolution (before the warp)
    noise: float = 4.0
    shake_px: float = 0.8
    light_drift: float = 0.12
    blur: bool = True
    marker_mm: float = 60.0
    bump_at: float | None = None  # seconds: the camera is knocked and stays moved
    bump_px: float = 14.0


def camera_homography(table_mm: tuple[float, float], size: tuple[int, int], rng: random.Random) -> np.ndarray:
    """A plausible overhead camera: the table fills most of the frame, slightly oblique."""
    w, h = size
    tw, th = table_mm
    # the margins scale with the frame: a 1080p camera at the same place sees the table
    # 1.5 times as many pixels across as a 720p one
    scale = min((w - 220 * w / 1280) / tw, (h - 150 * h / 720) / th)
    cw, ch = tw * scale, th * scale
    x0, y0 = (w - cw) / 2, (h - ch) / 2
    tilt = rng.uniform(-0.04, 0.04) * cw
    u = w / 1280
    quad = np.array([[x0 + tilt, y0], [x0 + cw - tilt, y0], [x0 + cw + rng.uniform(0, 15) * u, y0 + ch],
                     [x0 - rng.uniform(0, 15) * u, y0 + ch]], dtype=np.float64)
    quad += np.array([[rng.uniform(-8, 8) * u, rng.uniform(-6, 6) * u] for _ in range(4)])
    H, _ = cv2.findHomography(table_corners(table_mm), quad, 0)
    return H


def _felt(w: int, h: int, rng: np.random.Generator) -> np.ndarray:
    base = np.array([rng.uniform(60, 90), rng.uniform(105, 135), rng.uniform(40, 70)], dtype=np.float32)
    low = cv2.resize(rng.normal(0, 1, (h // 40 + 2, w // 40 + 2)).astype(np.float32), (w, h),
                     interpolation=cv2.INTER_CUBIC)
    fine = rng.normal(0, 1, (h, w)).astype(np.float32)
    tex = 6 * low + 3 * fine
    img = base[None, None, :] + tex[:, :, None]
    return np.clip(img, 0, 255).astype(np.uint8)


class TableRenderer:
    def __init__(self, timeline: Timeline, layout: SeatLayout, faces: FaceSet, *, seed: int = 0,
                 style: CameraStyle | None = None) -> None:
        self.tl = timeline
        self.layout = layout
        self.faces = faces
        self.style = style or CameraStyle()
        self.rng = np.random.default_rng(seed)
        prng = random.Random(seed)
        # sensor noise comes from OpenCV's process-wide generator: reseeded per frame from
        # the seed and the time, a frame is the same whatever was rendered before it
        self._noise_seed = (int(seed) * 1_000_003 + 17) % (2**31 - 1)
        self.table_mm = layout.table_mm
        self.H_cam = camera_homography(self.table_mm, self.style.size, prng)  # table mm -> image
        k = self.style.px_per_mm
        tw, th = self.table_mm
        self.canvas_size = (int((tw + 2 * MARGIN_MM) * k), int((th + 2 * MARGIN_MM) * k))
        # canvas px -> table mm
        self.C2T = np.array([[1 / k, 0, -MARGIN_MM], [0, 1 / k, -MARGIN_MM], [0, 0, 1]], dtype=np.float64)
        self.background = self._background()
        self.card_px = int(round(CARD_W_MM * k))
        self._scaled: dict[str, np.ndarray] = {}
        self._light_phase = self.rng.uniform(0, 2 * math.pi, 4)
        self._shake = np.zeros(3)
        self.skin = np.array([prng.uniform(120, 170), prng.uniform(150, 190), prng.uniform(190, 230)])

    # ------------------------------------------------------------------ static parts
    def _to_canvas(self, x: float, y: float) -> tuple[float, float]:
        k = self.style.px_per_mm
        return ((x + MARGIN_MM) * k, (y + MARGIN_MM) * k)

    def _background(self) -> np.ndarray:
        w, h = self.canvas_size
        img = _felt(w, h, self.rng)
        k = self.style.px_per_mm
        size = int(self.style.marker_mm * k)
        quiet = int(10 * k)
        dictionary = cv2.aruco.getPredefinedDictionary(MARKER_DICT)
        for mid, (x, y) in enumerate(table_corners(self.table_mm)):
            cx, cy = self._to_canvas(x, y)
            m = cv2.aruco.generateImageMarker(dictionary, mid, size)
            x0, y0 = int(cx - size / 2), int(cy - size / 2)
            cv2.rectangle(img, (x0 - quiet, y0 - quiet), (x0 + size + quiet, y0 + size + quiet), (235, 235, 235), -1)
            img[y0:y0 + size, x0:x0 + size] = m[:, :, None]
        return img

    def calibration(self) -> Calibration:
        """The true calibration of the (unshaken) camera, with the table's zones."""
        H = np.linalg.inv(self.H_cam)
        corners = cv2.perspectiveTransform(table_corners(self.table_mm).reshape(-1, 1, 2), self.H_cam).reshape(4, 2)
        return Calibration(homography=H / H[2, 2], image_size=self.style.size, table_mm=self.table_mm,
                           method="simulated", corners_px=corners, layout=self.layout,
                           marker_mm=self.style.marker_mm)

    def _face(self, code: str) -> np.ndarray:
        im = self._scaled.get(code)
        if im is None:
            src = self.faces.image(code)
            h = int(round(src.shape[0] * self.card_px / src.shape[1]))
            im = cv2.resize(src, (self.card_px, h), interpolation=cv2.INTER_AREA)
            # RGBA -> BGRA
            im = im[:, :, [2, 1, 0, 3]].copy()
            self._scaled[code] = im
        return im

    # ------------------------------------------------------------------ geometry
    def _card_affine(self, code: str, pose: tuple[float, float, float]) -> tuple[np.ndarray, float, float]:
        """2x3 affine: face px -> table mm, and the face size in px."""
        face = self.faces.image(code)
        fh, fw = face.shape[:2]
        s = CARD_W_MM / fw
        a = math.radians(pose[2])
        ca, sa = math.cos(a), math.sin(a)
        # centre the face, scale to mm, rotate, translate
        M = np.array([[ca * s, -sa * s, 0], [sa * s, ca * s, 0]], dtype=np.float64)
        M[:, 2] = np.array(pose[:2]) - M[:, :2] @ np.array([fw / 2, fh / 2])
        return M, fw, fh

    def _frame_homography(self, t: float) -> np.ndarray:
        st = self.style
        step = self.rng.normal(0, 1, 3) * np.array([st.shake_px * 0.6, st.shake_px * 0.6, 0.0006])
        self._shake = 0.6 * self._shake + step
        dx, dy, rot = self._shake
        if st.bump_at is not None and t >= st.bump_at:
            dx += st.bump_px
            dy += st.bump_px * 0.5
        w, h = st.size
        c, s = math.cos(rot), math.sin(rot)
        R = np.array([[c, -s, w / 2 + dx - c * w / 2 + s * h / 2], [s, c, h / 2 + dy - s * w / 2 - c * h / 2], [0, 0, 1]])
        return R @ self.H_cam

    # ------------------------------------------------------------------ drawing
    def _paste_card(self, canvas: np.ndarray, code: str, pose: tuple[float, float, float]) -> None:
        face = self._face(code)
        fh, fw = face.shape[:2]
        k = self.style.px_per_mm
        cx, cy = self._to_canvas(pose[0], pose[1])
        a = math.radians(pose[2])
        ca, sa = math.cos(a), math.sin(a)
        half = 0.5 * math.hypot(fw, fh) + 2
        x0, y0 = int(cx - half), int(cy - half)
        x1, y1 = int(cx + half) + 1, int(cy + half) + 1
        H_, W_ = canvas.shape[:2]
        ox0, oy0, ox1, oy1 = max(x0, 0), max(y0, 0), min(x1, W_), min(y1, H_)
        if ox1 <= ox0 or oy1 <= oy0:
            return
        M = np.array([[ca, -sa, 0], [sa, ca, 0]], dtype=np.float64)
        M[:, 2] = np.array([cx - ox0, cy - oy0]) - M[:, :2] @ np.array([fw / 2, fh / 2])
        patch = cv2.warpAffine(face, M, (ox1 - ox0, oy1 - oy0), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
        alpha = patch[:, :, 3:4].astype(np.float32) / 255.0
        roi = canvas[oy0:oy1, ox0:ox1]
        # a faint shadow under the card
        sh = cv2.GaussianBlur(alpha, (0, 0), 2.0 * k)[..., None] if alpha.size else alpha
        roi[:] = (roi * (1 - 0.25 * sh)).astype(np.uint8)
        roi[:] = (roi * (1 - alpha) + patch[:, :, :3] * alpha).astype(np.uint8)

    def _draw_hand(self, canvas: np.ndarray, hand: HandPath, pos: tuple[float, float]) -> None:
        k = self.style.px_per_mm
        cx, cy = self._to_canvas(*pos)
        sx, sy = self._to_canvas(*hand.shoulder)
        col = tuple(int(v) for v in self.skin)
        dark = tuple(int(v * 0.55) for v in self.skin)
        cv2.line(canvas, (int(sx), int(sy)), (int(cx), int(cy)), dark, int(70 * k), cv2.LINE_AA)
        ang = math.degrees(math.atan2(cy - sy, cx - sx))
        rx, ry = hand.radius
        a = math.radians(ang)
        ux, uy = math.cos(a), math.sin(a)  # along the arm, towards the fingertips
        vx, vy = -uy, ux
        # fingers first (under the palm's edge), then the palm with a little shading
        for j, off in enumerate((-0.62, -0.2, 0.2, 0.6)):
            length = (0.95, 1.15, 1.1, 0.9)[j] * ry * k
            bx = cx + vx * off * rx * k + ux * ry * 0.55 * k
            by = cy + vy * off * rx * k + uy * ry * 0.55 * k
            cv2.line(canvas, (int(bx), int(by)), (int(bx + ux * length * 0.6), int(by + uy * length * 0.6)), col,
                     max(2, int(0.26 * rx * k)), cv2.LINE_AA)
        tx, ty = cx + vx * rx * 0.9 * k - ux * ry * 0.1 * k, cy + vy * rx * 0.9 * k - uy * ry * 0.1 * k
        cv2.line(canvas, (int(cx), int(cy)), (int(tx + ux * ry * 0.4 * k), int(ty + uy * ry * 0.4 * k)), col,
                 max(2, int(0.3 * rx * k)), cv2.LINE_AA)
        cv2.ellipse(canvas, (int(cx), int(cy)), (int(ry * k), int(rx * k)), ang, 0, 360, col, -1, cv2.LINE_AA)
        cv2.ellipse(canvas, (int(cx - ux * 6 * k), int(cy - uy * 6 * k)), (int(ry * 0.6 * k), int(rx * 0.55 * k)),
                    ang, 0, 360, tuple(int(v * 0.93) for v in self.skin), -1, cv2.LINE_AA)

    def _camera(self, img: np.ndarray, t: float) -> np.ndarray:
        st = self.style
        w, h = st.size
        p = self._light_phase
        gx = st.light_drift * math.sin(0.21 * t + p[0])
        gy = st.light_drift * math.sin(0.17 * t + p[1])
        g0 = 1.0 + 0.5 * st.light_drift * math.sin(0.11 * t + p[2])
        xs = np.linspace(-1, 1, 32, dtype=np.float32)
        ys = np.linspace(-1, 1, 18, dtype=np.float32)
        field = g0 + gx * xs[None, :] + gy * ys[:, None]
        # a soft shadow drifting across (someone leaning over the table)
        sx = 16 + 14 * math.sin(0.13 * t + p[3])
        d2 = (np.arange(32)[None, :] - sx) ** 2 + (np.arange(18)[:, None] - 9) ** 2
        field = field * (1 - 0.18 * np.exp(-d2 / 30.0)).astype(np.float32)
        gain = cv2.resize(field.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
        out = cv2.multiply(img, cv2.merge([gain, gain, gain]), dtype=cv2.CV_8U)
        if st.blur:
            out = cv2.GaussianBlur(out, (3, 3), 0.7)
        if st.noise > 0:
            noise = np.empty((h, w, 3), np.int16)
            cv2.setRNGSeed(self._noise_seed + int(round(t * 1000)))
            cv2.randn(noise, 0, st.noise)
            out = cv2.add(out, noise, dtype=cv2.CV_8U)
        return out

    def render(self, t: float) -> tuple[np.ndarray, list[CardDetection]]:
        """The camera frame at ``t`` and the detections a perfect detector would make."""
        canvas = self.background.copy()
        cards = sorted(self.tl.cards_at(t), key=lambda cp: cp[0].z)
        hands = self.tl.hands_at(t)
        for card, pose in cards:
            self._paste_card(canvas, card.code, pose)
        for hand, pos in hands:
            self._draw_hand(canvas, hand, pos)
        H = self._frame_homography(t)
        Hc = H @ self.C2T
        img = cv2.warpPerspective(canvas, Hc, self.style.size, flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_CONSTANT, borderValue=(40, 55, 75))
        img = self._camera(img, t)
        dets = self._truth(cards, hands, H, t)
        return img, dets

    # ------------------------------------------------------------------ ground truth
    def _truth(self, cards: list[tuple[CardPath, tuple[float, float, float]]],
               hands: list[tuple[HandPath, tuple[float, float]]], H: np.ndarray, t: float) -> list[CardDetection]:
        affines = []
        for card, pose in cards:
            M, fw, fh = self._card_affine(card.code, pose)
            affines.append((card, M, fw, fh))
        out: list[CardDetection] = []
        w, h = self.style.size
        for idx, (card, M, _fw, _fh) in enumerate(affines):
            above = affines[idx + 1:]
            quads = []
            fractions = []
            for (bx1, by1, bx2, by2) in self.faces.corner_boxes(card.code):
                samples = [(bx1 + (bx2 - bx1) * u, by1 + (by2 - by1) * v)
                           for u in (0.2, 0.5, 0.8) for v in (0.2, 0.5, 0.8)]
                pts = np.array(samples) @ M[:, :2].T + M[:, 2]
                free = sum(1 for p in pts if not _covered(p, above, hands))
                frac = free / len(pts)
                if frac >= 0.67:
                    quad = np.array([(bx1, by1), (bx2, by1), (bx2, by2), (bx1, by2)], dtype=np.float64)
                    quads.append(quad @ M[:, :2].T + M[:, 2])
                    fractions.append(frac)
            if not quads:
                continue
            moving = card.t_in[0] <= t < card.t_in[1] or card.t_out[0] <= t
            conf = 0.93 - 0.1 * (1 - min(fractions)) - (0.1 if moving else 0.0) - (0.04 if len(quads) == 1 else 0)
            conf = round(conf, 3)
            corners = []
            for q in quads:
                ip = cv2.perspectiveTransform(q.reshape(-1, 1, 2), H).reshape(-1, 2)
                x1, y1 = ip.min(axis=0)
                x2, y2 = ip.max(axis=0)
                if x2 < 0 or y2 < 0 or x1 >= w or y1 >= h:
                    continue
                corners.append(CornerDetection(card.code, conf, (float(max(x1, 0)), float(max(y1, 0)),
                                                                 float(min(x2, w - 1)), float(min(y2, h - 1)))))
            if not corners:
                continue
            box = (min(c.box[0] for c in corners), min(c.box[1] for c in corners),
                   max(c.box[2] for c in corners), max(c.box[3] for c in corners))
            out.append(CardDetection(card.code, conf, box, tuple(corners)))
        return out


def _covered(p: np.ndarray, above: list, hands: list[tuple[HandPath, tuple[float, float]]]) -> bool:
    x, y = float(p[0]), float(p[1])
    for card, M, fw, fh in above:
        # invert the affine: table mm -> face px
        A = M[:, :2]
        inv = np.linalg.inv(A)
        u, v = inv @ (np.array([x, y]) - M[:, 2])
        if -1 <= u <= fw + 1 and -1 <= v <= fh + 1:
            return True
        del card
    for hand, pos in hands:
        rx, ry = hand.radius
        sx, sy = hand.shoulder
        # ellipse around the hand, long axis along the arm
        ang = math.atan2(pos[1] - sy, pos[0] - sx)
        ca, sa = math.cos(ang), math.sin(ang)
        dx, dy = x - pos[0], y - pos[1]
        a_ = dx * ca + dy * sa
        b_ = -dx * sa + dy * ca
        if (a_ / ry) ** 2 + (b_ / rx) ** 2 <= 1.0:
            return True
        # the arm: a capsule 70 mm wide from the shoulder to the hand
        vx, vy = pos[0] - sx, pos[1] - sy
        L2 = vx * vx + vy * vy
        s = 0.0 if L2 == 0 else max(0.0, min(1.0, ((x - sx) * vx + (y - sy) * vy) / L2))
        if (x - sx - s * vx) ** 2 + (y - sy - s * vy) ** 2 <= 35.0 ** 2:
            return True
    return False
