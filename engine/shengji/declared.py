"""What the declarations imply for the other events of a deal, as pure functions.

The declarations themselves are judged in :mod:`.declares`; here they meet the burier's
``hand`` (刮风: every joker buried, 000:187; the shown cards stay, 000:149), the deal's trump at
the first play (000:113-115, 127; 003:12) and a 翻底 bottom (炒地皮, 003:18).
"""

from __future__ import annotations

from collections import Counter

from ..cards import Card, Rank, Suit
from ..verdict import Fault
from .declares import DeclareState
from .settings import ShengjiSettings


def burier_hand_faults(seat: int, cards: tuple[Card, ...], settings: ShengjiSettings,
                       declares: DeclareState) -> list[Fault]:
    """The burier's ``hand`` (after burying): 刮风's jokers it kept beyond the ones it showed, and
    the cards it showed to declare that it buried."""
    faults: list[Fault] = []
    if settings.bury_all_jokers:
        jokers = [c for c in cards if c.is_joker]
        if len(jokers) > declares.shown_jokers[seat]:
            faults.append(Fault("guafeng.jokers_not_buried", {"seat": seat, "cards": jokers}))
    shown = declares.shown.get(seat)
    if settings.shown_cards_stay and shown:
        gone = Counter(shown) - Counter(cards)
        if gone:
            faults.append(Fault("guafeng.declared_cards_buried", {"seat": seat, "cards": list(gone.elements())}))
    return faults


def declared_trump_faults(i: int, declares: DeclareState, trump: Suit | None, dealer: int,
                          first_deal: bool) -> list[Fault]:
    """At the first play ``i``: the deal's trump (and, in a log's first deal, its dealer side)
    must be what the declarations established; the faults go to the last declaration."""
    cur = declares.current
    if cur is None or declares.last_i is None:
        return []
    out: list[Fault] = []
    if not cur.any_suit and cur.suit != trump:
        out.append(Fault("shengji.trump_contradicts_declare", {
            "trump": trump.value if trump else "无主",
            "declared": cur.suit.value if cur.suit else "无主"}, declares.last_i, i))
    if first_deal and (cur.seat % 2 != dealer % 2 or (cur.chongzhu and cur.seat != dealer)):
        out.append(Fault("shengji.first_dealer_not_declarer", {"dealer": dealer, "seat": cur.seat},
                         declares.last_i, i))
    return out


def fandi_trump_fault(bottom: tuple[Card, ...], level: Rank | None, trump: Suit | None) -> Fault | None:
    """翻底: the first level card (or joker) of the bottom, in the order shown, names the trump."""
    for card in bottom:
        if card.is_joker or card.rank == level:
            want = None if card.is_joker else card.suit
            if want != trump:
                return Fault("chaodipi.fandi_trump", {"card": card, "trump": trump.value if trump else "无主"})
            return None
    return None
