"""The failed throws of a 升级-family deal (甩错, 003 line 58): the penalty, the cards given back.

A throw fails when another seat beats one of its units: at once with the hands known
(:mod:`.plays`), at the first follow that shows it (``_rebase_failed_throw``), or when cards
seen later prove it (``_prove``, :mod:`.proofs`).  :class:`FailedThrows` is mixed into the deal
referee (:mod:`.referee`; ``self`` is the referee): it scores the penalty (``penalty_points``)
and gives the cards other than the forced unit back to the thrower's hand.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from ..cards import Card
from ..verdict import Fault
from .combos import classify
from .throws import failed_throw
from .tricks import Played

if TYPE_CHECKING:
    from .order import TrumpOrder
    from .proofs import Proofs
    from .settings import ShengjiSettings
    from .tricks import Tricks


class FailedThrows:
    """Scoring a failed throw and giving its cards back (a mixin; ``self`` is the referee)."""

    # provided by the referee
    settings: ShengjiSettings
    order: TrumpOrder
    attackers: tuple[int, ...]
    left: list[int]
    hands: dict[int, Counter[Card]]
    played_by: dict[int, list[Card]]
    seen: Counter[Card]
    tricks: Tricks
    proofs: Proofs
    penalty_points: int
    _returned: list[Card]

    def _give_back(self, seat: int, thrown: tuple[Card, ...], kept: tuple[Card, ...]) -> None:
        """A failed throw: the cards other than the forced unit go back to the thrower's hand."""
        back = Counter(thrown)
        back.subtract(kept)
        for card in back.elements():
            self.left[seat] += 1
            if card in self.played_by[seat]:
                self.played_by[seat].remove(card)
                self.seen[card] -= 1
            hand = self.hands.get(seat)
            if hand is not None:
                hand[card] += 1
            self._returned.append(card)

    def _rebase_failed_throw(self, i: int, seat: int, cards: tuple[Card, ...]) -> Fault | None:
        """Observation-only: the first follower plays fewer cards than a throw and its cards beat a
        unit of it — the throw failed (甩错) and the forced unit becomes the lead."""
        lead = self.tricks.trick[0]
        if len(self.tricks.trick) != 1:
            return None
        failure = self.proofs.beaten_at_first_follow(lead, seat, cards)
        if failure is None:
            return None
        penalty = self._throw_penalty(lead.seat, lead.combo.size)
        forced = classify(failure.forced, self.order)
        self._give_back(lead.seat, lead.cards, forced.cards)
        self.tricks.rebase_lead(Played(lead.seat, forced.cards, forced, lead.i))
        return failed_throw(lead.seat, seat, failure, abs(penalty), lead.i, i)

    def _throw_penalty(self, seat: int, cards: int) -> int:
        points_each = self.settings.throw_penalty
        delta = -points_each * cards if seat in self.attackers else points_each * cards
        self.penalty_points += delta
        return delta

    def _prove(self, i: int, seat: int, cards: tuple[Card, ...], doubtful: bool = False) -> list[Fault]:
        """Re-check earlier follows and throws with the cards ``seat`` has now shown (:mod:`.proofs`;
        ``doubtful``: they may be another seat's, O32)."""
        out, failed = self.proofs.prove(i, seat, cards, doubtful)
        for throw, failure in failed:
            penalty = self._throw_penalty(throw.seat, throw.combo.size)
            out.append(failed_throw(throw.seat, seat, failure, abs(penalty), throw.i, i))
        return out
