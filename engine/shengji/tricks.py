"""The tricks of one 升级-family deal: turn order, who is winning, the closed tricks and their points.

:class:`Tricks` keeps the trick in progress and the ones closed, and judges whose turn a play
is, with the camera's gaps (docs/rules/observation.md, O6-O8).  It knows seats and cards, not
hands: the referee (:mod:`.referee`) keeps what each seat holds and closes a trick through
:meth:`Tricks.finish` or, when plays were missed, :meth:`Tricks.close_incomplete`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..cards import Card, format_cards
from ..verdict import Fault
from .combos import Combo
from .compare import contest_key
from .order import TrumpOrder
from .points import points


@dataclass
class Played:
    seat: int
    cards: tuple[Card, ...]
    combo: Combo
    i: int


class Tricks:
    """The trick in progress (``trick``, ``best`` / ``best_key``: the play winning it so far),
    the seat leading it, the closed tricks (``history``, ``last_trick``, ``last_winner``) and the
    trick points each side took."""

    def __init__(self, order: TrumpOrder, attackers: tuple[int, ...], leader: int) -> None:
        self.order = order
        self.attackers = attackers
        self.trick: list[Played] = []
        self.best: int = 0
        self.best_key: tuple[int, tuple[int, ...]] | None = None
        self.leader = leader
        self.history: list[dict[str, Any]] = []
        self.last_trick: list[Played] = []
        self.last_winner: int | None = None
        self.attacker_points = 0
        self.dealer_side_points = 0
        #: (event, seats) of a play made before seats due earlier in the trick (see ``turn``)
        self.skipped: tuple[int, tuple[int, ...]] | None = None
        #: the last trick closed with a missing play already flagged (its lead is explained)
        self.gap_flagged = False
        #: the trick in progress began with a flagged unexpected lead
        self.trick_flagged = False
        #: the trick in progress is led by a play the camera missed (:meth:`lead_missed`)
        self.phantom = False
        #: the last trick's winner is not known (its lead was misread): any seat may lead, unflagged
        self.any_leader = False
        #: a card of the trick in progress was misread (seen too often): its winner is not known
        self.doubt_winner = False
        #: the lead of the trick in progress holds a card seen too often (O14): its follows prove nothing
        self.lead_doubted = False
        #: the trick in progress was led, unflagged, by another seat than the last trick's winner
        #: as seen, after a trick whose winner was not known (O21): its lead may be a follow
        self.lead_free = False
        #: a trick of this deal was flagged (an unexpected lead, or the trick after a gap): the
        #: winner it gave, who led the next trick, was worked out from plays that may not be
        #: what was seen (O22), and the tricks after it may still be out of phase (O23)
        self.after_flagged = False
        #: the trick in progress was led by a seat the turn order did not check: after a gap
        #: (any seat may lead, O10-O12) or a trick whose winner is not known (O13, O14, O17, O21):
        #: its seat may be misread unseen, so its cards prove only questions (O32)
        self.lead_unchecked = False

    # -- whose turn ----------------------------------------------------------------------
    def next_seat(self) -> int | None:
        """The first seat from the leader on that has not played in this trick."""
        played = {p.seat for p in self.trick}
        for k in range(4):
            s = (self.leader + k) % 4
            if s not in played:
                return s
        return None

    @property
    def suspect(self) -> bool:
        """The trick's lead may not be what was seen (a missed lead, a flagged unexpected lead,
        the trick after a gap, a lead whose card was seen too often, a free lead by another
        seat after a misread winner, O21, a trick after a flagged one, O22 and O23): its follows
        prove no fault later
        (docs/rules/chaodipi.md, "Camera slips")."""
        return self.phantom or self.trick_flagged or self.lead_doubted or self.lead_free or self.after_flagged

    def has(self, seat: int) -> bool:
        return any(p.seat == seat for p in self.trick)

    def seat_at(self, i: int) -> int:
        return next(p.seat for p in self.trick if p.i == i)

    def turn(self, i: int, seat: int) -> list[Fault]:
        """The turn order of play ``i`` by ``seat``, once a trick ``seat`` already played in is
        closed (:meth:`close_incomplete`, O6).

        A seat that plays before a seat due earlier is recorded; if that seat then plays in the
        same trick, the earlier play was out of turn (``shengji.out_of_turn``, proven then),
        otherwise its play was not seen (O7).  A lead by another seat than the last trick's winner
        is one ``observe.unexpected_lead`` (a card of that trick misread, or a play missed), and
        the trick's points follow the seat that leads (O8)."""
        out: list[Fault] = []
        if not self.trick:
            free, self.any_leader = self.any_leader, False
            self.lead_unchecked = free or self.gap_flagged
            if seat != self.leader:
                if free:
                    self.lead_free = True      # O21: a lead the misread explains, or a follow of one unseen
                elif not self.history and not self.gap_flagged:
                    out.append(Fault("shengji.out_of_turn", {"expected": self.leader, "seat": seat}))
                elif not self.gap_flagged:
                    out.append(Fault("observe.unexpected_lead", {"seat": seat, "expected": self.leader}))
                    self.trick_flagged = True     # this trick's gap is said: not again at its close
                self._move_last_trick(seat)
                self.leader = seat
            if self.gap_flagged:
                self.trick_flagged = True      # the trick after a gap: its own gaps are the same slip
            self.gap_flagged = False
            return out
        expected = self.next_seat()
        if self.skipped is not None and seat in self.skipped[1]:
            j, seats = self.skipped
            self.skipped = None
            out.append(Fault("shengji.out_of_turn", {"expected": seat, "seat": self.seat_at(j)}, j, i))
            return out
        if seat == expected:
            return out
        if self.skipped is None:
            before = []
            s = expected
            while s != seat and s is not None:
                before.append(s)
                s = (s + 1) % 4
            self.skipped = (i, tuple(before))
        return out

    def _move_last_trick(self, seat: int) -> None:
        """The trick before went to ``seat``, who leads: its points follow (O8)."""
        if not self.history or self.last_winner is None or seat % 2 == self.last_winner % 2:
            return
        pts = self.history[-1]["points"]
        if self.last_winner in self.attackers:
            self.attacker_points -= pts
            self.dealer_side_points += pts
        else:
            self.dealer_side_points -= pts
            self.attacker_points += pts
        self.history[-1]["winner"] = seat
        self.last_winner = seat

    # -- the trick in progress -----------------------------------------------------------
    def lead(self, played: Played) -> None:
        self.trick.append(played)
        self.best = 0
        self.best_key = contest_key(played.combo, played.combo, self.order)

    def lead_missed(self, seat: int, proxy: Combo, i: int) -> None:
        """A second reading (:mod:`.readings`): ``seat`` led this trick unseen, with as many cards
        as ``proxy`` (the first play seen, which follows it).  The missed lead never wins; its
        flag is said (``trick_flagged``), and the next lead is a gap's (any seat, O8 unflagged)."""
        self.trick = [Played(seat, (), proxy, i)]
        self.best = 0
        self.best_key = None
        self.phantom = True
        self.trick_flagged = True
        self.gap_flagged = False
        self.leader = seat

    def rebase_lead(self, forced: Played) -> None:
        """A failed throw proven at the first follow: the forced unit is the lead."""
        self.trick[0] = forced
        self.best_key = contest_key(forced.combo, forced.combo, self.order)

    def follow(self, played: Played) -> None:
        lead = self.trick[0].combo
        self.trick.append(played)
        key = contest_key(played.combo, lead, self.order) if len(played.cards) == lead.size else None
        if key is not None and self.best_key is None and self.phantom:
            self.best = len(self.trick) - 1      # the first seen play of a missed lead's trick
            self.best_key = key
        elif key is not None and self.best_key is not None and key > self.best_key:
            self.best = len(self.trick) - 1
            self.best_key = key

    # -- closing -------------------------------------------------------------------------
    def finish(self) -> int:
        """Close the trick: its winner takes its points and leads the next.  Returns the winner."""
        winner = self.trick[self.best].seat
        pts = sum(points(p.cards) for p in self.trick)
        if winner in self.attackers:
            self.attacker_points += pts
        else:
            self.dealer_side_points += pts
        self.history.append({"leader": self.leader, "winner": winner, "points": pts,
                             "plays": [{"seat": p.seat, "cards": format_cards(p.cards), "i": p.i} for p in self.trick]})
        self.last_trick = self.trick
        self.last_winner = winner
        self.leader = winner
        self.trick = []
        self.best_key = None
        self.after_flagged = self.after_flagged or self.trick_flagged  # O23: for the rest of the deal
        self.trick_flagged = False
        self.lead_doubted = False
        self.lead_free = False
        self.lead_unchecked = False
        if self.doubt_winner:
            self.doubt_winner = False
            self.any_leader = True
        if self.phantom:              # the missed lead may have won: whoever leads next is the gap's
            self.phantom = False
            self.gap_flagged = True
        return winner

    def close_incomplete(self, i: int) -> tuple[list[int], int, list[Fault]]:
        """Before play ``i`` leads anew: the seats missing from the trick in progress, the cards
        each should have played, and the one flag they are (none if this trick's gap was said).
        The caller takes their cards as played, then :meth:`finish` es the trick (O6)."""
        played = {p.seat for p in self.trick}
        missing = [s for s in range(4) if s not in played]
        at = self.skipped[0] if self.skipped is not None else None
        self.skipped = None
        flagged, self.trick_flagged = self.trick_flagged, False
        size = self.trick[0].combo.size
        self.gap_flagged = True
        if flagged:
            return missing, size, []
        facts = {"seats": missing, "seat": missing[0], "n": size}
        if at is None:
            return missing, size, [Fault("observe.missing_play", facts, None, None)]
        return missing, size, [Fault("observe.missing_play", facts, at, i)]
