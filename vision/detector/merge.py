"""Corners to cards: merge the two indices of one physical card, keep identical cards apart.

A face card shows its rank-and-suit index twice, at the top-left and (turned half a turn)
at the bottom-right, about one card diagonal apart.  The model reports each index it sees.
Several decks are in play, so two indices with the same code may be one card or two.

The matcher works per code.  Its unit is the index size ``s`` (the longer side of an
index box, which barely changes as the card turns).  Two same-code indices can belong to
one card when

* their centres are ``min_ratio``..``max_ratio`` index sizes apart (an index is about a
  fifth of the card's height and the indices sit a diagonal apart: 3.8 s is the median of
  the real-cards phone photos, 95% lie in 2.7..4.7; the lower bound 2.5 keeps neighbours
  in a fan of identical cards apart, at the price of splitting a card seen so obliquely
  that its indices are closer than 2.5 index sizes: 3% of the phone photos, rare under a
  camera looking down at the table);
* their sizes are alike (both lie at the same distance from the camera).

* they are turned alike: when both boxes are clearly elongated (the card upright or
  sideways, within ~20 degrees), both are elongated the same way and the step between
  them runs along their long side by at least ``min_axis_share`` and across it by at
  least ``min_cross_share`` (one card's indices sit
  diagonally across it; upright indices side by side are neighbours in a row of cards);
  and the step runs along the right diagonal: a card's indices sit top-left and
  bottom-right, so for an upright (or upside-down) card the step goes down-right
  (``dx * dy > 0``) and for a sideways card down-left.  Without this, the bottom-right
  index of one upright card and the top-left index of its right-hand twin would fit as
  well as the card's own pair.  ``index_diagonal = -1`` is for mirrored images, 0 turns
  the test off.

* no other index (of any code) lies on the card face between them: within
  ``blocker_ratio`` s of the segment joining them, or within ``blocker_disc`` of its length
  from its midpoint.  Visible indices there mean a fan or row of cards, not one card.

Among those candidates the matcher picks the pairing of least total cost, where a pair
costs ``|ln(distance / expected)| + |ln(size ratio)|`` and a corner left alone costs
``max_cost / 2`` (so any candidate pair beats two lone corners, and a near-tie between a
card's own pair and a pair across two neighbouring cards is settled by what the rest of the
corners need).  It is solved exactly per code (a code has at most a handful of corners:
four decks show at most eight); above ``exact_limit`` corners a greedy best-first pairing
is used.
Every corner left unpaired is a card on its own (a fanned hand shows one index per card).
Two detections of one index (centres within ``duplicate_ratio`` s) count once.

Known limits (the matcher sees only axis-aligned boxes, never the card outline):

* identical cards fanned in an arc, turned so that their index boxes look square, with
  their visible indices 2.5 or more index sizes apart, look like one card's two indices;
* two identical cards that each show one index only (the others covered), where the lone
  indices sit exactly where one card's pair would (e.g. the bottom-right index of one card
  and the top-left index of its diagonal neighbour), are merged into one card.

Both need identical cards with covered indices in a particular pose; a face-colour check
along the step (card face versus table cloth) would settle them and is not done yet.

A card's box is the union of its index boxes: it spans the visible indices, not the whole
card outline (which the model does not see).  Its confidence is that of its best index.
The result does not depend on the order of the input.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from ..types import CardDetection, CornerDetection

JOKER_CODES = frozenset({"SJ", "BJ"})


@dataclass(frozen=True)
class MergeSettings:
    """Geometry of a card's two indices, in index sizes (see the module docstring)."""

    #: Typical centre distance of one card's two indices / index size (real-cards median 3.8).
    expected_ratio: float = 3.8
    min_ratio: float = 2.5
    max_ratio: float = 7.5
    #: Jokers carry a tall "JOKER" word as their index, so their indices are relatively closer
    #: (real-cards: median 1.4, 95% below 2.3).
    joker_expected_ratio: float = 1.6
    joker_min_ratio: float = 0.9
    joker_max_ratio: float = 2.3
    #: Largest size ratio of two indices of one card.
    max_size_ratio: float = 2.0
    #: A box counts as elongated (its card upright or sideways) above this aspect ratio.
    elongated: float = 1.3
    #: For two elongated indices, the share of the step along their long side must reach this
    #: (a card upright within 22 degrees puts at least 0.48 of it there).
    min_axis_share: float = 0.35
    #: ... and the share across it at least this (the step is a diagonal, 17..61 degrees off
    #: the long side for a card within 22 degrees of upright; a joker's 14..90).
    min_cross_share: float = 0.17
    joker_min_axis_share: float = 0.0
    #: +1: indices at top-left and bottom-right (standard decks, unmirrored camera);
    #: -1: mirrored image; 0: do not use the diagonal.
    index_diagonal: int = 1
    #: An index closer than this many index sizes to the segment between two indices (and
    #: not near its ends) shows they are two cards in a row, not one card.
    blocker_ratio: float = 0.6
    #: ... or closer to its midpoint than this share of its length.
    blocker_disc: float = 0.38
    #: Pairs costing more than this stay two cards.
    max_cost: float = 1.2
    #: With this many face-card pairs in a frame, learn the frame's own expected ratio (0: never).
    adapt_after: int = 3
    #: Largest number of same-code corners matched exactly (2**n states); greedy above.
    exact_limit: int = 16
    #: Same-code indices closer than this many index sizes are one index seen twice.
    duplicate_ratio: float = 0.5


DEFAULT_MERGE = MergeSettings()


def _size(c: CornerDetection) -> float:
    x1, y1, x2, y2 = c.box
    return max(x2 - x1, y2 - y1, 1e-6)


def _centre(c: CornerDetection) -> tuple[float, float]:
    x1, y1, x2, y2 = c.box
    return ((x1 + x2) / 2, (y1 + y2) / 2)


def _shape(c: CornerDetection, elongated: float) -> str:
    """'tall', 'wide' or 'square' (orientation unknown)."""
    x1, y1, x2, y2 = c.box
    w, h = max(x2 - x1, 1e-6), max(y2 - y1, 1e-6)
    if h / w >= elongated:
        return "tall"
    if w / h >= elongated:
        return "wide"
    return "square"


def pair_cost(a: CornerDetection, b: CornerDetection, settings: MergeSettings = DEFAULT_MERGE) -> float | None:
    """How well two same-code indices fit one card (lower is better), or ``None`` if they cannot."""
    if a.card != b.card:
        return None
    sa, sb = _size(a), _size(b)
    size_ratio = max(sa, sb) / min(sa, sb)
    if size_ratio > settings.max_size_ratio:
        return None
    (ax, ay), (bx, by) = _centre(a), _centre(b)
    dx, dy = bx - ax, by - ay
    dist = math.hypot(dx, dy)
    ratio = dist / math.sqrt(sa * sb)
    joker = a.card in JOKER_CODES
    lo, hi, expected = ((settings.joker_min_ratio, settings.joker_max_ratio, settings.joker_expected_ratio)
                        if joker else (settings.min_ratio, settings.max_ratio, settings.expected_ratio))
    if not lo <= ratio <= hi:
        return None
    shapes = {_shape(a, settings.elongated), _shape(b, settings.elongated)}
    if shapes == {"tall", "wide"}:  # one card's indices are turned alike (half a turn apart)
        return None
    # A joker's narrow index still looks elongated at 38 degrees of turn: its step may lie
    # 14..90 degrees off the long side, so only the diagonal's direction is tested.
    share = settings.joker_min_axis_share if joker else settings.min_axis_share
    cross = settings.min_cross_share
    diagonal = settings.index_diagonal
    if shapes == {"tall"} and (abs(dy) < share * dist or abs(dx) < cross * dist
                               or (diagonal and dx * dy * diagonal <= 0)):
        return None
    if shapes == {"wide"} and (abs(dx) < share * dist or abs(dy) < cross * dist
                               or (diagonal and dx * dy * diagonal >= 0)):
        return None
    return abs(math.log(ratio / expected)) + math.log(size_ratio)


def _order_key(c: CornerDetection) -> tuple:
    return (-round(c.conf, 6), round(c.box[0], 3), round(c.box[1], 3), round(c.box[2], 3), round(c.box[3], 3))


def _drop_duplicates(corners: list[CornerDetection], settings: MergeSettings) -> list[CornerDetection]:
    kept: list[CornerDetection] = []
    for c in corners:  # best first
        cx, cy = _centre(c)
        if any(math.hypot(cx - kx, cy - ky) < settings.duplicate_ratio * math.sqrt(_size(c) * _size(k))
               for k in kept for kx, ky in [_centre(k)]):
            continue
        kept.append(c)
    return kept


def _blocked(a: CornerDetection, b: CornerDetection, others: list[tuple[tuple[float, float], float]],
             settings: MergeSettings) -> bool:
    """Whether another index lies on the way from ``a`` to ``b`` (``others``: centres and sizes)."""
    (ax, ay), (bx, by) = _centre(a), _centre(b)
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    if length2 <= 0:
        return False
    s = math.sqrt(_size(a) * _size(b))
    mx, my = (ax + bx) / 2, (ay + by) / 2
    disc2 = settings.blocker_disc ** 2 * length2
    for (ox, oy), _ in others:
        if (ox - mx) ** 2 + (oy - my) ** 2 < disc2:
            return True
        t = ((ox - ax) * dx + (oy - ay) * dy) / length2
        if not 0.15 < t < 0.85:
            continue
        off = abs((ox - ax) * dy - (oy - ay) * dx) / math.sqrt(length2)
        if off < settings.blocker_ratio * s:
            return True
    return False


def _greedy_pairs(costs: dict[tuple[int, int], float]) -> list[tuple[int, int]]:
    used: set[int] = set()
    pairs = []
    for (i, j), _ in sorted(costs.items(), key=lambda kv: (kv[1], kv[0])):
        if i not in used and j not in used:
            used.update((i, j))
            pairs.append((i, j))
    return pairs


def _exact_pairs(n: int, costs: dict[tuple[int, int], float], alone: float) -> list[tuple[int, int]]:
    """The pairing of least total cost (each unpaired corner costs ``alone``), by DP over subsets."""
    partners: dict[int, list[int]] = {}
    for i, j in costs:
        partners.setdefault(i, []).append(j)
    memo: dict[int, tuple[float, tuple[tuple[int, int], ...]]] = {0: (0.0, ())}

    def solve(mask: int) -> tuple[float, tuple[tuple[int, int], ...]]:
        if mask in memo:
            return memo[mask]
        i = (mask & -mask).bit_length() - 1  # lowest corner still open
        rest = mask & ~(1 << i)
        total, pairs = solve(rest)
        best = (total + alone, pairs)
        for j in sorted(partners.get(i, ())):
            if rest >> j & 1:
                total, pairs = solve(rest & ~(1 << j))
                if total + costs[(i, j)] < best[0] - 1e-12:
                    best = (total + costs[(i, j)], ((i, j), *pairs))
        memo[mask] = best
        return best

    return list(solve((1 << n) - 1)[1])


def _card(corners: Sequence[CornerDetection]) -> CardDetection:
    corners = tuple(sorted(corners, key=lambda c: (c.box[1], c.box[0])))
    box = (min(c.box[0] for c in corners), min(c.box[1] for c in corners),
           max(c.box[2] for c in corners), max(c.box[3] for c in corners))
    return CardDetection(card=corners[0].card, conf=max(c.conf for c in corners), box=box, corners=corners)


def _pair_ratio(a: CornerDetection, b: CornerDetection) -> float:
    (ax, ay), (bx, by) = _centre(a), _centre(b)
    return math.hypot(bx - ax, by - ay) / math.sqrt(_size(a) * _size(b))


def _match(corners: list[CornerDetection], settings: MergeSettings) -> list[tuple[CornerDetection, ...]]:
    centres = [(_centre(c), _size(c)) for c in corners]
    by_code: dict[str, list[CornerDetection]] = {}
    for c in corners:
        by_code.setdefault(c.card, []).append(c)
    groups: list[tuple[CornerDetection, ...]] = []
    for code in sorted(by_code):
        group = _drop_duplicates(sorted(by_code[code], key=_order_key), settings)
        costs: dict[tuple[int, int], float] = {}
        for i in range(len(group)):
            for j in range(i + 1, len(group)):
                cost = pair_cost(group[i], group[j], settings)
                if cost is not None and cost <= settings.max_cost \
                        and not _blocked(group[i], group[j], centres, settings):
                    costs[(i, j)] = round(cost, 9)
        pairs = (_exact_pairs(len(group), costs, settings.max_cost / 2) if len(group) <= settings.exact_limit
                 else _greedy_pairs(costs))
        used: set[int] = set()
        for i, j in pairs:
            used.update((i, j))
            groups.append((group[i], group[j]))
        groups.extend((c,) for k, c in enumerate(group) if k not in used)
    return groups


def merge_corners(corners: Iterable[CornerDetection], settings: MergeSettings = DEFAULT_MERGE,
                  ) -> list[CardDetection]:
    """One :class:`CardDetection` per physical card, in reading order (top to bottom, left to right).

    With ``settings.adapt_after`` or more face-card pairs found, the frame's own typical
    pair distance (their median) replaces ``expected_ratio`` and the matching is redone:
    all cards of one frame are seen through the same camera, so a card's pair fits that
    better than a pair across two identical neighbours does.
    """
    corners = list(corners)
    groups = _match(corners, settings)
    if settings.adapt_after:
        ratios = sorted(_pair_ratio(*g) for g in groups if len(g) == 2 and g[0].card not in JOKER_CODES)
        if len(ratios) >= settings.adapt_after:
            mid = len(ratios) // 2
            median = ratios[mid] if len(ratios) % 2 else (ratios[mid - 1] + ratios[mid]) / 2
            groups = _match(corners, replace(settings, expected_ratio=round(median, 6)))
    cards = [_card(g) for g in groups]
    cards.sort(key=lambda d: (round(d.box[1], 3), round(d.box[0], 3), d.card))
    return cards
