"""Corners to cards: merge the two indices of one physical card, keep identical cards apart.

A face card shows its rank-and-suit index twice, at the top-left and (turned half a turn)
at the bottom-right, about one card diagonal apart.  The model reports each index it sees.
Several decks are in play, so two indices with the same code may be one card or two.

The matcher works per code.  Its unit is the index size ``s`` (the longer side of an
index box, which barely changes as the card turns).  Two same-code indices can belong to
one card when

* their centres are ``min_ratio``..``max_ratio`` index sizes apart.  An index is about a
  fifth of the card's height and the indices sit a diagonal apart: 3.8 s is the median of
  the real-cards phone photos (95% in 2.7..4.7); the rendered training scenes, whose
  designs label anything from the whole rank-and-suit block to the suit alone, spread
  from 3 to 11 (median 4.8), hence the wide upper bound.  The lower bound 2.5 keeps
  neighbours in a fan of identical cards apart, at the price of splitting a card seen so
  obliquely that its indices are closer than 2.5 index sizes (3% of the phone photos);
* their sizes are alike (both lie at the same distance from the camera);
* they are turned alike: when both boxes are clearly elongated (the card within ~20
  degrees of upright or sideways) both are elongated the same way, and the step between
  them runs along their long side by at least ``min_axis_share`` and across it by at
  least ``min_cross_share`` (one card's indices sit diagonally across it; upright indices
  side by side are neighbours in a row of cards).  The step also runs along the right
  diagonal: a card's indices sit top-left and bottom-right, so for an upright (or
  upside-down) card the step goes down-right (``dx * dy > 0``) and for a sideways card
  down-left (99% of the rendered scenes' pairs).  Without this, the bottom-right index of
  one upright card and the top-left index of its right-hand twin would fit as well as the
  card's own pair.  ``index_diagonal = -1`` is for mirrored images, 0 turns it off;
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
Two lone indices read as different codes ("KD" at one corner, "KH" at the other) are one
card when they fit its geometry closely (``joint_max_cost``) and the corner namer's
readings of both (``CornerDetection.alts``) agree on a code, the best reading of one of
them, with a joint probability of at least ``joint_min``; the card takes that code.
Every corner left unpaired is a card on its own (a fanned hand shows one index per card).
Two detections of one index (centres within ``duplicate_ratio`` s) count once.
Designs with an index in all four corners: four same-code indices whose two diagonals
share their midpoint and length (at the card's angle), whose boxes agree (turned alike)
and with no other index on the face between them, are one card, found before the pairing;
a lone index where a pair's card would have its third or fourth corner joins it
(``four_index``).  A frame where some card showed all four indices shows a four-index
deck: the matching is redone with side pairs too (two indices one card side apart, which
is what each covered card of a fan of such cards shows; ``four_index_sides``), measured on
the frame's own four-index cards.  Jumbo indices, closer than ``min_ratio``, pair when
their step runs along a card's diagonal (``jumbo``).  The decision is written down in
docs/vision-detector.md ("Four-index and jumbo designs").

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

from ..classes import JOKER_CODES
from ..types import CardDetection, CornerDetection


@dataclass(frozen=True)
class MergeSettings:
    """Geometry of a card's two indices, in index sizes (see the module docstring)."""

    #: Typical centre distance of one card's two indices / index size (real-cards median 3.8;
    #: a frame with ``adapt_after`` pairs uses its own median instead).
    expected_ratio: float = 3.8
    min_ratio: float = 2.5
    max_ratio: float = 12.0
    #: A joker's index differs per design: a tall "JOKER" word (real-cards: ratio 1.2..2.5)
    #: or a small star or letter (rendered designs: up to 15; the held-out designs' square
    #: stars sit 8.3..11.7 index sizes apart).  A pair costs its distance to the nearer of
    #: the two.
    joker_expected_ratio: float = 2.2
    joker_star_ratio: float = 9.5
    joker_min_ratio: float = 0.9
    joker_max_ratio: float = 16.0
    #: Largest size ratio of two indices of one card.
    max_size_ratio: float = 2.0
    #: A box counts as elongated (its card upright or sideways) above this aspect ratio.
    elongated: float = 1.3
    #: For two elongated indices, the share of the step along their long side must reach this
    #: (a flat card within 22 degrees of upright puts 0.48 of it there; perspective and
    #: index layouts of other designs less, hence the margin).
    min_axis_share: float = 0.2
    #: ... and the share across it at least this (the step is a diagonal, 17..61 degrees off
    #: the long side for a card within 22 degrees of upright; a joker's 14..90).
    min_cross_share: float = 0.08
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
    #: Join the indices of four-index designs (one in each corner) into one card.
    four_index: bool = True
    #: How far (index sizes) a four-index card's corners may be from where the geometry puts them.
    four_index_tolerance: float = 0.8
    #: The four index boxes of a four-index card agree in width and in height within this factor.
    quad_box_ratio: float = 1.3
    #: Card width / height, for where a four-index card's other corners lie.
    card_aspect: float = 0.71
    #: In a frame where some card showed indices at three or four corners (a four-index
    #: design), two same-code indices one card side apart are one card: the step runs along
    #: their long side (the card's long side) or across it (its short side) within
    #: ``side_angle`` degrees, at ``side_long`` or ``side_short`` times the expected diagonal,
    #: costing at most ``side_max_cost``.  A fan of such cards shows each card's two left
    #: indices (see docs/vision-detector.md, "Four-index and jumbo designs").
    four_index_sides: bool = True
    side_angle: float = 20.0
    side_long: float = 0.78
    side_short: float = 0.62
    side_max_cost: float = 0.35
    #: The diagonal (index sizes) the sides are shares of; 0: ``expected_ratio``.  A frame
    #: showing four-index cards sets it, and the side shares, from them.
    side_diagonal: float = 0.0
    #: Jumbo indices (a third of the card tall) sit ``jumbo_min_ratio``..``min_ratio`` index
    #: sizes apart: such a pair counts when its step runs ``jumbo_angle`` degrees (from, to)
    #: off the indices' long side (a card's diagonal; a fan neighbour's step runs along or
    #: across it) and their sizes agree within ``jumbo_size_ratio``; the step runs down the
    #: diagonal of ``index_diagonal``, or either diagonal in a frame showing a four-index card.
    jumbo: bool = True
    jumbo_min_ratio: float = 1.6
    jumbo_expected_ratio: float = 2.2
    jumbo_angle: tuple[float, float] = (18.0, 62.0)
    jumbo_size_ratio: float = 1.25
    #: Largest number of same-code corners matched exactly (2**n states); greedy above.
    exact_limit: int = 16
    #: Same-code indices closer than this many index sizes are one index seen twice.
    duplicate_ratio: float = 0.5
    #: Indices of any codes whose centres are closer than this many index sizes are one index
    #: found twice and named two ways (the finder's NMS keeps two small boxes whose IoU a
    #: pixel of jitter takes under its threshold): the more confident is kept.  Two visible
    #: indices cannot overlap that much.  (In simulated deals an AC found again as AS on the
    #: same spot, 1 px off, had turned two fanned aces into one.)  0 turns this off.
    same_place_ratio: float = 0.3
    #: Two lone indices read as different codes are one card when they fit one card's
    #: geometry at a cost of at most ``joint_max_cost`` and the corner namer's readings of
    #: both (``CornerDetection.alts``) agree on a code, the best reading of one of them, whose
    #: joint probability (the product of the two) is at least ``joint_min``: two looks at one
    #: card ("KD" at one corner, "KH" at the other) name it once.  0 turns this off.
    joint_min: float = 0.06
    joint_max_cost: float = 0.6


DEFAULT_MERGE = MergeSettings()


def index_size(c: CornerDetection) -> float:
    """An index's size, the merge's unit: its box's longer side (never 0)."""
    x1, y1, x2, y2 = c.box
    return max(x2 - x1, y2 - y1, 1e-6)


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
    sa, sb = index_size(a), index_size(b)
    size_ratio = max(sa, sb) / min(sa, sb)
    if size_ratio > settings.max_size_ratio:
        return None
    (ax, ay), (bx, by) = a.center, b.center
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
    off = abs(math.log(ratio / expected))
    if joker:
        off = min(off, abs(math.log(ratio / settings.joker_star_ratio)))
    return off + math.log(size_ratio)


def _step_off_axis(a: CornerDetection, b: CornerDetection, settings: MergeSettings) -> tuple[float, float] | None:
    """The centre distance of two same-code, like-sized, alike-turned elongated indices in
    index sizes, and how far (degrees, 0..90) the step between them runs off their long
    side; ``None`` when they differ in code, size or shape, or are not elongated."""
    if a.card != b.card or a.card in JOKER_CODES:
        return None
    sa, sb = index_size(a), index_size(b)
    if max(sa, sb) / min(sa, sb) > settings.max_size_ratio:
        return None
    shape = _shape(a, settings.elongated)
    if shape == "square" or shape != _shape(b, settings.elongated):
        return None
    (ax, ay), (bx, by) = a.center, b.center
    along, across = (abs(by - ay), abs(bx - ax)) if shape == "tall" else (abs(bx - ax), abs(by - ay))
    dist = math.hypot(along, across)
    if dist <= 0:
        return None
    return dist / math.sqrt(sa * sb), math.degrees(math.atan2(across, along))


def side_cost(a: CornerDetection, b: CornerDetection, settings: MergeSettings = DEFAULT_MERGE) -> float | None:
    """How well two same-code indices fit one side of a four-index card (lower is better),
    or ``None``: the step runs along the indices' long side or across it (``side_angle``),
    about ``side_long`` or ``side_short`` of the expected diagonal away (``side_max_cost``)."""
    found = _step_off_axis(a, b, settings)
    if found is None or not _turned_alike((a, b), settings):
        return None
    ratio, off = found
    diagonal = settings.side_diagonal or settings.expected_ratio
    if off <= settings.side_angle:
        expected = settings.side_long * diagonal
    elif off >= 90.0 - settings.side_angle:
        expected = settings.side_short * diagonal
    else:
        return None
    sa, sb = index_size(a), index_size(b)
    cost = abs(math.log(ratio / expected)) + math.log(max(sa, sb) / min(sa, sb))
    return cost if cost <= settings.side_max_cost else None


def jumbo_cost(a: CornerDetection, b: CornerDetection, settings: MergeSettings = DEFAULT_MERGE,
               either_diagonal: bool = False) -> float | None:
    """How well two same-code indices closer than ``min_ratio`` fit one jumbo-index card's
    diagonal (lower is better), or ``None`` (see ``MergeSettings.jumbo_min_ratio``).
    ``either_diagonal``: a four-index card's other diagonal fits too."""
    found = _step_off_axis(a, b, settings)
    if found is None:
        return None
    ratio, off = found
    sa, sb = index_size(a), index_size(b)
    size_ratio = max(sa, sb) / min(sa, sb)
    lo, hi = settings.jumbo_angle
    if not (settings.jumbo_min_ratio <= ratio < settings.min_ratio and lo <= off <= hi
            and size_ratio <= settings.jumbo_size_ratio):
        return None
    (ax, ay), (bx, by) = a.center, b.center
    diagonal = settings.index_diagonal
    wide = _shape(a, settings.elongated) == "wide"
    if diagonal and not either_diagonal and (bx - ax) * (by - ay) * diagonal * (-1 if wide else 1) <= 0:
        return None
    return abs(math.log(ratio / settings.jumbo_expected_ratio)) + math.log(size_ratio)


def _order_key(c: CornerDetection) -> tuple:
    return (-round(c.conf, 6), round(c.box[0], 3), round(c.box[1], 3), round(c.box[2], 3), round(c.box[3], 3))


def _drop_duplicates(corners: list[CornerDetection], settings: MergeSettings,
                     ratio: float | None = None) -> list[CornerDetection]:
    """``corners`` (best first) less those whose centre lies within ``ratio`` (default
    ``settings.duplicate_ratio``) index sizes of a better one's."""
    ratio = settings.duplicate_ratio if ratio is None else ratio
    kept: list[CornerDetection] = []
    kept_at: list[tuple[float, float, float]] = []  # the kept corners' centres and sizes
    for c in corners:  # best first
        (cx, cy), size = c.center, index_size(c)
        if any(math.hypot(cx - kx, cy - ky) < ratio * math.sqrt(size * ks) for kx, ky, ks in kept_at):
            continue
        kept.append(c)
        kept_at.append((cx, cy, size))
    return kept


def _blocked(a: CornerDetection, b: CornerDetection, others: list[tuple[tuple[float, float], float]],
             settings: MergeSettings) -> bool:
    """Whether another index lies on the way from ``a`` to ``b`` (``others``: centres and sizes)."""
    (ax, ay), (bx, by) = a.center, b.center
    dx, dy = bx - ax, by - ay
    length2 = dx * dx + dy * dy
    if length2 <= 0:
        return False
    s = math.sqrt(index_size(a) * index_size(b))
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
    (ax, ay), (bx, by) = a.center, b.center
    return math.hypot(bx - ax, by - ay) / math.sqrt(index_size(a) * index_size(b))


def _card_proportioned(a: float, b: float, settings: MergeSettings) -> bool:
    """Two side lengths, either way round, in a card's proportions (within a factor 1.35)."""
    if a <= 0 or b <= 0:
        return False
    return abs(math.log(min(a, b) / max(a, b) / settings.card_aspect)) < 0.3


def _same_diagonals(p: tuple[float, float], q: tuple[float, float], r: tuple[float, float],
                    u: tuple[float, float], tol: float) -> bool:
    """Segments ``p``-``q`` and ``r``-``u`` halve each other and are as long (within ``tol``
    pixels): the two diagonals of one rectangle."""
    return (math.hypot((p[0] + q[0] - r[0] - u[0]) / 2, (p[1] + q[1] - r[1] - u[1]) / 2) < tol
            and abs(math.dist(p, q) - math.dist(r, u)) < tol)


def _opposite_sides(a: tuple[CornerDetection, ...], b: tuple[CornerDetection, ...], tol: float,
                    settings: MergeSettings) -> bool:
    """Two joker pairs that are opposite sides of one card (a joker with a ring in each
    corner, aisleriot-plastic's, paired along its sides): their four centres make a
    rectangle (the two cross diagonals halve each other and are as long, within ``tol``
    pixels) of a card's proportions."""
    p = [a[0].center, a[1].center, b[0].center, b[1].center]
    for (i, k), (j, m) in (((0, 2), (1, 3)), ((0, 3), (1, 2))):
        if _same_diagonals(p[i], p[k], p[j], p[m], tol) \
                and _card_proportioned(math.dist(p[i], p[j]), math.dist(p[j], p[k]), settings):
            return True
    return False


def _square_corner(pair: tuple[CornerDetection, ...], lone: CornerDetection, settings: MergeSettings) -> bool:
    """``lone`` is a third mark of the joker whose side ``pair`` is: at a right angle (within
    12 degrees) from one end of the pair, at a card's proportions to it (a ringed joker
    paired along a side; a pair along the diagonal finds its corners by the spots of
    :func:`_four_index`)."""
    (ax, ay), (bx, by) = pair[0].center, pair[1].center
    lx, ly = lone.center
    side = math.hypot(bx - ax, by - ay)
    for (px, py), (qx, qy) in (((ax, ay), (bx, by)), ((bx, by), (ax, ay))):
        leg = math.hypot(lx - px, ly - py)
        if not side or not leg:
            continue
        cos = ((lx - px) * (qx - px) + (ly - py) * (qy - py)) / (leg * side)
        if abs(cos) < math.sin(math.radians(12)) and _card_proportioned(leg, side, settings):
            return True
    return False


def _four_index(groups: list[tuple[CornerDetection, ...]], settings: MergeSettings,
                sides: bool = False) -> list[tuple[CornerDetection, ...]]:
    """Join the groups of one card of a four-index design (indices in all four corners).

    Its two diagonals cross at the card centre with the same length: two same-code pairs
    sharing their midpoint and length are one card; a lone index where the pair's card
    would have its other two corners (either way the card may lie) joins the pair.  A joker's
    marks may also have been paired along its sides (:func:`_opposite_sides`,
    :func:`_square_corner`); those two rules are for jokers only: applied to every code they
    joined neighbours in fanned rows of identical cards, and the merge tests' random tables
    fell below their bounds (0.975 where 0.98 is required).  With ``sides`` (a frame that
    shows a four-index design, :func:`merge_corners`) they apply to every code: a pair may
    then be a card's side.
    """
    pairs = [g for g in groups if len(g) == 2]
    singles = [g for g in groups if len(g) == 1]
    out: list[tuple[CornerDetection, ...]] = [g for g in groups if len(g) > 2]
    used: set[int] = set()
    tol = settings.four_index_tolerance
    for i, a in enumerate(pairs):
        if i in used:
            continue
        s = math.sqrt(index_size(a[0]) * index_size(a[1]))
        for j in range(i + 1, len(pairs)):
            b = pairs[j]
            if j in used or b[0].card != a[0].card:
                continue
            if _same_diagonals(a[0].center, a[1].center, b[0].center, b[1].center, tol * s) \
                    or ((sides or a[0].card in JOKER_CODES) and _opposite_sides(a, b, tol * s, settings)):
                used.update((i, j))
                out.append(a + b)
                break
    rest = [p for k, p in enumerate(pairs) if k not in used]
    taken: set[int] = set()
    for pair in rest:
        group: tuple[CornerDetection, ...] = pair
        (ax, ay), (bx, by) = pair[0].center, pair[1].center
        mx, my = (ax + bx) / 2, (ay + by) / 2
        s = math.sqrt(index_size(pair[0]) * index_size(pair[1]))
        # the other diagonal: the same length, turned by twice the diagonal's angle to a side
        half = math.atan2(settings.card_aspect, 1.0)
        spots = []
        for turn in (2 * half, -2 * half, math.pi - 2 * half, 2 * half - math.pi):
            c, n = math.cos(turn), math.sin(turn)
            vx, vy = (ax - mx) * c - (ay - my) * n, (ax - mx) * n + (ay - my) * c
            spots.append((mx + vx, my + vy))
        for k, (lone,) in enumerate(singles):
            if k in taken or lone.card != pair[0].card or len(group) >= 4:
                continue
            lx, ly = lone.center
            if any(math.hypot(lx - px, ly - py) < tol * s for px, py in spots) \
                    or (len(group) == 2 and (sides or lone.card in JOKER_CODES)
                        and _square_corner(pair, lone, settings)):
                taken.add(k)
                group = group + (lone,)
        out.append(group)
    out.extend(g for k, g in enumerate(singles) if k not in taken)
    return out


def _turned_alike(quad: tuple[CornerDetection, ...], settings: MergeSettings) -> bool:
    """Whether the index boxes have the same width and the same height (within
    ``quad_box_ratio``): one card's indices are turned alike (a half turn apart), so their
    upright boxes agree; two cards' lying at different turns do not."""
    for side in ((0, 2), (1, 3)):
        lengths = [max(c.box[side[1]] - c.box[side[0]], 1e-6) for c in quad]
        if max(lengths) / min(lengths) > settings.quad_box_ratio:
            return False
    return True


def _face_covers(quad: tuple[CornerDetection, ...], others: list[tuple[tuple[float, float], float]],
                 settings: MergeSettings) -> bool:
    """Whether another index lies on the face of the card whose corners are ``quad``: inside
    the quadrilateral of their centres or within ``blocker_ratio`` index sizes of its edges
    (a visible index there belongs to a card lying beside or under it; the four are not one
    card's, e.g. the left indices of the first and third of three identical fanned cards)."""
    pts = [c.center for c in quad]
    mx, my = sum(p[0] for p in pts) / 4, sum(p[1] for p in pts) / 4
    pts.sort(key=lambda p: math.atan2(p[1] - my, p[0] - mx))
    s = math.exp(sum(math.log(index_size(c)) for c in quad) / 4)
    margin = settings.blocker_ratio * s
    own = {c.center for c in quad}
    for (ox, oy), _ in others:
        if (ox, oy) in own:
            continue
        inside = True
        near = False
        for k in range(4):
            (ax, ay), (bx, by) = pts[k], pts[(k + 1) % 4]
            ex, ey = bx - ax, by - ay
            length = math.hypot(ex, ey) or 1e-9
            side = (ex * (oy - ay) - ey * (ox - ax)) / length  # > 0: the inner side (counter-clockwise order)
            t = ((ox - ax) * ex + (oy - ay) * ey) / (length * length)
            if side < 0:
                inside = False
            if abs(side) < margin and 0 <= t <= 1:
                near = True
        if inside or near:
            return True
    return False


def _quads(group: list[CornerDetection], settings: MergeSettings,
           others: list[tuple[tuple[float, float], float]]) -> list[tuple[int, int, int, int]]:
    """Four same-code indices at the corners of one card (a four-index design seen whole).

    Two segments between them that share their midpoint and length are a rectangle's
    diagonals; the angle between them must be the card's (twice atan(aspect), either way).
    """
    if len(group) < 4:
        return []
    tol = settings.four_index_tolerance
    want = 2 * math.atan(settings.card_aspect)
    segs = []
    for i in range(len(group)):
        for j in range(i + 1, len(group)):
            (ax, ay), (bx, by) = group[i].center, group[j].center
            s = math.sqrt(index_size(group[i]) * index_size(group[j]))
            length = math.hypot(bx - ax, by - ay)
            if abs(math.log(length / s / settings.expected_ratio)) <= settings.max_cost / 2 \
                    and not _blocked(group[i], group[j], others, settings):
                segs.append((i, j, (ax + bx) / 2, (ay + by) / 2, length, math.atan2(by - ay, bx - ax), s))
    found: list[tuple[float, tuple[int, int, int, int]]] = []
    for k, (i, j, mx, my, length, ang, s) in enumerate(segs):
        for i2, j2, mx2, my2, length2, ang2, _ in segs[k + 1:]:
            if len({i, j, i2, j2}) < 4:
                continue
            off = math.hypot(mx - mx2, my - my2)
            if off > tol * s or abs(length - length2) > tol * s:
                continue
            cross = abs((ang - ang2 + math.pi / 2) % math.pi - math.pi / 2)  # 0..90 degrees
            if min(abs(cross - want), abs(cross - (math.pi - want))) > math.radians(12):
                continue
            four = tuple(group[k] for k in (i, j, i2, j2))
            if not _turned_alike(four, settings) or _face_covers(four, others, settings):
                continue
            shapes = {_shape(group[k], settings.elongated) for k in (i, j, i2, j2)}
            tall = abs(math.sin(ang)) + abs(math.sin(ang2)) > abs(math.cos(ang)) + abs(math.cos(ang2))
            if shapes in ({"tall"}, {"wide"}) and tall != (shapes == {"tall"}):
                continue  # the card's long side runs along its indices' long side
            found.append((off + abs(length - length2), (i, j, i2, j2)))
    quads: list[tuple[int, int, int, int]] = []
    taken: set[int] = set()
    for _, quad in sorted(found):
        if taken.isdisjoint(quad):
            taken.update(quad)
            quads.append(quad)
    return quads


def _match(corners: list[CornerDetection], settings: MergeSettings,
           sides: bool = False) -> list[tuple[CornerDetection, ...]]:
    """Groups of corners, one per card.  ``sides``: the frame shows a four-index design, so
    side pairs (:func:`side_cost`) and jumbo diagonals (:func:`jumbo_cost`) are candidates too."""
    if settings.same_place_ratio > 0:
        corners = _drop_duplicates(sorted(corners, key=_order_key), settings, settings.same_place_ratio)
    centres = [(c.center, index_size(c)) for c in corners]
    by_code: dict[str, list[CornerDetection]] = {}
    for c in corners:
        by_code.setdefault(c.card, []).append(c)
    groups: list[tuple[CornerDetection, ...]] = []
    for code in sorted(by_code):
        group = _drop_duplicates(sorted(by_code[code], key=_order_key), settings)
        if settings.four_index:
            quads = _quads(group, settings, centres)
            groups.extend(tuple(group[k] for k in quad) for quad in quads)
            in_quads = {k for quad in quads for k in quad}
            group = [c for k, c in enumerate(group) if k not in in_quads]
        costs: dict[tuple[int, int], float] = {}
        for i in range(len(group)):
            for j in range(i + 1, len(group)):
                cost = pair_cost(group[i], group[j], settings)
                if cost is not None and cost > settings.max_cost:
                    cost = None
                extra = [side_cost(group[i], group[j], settings) if sides else None,
                         jumbo_cost(group[i], group[j], settings, sides) if settings.jumbo else None]
                cost = min([c for c in (cost, *extra) if c is not None], default=None)
                if cost is not None and not _blocked(group[i], group[j], centres, settings):
                    costs[(i, j)] = round(cost, 9)
        pairs = (_exact_pairs(len(group), costs, settings.max_cost / 2) if len(group) <= settings.exact_limit
                 else _greedy_pairs(costs))
        used: set[int] = set()
        for i, j in pairs:
            used.update((i, j))
            groups.append((group[i], group[j]))
        groups.extend((c,) for k, c in enumerate(group) if k not in used)
    return _four_index(groups, settings, sides) if settings.four_index else groups


def _reading(c: CornerDetection, code: str) -> float:
    return dict(c.alts).get(code, 0.0)


def _renamed(c: CornerDetection, code: str) -> CornerDetection:
    """The corner read as ``code``: its confidence is the box's times that reading's probability."""
    if code == c.card:
        return c
    own = _reading(c, c.card)
    box_conf = c.conf / own if own > 0 else c.conf
    return replace(c, card=code, conf=box_conf * _reading(c, code))


def _joint(groups: list[tuple[CornerDetection, ...]], settings: MergeSettings,
           ) -> list[tuple[CornerDetection, ...]]:
    """Pair lone indices of different codes that are one card read two ways (``joint_min``)."""
    singles = [g[0] for g in groups if len(g) == 1 and g[0].alts]
    if len(singles) < 2:
        return groups
    centres = [(c.center, index_size(c)) for g in groups for c in g]
    found: list[tuple[float, float, int, int, CornerDetection, CornerDetection]] = []
    for i, a in enumerate(singles):
        for j in range(i + 1, len(singles)):
            b = singles[j]
            if a.card == b.card:
                continue  # the same code: the per-code matching has judged them already
            common = sorted({c for c, _ in a.alts} & {c for c, _ in b.alts})
            if not common:
                continue
            code = max(common, key=lambda c: (_reading(a, c) * _reading(b, c), c))
            joint = _reading(a, code) * _reading(b, code)
            if joint < settings.joint_min or code not in (a.card, b.card):
                continue
            ra, rb = _renamed(a, code), _renamed(b, code)
            cost = pair_cost(ra, rb, settings)
            if cost is None or cost > settings.joint_max_cost or _blocked(ra, rb, centres, settings):
                continue
            found.append((round(cost, 9), -joint, i, j, ra, rb))
    if not found:
        return groups
    used: set[int] = set()
    joined: list[tuple[CornerDetection, ...]] = []
    # (i, j) settle every tie before the corners would be compared
    for _cost, _joint_p, i, j, ra, rb in sorted(found, key=lambda f: f[:4]):
        if i in used or j in used:
            continue
        used.update((i, j))
        joined.append((ra, rb))
    gone = {id(singles[k]) for k in used}
    return [g for g in groups if not (len(g) == 1 and id(g[0]) in gone)] + joined


def shows_four_index(groups: Sequence[tuple[CornerDetection, ...]], settings: MergeSettings = DEFAULT_MERGE) -> bool:
    """Whether the frame shows a four-index design: the ``four_index_sides`` rule is on and
    some card of ``groups`` (not a joker: a ringed joker proves nothing of the deck's other
    cards) was seen by indices at three or four of its corners."""
    return (settings.four_index and settings.four_index_sides
            and any(len(g) == 4 and g[0].card not in JOKER_CODES for g in groups))


def _median(values: Sequence[float]) -> float:
    v = sorted(values)
    mid = len(v) // 2
    return v[mid] if len(v) % 2 else (v[mid - 1] + v[mid]) / 2


def _four_index_geometry(groups: Sequence[tuple[CornerDetection, ...]], settings: MergeSettings) -> MergeSettings:
    """``settings`` with the frame's own four-index card geometry: from the cards seen by all
    four indices, their diagonal (``side_diagonal``) and their sides as shares of it
    (``side_long``, ``side_short``), medians over those cards; unchanged without one.  The
    diagonal pairs keep their ``expected_ratio``."""
    diagonals, longs, shorts = [], [], []
    for g in groups:
        if len(g) != 4 or g[0].card in JOKER_CODES:
            continue
        s = math.exp(sum(math.log(index_size(c)) for c in g) / 4)
        dist = sorted(math.dist(g[i].center, g[j].center) for i in range(4) for j in range(i + 1, 4))
        diagonal = (dist[4] + dist[5]) / 2  # a rectangle's six distances: 2 short, 2 long sides, 2 diagonals
        if diagonal <= 0:
            continue
        diagonals.append(diagonal / s)
        shorts.append((dist[0] + dist[1]) / 2 / diagonal)
        longs.append((dist[2] + dist[3]) / 2 / diagonal)
    if not diagonals:
        return settings
    return replace(settings, side_diagonal=round(_median(diagonals), 6), side_long=round(_median(longs), 6),
                   side_short=round(_median(shorts), 6))


def merge_corners(corners: Iterable[CornerDetection], settings: MergeSettings = DEFAULT_MERGE,
                  ) -> list[CardDetection]:
    """One :class:`CardDetection` per physical card, in reading order (top to bottom, left to right).

    With ``settings.adapt_after`` or more face-card pairs found, the frame's own typical
    pair distance (their median) replaces ``expected_ratio`` and the matching is redone:
    all cards of one frame are seen through the same camera, so a card's pair fits that
    better than a pair across two identical neighbours does.  When a card shows indices at
    three or four corners (:func:`shows_four_index`) the matching is redone once more with
    side pairs and jumbo diagonals (``four_index_sides``).
    """
    corners = list(corners)
    groups = _match(corners, settings)
    if settings.adapt_after:
        ratios = sorted(_pair_ratio(*g) for g in groups if len(g) == 2 and g[0].card not in JOKER_CODES)
        if len(ratios) >= settings.adapt_after:
            mid = len(ratios) // 2
            median = ratios[mid] if len(ratios) % 2 else (ratios[mid - 1] + ratios[mid]) / 2
            settings = replace(settings, expected_ratio=round(median, 6))
            groups = _match(corners, settings)
    if shows_four_index(groups, settings):
        groups = _match(corners, _four_index_geometry(groups, settings), sides=True)
    if settings.joint_min > 0:
        groups = _joint(groups, settings)
    cards = [_card(g) for g in groups]
    cards.sort(key=lambda d: (round(d.box[1], 3), round(d.box[0], 3), d.card))
    return cards
