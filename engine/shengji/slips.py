"""The camera-slip readings of a 升级-family deal (docs/rules/chaodipi.md, "Camera slips",
O10-O12, after observation.md O6-O8; the readings themselves are :mod:`.readings`).

:class:`SlipReadings` is mixed into the deal referee (:mod:`.referee`; ``self`` is the
referee).  It decides whether a play on a camera log may be a slip, keeps the :class:`~.readings.Choice`
of readings open after it (``_choice``), copies the referee for each reading (``_clone``) and
adopts the reading the next plays settle on (``_settle``).  It also finds the cards a camera
misread: a card seen more often than the decks hold (O14, ``_over_deck``, ``_doubt_card``), and
holds the proofs of a trick's lead and winning play until its follows or the next lead are seen
(O8, O16, ``_hold_proofs``).  A lead its followers show misread is :mod:`.lead_misreads`'s (O13,
O16, O17); the faults that wait for the deal's end are :mod:`.deferred`'s (O20, O27).  The rules
of a play stay the referee's (``_play``).
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import TYPE_CHECKING, Any, Self

from ..cards import Card
from ..events import PlayEvent
from ..verdict import Fault, fault_or_slip, is_observation
from .readings import Choice, Reading, slip_readings
from .tied import tied_closed

if TYPE_CHECKING:
    from .match import MatchState
    from .order import TrumpOrder
    from .proofs import Proofs
    from .tricks import Tricks


#: O25: the faults of a play's count and turn, which a trick grouped out of phase also gives
OUT_OF_PHASE = frozenset({"shengji.wrong_count", "shengji.out_of_turn"})


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
    held_proofs: dict[int, list[Fault]]
    winner_proofs: list[Fault]
    explained_leads: set[int]
    doubted_plays: dict[int, tuple[int, Card]]
    waiting: dict[Card, list[Fault]]
    bottom: tuple[Card, ...] | None
    cards_at: dict[int, tuple[Card, ...]]
    out_of_phase: set[int]

    if TYPE_CHECKING:
        @property
        def complete(self) -> bool:
            """Whether the deal is over (the referee's)."""

        def _play(self, i: int, ev: PlayEvent) -> list[Fault]:
            """The faults of play ``i`` as the log reads it (the referee's)."""

        def _hold_failed_throw(self, proof: Fault, thrown: tuple[Card, ...]) -> list[Fault]:
            """O17: a camera throw of two cards beaten at its first follow, held (:class:`.lead_misreads.LeadMisreads`'s)."""

        def _lead_off_suit(self, lead_proofs: list[Fault]) -> bool:
            """O16: whether the lead's proofs wait on a lead misread (:class:`.lead_misreads.LeadMisreads`'s)."""

        def _said_at_end(self, bottom: tuple[Card, ...]) -> list[Fault]:
            """O16, O20: the faults that waited for the deal's end (:class:`.deferred.DeferredFaults`'s)."""

    def _read_play(self, i: int, ev: PlayEvent) -> list[Fault]:
        """A play, read as the log says and, where it does not fit a camera log, as a slip."""
        choice = self._choice
        if choice is not None:
            kept = [r.referee._clone() for r in choice.readings]
            if not choice.feed(lambda ref: faults_at(i, ref._play(i, ev))):
                choice.readings[0].referee = kept[0]     # none explains it: the first, before it
                return [*self._settle(), *self._read_play(i, ev)]
            if not choice.decided(any(r.referee.complete for r in choice.readings)):
                return []
            return self._settle()
        slip = self._slip_kind(ev)
        if slip is None:
            return self._play(i, ev)
        before = self._clone()
        faults = faults_at(i, self._play(i, ev))
        if not faults:
            return faults
        choice = Choice(i, [Reading(self, faults, as_read=True)])
        for alt, opened, read in slip_readings(before, slip, i, ev):
            choice.readings.append(Reading(alt, faults_at(i, [*opened, *alt._play(i, read)])))
        choice.prune()
        if choice.decided(False):
            self._choice = choice
            return self._settle()
        self._choice = choice
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
        faults = choice.unsaid(reading)
        if reading.as_read and choice.tied():
            tied_closed(self, choice.start, choice.readings[1:])      # O35, O39
            return [self._asked_tied(f) if choice.start in (f.i, f.proven_at) else f for f in faults]
        return faults

    def _asked_tied(self, f: Fault) -> Fault:
        """O28: a rule fault of the play that opened a choice, the log as read kept tied with a slip reading: asked."""
        if is_observation(f.code) or f.i is None or f.i not in self.cards_at or "seat" not in f.facts:
            return f
        return self._question(f)

    def _question(self, f: Fault) -> Fault:
        """The camera play's fault ``f`` (its line recorded in :attr:`cards_at`) as the question
        ``observe.fault_or_slip``, at its line and proof (O25-O28)."""
        assert f.i is not None
        return fault_or_slip(f.facts["seat"], self.cards_at[f.i], f).at(f.i, f.proven_at)

    # -- cards misread (O13, O14) ------------------------------------------------------
    def _over_deck(self, cards: tuple[Card, ...]) -> set[Card]:
        """O14: the cards of a play on a camera log that make more copies than the decks hold (the
        judge flags it, ``deck.too_many_copies``).  One sighting of such a card is a misread."""
        if self.hands:
            return set()
        return {c for c in set(cards) if not self._within_deck(c, cards.count(c))}

    def _within_deck(self, card: Card, more: int) -> bool:
        """Whether the copies of ``card`` seen played, and ``more``, fit in the decks (O14)."""
        return self.seen[card] + more <= self.rules.composition.copies(card)

    def _doubt_card(self, cards: set[Card]) -> None:
        """O14: a card seen once too often proves nothing; the follows that showed it may be the
        misread (they prove nothing later) and the trick in progress has an unknown winner.  A
        lead that showed it leads a trick whose follows prove nothing either (O16)."""
        t = self.tricks
        t.doubt_winner = True
        for seat, checks in self.proofs.follows.items():
            for check in [c for c in checks if cards & set(c.played)]:
                self.proofs.drop_follow(seat, check.i)
        for card in cards & self.waiting.keys():
            del self.waiting[card]           # O16: that card's lead was the misread
        if self.doubted_plays:
            for j, (seat, card) in list(self.doubted_plays.items()):
                if card in cards:
                    self.proofs.drop_follow(seat, j)
                    del self.doubted_plays[j]
        if t.trick_flagged and any(cards & set(p.cards) for p in t.last_trick):
            self.explained_leads.add(t.trick[0].i)      # O18: that card's misread moved the lead
        if len(t.trick) == 1 and cards & set(t.trick[0].cards):
            t.lead_doubted = True
            self.proofs.drop_throw(t.trick[0].i)

    def _hold_proofs(self, i: int, proven: list[Fault]) -> list[Fault]:
        """O8, O16: on a camera log, the revokes proven by the trick's lead and by the play winning
        it wait: a misread card there may be the proof, and the trick's follows (O16) or the next
        lead (O8) may show it.  A play once beaten, and any other play, says its proofs now."""
        if self.hands:
            return proven
        t = self.tricks
        keep = (t.trick[0].i, t.trick[t.best].i)
        now: list[Fault] = []
        for f in proven:
            if f.code == "shengji.failed_throw":
                now.extend(self._hold_failed_throw(f, t.trick[0].cards) if f.i == keep[0] else [f])
        wait = [f for f in proven if f.code != "shengji.failed_throw"]
        if wait and i in keep:
            self.held_proofs.setdefault(i, []).extend(wait)
        else:
            now.extend(wait)
        for j in [j for j in self.held_proofs if j not in keep]:
            now.extend(self.held_proofs.pop(j))
        return now

    def _held_proofs_said(self, misread: bool) -> list[Fault]:
        """As the trick closes: the lead's proofs and the winning play's wait for the next lead
        (:attr:`winner_proofs`), the lead's only if its follows do not show it misread (O13, O16)."""
        t = self.tricks
        lead_i, best_i = t.trick[0].i, t.trick[t.best].i
        lead = self.held_proofs.pop(lead_i, [])
        if self._lead_off_suit(lead) or misread:
            lead = []
        won = self.held_proofs.pop(best_i, [])
        said = [f for faults in self.held_proofs.values() for f in faults]
        self.held_proofs = {}
        self.winner_proofs = sorted([*lead, *won], key=lambda f: f.proven_at or 0)
        return said

    def _winner_proofs_due(self) -> list[Fault]:
        """O8: at a lead, the proofs of the last trick's winning play, that waited for it."""
        if self.tricks.trick or not self.winner_proofs:
            return []
        due, self.winner_proofs = self.winner_proofs, []
        return due

    def close(self) -> list[Fault]:
        """The log ends or the next deal starts first: what waited on the next lead (O8), the deal's end (O16), O34."""
        said = self._settle() if self._choice is not None and self._choice.settled_at_close() else []
        held, self.winner_proofs = self.winner_proofs, []
        return sorted([*said, *held, *self._said_at_end(self.bottom or ())], key=lambda f: f.i or 0)

    def _asked_out_of_phase(self, faults: list[Fault]) -> list[Fault]:
        """O25: on a camera play, a wrong count or a play out of turn judged after a flagged trick
        (O23: the tricks may be grouped one play out of phase) in a trick whose lead is in doubt
        itself (a 混合 lead, a lead flagged, a card of it seen too often, a free lead) is a follow
        taken for the lead as much as a player's fault: asked, not charged."""
        if not self.out_of_phase:
            return faults
        return [self._question(f) if f.code in OUT_OF_PHASE and f.i in self.out_of_phase else f for f in faults]


def winner_proofs_said(due: list[Fault], turn: list[Fault]) -> list[Fault]:
    """O8: the last trick's winning play's proofs ``due``, unless this lead is unexpected (``turn``
    its turn faults): that trick was not what was seen, and the misread card may be their proof."""
    if due and any(f.code == "observe.unexpected_lead" for f in turn):
        return []
    return due


def faults_at(i: int, faults: list[Fault]) -> list[Fault]:
    """``faults`` of play ``i`` with their event set (a fault said later keeps its own line)."""
    return [f if f.i is not None else f.at(i) for f in faults]
