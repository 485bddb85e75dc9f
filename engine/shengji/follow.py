"""Following rules: what a seat holding ``held`` had to play on ``lead``.

One function, :func:`follow_fault`, finds the first broken rule of a follow and returns a
typed :class:`Fault`.  It works with a full hand (``hand`` events) and with a *partial*
hand: every card a seat plays later was already in its hand, so re-running the same check
with the cards seen so far proves faults afterwards (``proven_at``).  Every check here is
monotone (more known cards only add obligations), which makes that sound.

Rules (000 lines 57-73, 89, 101; 003 lines 50-56, 78-80):
follow the led group; a pair for a pair, a tractor for a tractor, else as many pairs as
held, else singles; 刮风 plays its largest cards when it cannot match the shape (从大到小);
有雷出雷, a 闪牌 for a 闪牌; 炒地皮's trump 5-10-K forces a held trump 5-10-K, else the
largest trumps.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..cards import Card, Rank
from ..verdict import Fault
from .combos import Combo, Kind, _lei_rank, structure
from .order import TRUMP, TrumpOrder


def _of_group(cards: Sequence[Card], group: str | None, order: TrumpOrder) -> list[Card]:
    g = order.group
    return [c for c in cards if g[c] == group]


def _minus(cards: Sequence[Card], taken: Sequence[Card]) -> list[Card]:
    left = Counter(cards)
    left.subtract(taken)
    return list(left.elements())


def has_lei_or_shan(cards: Sequence[Card], order: TrumpOrder, size: int) -> bool:
    """Whether ``cards`` hold ``size`` cards of one 雷 rank covering all four suits."""
    ranks = Counter(c.rank for c in cards if not c.is_joker)
    for rank, n in ranks.items():
        if n >= size:
            same = [c for c in cards if c.rank == rank]
            if _lei_rank(same, order) is not None:
                return True
    return False


def _trump_wushik_held(cards: Sequence[Card], order: TrumpOrder) -> bool:
    if order.trump is None:
        return False
    have = {c.rank for c in cards if c.suit == order.trump}
    return {Rank.FIVE, Rank.TEN, Rank.KING} <= have


def follow_fault(seat: int, lead: Combo, played: Sequence[Card], held: Sequence[Card],
                 order: TrumpOrder) -> Fault | None:
    """The first following rule ``played`` breaks, given the seat held ``held`` (⊇ played)."""
    group = lead.group
    n = lead.size
    held_g = _of_group(held, group, order)
    played_g = _of_group(played, group, order)
    if len(played_g) < min(n, len(held_g)):
        better = _minus(held_g, played_g)
        return Fault("shengji.must_follow_suit", {"seat": seat, "group": _group_name(group),
                                                  "held": better[: n - len(played_g)]})
    if len(held_g) <= n or n == 1:
        return None
    settings = order.settings
    kind = lead.kind
    if kind in (Kind.LEI, Kind.SHAN):
        if len(played_g) == n and _lei_rank(played_g, order) is not None:
            return None
        if has_lei_or_shan(held_g, order, n):
            code = "guafeng.must_play_lei" if kind == Kind.LEI else "guafeng.must_play_shan"
            return Fault(code, {"seat": seat, "count": n})
        return _largest_first(seat, played_g, held_g, 0, order)
    if kind == Kind.WUSHIK and group == TRUMP:
        if _trump_wushik_held(played_g, order):
            return None
        if _trump_wushik_held(held_g, order):
            return Fault("chaodipi.must_play_wushik", {"seat": seat})
        return _largest_first(seat, played_g, held_g, 0, order)
    if kind == Kind.WUSHIK_PAIRS and group == TRUMP:
        return _largest_first(seat, played_g, held_g, 0, order)
    mine = structure(played_g, order)
    hand = None
    longest = lead.tractor_lengths[0] if lead.tractor_lengths else 0
    if longest:
        hand = structure(held_g, order)
        have = max((t.length for t in hand.tractors), default=0)
        got = max((t.length for t in mine.tractors), default=0)
        if have >= 2 and got < min(longest, have):
            return Fault("shengji.must_follow_tractor", {"seat": seat, "length": min(longest, have)})
    need = lead.pairs
    if need:
        hand = hand or structure(held_g, order)
        avail = hand.pair_count
        if mine.pair_count < min(need, avail):
            return Fault("shengji.must_follow_pairs", {"seat": seat, "need": min(need, avail),
                                                       "got": mine.pair_count})
    if settings.largest_first:
        short_tractor = bool(longest) and max((t.length for t in mine.tractors), default=0) < longest
        if mine.pair_count < need or short_tractor:
            return _largest_first(seat, played_g, held_g, min(need, mine.pair_count), order)
    return None


def _largest_first(seat: int, played_g: Sequence[Card], held_g: Sequence[Card], pairs_used: int,
                   order: TrumpOrder) -> Fault | None:
    """从大到小: after the pairs it had to play, the seat's other cards of the group are its largest."""
    strength = order.strength
    st = structure(played_g, order)
    pair_cards = sorted([*st.pairs, *(p for t in st.tractors for p in t.pairs)],
                        key=strength.__getitem__, reverse=True)[:pairs_used]
    free = _minus(played_g, [c for p in pair_cards for c in (p, p)])
    if not free:
        return None
    left = _minus(held_g, played_g)
    if not left:
        return None
    low = min(free, key=strength.__getitem__)
    high = max(left, key=strength.__getitem__)
    if strength[high] > strength[low]:
        return Fault("shengji.not_largest_first", {"seat": seat, "kept": high, "played": low})
    return None


def is_imperfect(lead: Combo, played: Sequence[Card], order: TrumpOrder) -> bool:
    """Whether a follow could ever be proven wrong by cards seen later (else it is surely fine)."""
    if lead.size == 1 and len(played) == 1:     # a single: only a card off the led group can be
        return order.group[played[0]] != lead.group
    played_g = _of_group(played, lead.group, order)
    if len(played_g) < lead.size:
        return True
    if lead.size == 1:
        return False
    if lead.kind in (Kind.LEI, Kind.SHAN):
        return _lei_rank(played_g, order) is None
    if lead.kind == Kind.WUSHIK and lead.group == TRUMP:
        return not _trump_wushik_held(played_g, order)
    if lead.kind == Kind.WUSHIK_PAIRS and lead.group == TRUMP:
        return True
    mine = structure(played_g, order)
    if mine.pair_count < lead.pairs:
        return True
    if lead.tractor_lengths and max((t.length for t in mine.tractors), default=0) < lead.tractor_lengths[0]:
        return True
    return False


def _group_name(group: str | None) -> str:
    if group == TRUMP:
        return "主牌"
    return {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}.get(group or "", "?")


def combo_kind_name(combo: Combo) -> str:
    return combo.kind.value
