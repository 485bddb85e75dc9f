"""O37 (docs/rules/chaodipi.md): the deal's first lead and first follow both missed: the first
play seen, by the seat two after the dealer, follows that lead (one ``observe.missing_play``
naming both seats), when the log as read needs more rule faults than that reading needs flags.

Rules the cases rest on: seed 003 line 12 and 000:115 (the dealer leads the first trick), 003:50
(a follow has as many cards as the lead; the seats follow in turn).  炒地皮·暗炒, level 2, spades
trump, seat 0 deals.  Seat 2's ♦A ♦A is the first play seen: either seat 2 led out of turn (the
log as read, 003:12), or seats 0 and 1 played unseen and seat 2 followed (O37).
"""

from __future__ import annotations

import json

import pytest
from shengji_logs import deal_log

from cardref.engine.judge import judge_text

#: seat 0's ♦ pair and seat 1's missed; seat 0 leads a single ♥ next: the log as read needs a
#: wrong count too (a second rule fault), the two-missed reading nothing more: one slip flag
TWO_MISSED = [(2, "AD AD"), (3, "8D 9D"), (0, "3H"), (1, "4H"), (2, "6H"), (3, "7H")]
#: seat 2 leads out of turn and the others follow in turn: the log as read needs nothing more,
#: the two-missed reading a wrong count: the fault stands
OUT_OF_TURN = [(2, "AD AD"), (3, "8D 9D"), (0, "3D 4D"), (1, "6D 7D"),
               (2, "6H"), (3, "7H"), (0, "8H"), (1, "9H")]
#: seat 0's lead given to seat 2, then the trick as it was (seat 1, seat 2, seat 3): the log as
#: read needs only observation flags more (a skip, a trick closed short), no rule fault, and the
#: two-missed reading none either to the end of the window (8 plays): the log as read is kept,
#: its first lead out of turn accused, never tied with two plays missed (no O28 question)
SEAT_GIVEN = [(2, "9D"), (1, "KD"), (2, "JD"), (3, "5D"), (1, "6H"), (2, "7H"), (3, "8H"), (0, "9H"),
              (0, "10C"), (1, "JC")]

#: the log ends two plays on, the choice still open: settled on the log as read, its fault said
LOG_ENDS = [(2, "AD AD"), (3, "8D 9D")]


def _log(plays: list[tuple[int, str]], typed: bool, unsure: bool = False) -> list[dict]:
    """The deal; ``unsure``: every play after the first marked ``sure: false`` (C2: a fault proven
    at such a play is a question)."""
    sizes = {id(TWO_MISSED): [3, 3, 3, 3], id(OUT_OF_TURN): [3, 3, 3, 3], id(SEAT_GIVEN): [5, 5, 5, 5],
             id(LOG_ENDS): [3, 3, 3, 3]}[id(plays)]
    log = deal_log(plays, sizes, typed)
    for play in log[2:] if unsure else ():
        play["sure"] = False
    return log


@pytest.mark.parametrize("plays,typed,unsure,first", [
    (TWO_MISSED, False, False, ("observe.missing_play", True)),   # O37: one slip flag, no accusation
    (TWO_MISSED, True, False, ("shengji.out_of_turn", False)),    # typed: no camera slip to read
    (OUT_OF_TURN, False, False, ("shengji.out_of_turn", False)),  # O37's reading needs a flag more: dropped
    (SEAT_GIVEN, False, False, ("shengji.out_of_turn", False)),   # only the log as read's rule faults count
    # the play that settles the choice marked unsure: the fault is still proven at its own play (C2)
    (SEAT_GIVEN, False, True, ("shengji.out_of_turn", False)),
    (LOG_ENDS, False, False, ("shengji.out_of_turn", False)),     # settled as read when the log ends
], ids=["camera-two-missed", "typed-accused", "out-of-turn-accused", "seat-given-accused",
        "seat-given-unsure-accused", "log-ends-accused"])
def test_the_first_two_plays_missed(plays: list[tuple[int, str]], typed: bool, unsure: bool,
                                    first: tuple[str, bool]) -> None:
    verdicts = judge_text(json.dumps(e) for e in _log(plays, typed, unsure)).verdicts
    faults = [v for v in verdicts if v.fault is not None]
    assert faults[0].i == 1 and faults[0].fault is not None
    assert (faults[0].fault.code, faults[0].confirm) == first
    if plays is TWO_MISSED and not typed:
        assert faults[0].fault.facts["seats"] == [0, 1]
        assert not any(v.accusation for v in verdicts)
