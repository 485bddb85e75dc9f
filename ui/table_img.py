"""The table drawn from above: seats around a felt, each seat's play of the current trick.

Seat 0 sits at the bottom; play goes counter-clockwise (逆时针), so seat 1 is to its
right, as the players see the table from above.  Teams are coloured; a play the referee
flagged gets a red frame; the seat to play is framed yellow and named in the middle
("轮到 南"), the leader of the trick has a yellow dot, the number under each badge is the
cards that seat has played this deal, and in 够级 "· N" after a name is its finishing place
(the legend under the picture says so: ``table.legend``).
"""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from .cards_img import cards_row, drawable, font, font_path
from .i18n import game_title, tr
from .views import DealView, turn_text

TEAM_COLORS = ((52, 120, 246), (245, 140, 30))
FELT = (24, 110, 60, 255)


def seat_positions(seats: int, w: int, h: int) -> list[tuple[float, float, float]]:
    """(x, y, angle) of each seat around an ellipse; seat 0 at the bottom, counter-clockwise."""
    cx, cy = w / 2, h / 2
    rx, ry = w * 0.40, h * 0.38
    if seats == 6:  # as the camera helper's default zones: two seats along each long edge
        angles = [math.radians(d) for d in (118, 62, 0, -62, -118, 180)]
    else:  # bottom, then to the right (screen y grows downward)
        angles = [math.pi / 2 - 2 * math.pi * s / seats for s in range(seats)]
    return [(cx + rx * math.cos(a), cy + ry * math.sin(a), a) for a in angles]


def _text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill: tuple,
          anchor: str = "mm") -> None:
    cjk = any(ord(ch) > 0x2E80 for ch in text)
    f = font(size, cjk=cjk and font_path(True) is not None)
    draw.text(xy, text, font=f, fill=fill, anchor=anchor)


def table_image(view: DealView, w: int = 900, h: int = 620, lang: str = "zh") -> Image.Image:
    """The table of ``view`` from above (RGBA)."""
    img = Image.new("RGBA", (w, h), (255, 255, 255, 0))
    d = ImageDraw.Draw(img)
    d.ellipse([w * 0.05, h * 0.06, w * 0.95, h * 0.94], fill=FELT, outline=(120, 80, 40, 255), width=10)
    pos = seat_positions(view.seats, w, h)
    card_h = 96 if view.seats <= 4 else 70
    for sv in view.seat_views:
        x, y, a = pos[sv.seat]
        color = TEAM_COLORS[sv.team]
        # the seat's badge, outside the felt edge
        bx, by = x + math.cos(a) * 40, y + math.sin(a) * 30
        label = drawable(sv.name, f"S{sv.seat}")
        if sv.out_place:
            label += f" · {sv.out_place}"
        bw = max(90, 12 * len(label) + 20)
        fill = (*color, 255)
        d.rounded_rectangle([bx - bw / 2, by - 16, bx + bw / 2, by + 16], radius=12, fill=fill,
                            outline=(255, 215, 0, 255) if sv.to_play else (255, 255, 255, 255),
                            width=6 if sv.to_play else 2)
        _text(d, (bx, by), label, 17, (255, 255, 255, 255))
        _text(d, (bx, by + 28), f"{sv.played}", 14, (30, 30, 30, 255))
        if sv.is_leader:
            d.ellipse([bx + bw / 2 - 8, by - 24, bx + bw / 2 + 8, by - 8], fill=(255, 215, 0, 255))
        # the seat's cards of the current trick, inward from the badge
        ix, iy = x - math.cos(a) * (w * 0.14), y - math.sin(a) * (h * 0.17)
        if sv.last:
            row = cards_row(sv.last, height=card_h, overlap=0.62, marks=[sv.last_ok], max_width=int(w * 0.3))
            img.alpha_composite(row, (int(ix - row.width / 2), int(iy - row.height / 2)))
        elif sv.passed:
            _text(d, (ix, iy), drawable(tr("type.pass", lang), "pass"), 18, (230, 230, 230, 255))
    _text(d, (w / 2, h / 2 - 22), drawable(game_title(view.game, lang), view.game), 18, (200, 230, 200, 255))
    turn = turn_text(view, lang)
    if turn:  # whose turn it is, large, in the middle of the felt
        fallback = f"S{view.to_play} to play" if view.to_play is not None else "over"
        _text(d, (w / 2, h / 2 + 16), drawable(turn, fallback), 34, (255, 215, 0, 255))
    return img
