"""Drawn decks: card designs made from a seed, to widen what the namer learns a suit looks like.

The SVG decks of the Debian packages share a handful of suit shapes; a design never trained
on (aisleriot-plastic, whose clubs have small tight lobes) can then be read wrong every
time.  A drawn deck varies what those decks hold fixed: the suit shapes (lobe sizes and
spread, stem width and flare, spade and heart curvature, diamond waist), the rank font
(the first six decks: the DejaVu faces of ``fonts-dejavu-core``; the later ones also the
Liberation, FreeFont and URW base-35 typefaces, stroke weights, and wider suit shapes), the
index size and placement, ink and paper
colours, and the card's middle (pips or a big glyph; a framed picture on face cards).

Each deck is one design of the face library (``datasets/faces.py``, name ``drawn-NN``):
its faces are drawn once into the library's cache, and its corner boxes are found from the
pixels by the same code as every other design's.  The decks are deterministic in their
number; they go to training (the held-out families are pinned).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from cardref.vision.classes import CLASS_NAMES

#: How many drawn decks the face library holds.
DRAWN_DECKS = 30
#: Decks below this number are the first generation (data sets v5 and v6 were made with
#: them alone): DejaVu ranks and the narrower suit shapes; their faces never change.
FIRST_GENERATION = 6
#: The first generation's rank fonts (Debian ``fonts-dejavu-core``, installed by tools/setup.sh).
FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
FONTS = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf",
         "DejaVuSansMono.ttf", "DejaVuSansMono-Bold.ttf")
#: The later decks' rank fonts, under :data:`FONT_ROOT`, with the Debian package of each folder.
FONT_ROOT = Path("/usr/share/fonts")
FONT_PACKAGES = {"truetype/dejavu": "fonts-dejavu-core", "truetype/liberation": "fonts-liberation",
                 "truetype/freefont": "fonts-freefont-ttf", "opentype/urw-base35": "fonts-urw-base35"}
WIDE_FONTS = (
    "truetype/dejavu/DejaVuSansCondensed-Bold.ttf", "truetype/dejavu/DejaVuSerifCondensed.ttf",
    "truetype/liberation/LiberationSans-Regular.ttf", "truetype/liberation/LiberationSans-Bold.ttf",
    "truetype/liberation/LiberationSerif-Regular.ttf", "truetype/liberation/LiberationSerif-Bold.ttf",
    "truetype/liberation/LiberationSansNarrow-Bold.ttf", "truetype/liberation/LiberationMono-Bold.ttf",
    "truetype/freefont/FreeSerif.ttf", "truetype/freefont/FreeSerifBold.ttf", "truetype/freefont/FreeSans.ttf",
    "truetype/freefont/FreeSansBold.ttf", "truetype/freefont/FreeMonoBold.ttf",
    "opentype/urw-base35/C059-Roman.otf", "opentype/urw-base35/C059-Bold.otf",
    "opentype/urw-base35/P052-Roman.otf", "opentype/urw-base35/P052-Bold.otf",
    "opentype/urw-base35/NimbusRoman-Regular.otf", "opentype/urw-base35/NimbusRoman-Bold.otf",
    "opentype/urw-base35/NimbusSans-Regular.otf", "opentype/urw-base35/NimbusSans-Bold.otf",
    "opentype/urw-base35/NimbusSansNarrow-Regular.otf", "opentype/urw-base35/NimbusSansNarrow-Bold.otf",
    "opentype/urw-base35/URWBookman-Light.otf", "opentype/urw-base35/URWBookman-Demi.otf",
    "opentype/urw-base35/URWGothic-Book.otf", "opentype/urw-base35/URWGothic-Demi.otf",
    "opentype/urw-base35/NimbusMonoPS-Bold.otf",
)
FACE_W = 200


class DrawnDeckError(RuntimeError):
    pass


@dataclass(frozen=True)
class SuitStyle:
    """The shape parameters of one deck's suit glyphs (fractions of the glyph size)."""

    lobe: float  # club lobe radius
    spread: float  # club lobe distance from the centre
    stem: float  # stem width at the top
    flare: float  # stem width at the foot
    spade_round: float  # spade shoulder roundness
    heart_cleft: float  # depth of the heart's notch
    waist: float  # diamond side curvature (0 straight, >0 pinched)
    aspect: float  # glyph height / width


def _style(rng: random.Random) -> SuitStyle:
    """A first-generation deck's suit shapes."""
    return SuitStyle(lobe=rng.uniform(0.2, 0.3), spread=rng.uniform(0.22, 0.3), stem=rng.uniform(0.05, 0.12),
                     flare=rng.uniform(0.18, 0.42), spade_round=rng.uniform(0.22, 0.3),
                     heart_cleft=rng.uniform(0.1, 0.3), waist=rng.uniform(0.0, 0.18), aspect=rng.uniform(1.0, 1.25))


def _wide_style(rng: random.Random) -> SuitStyle:
    """A later deck's suit shapes: tight or loose club lobes, thin or heavy stems, straight,
    pinched or full diamonds, narrow or squat glyphs (the held-out aisleriot-plastic's small
    tight clubs lie inside these ranges, not inside the first generation's)."""
    return SuitStyle(lobe=rng.uniform(0.16, 0.33), spread=rng.uniform(0.18, 0.32), stem=rng.uniform(0.03, 0.16),
                     flare=rng.uniform(0.12, 0.5), spade_round=rng.uniform(0.19, 0.32),
                     heart_cleft=rng.uniform(0.05, 0.35), waist=rng.uniform(-0.06, 0.24),
                     aspect=rng.uniform(0.92, 1.35))


def _stem(size: float, st: SuitStyle, top: float) -> np.ndarray:
    """The foot of a club or spade: a trapezoid from ``top`` (glyph y) to the bottom."""
    return np.array([[-st.stem * size / 2, top], [st.stem * size / 2, top],
                     [st.flare * size / 2, size / 2], [-st.flare * size / 2, size / 2]])


def suit_mask(suit: str, size: int, st: SuitStyle) -> np.ndarray:
    """A ``size``-tall mask (uint8 0/255) of one suit glyph, drawn 8x larger and shrunk."""
    k = 8
    s = size * k
    w = int(round(s / st.aspect))
    m = np.zeros((s, w), np.uint8)
    cx, cy = w / 2, s / 2

    def poly(pts: np.ndarray) -> None:
        cv2.fillPoly(m, [np.round(pts + [cx, cy]).astype(np.int32)], 255, cv2.LINE_AA)

    def disc(x: float, y: float, r: float) -> None:
        cv2.circle(m, (int(round(cx + x)), int(round(cy + y))), max(1, int(round(r))), 255, -1, cv2.LINE_AA)

    half = w / 2
    if suit == "C":
        r = st.lobe * s
        d = st.spread * s
        disc(0, -s / 2 + r, r)
        disc(-d, -s / 2 + r + d * 0.95, r)
        disc(d, -s / 2 + r + d * 0.95, r)
        disc(0, -s / 2 + r + d * 0.6, r * 0.6)
        poly(_stem(s, st, -s / 2 + r + d * 0.6))
    elif suit == "S":
        r = st.spade_round * s
        body_bottom = s * 0.18
        tip = np.array([[0, -s / 2], [half * 0.98, body_bottom - r * 0.5], [-half * 0.98, body_bottom - r * 0.5]])
        poly(tip)
        disc(-half + r, body_bottom - r * 0.6, r)
        disc(half - r, body_bottom - r * 0.6, r)
        poly(_stem(s, st, body_bottom - r))
    elif suit == "H":
        r = half * 0.52
        top = -s / 2 + r
        disc(-half + r, top, r)
        disc(half - r, top, r)
        poly(np.array([[-half, top + r * 0.1], [half, top + r * 0.1], [0, s / 2]]))
        # the notch between the two lobes
        notch = np.array([[-r * 0.22, -s / 2 - 2], [r * 0.22, -s / 2 - 2], [0, -s / 2 + st.heart_cleft * s]])
        cv2.fillPoly(m, [np.round(notch + [cx, cy]).astype(np.int32)], 0, cv2.LINE_AA)
    else:  # diamonds: four points joined by (optionally pinched) sides
        pts = []
        corners = [(0, -s / 2), (half, 0), (0, s / 2), (-half, 0)]
        for i in range(4):
            (x1, y1), (x2, y2) = corners[i], corners[(i + 1) % 4]
            for t in np.linspace(0, 1, 12, endpoint=False):
                x, y = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
                pinch = st.waist * math.sin(math.pi * t)
                pts.append((x * (1 - pinch), y * (1 - pinch)))
        poly(np.array(pts))
    return cv2.resize(m, (max(1, w // k), size), interpolation=cv2.INTER_AREA)


@dataclass(frozen=True)
class DeckStyle:
    suits: SuitStyle
    font: str
    paper: tuple[int, int, int]
    black: tuple[int, int, int]
    red: tuple[int, int, int]
    four_colour: bool
    rank_h: float  # rank glyph height / face width
    suit_h: float  # index suit height / face width (most of the rank's: a readable suit)
    margin: float  # index distance from the edges / face width
    gap: float  # rank-to-suit gap / face width
    aspect: float  # face height / width
    pips: bool  # number cards show their pips (else one big glyph)
    stroke: float = 0.0  # extra rank stroke / rank height (a heavier print of the font)


def deck_style(number: int) -> DeckStyle:
    rng = random.Random(f"drawn-deck-{number}")
    paper = (rng.randint(236, 255), rng.randint(232, 252), rng.randint(220, 248))
    if number < FIRST_GENERATION:
        return DeckStyle(
            suits=_style(rng), font=FONTS[number % len(FONTS)], paper=paper,
            black=(rng.randint(0, 50), rng.randint(0, 50), rng.randint(0, 60)),
            red=(rng.randint(170, 230), rng.randint(0, 40), rng.randint(0, 50)),
            four_colour=rng.random() < 0.2, rank_h=(rank_h := rng.uniform(0.11, 0.15)),
            suit_h=rank_h * rng.uniform(0.8, 1.0), margin=rng.uniform(0.03, 0.06), gap=rng.uniform(0.005, 0.03),
            aspect=rng.uniform(1.36, 1.5), pips=rng.random() < 0.7)
    return DeckStyle(
        suits=_wide_style(rng), font=WIDE_FONTS[rng.randrange(len(WIDE_FONTS))], paper=paper,
        black=(rng.randint(0, 60), rng.randint(0, 60), rng.randint(0, 70)),
        red=(rng.randint(150, 235), rng.randint(0, 50), rng.randint(0, 60)),
        four_colour=rng.random() < 0.15, rank_h=(rank_h := rng.uniform(0.1, 0.16)),
        suit_h=rank_h * rng.uniform(0.6, 1.0), margin=rng.uniform(0.025, 0.07), gap=rng.uniform(0.0, 0.035),
        aspect=rng.uniform(1.36, 1.56), pips=rng.random() < 0.8,
        stroke=rng.choice((0.0, 0.0, 0.02, 0.04)))


def _ink(code: str, st: DeckStyle) -> tuple[int, int, int]:
    if code == "BJ":
        return st.red
    if code == "SJ":
        return st.black
    suit = code[-1]
    if st.four_colour:
        return {"S": st.black, "H": st.red, "D": (20, 60, 190), "C": (20, 130, 40)}[suit]
    return st.red if suit in "HD" else st.black


def _font(st: DeckStyle, px: int) -> ImageFont.FreeTypeFont:
    path = FONT_ROOT / st.font if "/" in st.font else FONT_DIR / st.font
    if not path.is_file():
        package = FONT_PACKAGES.get(st.font.rsplit("/", 1)[0], "fonts-dejavu-core")
        raise DrawnDeckError(f"font {path} is missing: install the Debian package {package} (tools/setup.sh)")
    return ImageFont.truetype(str(path), px)


def _text_mask(text: str, st: DeckStyle, height: int) -> np.ndarray:
    """The text's ink as a mask cropped to its glyphs, scaled to ``height`` pixels."""
    font = _font(st, height * 3)
    stroke = int(round(st.stroke * height * 3))
    x1, y1, x2, y2 = font.getbbox(text, stroke_width=stroke)
    canvas = Image.new("L", (x2 - x1 + 4, y2 - y1 + 4), 0)
    ImageDraw.Draw(canvas).text((2 - x1, 2 - y1), text, font=font, fill=255, stroke_width=stroke, stroke_fill=255)
    m = np.asarray(canvas)
    ys, xs = np.nonzero(m > 40)
    m = m[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]
    w = max(1, int(round(m.shape[1] * height / m.shape[0])))
    return cv2.resize(m, (w, height), interpolation=cv2.INTER_AREA)


def _stamp(rgb: np.ndarray, mask: np.ndarray, x: int, y: int, colour: tuple[int, int, int]) -> None:
    h, w = mask.shape
    y2, x2 = min(rgb.shape[0], y + h), min(rgb.shape[1], x + w)
    if y2 <= y or x2 <= x:
        return
    a = (mask[: y2 - y, : x2 - x].astype(np.float32) / 255.0)[:, :, None]
    region = rgb[y:y2, x:x2].astype(np.float32)
    rgb[y:y2, x:x2] = (region * (1 - a) + np.array(colour, np.float32) * a).astype(np.uint8)


_PIP_ROWS = {  # pips per row, top to bottom, for the number cards
    "A": [1], "2": [1, 1], "3": [1, 1, 1], "4": [2, 2], "5": [2, 1, 2], "6": [2, 2, 2], "7": [2, 1, 2, 2],
    "8": [2, 2, 2, 2], "9": [2, 2, 1, 2, 2], "10": [2, 2, 2, 2, 2],
}


def draw_face(code: str, st: DeckStyle, four_corner: bool = False) -> np.ndarray:
    """One face (RGBA, :data:`FACE_W` wide) of a drawn deck.  ``four_corner``: the index is
    printed in all four corners (as many poker and Chinese decks do), upright at the top,
    half a turn at the bottom; else at the top-left and bottom-right only."""
    w, h = FACE_W, int(round(FACE_W * st.aspect))
    rgb = np.empty((h, w, 3), np.uint8)
    rgb[:] = st.paper
    ink = _ink(code, st)
    joker = code in ("SJ", "BJ")
    rank, suit = ("", "") if joker else (code[:-1], code[-1])
    m = int(round(st.margin * w))
    # the index: rank over suit (a joker: the word JOKER read downwards)
    if joker:
        letters = [_text_mask(ch, st, int(round(st.rank_h * w * 0.6))) for ch in "JOKER"]
        iw = max(x.shape[1] for x in letters)
        index = np.zeros((sum(x.shape[0] + 2 for x in letters), iw), np.uint8)
        y = 0
        for x in letters:
            index[y: y + x.shape[0], (iw - x.shape[1]) // 2: (iw - x.shape[1]) // 2 + x.shape[1]] = x
            y += x.shape[0] + 2
    else:
        r = _text_mask(rank, st, int(round(st.rank_h * w)))
        s = suit_mask(suit, int(round(st.suit_h * w)), st.suits)
        gap = int(round(st.gap * w))
        iw = max(r.shape[1], s.shape[1])
        index = np.zeros((r.shape[0] + gap + s.shape[0], iw), np.uint8)
        index[: r.shape[0], (iw - r.shape[1]) // 2: (iw - r.shape[1]) // 2 + r.shape[1]] = r
        index[r.shape[0] + gap:, (iw - s.shape[1]) // 2: (iw - s.shape[1]) // 2 + s.shape[1]] = s
    _stamp(rgb, index, m, m, ink)
    flipped = index[::-1, ::-1]
    _stamp(rgb, flipped, w - m - flipped.shape[1], h - m - flipped.shape[0], ink)
    if four_corner:
        _stamp(rgb, index, w - m - index.shape[1], m, ink)
        _stamp(rgb, flipped, m, h - m - flipped.shape[0], ink)
    # the middle
    x0, x1 = int(0.27 * w), int(0.73 * w)
    y0, y1 = int(0.14 * h), int(0.86 * h)
    if joker:
        star = _text_mask("\u2605", st, int(0.35 * w)) if st.font.startswith("DejaVuSans") else \
            suit_mask("D", int(0.35 * w), st.suits)
        _stamp(rgb, star, (w - star.shape[1]) // 2, (h - star.shape[0]) // 2, ink)
    elif rank in ("J", "Q", "K"):
        cv2.rectangle(rgb, (x0, y0), (x1, y1), tuple(int(v) for v in ink), 2)
        letter = _text_mask(rank, st, int(0.3 * h))
        _stamp(rgb, letter, (w - letter.shape[1]) // 2, (h - letter.shape[0]) // 2, ink)
    elif st.pips and rank in _PIP_ROWS:
        rows = _PIP_ROWS[rank]
        size = int(round(0.15 * w)) if rank != "A" else int(round(0.32 * w))
        pip = suit_mask(suit, size, st.suits)
        for i, n in enumerate(rows):
            cy = y0 + (y1 - y0) * (i + 0.5) / len(rows)
            for j in range(n):
                cx = (w / 2) if n == 1 else (x0 + (x1 - x0) * (0.2 + 0.6 * j))
                g = pip if cy <= h / 2 else pip[::-1, ::-1]
                _stamp(rgb, g, int(cx - g.shape[1] / 2), int(cy - g.shape[0] / 2), ink)
    else:
        pip = suit_mask(suit, int(round(0.4 * w)), st.suits)
        _stamp(rgb, pip, (w - pip.shape[1]) // 2, (h - pip.shape[0]) // 2, ink)
    # a thin outline and rounded corners
    out = np.zeros((h, w, 4), np.uint8)
    out[:, :, :3] = rgb
    alpha = np.zeros((h, w), np.uint8)
    rad = int(0.05 * w)
    cv2.rectangle(alpha, (rad, 0), (w - 1 - rad, h - 1), 255, -1)
    cv2.rectangle(alpha, (0, rad), (w - 1, h - 1 - rad), 255, -1)
    for cx, cy in ((rad, rad), (w - 1 - rad, rad), (rad, h - 1 - rad), (w - 1 - rad, h - 1 - rad)):
        cv2.circle(alpha, (cx, cy), rad, 255, -1, cv2.LINE_AA)
    out[:, :, 3] = alpha
    edge = cv2.morphologyEx(alpha, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8)) > 0
    out[edge, :3] = (150, 150, 150)
    return out


def draw_deck(number: int, four_corner: bool = False) -> dict[str, np.ndarray]:
    """All 54 faces of drawn deck ``number`` (``four_corner``: an index in each corner)."""
    st = deck_style(number)
    return {code: draw_face(code, st, four_corner) for code in CLASS_NAMES}
