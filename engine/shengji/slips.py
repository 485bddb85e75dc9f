"""The camera-slip readings of a 升级-family deal (docs/rules/chaodipi.md, "Camera slips",
O10-O12, after observation.md O6-O8; the readings themselves are :mod:`.readings`).

:class:`SlipReadings` is mixed into the deal referee (:mod:`.referee`; ``self`` is the
referee).  It decides whether a play on a camera log may be a slip, keeps the :class:`~.readings.Choice`
of readings open after it (``_choice``), copies the referee for each reading (``_clone``) and
adopts the reading the next plays settle on (``_settle``).  It also finds the cards a camera
misread: a card seen more often than the decks hold (O14, ``_over_deck``, ``_doubt_card``) and a
混合 lead its followers show misread (O13, ``_lead_misread``).  The rules of a play stay the
referee's (``_play``).
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import TYPE_CHECKING, Any, Self

from ..cards import Card
from ..events import PlayEvent
from ..verdict import Fault
from .readings import Choice, Reading, slip_readings

if TYPE_CHECKING:
    from .match import MatchState
    from .order import TrumpOrder
    from .proofs import Proofs
    from .tricks import Tricks


class SlipReadings:
    """The second readings of a play that may be a camera slip (a mixin; ``self`` is the referee)."""

    # provided by the referee
    rules: Any
    settings: Any
    order: TrumpOrder
    deal: Any
    match_before: MatchState | None
    hands: dict[int, Counter[Card]]
    seen: Counter[Card]
    tricks: Tricks
    proofs: Proofs
    _returned: list[Card]
    _choice: Choice | None

    if TYPE_CHECKING:
        @property
        def complete(self) -> bool:
            """Whether the deal is over (the referee's)."""

        def _play(self, i: int, ev: PlayEvent) -> list[Fault]:
            """The faults of play ``i`` as the log reads it (the referee's)."""

    def _read_play(self, i: int, ev: PlayEvent) -> list[Fault]:
        """A play, read as the log says and, where it does not fit a camera log, as a slip."""
        choice = self._choice
        if choice is not None:
            kept = [r.referee._clone() for r in choice.readings]
            if not choice.feed(lambda ref: _at(i, ref._play(i, ev))):
                choice.readings[0].referee = kept[0]     # none explains it: the first, before it
                return [*self._settle(), *self._read_play(i, ev)]
            if not choice.decided(any(r.referee.complete for r in choice.readings)):
                return []
            return self._settle()
        slip = self._slip_kind(ev)
        if slip is None:
            return self._play(i, ev)
        before = self._clone()
        faults = _at(i, self._play(i, ev))
        if not faults:
            return faults
        choice = Choice(i, [Reading(self, faults, as_read=True)])
        for alt, opened in slip_readings(before, slip, i, ev):
            choice.readings.append(Reading(alt, _at(i, [*opened, *alt._play(i, ev)])))
        choice.prune()
        first_lead = slip == "lead" and not self.tricks.history
        if choice.decided(False):
            self._choice = choice
            return self._settle()
        self._choice = choice
        if first_lead:       # O8: no trick before explains the first lead; the readings only re-synchronise
            return choice.say_all()
        return choice.first_flag()

    def _slip_kind(self, ev: PlayEvent) -> str | None:
        """Whether a play may be a camera slip worth a second reading: ``"lead"`` (a lead by
        another seat than the one due: its lead may have been missed, O11), ``"close"`` (a play
        of another count than the lead, or by a seat skipped in the trick: the trick's last plays
        may have been missed and this one leads, O10); ``None`` otherwise or with a hand known."""
        t = self.tricks
        if self.hands or self.complete:
            return None
        if not t.trick:
            return "lead" if ev.seat != t.leader and not (t.gap_flagged or t.any_leader) else None
        if t.has(ev.seat) or t.phantom:
            return None
        if len(ev.cards) != t.trick[0].combo.size or (t.skipped is not None and ev.seat in t.skipped[1]):
            return "close"
        return None

    def _clone(self) -> Self:
        keep = (self.rules, self.settings, self.order, self.deal, self.match_before)
        memo: dict[int, object] = {id(o): o for o in keep if o is not None}
        if self._choice is not None:
            memo[id(self._choice)] = None       # a copy holds no choice of its own
        return copy.deepcopy(self, memo)

    def _settle(self) -> list[Fault]:
        """Adopt the reading left (:meth:`.readings.Choice.adopt`) and return its faults not said yet."""
        choice, self._choice = self._choice, None
        assert choice is not None
        reading = choice.adopt()
        if reading.referee is not self:
            returned = self._returned
            self.__dict__.clear()
            self.__dict__.update(reading.referee.__dict__)
            self._returned = [*returned, *self._returned]
        return choice.unsaid(reading)

    # -- cards misread (O13, O14) ------------------------------------------------------
    def _over_deck(self, cards: tuple[Card, ...]) -> set[Card]:
        """O14: the cards of a play on a camera log that make more copies than the decks hold (the
        judge flags it, ``deck.too_many_copies``).  One sighting of such a card is a misread."""
        if self.hands:
            return set()
        copies = self.rules.composition.copies
        return {c for c in set(cards) if self.seen[c] + cards.count(c) > copies(c)}

    def _doubt_card(self, cards: set[Card]) -> None:
        """O14: a card seen once too often proves nothing; the follows that showed it may be the
        misread (they prove nothing later) and the trick in progress has an unknown winner."""
        self.tricks.doubt_winner = True
        for seat, checks in self.proofs.follows.items():
            for check in [c for c in checks if cards & set(c.played)]:
                self.proofs.drop_follow(seat, check.i)

    def _lead_misread(self) -> bool:
        """O13: on a camera log, a 混合 lead (``shengji.lead_mixed``) whose three followers all
        played one group of its cards: one card of the lead was misread.  Their follows prove
        nothing later, and whoever leads next won the trick.  (Three followers off the lead's
        suit in one other suit is not enough: three seats void at once happens late in a deal,
        and a real revoke among them must still be proven.)"""
        t = self.tricks
        if self.hands or t.phantom or len(t.trick) != 4:
            return False
        group = self.order.group
        followed = {group[c] for p in t.trick[1:] for c in p.cards}
        led = {group[c] for c in t.trick[0].cards}
        if len(led) < 2 or len(followed) != 1 or not followed <= led:
            return False
        for p in t.trick[1:]:
            self.proofs.drop_follow(p.seat, p.i)
        return True


def _at(i: int, faults: list[Fault]) -> list[Fault]:
    """``faults`` of play ``i`` with their event set (a fault said later keeps its own line)."""
    return [f if f.i is not None else f.at(i) for f in faults]
