"""The play on the table of a 够级 deal (:class:`Current`), its :class:`Phase`, the seats, and the fault codes
the referee's camera-slip readings (:mod:`.slips`) re-synchronise on."""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from ..cards import Card
from .shapes import Shape

SEATS = 6


class Phase(StrEnum):
    """The phase of a deal (the ``phase`` key of the referee's ``state``)."""

    PREP = "prep"               # before the first play: hands, 买3, tributes, 革命, 冲点 declared
    CHONGDIAN = "chongdian"     # the 冲点 plays (004:11-13)
    PLAY = "play"
    OVER = "over"
    VOID = "void"               # redealt (三家革命 / 三个冲点, 002:48)

#: Faults of a play against the turn order or the play on the table.  The cards were put down
#: all the same, so after the fault the referee re-synchronises on them (``_resync``): one
#: slip, seen or committed, costs one flag and not every later play's verdict.
RESYNC_CODES = frozenset({
    "gouji.not_your_lead", "gouji.passed_already", "gouji.does_not_beat", "gouji.count_mismatch",
    "gouji.gouji_only_opposite", "gouji.burn_first", "gouji.burn_priority", "gouji.burn_after_pass",
    "gouji.burn_after_jieshao", "gouji.burn_wutou", "gouji.burn_teammate", "gouji.burn_needs_joker",
    "gouji.burn_before_four",
})

#: Faults of a camera play that a camera slip may explain: asked, not charged, when a reading
#: of one slip takes the play (docs/rules/observation.md O10)
ASKED_CODES = RESYNC_CODES | {"gouji.mixed_ranks", "gouji.three_attached", "gouji.four_attached",
                              "play.after_out", "gouji.men_out"}

#: Faults of an answer against the play on the table itself (not against the turn order)
BEAT_CODES = frozenset({"gouji.count_mismatch", "gouji.does_not_beat"})


class Current(NamedTuple):
    """The play on the table: who, what, at which event, and whether only the 对门 may answer."""

    seat: int
    shape: Shape
    cards: tuple[Card, ...]
    i: int
    restricted: bool


def opp(seat: int) -> int:
    """The 对门 (opposite seat) of ``seat``."""
    return (seat + 3) % SEATS
