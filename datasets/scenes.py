"""Synthetic table scenes as a webcam above the table sees them, with corner-index labels.

One scene is a pure function of its seed (:func:`render_scene`).  Geometry: each card is
placed on the table plane (rotation, position, scale) and the table is seen through a
pinhole camera tilted up to ~35 degrees (a homography), so face pixels map to image pixels
by one 3x3 matrix per card; the labelled corner indices are mapped with the same matrix.
Cards are drawn in z-order into an owner map, hands and clutter on top, so a label is kept
only when enough of its index's ink stays visible.

Pixel scale: a 1280x720 webcam 70-120 cm above the table sees a card 50-95 px tall and
its index 10-18 px tall.  Most scenes use that scale; a share use larger cards (up to
phone close-ups) so the model is not scale-blind.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from cardref.datasets.backgrounds import random_background
from cardref.datasets.faces import get_faces
from cardref.vision.classes import CLASS_INDEX


@dataclass(frozen=True)
class SceneConfig:
    """Knobs of the scene distribution (defaults: the training distribution)."""

    width: int = 320
    height: int = 320
    card_px: tuple[float, float] = (50.0, 95.0)  # card height range at webcam scale
    large_share: float = 0.25  # share of scenes with larger cards
    large_px: tuple[float, float] = (95.0, 260.0)
    max_tilt_deg: float = 35.0
    min_visible: float = 0.6  # share of an index's ink that must stay visible
    hand_p: float = 0.35
    back_p: float = 0.25
    clutter_p: float = 0.3
    photometric: bool = True
    jpeg: tuple[int, int] = (35, 95)
    #: Share of scene decks recoloured as dark cards with light (gold, silver) ink, like
    #: the black-and-gold decks of the real photos.  Off in the v1 data set.
    dark_deck_p: float = 0.0
    #: Share of those dark decks printed two-toned, as many black decks are: silver spades
    #: and clubs, gold or red hearts and diamonds (:func:`_dark_deck_inks`).  0 (every dark
    #: deck in one ink) for every data set the shipped models were trained on; 0.5 in the
    #: v8 experiment (model card, limitations).
    two_tone_p: float = 0.0
    #: Optics, as (probability, low, high).  Defaults: what a webcam shows of cards that
    #: have settled on the table (the moments a referee judges): mild defocus, a little
    #: motion (camera shake), mild softness.  :data:`HARSH_OPTICS` holds the stronger v1
    #: values, under which about a third of the corner indices were unreadable.
    defocus: tuple[float, float, float] = (0.35, 0.3, 0.8)  # Gaussian sigma, px at 320
    motion: tuple[float, float, float] = (0.15, 1, 2)  # half-length of the blur line, px
    soften: tuple[float, float, float] = (0.3, 0.75, 0.92)  # downscale factor, then back up


#: The optics of the v1 data set (``cardref gen-data --harsh-optics``).
HARSH_OPTICS = {"defocus": (0.35, 0.4, 1.3), "motion": (0.25, 2, 6), "soften": (0.3, 0.55, 0.9)}


@dataclass
class Label:
    cls: int
    card: str
    card_id: int  # which physical card of the scene (several corners share it)
    box: tuple[float, float, float, float]  # x1, y1, x2, y2 in image pixels
    visible: float


@dataclass
class Scene:
    image: np.ndarray  # RGB uint8
    labels: list[Label] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)  # codes of cards with >= 1 labelled corner
    jpeg_quality: int = 90


# --------------------------------------------------------------------------- geometry


def _camera(rng: np.random.Generator, w: int, h: int, max_tilt: float) -> np.ndarray:
    """Homography from table units (origin at image centre, 1 unit = 1 px there) to pixels."""
    tilt = math.radians(rng.uniform(0, max_tilt)) if rng.random() < 0.75 else 0.0
    phi = rng.uniform(0, 2 * math.pi)
    axis = np.array([math.cos(phi), math.sin(phi), 0.0])
    rvec = axis * tilt
    r, _ = cv2.Rodrigues(rvec)
    f = rng.uniform(700, 1400)  # focal length in pixels (webcam fields of view)
    d = f  # distance chosen so one table unit is one pixel at the image centre
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
    m = np.column_stack([r[:, 0], r[:, 1], np.array([0, 0, d])])
    hmat = k @ m
    return hmat / hmat[2, 2]


def _card_matrix(cx: float, cy: float, angle: float, scale: float, fw: int, fh: int) -> np.ndarray:
    """Face pixels -> table units: centre the face, scale, rotate, move."""
    c, s = math.cos(angle), math.sin(angle)
    t1 = np.array([[1, 0, -fw / 2], [0, 1, -fh / 2], [0, 0, 1]], float)
    rs = np.array([[c * scale, -s * scale, 0], [s * scale, c * scale, 0], [0, 0, 1]], float)
    t2 = np.array([[1, 0, cx], [0, 1, cy], [0, 0, 1]], float)
    return t2 @ rs @ t1


def _project(m: np.ndarray, pts: np.ndarray) -> np.ndarray:
    p = np.c_[pts, np.ones(len(pts))] @ m.T
    return p[:, :2] / p[:, 2:3]


@dataclass
class _Placed:
    design: str
    code: str  # card code, or "BACK"
    cx: float
    cy: float
    angle: float


def _layout(rng: np.random.Generator, card_h: float, card_w: float, half: float) -> list[tuple[float, float, float]]:
    """Positions (cx, cy, angle) of one group of cards in table units, bottom first."""
    kind = rng.choice(["fan", "row", "pile", "scatter"], p=[0.35, 0.25, 0.15, 0.25])
    gx, gy = rng.uniform(-half, half, 2)
    base = rng.uniform(0, 2 * math.pi)
    out: list[tuple[float, float, float]] = []
    if kind == "fan":
        n = int(rng.integers(3, 14))
        step = math.radians(rng.uniform(5, 16))
        radius = card_h * rng.uniform(0.45, 0.9)  # pivot below the card centres
        a0 = -step * (n - 1) / 2
        for i in range(n):
            a = base + a0 + i * step + rng.normal(0, 0.015)
            # card centre = pivot + radius in the card's "up" direction
            out.append((gx + radius * math.sin(a), gy - radius * math.cos(a), a))
    elif kind == "row":
        n = int(rng.integers(2, 10))
        gap = card_w * rng.uniform(0.18, 0.45)
        dx, dy = math.cos(base), math.sin(base)
        for i in range(n):
            off = (i - (n - 1) / 2) * gap
            out.append((gx + off * dx + rng.normal(0, 1), gy + off * dy + rng.normal(0, 1),
                        base + rng.normal(0, 0.04)))
    elif kind == "pile":
        n = int(rng.integers(2, 7))
        for _ in range(n):
            out.append((gx + rng.normal(0, card_w * 0.2), gy + rng.normal(0, card_w * 0.2),
                        rng.uniform(0, 2 * math.pi)))
    else:
        n = int(rng.integers(1, 7))
        for _ in range(n):
            out.append((rng.uniform(-half, half), rng.uniform(-half, half), rng.uniform(0, 2 * math.pi)))
    return out


# --------------------------------------------------------------------------- drawing


def _warp_rgba(face: np.ndarray, m: np.ndarray, w: int, h: int) -> tuple[np.ndarray, np.ndarray, tuple[int, int]] | None:
    """Warp an RGBA face into its bounding box on a w x h canvas.

    Returns (rgb float32, alpha float32 0..1, (x0, y0)) or None when off-canvas.
    """
    fh, fw = face.shape[:2]
    quad = _project(m, np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], float))
    x0, y0 = max(0, int(math.floor(quad[:, 0].min())) - 1), max(0, int(math.floor(quad[:, 1].min())) - 1)
    x1, y1 = min(w, int(math.ceil(quad[:, 0].max())) + 1), min(h, int(math.ceil(quad[:, 1].max())) + 1)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None
    t = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], float)
    warped = cv2.warpPerspective(face, t @ m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    a = warped[:, :, 3].astype(np.float32) / 255.0
    return warped[:, :, :3].astype(np.float32), a, (x0, y0)


def _prescale(face: np.ndarray, scale: float) -> tuple[np.ndarray, float]:
    """Shrink a face with area filtering before a large down-warp (avoids aliasing)."""
    if scale >= 0.7:
        return face, 1.0
    f = min(1.0, scale * 1.4)
    fh, fw = face.shape[:2]
    nw, nh = max(8, round(fw * f)), max(8, round(fh * f))
    return cv2.resize(face, (nw, nh), interpolation=cv2.INTER_AREA), nw / fw


def _darken(face: np.ndarray, paper: np.ndarray, ink: np.ndarray,
            red_ink: np.ndarray | None = None) -> np.ndarray:
    """Recolour a face as a dark card: light paper becomes ``paper``, dark ink becomes ``ink``.

    With ``red_ink`` the deck is two-toned, as most black decks are printed: the black ink
    (spades, clubs) becomes ``ink`` (silver, say) and the red ink (hearts, diamonds)
    becomes ``red_ink`` (gold or red), so the colour still tells the suit's colour.
    """
    rgb = face[:, :, :3].astype(np.float32) / 255.0
    if red_ink is None:
        lum = rgb.mean(axis=2, keepdims=True)
        out = ink + (paper - ink) * lum
    else:
        amount = 1.0 - rgb.min(axis=2, keepdims=True)  # ink of any colour: 0 on paper, 1 on ink
        red = np.clip((rgb[:, :, :1] - rgb[:, :, 1:].max(axis=2, keepdims=True)) / 0.5, 0.0, 1.0)
        out = paper + amount * (ink + (red_ink - ink) * red - paper)
    return np.concatenate([np.clip(out, 0, 255).astype(np.uint8), face[:, :, 3:]], axis=2)


def _dark_deck_inks(paper: np.ndarray, ink: np.ndarray, two_tone_p: float) -> tuple[np.ndarray, np.ndarray | None]:
    """The inks of a dark deck whose paper and first ink are drawn: with probability
    ``two_tone_p`` the deck is two-toned (silver ink, gold or red for the red suits), else
    it keeps its one ink.  Drawn from a generator of their own, seeded by the first draws,
    so the scene's other draws do not move: the same seed renders the same tables, and
    only the two-toned decks' colours differ."""
    if two_tone_p <= 0:
        return ink, None
    sub = np.random.default_rng(np.concatenate([paper, ink]).astype(np.int64).tolist())
    if sub.random() >= two_tone_p:
        return ink, None
    silver = np.full(3, sub.uniform(140, 240), np.float32) + sub.uniform(-12, 12, 3).astype(np.float32)
    if sub.random() < 0.6:  # gold
        red = np.array([sub.uniform(190, 250), sub.uniform(140, 200), sub.uniform(30, 110)], np.float32)
    else:  # red
        red = np.array([sub.uniform(170, 240), sub.uniform(20, 80), sub.uniform(20, 80)], np.float32)
    return silver, red


def _skin(rng: np.random.Generator) -> np.ndarray:
    tones = np.array([[255, 224, 196], [241, 194, 160], [224, 172, 130], [198, 134, 96],
                      [160, 100, 70], [110, 70, 50], [80, 55, 40]], np.float32)
    i = rng.uniform(0, len(tones) - 1)
    lo = int(i)
    c = tones[lo] * (1 - (i - lo)) + tones[min(lo + 1, len(tones) - 1)] * (i - lo)
    return np.clip(c * rng.uniform(0.8, 1.1), 0, 255)


def _draw_hand(rng: np.random.Generator, img: np.ndarray, owner: np.ndarray, card_h: float) -> None:
    h, w = owner.shape
    mask = np.zeros((h, w), np.uint8)
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    ang = rng.uniform(0, 2 * math.pi)
    size = card_h * rng.uniform(0.9, 1.5)
    ux, uy = math.cos(ang), math.sin(ang)  # direction of the fingers
    px, py = -uy, ux
    palm = ((int(cx), int(cy)), (int(size * 0.45), int(size * 0.5)), math.degrees(ang) + 90)
    cv2.ellipse(mask, palm[0], palm[1], palm[2], 0, 360, 255, -1, cv2.LINE_AA)
    n_f = int(rng.integers(2, 5))
    for i in range(n_f):
        off = (i - (n_f - 1) / 2) * size * 0.2
        bx, by = cx + ux * size * 0.35 + px * off, cy + uy * size * 0.35 + py * off
        ln = size * rng.uniform(0.45, 0.75)
        bend = rng.normal(0, 0.2)
        ex = bx + (ux * math.cos(bend) - uy * math.sin(bend)) * ln
        ey = by + (uy * math.cos(bend) + ux * math.sin(bend)) * ln
        cv2.line(mask, (int(bx), int(by)), (int(ex), int(ey)), 255, max(2, int(size * 0.16)), cv2.LINE_AA)
    # thumb and the arm/sleeve towards the edge
    tx, ty = cx + px * size * 0.45, cy + py * size * 0.45
    cv2.line(mask, (int(cx), int(cy)), (int(tx + ux * size * 0.4), int(ty + uy * size * 0.4)), 255,
             max(2, int(size * 0.18)), cv2.LINE_AA)
    ax, ay = cx - ux * size * 3, cy - uy * size * 3
    arm = np.zeros_like(mask)
    cv2.line(arm, (int(cx), int(cy)), (int(ax), int(ay)), 255, max(3, int(size * 0.7)), cv2.LINE_AA)
    sleeve = rng.random() < 0.6
    a = (mask.astype(np.float32) / 255.0)[:, :, None]
    skin = _skin(rng)
    shade = 0.75 + 0.5 * np.linspace(0, 1, w, dtype=np.float32)[None, :, None] * rng.uniform(0, 0.6)
    tex = skin[None, None, :] * shade + rng.normal(0, 4, (h, w, 1))
    if sleeve:
        armcol = rng.uniform(10, 240, 3).astype(np.float32)
        aa = (arm.astype(np.float32) / 255.0)[:, :, None] * (1 - a)
        img[:] = img * (1 - aa) + armcol * aa
        owner[arm > 127] = -1
    else:
        a = np.maximum(a, (arm.astype(np.float32) / 255.0)[:, :, None])
    img[:] = img * (1 - a) + tex * a
    owner[a[:, :, 0] > 0.5] = -1


def _draw_clutter(rng: np.random.Generator, img: np.ndarray, owner: np.ndarray, on_top: bool) -> None:
    h, w = owner.shape
    layer = img.astype(np.uint8).copy()
    mask = np.zeros((h, w), np.uint8)
    for _ in range(int(rng.integers(1, 4))):
        col = tuple(int(c) for c in rng.integers(0, 256, 3))
        x, y = int(rng.integers(0, w)), int(rng.integers(0, h))
        k = rng.integers(0, 3)
        if k == 0:  # coin / chip
            r = int(rng.integers(4, 14))
            cv2.circle(layer, (x, y), r, col, -1, cv2.LINE_AA)
            cv2.circle(mask, (x, y), r, 255, -1)
        elif k == 1:  # pen
            a = rng.uniform(0, math.pi)
            ln = rng.uniform(30, 120)
            p2 = (int(x + ln * math.cos(a)), int(y + ln * math.sin(a)))
            t = int(rng.integers(2, 6))
            cv2.line(layer, (x, y), p2, col, t, cv2.LINE_AA)
            cv2.line(mask, (x, y), p2, 255, t)
        else:  # score sheet scribbles: digits and letters (hard negatives)
            text = "".join(rng.choice(list("0123456789AJQK+-="), int(rng.integers(1, 5))))
            fs = rng.uniform(0.3, 0.7)
            cv2.putText(layer, text, (x, y), int(rng.integers(0, 8)), fs, col, 1, cv2.LINE_AA)
            cv2.putText(mask, text, (x, y), 0, fs, 255, 1)
    sel = mask > 0
    img[sel] = layer[sel]
    if on_top:
        owner[sel] = -1


def _photometric(rng: np.random.Generator, img: np.ndarray, cfg: SceneConfig) -> np.ndarray:
    h, w = img.shape[:2]
    out = img
    # white balance and exposure
    out = out * rng.uniform(0.85, 1.15, 3).astype(np.float32) * rng.uniform(0.6, 1.25)
    # lighting gradient and vignette
    if rng.random() < 0.7:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        a = rng.uniform(0, 2 * math.pi)
        g = ((xx - w / 2) * math.cos(a) + (yy - h / 2) * math.sin(a)) / max(w, h)
        out = out * (1 + rng.uniform(0.2, 0.9) * g)[:, :, None]
        if rng.random() < 0.5:
            r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / (max(w, h) ** 2)
            out = out * (1 - rng.uniform(0.1, 0.6) * r2)[:, :, None]
    # soft shadow blob (a head or lamp arm)
    if rng.random() < 0.3:
        m = np.zeros((h, w), np.float32)
        pts = (rng.uniform(-0.3, 1.3, (6, 2)) * [w, h]).astype(np.int32)
        cv2.fillPoly(m, [cv2.convexHull(pts)], 1.0)
        m = cv2.GaussianBlur(m, (0, 0), rng.uniform(5, 25))
        out = out * (1 - rng.uniform(0.2, 0.5) * m)[:, :, None]
    # glare
    if rng.random() < 0.3:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        gx, gy = rng.uniform(0, w), rng.uniform(0, h)
        sx, sy = rng.uniform(8, w / 3), rng.uniform(8, h / 3)
        blob = np.exp(-(((xx - gx) / sx) ** 2 + ((yy - gy) / sy) ** 2))
        out = out + (rng.uniform(60, 200) * blob)[:, :, None]
    out = np.clip(out, 0, 255)
    # contrast / saturation
    if rng.random() < 0.5:
        grey = out.mean(axis=2, keepdims=True)
        out = np.clip(grey + (out - grey) * rng.uniform(0.5, 1.4), 0, 255)
    # optics: defocus, motion blur, webcam softness
    p, lo, hi = cfg.defocus
    if rng.random() < p:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(lo, hi))
    p, lo, hi = cfg.motion
    if rng.random() < p:
        ln = int(rng.integers(int(lo), int(hi) + 1))
        k = np.zeros((ln * 2 + 1, ln * 2 + 1), np.float32)
        a = rng.uniform(0, math.pi)
        cv2.line(k, (ln - int(ln * math.cos(a)), ln - int(ln * math.sin(a))),
                 (ln + int(ln * math.cos(a)), ln + int(ln * math.sin(a))), 1.0, 1)
        out = cv2.filter2D(out, -1, k / k.sum())
    p, lo, hi = cfg.soften
    if rng.random() < p:
        f = rng.uniform(lo, hi)
        small = cv2.resize(out, (max(8, int(w * f)), max(8, int(h * f))), interpolation=cv2.INTER_AREA)
        out = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    # sensor noise (signal-dependent plus read noise)
    if rng.random() < 0.85:
        sigma = rng.uniform(1, 7)
        out = out + rng.normal(0, 1, out.shape).astype(np.float32) * (sigma * np.sqrt(out / 128 + 0.2))
    # gamma
    out = np.clip(out, 0, 255)
    g = rng.uniform(0.8, 1.25)
    out = 255.0 * (out / 255.0) ** g
    return np.clip(out, 0, 255)


# --------------------------------------------------------------------------- scene


def render_scene(seed: int | np.random.SeedSequence, designs: list[str], cfg: SceneConfig | None = None,
                 cards: list[tuple[str, str, float, float, float]] | None = None) -> Scene:
    """Render one labelled scene; the same seed, designs and config give the same scene.

    ``cards`` replaces the random layout by given placements ``(design, code, cx, cy,
    angle_radians)`` in table units (origin at the image centre), bottom card first.
    """
    cfg = cfg or SceneConfig()
    rng = np.random.default_rng(seed)
    w, h = cfg.width, cfg.height
    hmat = _camera(rng, w, h, cfg.max_tilt_deg)

    # table texture seen through the camera
    tex_side = int(max(w, h) * 1.8)
    tex = random_background(rng, tex_side, tex_side).astype(np.uint8)
    t = np.array([[1, 0, -tex_side / 2], [0, 1, -tex_side / 2], [0, 0, 1]], float)
    img = cv2.warpPerspective(tex, hmat @ t, (w, h), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REFLECT).astype(np.float32)
    owner = np.full((h, w), -1, np.int32)

    if rng.random() < cfg.clutter_p:
        _draw_clutter(rng, img, owner, on_top=False)

    lo, hi = cfg.large_px if rng.random() < cfg.large_share else cfg.card_px
    card_h = math.exp(rng.uniform(math.log(lo), math.log(hi)))
    # one or two decks' designs per scene (several decks are mixed at a Gouji table)
    n_designs = 1 if rng.random() < 0.6 else 2
    scene_designs = [designs[int(rng.integers(0, len(designs)))] for _ in range(n_designs)]
    if cards is not None:
        scene_designs = sorted({c[0] for c in cards})
    libs = {d: get_faces(d) for d in scene_designs}

    placed: list[_Placed] = []
    area = w * h
    card_area = card_h * card_h * 0.7
    budget = rng.uniform(0.6, 2.8) * area / card_area  # how crowded the table is
    half = 0.5 * min(w, h) + 0.1 * card_h
    n_groups = 0
    if cards is not None:
        placed = [_Placed(*c) for c in cards]
        budget = 0
    while len(placed) < budget and n_groups < 6:
        n_groups += 1
        d = scene_designs[int(rng.integers(0, len(scene_designs)))]
        lib = libs[d]
        fh, fw = lib.image("AS").shape[:2]
        card_w = card_h * fw / fh
        for cx, cy, ang in _layout(rng, card_h, card_w, half):
            code = lib.codes[int(rng.integers(0, len(lib.codes)))]
            if rng.random() < cfg.back_p * 0.3 and lib.back() is not None:
                code = "BACK"
            placed.append(_Placed(d, code, cx, cy, ang))

    dark: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray | None]] = {}
    if cfg.dark_deck_p > 0:
        for d in scene_designs:
            if rng.random() < cfg.dark_deck_p:
                paper = rng.uniform(10, 60, 3).astype(np.float32)
                ink = np.array([rng.uniform(180, 255), rng.uniform(150, 220), rng.uniform(40, 200)], np.float32)
                dark[d] = (paper, *_dark_deck_inks(paper, ink, cfg.two_tone_p))

    labels: list[Label] = []
    corner_pts: list[tuple[int, str, list[np.ndarray]]] = []
    light = rng.uniform(0, 2 * math.pi)
    shadow_len = rng.uniform(0.5, 3.0) * card_h / 70
    for idx, p in enumerate(placed):
        lib = libs[p.design]
        face = lib.back() if p.code == "BACK" else lib.image(p.code)
        assert face is not None
        fh, fw = face.shape[:2]
        scale = card_h / fh
        if p.design in dark and p.code != "BACK":
            face = _darken(face, *dark[p.design])
        small, f = _prescale(face, scale)
        m_face = hmat @ _card_matrix(p.cx, p.cy, p.angle, scale, fw, fh)
        m_small = m_face @ np.diag([1 / f, 1 / f, 1.0])
        warped = _warp_rgba(small, m_small, w, h)
        if warped is None:
            continue
        rgb, a, (x0, y0) = warped
        ys, xs = slice(y0, y0 + a.shape[0]), slice(x0, x0 + a.shape[1])
        # contact shadow
        sh = cv2.GaussianBlur(a, (0, 0), max(0.6, shadow_len))
        dx, dy = int(round(math.cos(light) * shadow_len)), int(round(math.sin(light) * shadow_len))
        sh = np.roll(np.roll(sh, dy, axis=0), dx, axis=1)
        img[ys, xs] *= (1 - 0.35 * sh)[:, :, None]
        # paper tint and per-card light
        tint = rng.uniform(0.9, 1.04, 3).astype(np.float32) * rng.uniform(0.85, 1.08)
        rgb = rgb * tint
        a3 = a[:, :, None]
        img[ys, xs] = img[ys, xs] * (1 - a3) + rgb * a3
        owner[ys, xs][a > 0.5] = idx
        if p.code != "BACK":
            pts = [_project(m_face, q) for q in lib.corner_points(p.code)]
            corner_pts.append((idx, p.code, pts))

    if rng.random() < cfg.hand_p:
        for _ in range(int(rng.integers(1, 3))):
            _draw_hand(rng, img, owner, card_h)
    if rng.random() < cfg.clutter_p * 0.5:
        _draw_clutter(rng, img, owner, on_top=True)

    for idx, code, pts_list in corner_pts:
        for pts in pts_list:
            xi = np.floor(pts[:, 0]).astype(int)
            yi = np.floor(pts[:, 1]).astype(int)
            inside = (xi >= 0) & (xi < w) & (yi >= 0) & (yi < h)
            vis = np.zeros(len(pts), bool)
            vis[inside] = owner[yi[inside], xi[inside]] == idx
            frac = float(vis.mean())
            if frac < cfg.min_visible:
                continue
            q = pts[inside]
            x1, y1 = max(0.0, float(q[:, 0].min()) - 0.5), max(0.0, float(q[:, 1].min()) - 0.5)
            x2, y2 = min(float(w), float(q[:, 0].max()) + 0.5), min(float(h), float(q[:, 1].max()) + 0.5)
            if x2 - x1 < 3 or y2 - y1 < 3:
                continue
            labels.append(Label(CLASS_INDEX[code], code, idx, (x1, y1, x2, y2), frac))

    if cfg.photometric:
        img = _photometric(rng, img, cfg)
    quality = int(rng.integers(cfg.jpeg[0], cfg.jpeg[1] + 1))
    seen: dict[int, str] = {}
    for lab in labels:
        seen[lab.card_id] = lab.card
    return Scene(np.clip(img, 0, 255).astype(np.uint8), labels, [seen[k] for k in sorted(seen)], quality)


def yolo_lines(scene: Scene) -> list[str]:
    """Ultralytics label lines: ``cls cx cy w h`` normalised to the image size."""
    h, w = scene.image.shape[:2]
    out = []
    for lab in scene.labels:
        x1, y1, x2, y2 = lab.box
        out.append(f"{lab.cls} {(x1 + x2) / 2 / w:.6f} {(y1 + y2) / 2 / h:.6f} {(x2 - x1) / w:.6f} {(y2 - y1) / h:.6f}")
    return out


def encode_jpeg(scene: Scene) -> bytes:
    ok, buf = cv2.imencode(".jpg", np.ascontiguousarray(scene.image[:, :, ::-1]),
                           [cv2.IMWRITE_JPEG_QUALITY, scene.jpeg_quality])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return buf.tobytes()
