"""Cards as pictures: one card face, or a fanned row of cards (a play, a trick, a bottom).

Every card is drawn here: a white rounded card with a large rank index and suit symbol in
red or black; the jokers say 大 or 小.  Runtime code: nothing from the training packages
(``cardref.datasets``) is imported, and no face cache on disk changes what is drawn.
Fonts are looked up on this machine only (nothing is downloaded); without any TrueType
font the suit symbols are drawn as polygons.
"""

from __future__ import annotations

import math
import subprocess
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from cardref.engine.cards import Suit

CARD_W, CARD_H = 70, 98
RED = (200, 30, 40, 255)
BLACK = (20, 20, 20, 255)
_FONT_CANDIDATES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/TTF/DejaVuSans-Bold.ttf",
)


@lru_cache(maxsize=4)
def font_path(cjk: bool = False) -> str | None:
    """A TrueType font on this machine (one with Chinese glyphs when ``cjk``), or None."""
    if not cjk:
        for p in _FONT_CANDIDATES:
            if Path(p).is_file():
                return p
    try:
        query = [":lang=zh", "file"] if cjk else ["DejaVu Sans:bold", "file"]
        if cjk:
            out = subprocess.run(["fc-list", *query], capture_output=True, text=True, timeout=5).stdout
            files = [line.split(":")[0].strip() for line in out.splitlines() if line.strip()]
            files = [f for f in files if f.lower().endswith((".ttf", ".ttc", ".otf"))]
            return sorted(files)[0] if files else None
        out = subprocess.run(["fc-match", "-f", "%{file}", query[0]], capture_output=True, text=True, timeout=5).stdout
        return out.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


@lru_cache(maxsize=32)
def font(size: int, cjk: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    path = font_path(cjk) or (font_path(False) if cjk else None)
    if path:
        try:
            return ImageFont.truetype(path, size)
        except OSError:
            pass
    return ImageFont.load_default()


def drawable(text: str, fallback: str) -> str:
    """``text`` when this machine has a font for it, else ``fallback`` (Chinese names need a
    CJK font such as fonts-wqy-microhei; without one they would be drawn as boxes)."""
    if text.isascii() or font_path(True) is not None:
        return text
    return fallback


def _split(code: str) -> tuple[str, str | None]:
    if code in ("SJ", "BJ"):
        return code, None
    return code[:-1], code[-1]


def _suit_polygon(draw: ImageDraw.ImageDraw, suit: str, cx: float, cy: float, r: float, fill: tuple) -> None:
    """A suit symbol drawn from shapes (no font needed)."""
    if suit == "D":
        draw.polygon([(cx, cy - r), (cx + r * 0.75, cy), (cx, cy + r), (cx - r * 0.75, cy)], fill=fill)
    elif suit == "H":
        draw.ellipse([cx - r, cy - r * 0.8, cx, cy + r * 0.2], fill=fill)
        draw.ellipse([cx, cy - r * 0.8, cx + r, cy + r * 0.2], fill=fill)
        draw.polygon([(cx - r * 0.97, cy - r * 0.15), (cx + r * 0.97, cy - r * 0.15), (cx, cy + r)], fill=fill)
    elif suit == "S":
        draw.ellipse([cx - r, cy - r * 0.1, cx, cy + r * 0.7], fill=fill)
        draw.ellipse([cx, cy - r * 0.1, cx + r, cy + r * 0.7], fill=fill)
        draw.polygon([(cx - r * 0.97, cy + r * 0.3), (cx + r * 0.97, cy + r * 0.3), (cx, cy - r)], fill=fill)
        draw.polygon([(cx, cy + r * 0.2), (cx - r * 0.4, cy + r), (cx + r * 0.4, cy + r)], fill=fill)
    else:  # clubs
        k = r * 0.45
        for dx, dy in ((0, -r * 0.45), (-r * 0.5, r * 0.1), (r * 0.5, r * 0.1)):
            draw.ellipse([cx + dx - k, cy + dy - k, cx + dx + k, cy + dy + k], fill=fill)
        draw.polygon([(cx, cy), (cx - r * 0.4, cy + r), (cx + r * 0.4, cy + r)], fill=fill)


def _draw_suit(draw: ImageDraw.ImageDraw, suit: str, cx: float, cy: float, size: int, fill: tuple) -> None:
    if font_path() is not None:  # DejaVu has the suit glyphs; Pillow's built-in font does not
        draw.text((cx, cy), Suit(suit).symbol, font=font(size), fill=fill, anchor="mm")
    else:
        _suit_polygon(draw, suit, cx, cy, size / 2.4, fill)


@lru_cache(maxsize=128)
def drawn_card(code: str, w: int = CARD_W, h: int = CARD_H) -> Image.Image:
    """One card face drawn here (RGBA)."""
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    radius = max(4, w // 9)
    d.rounded_rectangle([0, 0, w - 1, h - 1], radius=radius, fill=(255, 255, 255, 255), outline=(90, 90, 90, 255),
                        width=max(1, w // 50))
    rank, suit = _split(code)
    if suit is None:  # joker
        color = RED if code == "BJ" else BLACK
        f = font(max(8, w // 5))
        for k, ch in enumerate("JOKER"):
            d.text((w * 0.16, h * 0.12 + k * (w // 5 + 1)), ch, font=f, fill=color, anchor="mm")
        star_r = w * 0.28
        cx, cy = w * 0.58, h * 0.58
        pts = []
        for k in range(10):
            a = -math.pi / 2 + k * math.pi / 5
            rr = star_r if k % 2 == 0 else star_r * 0.45
            pts.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
        d.polygon(pts, fill=color)
        if font_path(True):  # big and small told apart by a word too, not by colour alone
            d.text((w * 0.58, h * 0.22), "大" if code == "BJ" else "小", font=font(max(8, w // 4), cjk=True),
                   fill=color, anchor="mm")
        else:
            d.text((w * 0.58, h * 0.22), "BIG" if code == "BJ" else "SML", font=font(max(8, w // 6)),
                   fill=color, anchor="mm")
        return img
    color = RED if suit in ("H", "D") else BLACK
    f = font(max(8, int(w * 0.3)))
    d.text((w * 0.06, h * 0.03), rank, font=f, fill=color, anchor="la")
    _draw_suit(d, suit, w * 0.2, h * 0.42, max(8, int(w * 0.26)), color)
    _draw_suit(d, suit, w * 0.62, h * 0.66, max(10, int(w * 0.55)), color)
    return img


@lru_cache(maxsize=256)
def card_image(code: str, w: int = CARD_W, h: int = CARD_H) -> Image.Image:
    """One card's face at ``w``×``h`` (RGBA): always the dashboard's own drawing (large
    index; 大 / 小 on the jokers), whatever face libraries this machine holds, so the
    referee sees the same cards on every laptop."""
    return drawn_card(code, w, h)


def back_image(w: int = CARD_W, h: int = CARD_H) -> Image.Image:
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle([0, 0, w - 1, h - 1], radius=max(4, w // 9), fill=(40, 70, 150, 255), outline=(255, 255, 255, 255),
                        width=2)
    return img


def cards_row(codes: list[str], height: int = CARD_H, overlap: float = 0.55, marks: list[bool] | None = None,
              max_width: int | None = None) -> Image.Image:
    """A row of cards, each covering ``overlap`` of the one before; ``marks[k]`` False draws a red frame."""
    w = int(height * CARD_W / CARD_H)
    if not codes:
        return Image.new("RGBA", (w, height), (0, 0, 0, 0))
    step = max(4, int(w * (1 - overlap)))
    if max_width is not None and len(codes) > 1:
        step = max(4, min(step, (max_width - w) // (len(codes) - 1)))
    total = w + step * (len(codes) - 1)
    img = Image.new("RGBA", (total, height), (0, 0, 0, 0))
    for k, code in enumerate(codes):
        img.alpha_composite(card_image(code, w, height), (k * step, 0))
    if marks is not None and not all(marks):
        d = ImageDraw.Draw(img)
        d.rounded_rectangle([1, 1, total - 2, height - 2], radius=6, outline=(230, 0, 0, 255), width=4)
    return img
