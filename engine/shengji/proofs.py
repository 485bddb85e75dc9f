"""Plays judged before the hands were known, that cards seen later may prove wrong (``proven_at``).

A follow that does not match the lead is legal only if the seat held nothing better
(:func:`.follow.is_imperfect`); a throw is legal only if no other seat could beat a unit of it
(:func:`.throws.throw_failure`, 003:58).  Without ``hand`` events both stay open: every card a
seat plays later was in its hand then, so :meth:`Proofs.prove` re-runs the same checks with the
cards seen so far.  The checks are monotone (more known cards only add obligations).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..cards import Card
from ..verdict import Fault, fault_or_slip
from .combos import Combo
from .follow import follow_fault
from .order import TrumpOrder
from .throws import ThrowFailure, throw_failure
from .tricks import Played


@dataclass
class OpenCheck:
    """A follow that later cards may prove wrong: the cards the seat is known to have held then."""

    i: int
    seat: int
    lead: Combo
    played: tuple[Card, ...]
    known: list[Card]
    #: of ``known``, the cards shown in a camera lead whose seat the turn order did not check (O32)
    doubtful: list[Card] = field(default_factory=list)


@dataclass
class OpenThrow:
    """A throw the seats in ``known`` (hands not known) may still prove failed, with their cards seen since."""

    i: int
    seat: int
    combo: Combo
    known: dict[int, list[Card]] = field(default_factory=dict)


class Proofs:
    """The open follows (per seat) and open throws of one deal."""

    def __init__(self, order: TrumpOrder) -> None:
        self.order = order
        self.follows: dict[int, list[OpenCheck]] = {seat: [] for seat in range(4)}
        self.throws: list[OpenThrow] = []

    def open_follow(self, i: int, seat: int, lead: Combo, played: tuple[Card, ...]) -> None:
        self.follows[seat].append(OpenCheck(i, seat, lead, played, []))

    def drop_follow(self, seat: int, i: int) -> None:
        """Forget the open follow of play ``i``: what it followed was not what the camera read."""
        self.follows[seat] = [c for c in self.follows[seat] if c.i != i]

    def drop_throw(self, i: int) -> None:
        """Forget the open throw of play ``i``: the camera may have misread what was thrown."""
        self.throws = [o for o in self.throws if o.i != i]

    def forget(self, seat: int, cards: tuple[Card, ...]) -> None:
        """The cards ``seat`` was seen to play that may be misread: they prove nothing (O8)."""
        for check in self.follows[seat]:
            for c in cards:
                if c in check.known:
                    check.known.remove(c)
                if c in check.doubtful:
                    check.doubtful.remove(c)
        for throw in self.throws:
            known = throw.known.get(seat)
            if not known:
                continue
            for c in cards:
                if c in known:
                    known.remove(c)

    def open_throw(self, i: int, seat: int, combo: Combo, unknown: list[int]) -> None:
        self.throws.append(OpenThrow(i, seat, combo, {s: [] for s in unknown}))

    def beaten_at_first_follow(self, lead: Played, seat: int, cards: tuple[Card, ...]) -> ThrowFailure | None:
        """Observation only: the first follower plays fewer cards than the open throw ``lead`` and
        its cards beat a unit of it, as many cards as that unit — the throw failed (甩错); it closes."""
        throw = next((t for t in self.throws if t.i == lead.i), None)
        if throw is None:
            return None
        failure = throw_failure(lead.combo, {seat: list(cards)}, self.order)
        if failure is None or len(failure.forced) != len(cards):
            return None
        self.throws.remove(throw)
        return failure

    def prove(self, i: int, seat: int, cards: tuple[Card, ...], doubtful: bool = False) -> tuple[
            list[Fault], list[tuple[OpenThrow, ThrowFailure]]]:
        """With the cards ``seat`` shows at play ``i``: the faults of earlier follows they prove
        (``proven_at`` ``i``), and the open throws they prove failed (the caller scores those).
        O32: ``doubtful`` cards (a camera lead whose seat the turn order did not check) may be
        another seat's: a follow fault that needs one of them is the question
        ``observe.fault_or_slip``."""
        faults: list[Fault] = []
        checks = self.follows[seat]
        group_of = self.order.group
        if checks:
            keep = []
            for check in checks:
                relevant = [c for c in cards if group_of[c] == check.lead.group]
                if check.i == i or not relevant:  # only cards of the led group can prove a follow wrong
                    keep.append(check)
                    continue
                check.known.extend(relevant)
                if doubtful:
                    check.doubtful.extend(relevant)
                fault = follow_fault(seat, check.lead, check.played, [*check.played, *check.known], self.order)
                if fault is None:
                    keep.append(check)
                else:
                    faults.append(self._proven(check, Fault(fault.code, fault.facts, check.i, i)))
            self.follows[seat] = keep
        failed: list[tuple[OpenThrow, ThrowFailure]] = []
        if self.throws:
            keep_throws = []
            for throw in self.throws:
                if seat not in throw.known:
                    keep_throws.append(throw)
                    continue
                throw.known[seat].extend(cards)
                failure = throw_failure(throw.combo, {seat: throw.known[seat]}, self.order)
                if failure is None:
                    keep_throws.append(throw)
                else:
                    failed.append((throw, failure))
            self.throws = keep_throws
        return faults, failed

    def _proven(self, check: OpenCheck, fault: Fault) -> Fault:
        """O32: ``fault``, proven of ``check``'s follow, asked when it needs a doubtful card."""
        if not check.doubtful:
            return fault
        sure = list(check.known)
        for c in check.doubtful:
            sure.remove(c)
        if follow_fault(check.seat, check.lead, check.played, [*check.played, *sure], self.order) is not None:
            return fault
        return fault_or_slip(check.seat, check.played, fault).at(check.i, fault.proven_at)
