"""Who is winning a trick: same-shape comparison, 毙 (trumping a side lead) and 盖毙.

A play in the led group beats the best play only with the same kind and shape and a
higher key (000 line 41, 003 line 50: equal keys, first played wins).  A throw cannot be
beaten inside its own group (003 line 58).  A trump play beats a side lead (毙) only when
its structure covers the lead's: same shape for a simple lead (000 lines 57, 69), and for
a throw at least as many pairs and a tractor as long as each led one (003 line 56).
Two 毙 compare by the part that matters: the tractors if the lead had one, else the pairs,
else the highest card (003 line 56: ``998872`` 毙 ``AK5544``, not ``AA5544``; ``884``
盖毙 ``977`` on ``544``; ``884`` does not 盖毙 ``977`` on ``567``).
"""

from __future__ import annotations

from .combos import Combo, Kind
from .order import TRUMP, TrumpOrder

_SIMPLE = (Kind.SINGLE, Kind.PAIR, Kind.TRACTOR, Kind.YU, Kind.LEI, Kind.SHAN, Kind.WUSHIK, Kind.WUSHIK_PAIRS)


def same_group_key(play: Combo, lead: Combo) -> tuple[int, ...] | None:
    """Key of a play in the led group that can contest the trick, else ``None``."""
    if lead.kind == Kind.THROW or play.kind != lead.kind or play.shape != lead.shape:
        return None
    if play.group != lead.group:
        return None
    return play.key


def _covers(play: Combo, lead: Combo) -> bool:
    """Each led tractor is matched by a played tractor at least as long; pairs at least as many."""
    mine = list(play.tractor_lengths)
    for length in lead.tractor_lengths:
        fit = [m for m in mine if m >= length]
        if not fit:
            return False
        mine.remove(min(fit))
    return play.pairs >= lead.pairs


def bi_key(play: Combo, lead: Combo, order: TrumpOrder) -> tuple[int, ...] | None:
    """Key of an all-trump play that 毙 a side lead, else ``None`` (the play is 垫牌)."""
    if play.group != TRUMP or lead.group == TRUMP or play.size != lead.size:
        return None
    if lead.kind in _SIMPLE:
        if lead.kind in (Kind.WUSHIK, Kind.WUSHIK_PAIRS):
            return (0,) if play.kind == lead.kind else None
        if play.kind != lead.kind or play.shape != lead.shape:
            return None
        return play.key
    if not _covers(play, lead):
        return None
    st = play.structure
    if lead.tractor_lengths:
        longest = lead.tractor_lengths[0]
        return max(t.key for t in st.tractors if t.length >= longest)
    strength = order.strength
    if lead.pairs:
        pairs = [*st.pairs, *(p for t in st.tractors for p in t.pairs)]
        return (max(strength[p] for p in pairs),)
    return (max(strength[c] for c in play.cards),)


def contest_key(play: Combo, lead: Combo, order: TrumpOrder) -> tuple[int, tuple[int, ...]] | None:
    """A comparable key for a play that can win the trick: (1 for 毙, key) or (0, key); else None.

    The lead itself gets a key too; a play wins when its key is strictly greater than the
    best so far.
    """
    if play.group == lead.group:
        if play is lead:
            return (0, lead.key)
        k = same_group_key(play, lead)
        return None if k is None else (0, k)
    k = bi_key(play, lead, order)
    return None if k is None else (1, k)
