"""The rules a 升级-family play is judged by when it is made, as pure functions.

Both the referee's ``play`` event and its ``check_play`` call them; what a play then changes
(hands, the trick, open proofs, penalty points) stays in :mod:`.referee`.  Faults a later
card proves are :mod:`.proofs`'; the turn order is :mod:`.tricks`'.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from ..cards import Card
from ..verdict import Fault
from .combos import Combo, Kind, classify
from .declares import DeclareState, expected_burier
from .follow import follow_fault, is_imperfect
from .order import TrumpOrder
from .settings import ShengjiSettings
from .throws import failed_throw, throw_failure


def held_faults(seat: int, cards: tuple[Card, ...], hand: Counter[Card] | None, left: int,
                settings: ShengjiSettings, declares: DeclareState, dealer: int) -> list[Fault]:
    """Faults of a play whatever the table: cards not in the known ``hand``, more cards than the
    ``left`` the seat holds, and 刮风's jokers the burier kept (000:187; with no hand known)."""
    faults: list[Fault] = []
    if hand is not None:
        missing = _missing(cards, hand)
        if missing:
            faults.append(Fault("play.not_in_hand", {"seat": seat, "cards": missing}))
    if len(cards) > left:
        faults.append(Fault("shengji.too_many_cards", {"seat": seat, "left": left, "got": len(cards)}))
    if settings.bury_all_jokers and hand is None:
        burier = expected_burier(declares, dealer)
        if seat == burier and any(c.is_joker for c in cards) and not declares.shown_jokers[seat]:
            faults.append(Fault("guafeng.jokers_not_buried", {"seat": seat,
                                                              "cards": [c for c in cards if c.is_joker]}))
    return faults


def _missing(cards: tuple[Card, ...], hand: Counter[Card]) -> list[Card]:
    """The cards of a play the ``hand`` does not hold, as ``(Counter(cards) - hand).elements()``
    lists them (the judge's hot path: most plays hold none)."""
    if all(hand.get(c, 0) >= cards.count(c) for c in cards):
        return []
    return list((Counter(cards) - hand).elements())


def lead_combo(seat: int, cards: tuple[Card, ...], order: TrumpOrder, settings: ShengjiSettings,
               hands: Mapping[int, Counter[Card]]) -> tuple[Combo, Fault | None]:
    """What a lead stands as on the table, and its fault: cards of several groups (混合, taken
    as a throw of the first card's group), a throw where 甩牌 is not allowed, or a throw one of
    the known ``hands`` beats (甩错, 003:58: the forced unit stands)."""
    combo = classify(cards, order)
    if combo.kind == Kind.MIXED:
        first = order.group[cards[0]]
        return (Combo(Kind.THROW, first, combo.cards, (0,), combo.structure),
                Fault("shengji.lead_mixed", {"cards": list(cards)}))
    if combo.kind != Kind.THROW:
        return combo, None
    if not settings.throws:
        return combo, Fault("shengji.throw_not_allowed", {"cards": list(cards)})
    known = {s: list(h.elements()) for s, h in hands.items() if s != seat}
    failure = throw_failure(combo, known, order)
    if failure is None:
        return combo, None
    forced = classify(failure.forced, order)
    return forced, failed_throw(seat, failure.beaten_by, failure, settings.throw_penalty * combo.size)


def follow_check(seat: int, cards: tuple[Card, ...], lead: Combo, held: Counter[Card] | None,
                 order: TrumpOrder) -> Fault | None:
    """A follow's fault now: not as many cards as the lead (003:50), or, with the hand known, the
    first following rule it breaks (:func:`.follow.follow_fault`).  A follow that matches the
    lead is legal whatever the hand."""
    if len(cards) != lead.size:
        return Fault("shengji.wrong_count", {"seat": seat, "expected": lead.size, "got": len(cards)})
    if held is not None and is_imperfect(lead, cards, order):
        return follow_fault(seat, lead, cards, list(held.elements()), order)
    return None
