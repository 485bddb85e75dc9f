"""The faults of camera plays that wait for the deal's end (docs/rules/chaodipi.md O16, O20,
O24, O26, O27, O29).

:class:`DeferredFaults` is mixed into the deal referee (:mod:`.referee`; ``self`` is the
referee).  A revoke proven by a later card, 刮风's burier playing a joker and a failed throw a
later trick proved wait in :attr:`deferred` with the cards they rest on (``_defer``); the
revokes resting on a lead that may be misread wait in :attr:`waiting` (O16, :mod:`.lead_misreads`).
At the deal's end (``_said_at_end``) those no card seen too often explains are said, asked where
a card never seen could be the misread one (O27).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from ..cards import ALL_CARDS, Card
from ..verdict import Fault
from .tied import FAILED_THROW, charged

if TYPE_CHECKING:
    from .order import TrumpOrder


#: O20: the follow faults a later card proves
REVOKES = frozenset({"shengji.must_follow_suit", "shengji.must_follow_pairs", "shengji.must_follow_tractor",
                     "shengji.not_largest_first"})
#: O24: 刮风's burier playing a joker it did not show: the joker may be a misread card
JOKERS_KEPT = "guafeng.jokers_not_buried"
#: O20, O24: the faults of camera plays that wait for the deal's end with the cards they rest on
DEFERRED = REVOKES | {JOKERS_KEPT}


class DeferredFaults:
    """The faults that wait for the deal's end and their saying (a mixin; ``self`` is the referee)."""

    # provided by the referee
    rules: Any
    order: TrumpOrder
    hands: dict[int, Counter[Card]]
    seen: Counter[Card]
    bottom: tuple[Card, ...] | None
    deferred: list[Fault]
    waiting: dict[Card, list[Fault]]
    doubted_plays: dict[int, tuple[int, Card]]
    cards_at: dict[int, tuple[Card, ...]]
    lead_at: dict[int, int]
    camera: bool
    sizes: tuple[int, ...]
    bottom_size: int

    if TYPE_CHECKING:
        @property
        def complete(self) -> bool:
            """Whether the deal is over (the referee's)."""

        def _within_deck(self, card: Card, more: int) -> bool:
            """Whether the copies of ``card`` seen, and ``more``, fit in the decks (:class:`.slips.SlipReadings`'s)."""

        def _question(self, f: Fault) -> Fault:
            """A camera play's fault as a question (:class:`.slips.SlipReadings`'s)."""

        def _throw_penalty(self, seat: int, cards: int) -> int:
            """Score a failed throw's penalty (:class:`.failures.FailedThrows`'s)."""

    def _defer_revokes(self, faults: list[Fault]) -> list[Fault]:
        """O20: on a camera play (no hand known; the caller checks), a revoke proven by a later
        card waits for the deal's end with the cards it rests on (the follow, the proof, the
        trick's lead): one of them misread is seen once too often by then, every card being
        played (chaodipi.md O20).  O24: so does 刮风's burier playing a joker, with that joker;
        O29: so does a failed throw a later trick's card proved, with the throw and that card."""
        if self.complete:
            return faults
        return self._defer(faults)

    def _defer(self, faults: list[Fault]) -> list[Fault]:
        """Put the faults that wait for the deal's end (O20, O24, O29) into :attr:`deferred`;
        return the others."""
        now: list[Fault] = []
        for f in faults:
            (self.deferred if (f.code in DEFERRED or self._proven_later(f)) and self._rests_on(f) else now).append(f)
        return now

    def _last_trick_deferred(self, faults: list[Fault]) -> list[Fault]:
        """O20 at the last trick: the proofs said as the deal's last trick closes (the lead's and
        the winner's, O8, O16) wait with the others, so the bottom's cards count for them too."""
        if not self.camera or self.hands:
            return faults
        return self._defer(faults)

    def _proven_later(self, f: Fault) -> bool:
        """O29: a failed throw proven by a play of a later trick (not the throw's own follows)."""
        return f.code == FAILED_THROW and f.proven_at is not None and self.lead_at.get(f.proven_at) != f.i

    def _rests_on(self, f: Fault) -> set[Card]:
        """O20: the cards a revoke of camera plays rests on; O24: the jokers a camera play of
        the burier showed (none for other faults, or plays not recorded in :attr:`cards_at`)."""
        if f.code == JOKERS_KEPT:
            return set(f.facts["cards"]) if f.i in self.cards_at else set()
        if f.code == FAILED_THROW:      # O26: the throw's cards and the follow that beat it
            if f.i is None or f.i not in self.cards_at:
                return set()
            beaten_at = self.cards_at.get(f.proven_at, ()) if f.proven_at is not None else ()
            return {*self.cards_at[f.i], *beaten_at}
        if f.code not in REVOKES or f.i not in self.lead_at or f.proven_at not in self.cards_at:
            return set()
        return {*self.cards_at[f.i], *self.cards_at[f.proven_at], *self.cards_at[self.lead_at[f.i]]}

    def _fits_deck(self, f: Fault, bottom: tuple[Card, ...]) -> bool:
        """O20: no card ``f`` rests on was seen more often than the decks hold (with ``bottom``)."""
        return all(self._within_deck(c, bottom.count(c)) for c in self._rests_on(f))

    def _said_at_end(self, bottom: tuple[Card, ...]) -> list[Fault]:
        """O16: at the deal's end (once the ``bottom`` is seen, where there is one), the revokes
        that waited on a lead no card showed misread: the bottom's cards count too; O20: the
        revokes of camera plays none of whose cards was seen too often."""
        out = []
        for f in self.deferred:
            if self._fits_deck(f, bottom) and charged(f):
                out.append(f)
            elif f.code == FAILED_THROW and f.i is not None:
                self._throw_penalty(f.facts["seat"], -len(self.cards_at[f.i]))   # O26: a pair misread
        out += [f for card, faults in self.waiting.items() if self._within_deck(card, bottom.count(card))
                for f in faults if self._fits_deck(f, bottom)]
        self.waiting, self.deferred = {}, []
        self.doubted_plays = {}
        short = self._short_groups(bottom)
        out = [self._question(f) if short and self._unseen_fits(f, short) else f for f in out]
        return sorted(out, key=lambda f: f.i or 0)

    def _short_groups(self, bottom: tuple[Card, ...]) -> set[str]:
        """O27: the groups of the cards never seen by the deal's end (played or in the ``bottom``
        shown), when every card is accounted for: the whole deck dealt and the bottom, where there
        is one, shown.  Such a card is one the camera missed or misread."""
        if self.hands or (self.bottom is None and self.bottom_size) or \
                sum(self.sizes) + self.bottom_size != self.rules.composition.size:
            return set()
        group = self.order.group
        return {group[c] for c in ALL_CARDS if self.seen[c] + bottom.count(c) < self.rules.composition.copies(c)}

    def _unseen_fits(self, f: Fault, short: set[str]) -> bool:
        """O27: a revoke that fits the deck still rests on a misread when a card never seen could
        be the card misread: one of the led group for the follow (it followed suit), one of the
        follow's off-suit group for a single-card lead (the follow followed it)."""
        if f.code not in REVOKES or f.i not in self.lead_at or f.i not in self.cards_at:
            return False
        group = self.order.group
        lead = self.cards_at.get(self.lead_at[f.i], ())
        led = {group[c] for c in lead}
        off = {group[c] for c in self.cards_at[f.i]} - led
        return bool(led & short) or (len(lead) == 1 and bool(off & short))
