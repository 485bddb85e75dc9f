"""O35 (docs/rules/chaodipi.md): a failed throw of the play that opened a choice of readings,
when the choice closed tied and a slip reading left has no such throw.

O28 asks the rule faults of that play when the log as read is kept only because a slip reading
explains the table as well.  A camera throw beaten at its first follow waits for its trick (O17),
is asked then and charged at the deal's end (O26), so O28 never saw it: yet the slip reading that
tied (the play a follow of a lead the camera missed, O11) has no throw at all.  Decision: such a
throw is marked ``tied``: the question said as its trick closes stays, and at the deal's end it
is not charged (its penalty taken back, as for a card seen too often).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..verdict import Fault

#: O26: a failed throw of two cards, asked as its trick closes and charged at the deal's end
FAILED_THROW = "shengji.failed_throw"
#: the fact that marks a failed throw O35 leaves a question
TIED = "tied"


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
