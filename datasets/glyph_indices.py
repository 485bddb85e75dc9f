"""Card indices drawn straight from the machine's fonts, as namer training patches.

The SVG decks and the drawn decks share a few dozen suit shapes, and the namer learns
those: a club with small tight lobes (aisleriot-plastic, many webcam tables) reads as a
spade.  Every installed typeface that draws the four filled suits (U+2660, U+2663, U+2665,
U+2666) draws them its own way: DejaVu, FreeFont, Liberation, URW base-35, the TeX Gyre and
Latin Modern maths faces, STIX, Symbola, Noto Sans Symbols 2, OpenSymbol, Unifont's pixel
shapes, WenQuanYi.  Every typeface with the rank glyphs (A, 2-10, J, Q, K) gives a rank.
This module pairs a rank font with a suit font at random and prints one index (rank above
suit, sometimes beside it) on a card corner, then takes it through a camera: any index
height from 10 to 80 px, defocus, noise and JPEG.  The patch is cut with the namer's own
:func:`crop_corner` around the ink-tight box, as the scenes' labels are.

Inks: black and red on light paper; four-colour decks (green clubs, blue diamonds); dark
decks printed in one metal ink for all four suits, where only the shape tells the suit, or
two-toned.  Jokers are left out (their indices are words, not glyph pairs).

Training only: the runtime never imports this module.  The fonts are Debian packages
(:data:`FONT_PACKAGES`, installed by ``tools/setup.sh --train``); with none installed the
generator says so and makes nothing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from cardref.vision.classes import CLASS_INDEX, CLASS_NAMES
from cardref.vision.detector.namer import CROP_SIZE, crop_corner

from .namer_data import jittered

FONT_ROOT = Path("/usr/share/fonts")
#: The Debian font packages whose suit and rank glyphs the patches use (more make more
#: shapes; the ones of tools/setup.sh's base install are enough to run).
FONT_PACKAGES = ("fonts-dejavu-core", "fonts-dejavu-extra", "fonts-freefont-ttf", "fonts-liberation",
                 "fonts-urw-base35", "fonts-wqy-microhei", "fonts-noto-core", "fonts-symbola", "fonts-stix",
                 "fonts-texgyre", "fonts-opensymbol", "fonts-lmodern", "fonts-unifont")
SUIT_CHARS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_CHARS = "A0123456789JQK"
#: The 52 codes an index patch can show (no jokers).
CODES = tuple(c for c in CLASS_NAMES if c[:-1] in RANKS and c[-1] in SUIT_CHARS)
#: Glyph masks are cut at this height (pixels) before being placed.
HI_RES = 64
#: Index heights (pixels in the camera frame, the box's longer side) the patches are shown at.
INDEX_PX = (10.0, 80.0)


class GlyphFontError(RuntimeError):
    """No installed font can draw the suits or the ranks."""


@dataclass(frozen=True)
class FontSet:
    suit_fonts: tuple[Path, ...]
    rank_fonts: tuple[Path, ...]

    def digest(self) -> str:
        """Names the set (a cache key): the font files' paths and sizes."""
        h = hashlib.sha256()
        for p in (*self.suit_fonts, "|", *self.rank_fonts):
            h.update(str(p).encode())
            if isinstance(p, Path):
                h.update(str(p.stat().st_size).encode())
        return h.hexdigest()[:12]


def _cmap(path: Path) -> set[int]:
    from fontTools.ttLib import TTFont

    try:
        font = TTFont(str(path), fontNumber=0, lazy=True)
        return set(font.getBestCmap() or {})
    except Exception:  # noqa: BLE001 - an unreadable font file is simply not used
        return set()


def covers(path: Path, chars: Iterable[str]) -> bool:
    """Whether the font file maps every one of ``chars`` to a glyph."""
    have = _cmap(path)
    return all(ord(c) in have for c in chars)


def _scalable(path: Path) -> bool:
    """Whether the file is an outline font PIL draws at any size (not a fixed-size bitmap one)."""
    try:
        ImageFont.truetype(str(path), HI_RES * 2)
    except OSError:
        return False
    return True


@lru_cache(maxsize=4)
def discover(root: Path = FONT_ROOT) -> FontSet:
    """Every TrueType/OpenType file under ``root`` that draws the four suits, and every one
    that draws the rank glyphs (sorted, so a seed makes the same patches on one machine)."""
    files = sorted(p for ext in ("*.ttf", "*.otf", "*.ttc") for p in root.rglob(ext))
    suits, ranks = [], []
    for p in files:
        have = _cmap(p) if _scalable(p) else set()
        if all(ord(c) in have for c in SUIT_CHARS.values()):
            suits.append(p)
        if all(ord(c) in have for c in RANK_CHARS):
            ranks.append(p)
    if not suits or not ranks:
        raise GlyphFontError(f"no font under {root} draws the {'suits' if not suits else 'ranks'}: "
                             f"install {' '.join(FONT_PACKAGES[:5])} (tools/setup.sh --train)")
    return FontSet(tuple(suits), tuple(ranks))


@lru_cache(maxsize=4096)
def glyph_mask(font: Path, text: str, height: int = HI_RES) -> np.ndarray:
    """The text's ink (uint8 0..255) cropped to its glyphs and scaled to ``height`` rows;
    an empty array when the font draws nothing there."""
    f = ImageFont.truetype(str(font), height * 2)
    x1, y1, x2, y2 = f.getbbox(text)
    if x2 <= x1 or y2 <= y1:
        return np.zeros((0, 0), np.uint8)
    im = Image.new("L", (x2 - x1 + 4, y2 - y1 + 4), 0)
    ImageDraw.Draw(im).text((2 - x1, 2 - y1), text, font=f, fill=255)
    a = np.asarray(im)
    ys, xs = np.nonzero(a > 40)
    if len(ys) == 0:
        return np.zeros((0, 0), np.uint8)
    a = a[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    w = max(1, round(a.shape[1] * height / a.shape[0]))
    return cv2.resize(a, (w, height), interpolation=cv2.INTER_AREA)


def _scaled(mask: np.ndarray, h: float, squeeze: float) -> np.ndarray:
    return cv2.resize(mask, (max(1, round(mask.shape[1] * h / mask.shape[0] * squeeze)), max(1, round(h))),
                      interpolation=cv2.INTER_AREA)


def _inks(suit: str, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(paper, ink) RGB colours 0..255 for one index."""
    red = suit in "HD"
    style = rng.random()
    if style < 0.2:  # a dark deck: metal ink, one for all four suits or two-toned
        paper = rng.uniform(5, 45, 3)
        gold, silver = np.array([215, 170, 70]), np.array([190, 190, 195])
        mono = rng.random() < 0.5
        ink = (gold if rng.random() < 0.6 else silver) if mono else (gold if red else silver)
        return paper, np.clip(ink + rng.normal(0, 18, 3), 0, 255)
    paper = np.clip(rng.uniform(205, 255) - rng.uniform(0, 14, 3) * (rng.random() < 0.4), 0, 255)
    if style < 0.3:  # four colours: green clubs, blue diamonds
        ink = {"S": [20, 20, 25], "H": [200, 25, 30], "D": [30, 70, 190], "C": [20, 130, 40]}[suit]
    else:
        ink = [rng.uniform(170, 230), rng.uniform(0, 45), rng.uniform(0, 55)] if red else [rng.uniform(0, 60)] * 3
    return paper, np.clip(np.asarray(ink, float) + rng.normal(0, 10, 3), 0, 255)


def draw_index(code: str, rank_font: Path, suit_font: Path,
               rng: np.random.Generator) -> tuple[np.ndarray, tuple[float, float, float, float]] | None:
    """A BGR card corner holding ``code``'s index, and the index's ink-tight box; None when a
    font draws nothing for the glyph."""
    rank_m, suit_m = glyph_mask(rank_font, code[:-1]), glyph_mask(suit_font, SUIT_CHARS[code[-1]])
    if rank_m.size == 0 or suit_m.size == 0:
        return None
    r = float(HI_RES)
    rank = _scaled(rank_m, r, rng.uniform(0.7, 1.15))
    suit = _scaled(suit_m, r * rng.uniform(0.55, 1.0), rng.uniform(0.9, 1.1))
    gap = r * rng.uniform(0.05, 0.35)
    beside = rng.random() < 0.12
    if beside:  # rank and suit side by side, tops or middles aligned
        w, h = rank.shape[1] + gap + suit.shape[1], max(rank.shape[0], suit.shape[0])
        spots = [(0.0, 0.0), (rank.shape[1] + gap, 0.0 if rng.random() < 0.5 else (rank.shape[0] - suit.shape[0]) / 2)]
    else:  # suit under the rank, centred or left-aligned
        w, h = max(rank.shape[1], suit.shape[1]), rank.shape[0] + gap + suit.shape[0]
        left = rng.random() < 0.3
        spots = [(0.0 if left else (w - rank.shape[1]) / 2, 0.0),
                 (0.0 if left else (w - suit.shape[1]) / 2, rank.shape[0] + gap)]
    margin = r * rng.uniform(0.15, 0.8, 2)  # from the card's edges to the index
    pad = int(max(w, h))
    size = (int(h + 2 * pad), int(w + 2 * pad))
    x0, y0 = float(pad), float(pad)
    paper, ink = _inks(code[-1], rng)
    table = np.clip(rng.uniform(20, 235) + rng.normal(0, 25, 3), 0, 255)  # wood, cloth, a desk
    img = np.empty((*size, 3), np.float32)
    img[:] = table
    cx, cy = int(x0 - margin[0]), int(y0 - margin[1])  # the card's corner
    radius = int(r * rng.uniform(0.1, 0.6))
    card = np.zeros(size, np.uint8)
    cv2.rectangle(card, (cx + radius, cy), (size[1], size[0]), 255, -1)
    cv2.rectangle(card, (cx, cy + radius), (size[1], size[0]), 255, -1)
    cv2.circle(card, (cx + radius, cy + radius), radius, 255, -1)
    img[card > 0] = paper
    alpha = np.zeros(size, np.float32)
    for m, (dx, dy) in zip((rank, suit), spots, strict=True):
        ax, ay = int(round(x0 + dx)), int(round(y0 + dy))
        region = alpha[ay:ay + m.shape[0], ax:ax + m.shape[1]]
        np.maximum(region, m[:region.shape[0], :region.shape[1]] / 255.0, out=region)
    if rng.random() < 0.25:  # a face card's picture frame or a pip beside the index
        fx = int(x0 + w + r * rng.uniform(0.3, 1.2))
        cv2.rectangle(alpha, (fx, int(y0 + r * rng.uniform(0, 1))), (size[1] + 5, size[0] + 5),
                      float(rng.uniform(0.4, 1)), max(1, int(r * rng.uniform(0.03, 0.12))))
    img = img * (1 - alpha[..., None]) + ink * alpha[..., None]
    return np.clip(img[..., ::-1], 0, 255).astype(np.uint8), (x0, y0, x0 + w, y0 + h)


def through_camera(img: np.ndarray, box: tuple[float, ...], rng: np.random.Generator,
                   index_px: tuple[float, float] = INDEX_PX) -> tuple[np.ndarray, tuple[float, ...]]:
    """The corner as a camera shows it: the index's longer side ``index_px`` pixels (log
    uniform), light falling across it, defocus, sensor noise and JPEG."""
    side = max(box[2] - box[0], box[3] - box[1])
    k = float(np.exp(rng.uniform(*np.log(index_px)))) / side
    out = cv2.resize(img, (max(8, round(img.shape[1] * k)), max(8, round(img.shape[0] * k))),
                     interpolation=cv2.INTER_AREA).astype(np.float32)
    gain = rng.uniform(0.55, 1.25) + np.linspace(0, rng.uniform(-0.3, 0.3), out.shape[1])[None, :, None]
    out = out * gain + rng.normal(0, 1, 3) * 8
    if rng.random() < 0.4:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.3, 0.9))
    out += rng.normal(0, rng.uniform(1, 8), out.shape)
    out8 = np.clip(out, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", out8, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 96))])
    if ok:
        out8 = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out8, tuple(v * k for v in box)


def glyph_patches(n: int, seed: int = 0, fonts: FontSet | None = None,
                  copies: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """``n`` indices, ``copies`` patches each (the exact box, then detector-like misses):
    ``(n * copies, CROP_SIZE, CROP_SIZE, 3)`` uint8 BGR patches and their class ids, the 52
    codes in turn."""
    fonts = fonts or discover()
    rng = np.random.default_rng(seed)
    xs: list[np.ndarray] = []
    ys: list[int] = []
    made = 0
    tries = 0
    while made < n and tries < 3 * n + 10:
        tries += 1
        code = CODES[made % len(CODES)]
        drawn = draw_index(code, fonts.rank_fonts[int(rng.integers(len(fonts.rank_fonts)))],
                           fonts.suit_fonts[int(rng.integers(len(fonts.suit_fonts)))], rng)
        if drawn is None:
            continue
        img, box = through_camera(*drawn, rng)
        for k in range(copies):
            b = box if k == 0 else jittered(box, rng, 0.2 if rng.random() < 0.3 else 0.15)
            xs.append(crop_corner(img, b))
            ys.append(CLASS_INDEX[code])
        made += 1
    if not xs:
        return np.zeros((0, CROP_SIZE, CROP_SIZE, 3), np.uint8), np.zeros(0, np.int64)
    return np.stack(xs), np.asarray(ys, dtype=np.int64)
