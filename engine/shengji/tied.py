"""O35 (docs/rules/chaodipi.md): a failed throw of the play that opened a choice of readings,
when the choice closed tied and a slip reading left has no such throw.

O28 asks the rule faults of that play when the log as read is kept only because a slip reading
explains the table as well.  A camera throw beaten at its first follow waits for its trick (O17),
is asked then and charged at the deal's end (O26), so O28 never saw it: yet the slip reading that
tied (the play a follow of a lead the camera missed, O11) has no throw at all.  Decision: such a
throw is marked ``tied``: the question said as its trick closes stays, and at the deal's end it
is not charged (its penalty taken back, as for a card seen too often).

O38: so is a failed throw in a trick the "close and lead" reading (O10) closes short, its
missing seat the one just before the thrower, whose play ended the trick before with as many
cards as the throw: that play may have led this trick (O12's shape), the throw then a follow.
O39: the log as read kept tied proves nothing by the tricks from the opening play on.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..verdict import Fault

#: O26: a failed throw of two cards, asked as its trick closes and charged at the deal's end
FAILED_THROW = "shengji.failed_throw"
#: the fact that marks a failed throw O35 leaves a question
TIED = "tied"


def tied_closed(ref: Any, start: int, others: list[Any]) -> None:
    """The log as read (``ref``) kept tied with the slip readings ``others`` as the choice opened
    at play ``start`` closes: O35's failed throw, O39's tricks out of phase."""
    tied_throw(ref, start, others)
    tied_phase(ref, start)


def tied_throw(ref: Any, start: int, others: list[Any]) -> None:
    """Mark the failed throw of play ``start`` that ``ref`` (the referee of the log as read, kept
    as the choice closed tied) holds (O17) or defers (O26), when one of ``others`` (the slip
    readings tied with it) charges none: it stays a question (:func:`charged`)."""
    if not others or all(_has_throw(r.referee, r.faults, start) for r in others):
        return
    held = ref.held_throw
    if held is not None and held[0].i == start:
        ref.held_throw = (_mark(held[0]), held[1])
    ref.deferred = [_mark(f) if f.code == FAILED_THROW and f.i == start else f for f in ref.deferred]


def charged(f: Fault) -> bool:
    """Whether a deferred fault may be charged at the deal's end: not a throw O35 marked."""
    return TIED not in f.facts


def _mark(f: Fault) -> Fault:
    return replace(f, facts={**f.facts, TIED: True})


def _has_throw(ref: Any, faults: list[Fault], start: int) -> bool:
    """Whether a reading (its referee and its faults since the choice opened) charges play ``start`` a failed throw."""
    held = ref.held_throw
    if held is not None and held[0].i == start:
        return True
    if any(f.code == FAILED_THROW and f.i == start for f in ref.deferred):
        return True
    return any(f.i == start and FAILED_THROW in (f.code, f.facts.get("fault")) for f in faults)


def gap_throw(ref: Any) -> None:
    """O38: the trick in progress closes with one seat missing (the "close and lead" reading,
    O10), that seat the one just before the thrower of its failed throw (O17: held, asked as the
    trick closes), whose play in the trick before was its last, with as many cards as the throw.
    That play may as well have led this trick (its follow of the trick before missed, O12's
    shape), the "throw" then a follow: the failed throw is marked, as O35 marks one: its question
    stays and it is not charged at the deal's end."""
    t, held = ref.tricks, ref.held_throw
    if held is None or held[0].i not in ref.cards_at or len(t.trick) != 3 or held[0].i != t.trick[0].i \
            or len(t.last_trick) != 4:
        return                      # (a typed throw is said as its trick closes, O17: not marked)
    before = t.last_trick[-1]
    if before.seat == (t.trick[0].seat - 1) % 4 and len(before.cards) == len(held[1]):
        ref.held_throw = (_mark(held[0]), held[1])


def tied_phase(ref: Any, start: int) -> None:
    """O39: the log as read (``ref``), kept tied with a slip reading as the choice opened at camera
    play ``start`` closes (O28): its tricks from that play on may be grouped one play out of
    phase, as after a flagged trick (O23): the follows and throws opened since prove nothing
    later, and nor do those of the rest of the deal (``after_flagged``)."""
    if start not in ref.cards_at or ref.hands:
        return                      # a typed play opened it: no camera slip to doubt
    ref.tricks.after_flagged = True
    for seat, checks in ref.proofs.follows.items():
        ref.proofs.follows[seat] = [c for c in checks if c.i < start]
    ref.proofs.throws = [o for o in ref.proofs.throws if o.i < start]
