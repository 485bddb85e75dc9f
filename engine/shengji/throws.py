"""甩牌 (throws): is every unit of a throw the largest of its kind among the other hands?

A throw fails (甩错, 003 line 58) when another seat holds, in the same group, a single, a
pair or a tractor of the same length that beats one of its units.  The same test runs
on full hands at once and on the cards seen so far (a later play proves the failure).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..cards import Card
from ..verdict import Fault
from .combos import Combo, Kind, structure, units
from .order import TrumpOrder


@dataclass(frozen=True)
class ThrowFailure:
    beaten_by: int
    unit_kind: Kind
    forced: tuple[Card, ...]     # the unit the thrower has to play instead


def _beats_unit(kind: Kind, unit: tuple[Card, ...], cards: Sequence[Card], order: TrumpOrder) -> bool:
    strength = order.strength
    if kind == Kind.SINGLE:
        top = strength[unit[0]]
        return any(strength[c] > top for c in cards)
    st = structure(cards, order)
    if kind == Kind.PAIR:
        top = strength[unit[0]]
        pairs = [*st.pairs, *(p for t in st.tractors for p in t.pairs)]
        return any(strength[p] > top for p in pairs)
    mine = structure(unit, order).tractors[0]
    return any(t.length >= mine.length and t.key > mine.key for t in st.tractors)


def throw_failure(throw: Combo, others: Mapping[int, Sequence[Card]], order: TrumpOrder) -> ThrowFailure | None:
    """The first unit another seat can beat, with the unit the thrower must play instead."""
    group_of = order.group
    beaten: list[tuple[int, Kind, tuple[Card, ...]]] = []
    parts = units(throw)
    for seat, held in others.items():
        cards = [c for c in held if group_of[c] == throw.group]
        if not cards:
            continue
        for kind, unit in parts:
            if _beats_unit(kind, unit, cards, order):
                beaten.append((seat, kind, unit))
    if not beaten:
        return None
    strength = order.strength
    seat, kind, unit = min(beaten, key=lambda b: (len(b[2]), strength[b[2][0]]))
    return ThrowFailure(seat, kind, unit)


def failed_throw(seat: int, beaten_by: int, failure: ThrowFailure, penalty: int,
                 i: int | None = None, proven_at: int | None = None) -> Fault:
    """The ``shengji.failed_throw`` fault (甩错, 003:58): ``penalty`` points, ``forced`` the unit that stands."""
    return Fault("shengji.failed_throw", {"seat": seat, "beaten_by": beaten_by, "unit": failure.unit_kind.value,
                                          "forced": list(failure.forced), "penalty": penalty}, i, proven_at)
