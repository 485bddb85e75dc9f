"""One card counted once, whatever its index layout (issue #33, item 6): pure merge geometry.

Cards are laid on a table in stacking order (the last on top); each shows its indices
(two diagonal, or four corner ones; standard or jumbo size) except those another card
covers.  The merge must give one entry per card: a four-index card alone, fanned or piled
is one card; two identical cards from two decks stay two.  See docs/vision-detector.md,
"Four-index and jumbo designs".
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pytest

from cardref.vision.detector.merge import (
    MergeSettings,
    jumbo_cost,
    merge_corners,
    shows_four_index,
    side_cost,
)
from cardref.vision.types import CornerDetection


@dataclass(frozen=True)
class Layout:
    """A design's index layout, in index sizes (an index's longer side is 1)."""

    card_h: float  # card height
    aspect: float  # card width / height
    index_at: tuple[float, float]  # index centre from the card's corner, in card fractions
    index_w: float  # index width (its height is 1)
    four: bool  # an index in each corner (else top-left and bottom-right)


# A standard poker deck (the real-cards photos: diagonal 3.8 index sizes), and jumbo
# indices (a third of the card tall: diagonal about 2.2).
STANDARD = Layout(4.2, 0.71, (0.09, 0.14), 0.55, False)
FOUR = Layout(4.2, 0.71, (0.09, 0.14), 0.55, True)
# a Chinese deck: narrower card, indices nearer the edge
FOUR_NARROW = Layout(4.4, 0.64, (0.08, 0.12), 0.5, True)
JUMBO = Layout(2.8, 0.71, (0.13, 0.18), 0.62, False)
JUMBO_FOUR = Layout(2.8, 0.71, (0.13, 0.18), 0.62, True)


@dataclass(frozen=True)
class Card:
    code: str
    x: float  # centre, pixels
    y: float
    angle: float = 0.0  # degrees, clockwise


def _inside(px: float, py: float, card: Card, layout: Layout, size: float) -> bool:
    """Whether an index centred at (px, py) is covered by ``card`` (within half an index of its edge)."""
    a = math.radians(card.angle)
    dx, dy = px - card.x, py - card.y
    lx, ly = dx * math.cos(a) + dy * math.sin(a), -dx * math.sin(a) + dy * math.cos(a)
    h = layout.card_h * size
    return abs(lx) < layout.aspect * h / 2 + size / 4 and abs(ly) < h / 2 + size / 2


def table(cards: list[Card], layout: Layout, size: float = 18.0) -> tuple[list[CornerDetection], list[str]]:
    """The index boxes the finder would see of ``cards`` (stacked in order, the last on top),
    named right, and the true card codes."""
    out = []
    h = layout.card_h * size
    w = layout.aspect * h
    for k, card in enumerate(cards):
        a = math.radians(card.angle)
        spots = (("tl", -1, -1), ("tr", 1, -1), ("bl", -1, 1), ("br", 1, 1))
        for tag, sx, sy in spots:
            if not layout.four and tag in ("tr", "bl"):
                continue
            lx = sx * (w / 2 - layout.index_at[0] * w)
            ly = sy * (h / 2 - layout.index_at[1] * h)
            px = card.x + lx * math.cos(a) - ly * math.sin(a)
            py = card.y + lx * math.sin(a) + ly * math.cos(a)
            if any(_inside(px, py, above, layout, size) for above in cards[k + 1:]):
                continue
            c, s = abs(math.cos(a)), abs(math.sin(a))
            iw, ih = layout.index_w * size, size
            bw, bh = iw * c + ih * s, iw * s + ih * c
            out.append(CornerDetection(card.code, 0.9, (px - bw / 2, py - bh / 2, px + bw / 2, py + bh / 2)))
    return out, sorted(c.code for c in cards)


def fan(codes: list[str], layout: Layout, step: float, size: float = 18.0, angle: float = 0.0,
        x: float = 300.0, y: float = 300.0) -> list[Card]:
    """Cards laid overlapping left to right, ``step`` card widths apart."""
    w = layout.aspect * layout.card_h * size
    a = math.radians(angle)
    return [Card(code, x + i * step * w * math.cos(a), y + i * step * w * math.sin(a), angle)
            for i, code in enumerate(codes)]


def arc(codes: list[str], layout: Layout, turn: float, size: float = 18.0) -> list[Card]:
    """A hand held fanned: cards turned ``turn`` degrees more each about a pivot below them."""
    radius = layout.card_h * size * 0.9
    out = []
    for i, code in enumerate(codes):
        a = math.radians((i - (len(codes) - 1) / 2) * turn)
        out.append(Card(code, 400 + radius * math.sin(a), 500 - radius * math.cos(a), math.degrees(a)))
    return out


S = 18.0
H = FOUR.card_h * S  # a card's height in pixels
CASES = [
    # (what, layout, cards)
    # one card alone, however it lies
    *[(f"four-index card alone at {a} degrees", FOUR, [Card("8C", 400, 300, a)]) for a in (0, 10, 30, 90, 165, 200)],
    ("narrow four-index card alone", FOUR_NARROW, [Card("QH", 400, 300, 5)]),
    ("jumbo two-index card alone", JUMBO, [Card("5D", 400, 300, 0)]),
    ("jumbo two-index card sideways", JUMBO, [Card("5D", 400, 300, 90)]),
    ("jumbo four-index card alone", JUMBO_FOUR, [Card("5D", 400, 300, 8)]),
    # fans of different cards: each card but the top one shows its two left indices
    *[(f"fan of {n} four-index cards, step {st}", FOUR, fan(["3S", "7H", "KD", "AC", "10S"][:n], FOUR, st))
      for n in (3, 4, 5) for st in (0.25, 0.4)],
    ("fan of four narrow four-index cards", FOUR_NARROW, fan(["2H", "9H", "JH", "QS"], FOUR_NARROW, 0.3)),
    ("fan of 4 four-index cards, tilted 12 degrees", FOUR, fan(["3S", "7H", "KD", "AC"], FOUR, 0.3, angle=12)),
    ("hand of 5 four-index cards held in an arc", FOUR, arc(["3S", "7H", "KD", "AC", "10S"], FOUR, 12)),
    ("fan of 4 jumbo four-index cards", JUMBO_FOUR, fan(["3S", "7H", "KD", "AC"], JUMBO_FOUR, 0.35)),
    # piles: cards dropped overlapping, each turned its own way
    ("pile of 3 four-index cards", FOUR, [Card("4S", 300, 300, 0), Card("9D", 340, 330, 20), Card("JC", 390, 300, 5)]),
    ("pile of 4 four-index cards", FOUR,
     [Card("4S", 300, 300, 0), Card("9D", 360, 320, 35), Card("JC", 300, 390, 80), Card("2H", 420, 380, 10)]),
    # multi-deck duplicates: two identical cards from two decks are two
    ("two identical four-index cards side by side", FOUR,
     [Card("7S", 300, 300, 0), Card("7S", 300 + 0.71 * H * 1.1, 300, 0)]),
    ("two identical four-index cards one above the other", FOUR,
     [Card("7S", 300, 300, 0), Card("7S", 300, 300 + H * 1.1, 0)]),
    ("two identical four-index cards apart, turned", FOUR, [Card("7S", 250, 250, 30), Card("7S", 600, 420, 100)]),
    *[(f"two identical four-index cards fanned, step {st}", FOUR, fan(["7S", "7S"], FOUR, st))
      for st in (0.25, 0.4, 0.6)],
    ("three identical four-index cards fanned (three decks)", FOUR, fan(["QD", "QD", "QD"], FOUR, 0.3)),
    ("identical pair inside a fan of four-index cards", FOUR, fan(["3S", "7S", "7S", "KD"], FOUR, 0.3)),
    ("two identical jumbo cards fanned", JUMBO, fan(["6C", "6C", "6C"], JUMBO, 0.3)),
    ("two identical jumbo cards side by side", JUMBO, [Card("6C", 300, 300, 0), Card("6C", 300 + 0.71 * 2.8 * S * 1.1, 300)]),
    # the two-index layouts keep what they had
    ("standard card alone", STANDARD, [Card("QH", 300, 300, 0)]),
    ("fan of standard identical cards", STANDARD, fan(["10D", "10D", "10D"], STANDARD, 0.3)),
    ("fan of standard cards", STANDARD, fan(["3S", "7H", "KD", "AC"], STANDARD, 0.3)),
]


@pytest.mark.parametrize(("what", "layout", "cards"), CASES, ids=[c[0] for c in CASES])
def test_each_card_is_counted_once(what: str, layout: Layout, cards: list[Card]) -> None:
    corners, want = table(cards, layout, S)
    found = merge_corners(corners)
    assert sorted(c.card for c in found) == want, what
    assert sum(len(c.corners) for c in found) == len(corners)  # every index belongs to a card


def test_a_lone_four_index_card_joins_all_four_indices() -> None:
    corners, _ = table([Card("8C", 400, 300, 0)], FOUR, S)
    cards = merge_corners(corners)
    assert len(cards) == 1 and len(cards[0].corners) == 4


@pytest.mark.parametrize(("layout", "cards", "four"), [
    (FOUR, [Card("8C", 400, 300, 0)], True),
    (FOUR, fan(["3S", "7H", "KD"], FOUR, 0.3), True),  # the top card shows all four
    (STANDARD, fan(["3S", "7H", "KD"], STANDARD, 0.3), False),
    (STANDARD, [Card("8C", 400, 300, 0), Card("8C", 700, 300, 0)], False),
])
def test_a_frame_shows_a_four_index_design_only_by_a_card_with_three_or_four_indices(layout, cards, four) -> None:
    from cardref.vision.detector.merge import _match

    corners, _ = table(cards, layout, S)
    assert shows_four_index(_match(corners, MergeSettings()), MergeSettings()) is four


def test_side_pairs_need_the_four_index_evidence() -> None:
    """Without a card showing three or four indices, two same-code indices a card side apart
    stay two cards: in a two-index deck they are two cards from two decks."""
    left_strip, _ = table(fan(["7S", "7S"], FOUR, 0.3)[:1], FOUR, S)
    tl_bl = [c for c in left_strip if c.center[0] < 300]
    assert len(tl_bl) == 2
    assert len(merge_corners(tl_bl)) == 2
    assert side_cost(*tl_bl) is not None  # a card's long side ...


def test_fan_of_four_index_cards_needs_the_side_rule() -> None:
    corners, want = table(fan(["3S", "7H", "KD", "AC"], FOUR, 0.3), FOUR, S)
    assert sorted(c.card for c in merge_corners(corners)) == want
    off = MergeSettings(four_index_sides=False)
    assert len(merge_corners(corners, off)) > len(want)  # each covered card counted twice


def test_jumbo_cards_need_the_jumbo_rule() -> None:
    corners, want = table([Card("5D", 400, 300, 0)], JUMBO, S)
    assert jumbo_cost(*corners) is not None
    assert [c.card for c in merge_corners(corners)] == want
    assert len(merge_corners(corners, MergeSettings(jumbo=False))) == 2


SIDE_CASES = [
    # (step from one upright index to the other, in index sizes (dx, dy), fits a side?)
    ((0.0, 3.0), True),  # the card's long side
    ((0.5, 3.0), True),  # ... the card turned 9 degrees
    ((2.4, 0.0), True),  # its short side
    ((1.5, 3.0), False),  # 27 degrees off a side
    ((1.6, 1.6), False),  # a diagonal, not a side
    ((0.0, 1.2), False),  # a cascade's step: far shorter than a side
    ((0.8, 0.0), False),  # a fan's step
]


@pytest.mark.parametrize(("step", "fits"), SIDE_CASES)
def test_side_cost_table(step: tuple[float, float], fits: bool) -> None:
    a = CornerDetection("9S", 0.9, (100, 100, 100 + 0.55 * S, 100 + S))
    b = CornerDetection("9S", 0.9, (100 + step[0] * S, 100 + step[1] * S, 100 + step[0] * S + 0.55 * S,
                                    100 + step[1] * S + S))
    assert (side_cost(a, b) is not None) is fits
