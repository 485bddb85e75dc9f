"""What a set of cards is: single, pair, tractor/风牌, 雨牌, 雷牌, 闪牌, 5-10-K, or a 甩牌 throw.

:func:`classify` works on one deal's :class:`TrumpOrder`.  A combination holds its group,
its structure (pairs, tractor lengths) and a ``key`` that orders combinations of the same
kind and shape (higher wins; equal keys: the first played wins).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from ..cards import Card, Rank, Suit
from .order import TRUMP, TrumpOrder


class Kind(StrEnum):
    SINGLE = "single"
    PAIR = "pair"
    TRACTOR = "tractor"        # 连对/拖拉机/刮风's 风牌 of two or more pairs
    YU = "yu"                  # 雨牌 (000 line 77)
    LEI = "lei"                # 雷牌 (000 line 85)
    SHAN = "shan"              # 闪牌 (000 line 97)
    WUSHIK = "wushik"          # 5-10-K (003 line 76)
    WUSHIK_PAIRS = "wushik_pairs"
    THROW = "throw"            # 甩牌 (003 line 58)
    MIXED = "mixed"            # cards of several groups: only ever a follow/discard


@dataclass(frozen=True, slots=True)
class Tractor:
    pairs: tuple[Card, ...]    # one card per pair, low to high
    key: tuple[int, int]       # (chain rank, top position)

    @property
    def length(self) -> int:
        return len(self.pairs)


@dataclass(frozen=True, slots=True)
class Structure:
    """A same-group set of cards split into tractors, loose pairs and singles."""

    tractors: tuple[Tractor, ...]
    pairs: tuple[Card, ...]        # loose pairs (not in a tractor), one card each
    singles: tuple[Card, ...]

    @property
    def pair_count(self) -> int:
        return len(self.pairs) + sum(t.length for t in self.tractors)

    @property
    def tractor_lengths(self) -> tuple[int, ...]:
        return tuple(sorted((t.length for t in self.tractors), reverse=True))


@dataclass(frozen=True, slots=True)
class Combo:
    kind: Kind
    group: str | None
    cards: tuple[Card, ...]
    key: tuple[int, ...]
    structure: Structure
    #: extra shape data that must match for two combos of one kind to compare (雨: pairs; 闪: size)
    shape: tuple[int, ...] = ()

    @property
    def size(self) -> int:
        return len(self.cards)

    @property
    def pairs(self) -> int:
        return self.structure.pair_count

    @property
    def tractor_lengths(self) -> tuple[int, ...]:
        return self.structure.tractor_lengths

    @property
    def is_trump(self) -> bool:
        return self.group == TRUMP


def _runs(cards: Iterable[Card], order: TrumpOrder) -> list[Tractor]:
    """Greedy longest runs of consecutive chain positions among distinct pair cards."""
    by_chain: dict[str, list[tuple[int, Card]]] = {}
    for card in cards:
        info = order.info[card]
        if info.chain is None:
            continue
        for pos in info.positions:
            by_chain.setdefault(info.chain, []).append((pos, card))
    out: list[Tractor] = []
    for entries in by_chain.values():
        entries.sort(key=lambda e: e[0])
        used: set[Card] = set()
        while True:
            best: list[tuple[int, Card]] = []
            run: list[tuple[int, Card]] = []
            for pos, card in entries:
                if card in used:
                    run = []
                    continue
                if run and pos == run[-1][0] + 1 and card not in {c for _, c in run}:
                    run.append((pos, card))
                else:
                    run = [(pos, card)]
                if len(run) > len(best):
                    best = list(run)
            if len(best) < 2:
                break
            used.update(c for _, c in best)
            chain_rank = order.info[best[-1][1]].chain_rank
            out.append(Tractor(tuple(c for _, c in best), (chain_rank, best[-1][0])))
    return out


def structure(cards: Sequence[Card], order: TrumpOrder) -> Structure:
    """Split cards into tractors, loose pairs and singles (pairs are identical cards)."""
    counts = Counter(cards)
    pair_cards = [c for c, n in counts.items() for _ in range(n // 2)]
    singles = [c for c, n in counts.items() if n % 2]
    tractors = _runs(set(pair_cards), order) if len(pair_cards) >= 2 else []
    in_tractor = {c for t in tractors for c in t.pairs}
    loose = []
    for c in pair_cards:
        if c in in_tractor:
            in_tractor.discard(c)
        else:
            loose.append(c)
    strength = order.strength
    return Structure(tuple(sorted(tractors, key=lambda t: (t.length, t.key), reverse=True)),
                     tuple(sorted(loose, key=strength.__getitem__, reverse=True)),
                     tuple(sorted(singles, key=strength.__getitem__, reverse=True)))


def _lei_rank(cards: Sequence[Card], order: TrumpOrder) -> Rank | None:
    first = cards[0]
    if first.is_joker or any(c.rank != first.rank for c in cards):
        return None
    if first.rank != order.level and first.rank not in order.settings.permanent_ranks:
        return None
    if {c.suit for c in cards} != set(Suit):
        return None
    return first.rank


def _wushik_group(cards: Sequence[Card], order: TrumpOrder, paired: bool) -> str | None:
    counts = Counter(cards)
    suits = {c.suit for c in cards}
    if len(suits) != 1 or None in suits:
        return None
    suit = next(iter(suits))
    want = 2 if paired else 1
    if sorted(c.rank for c in counts) != [Rank.FIVE, Rank.TEN, Rank.KING] or set(counts.values()) != {want}:
        return None
    assert suit is not None
    groups = {order.group[c] for c in counts}
    if suit == order.trump:
        return TRUMP
    if groups == {suit.value}:
        return suit.value
    # ♥5 is a trump but may still make ♥5-10-K while hearts is a side suit (003 lines 156, 168, 184)
    if (suit == Suit.HEARTS and order.settings.heart_five_top and order.settings.heart_five_side_wushik
            and order.level not in (Rank.TEN, Rank.KING) and groups == {TRUMP, suit.value}):
        return suit.value
    return None


def _yu(cards: Sequence[Card], order: TrumpOrder) -> tuple[int, int] | None:
    """雨牌: five or more consecutive ranks of one run, pairs allowed inside (000 line 77)."""
    counts = Counter(cards)
    if max(counts.values()) > 2 or len(counts) < 5:
        return None
    chains = {order.info[c].chain for c in counts}
    if len(chains) != 1 or None in chains:
        return None
    for variant in (0, -1):
        pos = sorted(order.info[c].positions[variant] for c in counts)
        if pos == list(range(pos[0], pos[0] + len(pos))):
            return (order.info[cards[0]].chain_rank, pos[-1])
    return None


def classify(cards: Sequence[Card], order: TrumpOrder) -> Combo:
    """The combination ``cards`` make under this deal's order (a lead's view)."""
    s = order.settings
    group_of = order.group
    n = len(cards)
    if n == 1:
        c = cards[0]
        return Combo(Kind.SINGLE, group_of[c], tuple(cards), (order.strength[c],), Structure((), (), (c,)))
    groups = {group_of[c] for c in cards}
    group = next(iter(groups)) if len(groups) == 1 else None
    if s.has_wushik and n in (3, 6):
        wgroup = _wushik_group(cards, order, paired=(n == 6))
        if wgroup is not None:
            kind = Kind.WUSHIK if n == 3 else Kind.WUSHIK_PAIRS
            return Combo(kind, wgroup, tuple(cards), (0,), structure(cards, order) if n == 6 else
                         Structure((), (), tuple(cards)))
    if group is None:
        return Combo(Kind.MIXED, None, tuple(cards), (0,), Structure((), (), tuple(cards)))
    strength = order.strength
    if s.has_lei_shan and 4 <= n <= 8 and _lei_rank(cards, order) is not None:
        top = max(strength[c] for c in cards)
        kind = Kind.LEI if n == 4 else Kind.SHAN
        return Combo(kind, group, tuple(cards), (top,), structure(cards, order), (n,))
    st = structure(cards, order)
    if n == 2 and not st.singles:
        return Combo(Kind.PAIR, group, tuple(cards), (strength[cards[0]],), st)
    if not st.singles and not st.pairs and len(st.tractors) == 1:
        t = st.tractors[0]
        return Combo(Kind.TRACTOR, group, tuple(cards), t.key, st, (t.length,))
    if s.has_yu and n >= 5:
        yu = _yu(cards, order)
        if yu is not None:
            return Combo(Kind.YU, group, tuple(cards), yu, st, (n, st.pair_count))
    return Combo(Kind.THROW, group, tuple(cards), (0,), st)


def units(combo: Combo) -> list[tuple[Kind, tuple[Card, ...]]]:
    """The parts of a throw: each tractor, loose pair and single, as card tuples."""
    st = combo.structure
    out: list[tuple[Kind, tuple[Card, ...]]] = []
    for t in st.tractors:
        out.append((Kind.TRACTOR, tuple(c for p in t.pairs for c in (p, p))))
    for p in st.pairs:
        out.append((Kind.PAIR, (p, p)))
    for c in st.singles:
        out.append((Kind.SINGLE, (c,)))
    return out
