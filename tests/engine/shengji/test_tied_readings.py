"""O28 (docs/rules/chaodipi.md): a rule fault of the play that opened a choice of readings,
kept because the log as read was still tied with a camera-slip reading when the choice
closed, is a question.

Rules the cases rest on: seed 003 line 50 (the seats follow in turn), 003:12 and 000:115 (the
trick's winner leads the next).  Seat 2's ♥A follow is never seen; its ♦J lead of the next
trick is then either seat 2's late follow (seat 3 played out of turn before it) or a lead after
a missed follow.  The deal ends (two cards a seat) before any play tells the two apart.
"""

from __future__ import annotations

import json

import pytest

from cardref.engine.judge import judge_text


def _deal(typed: bool) -> list[dict]:
    def play(seat: int, card: str) -> dict:
        return {"type": "play", "seat": seat, "cards": [card], **({} if typed else {"source": "camera"})}
    return [{"type": "deal", "game": "chaodipi-anchao", "seats": 4, "level": "2", "trump": "S", "dealer": 0,
             "hand_sizes": [2, 2, 2, 2]},
            play(0, "JH"), play(1, "9H"), play(3, "QH"), play(2, "JD"), play(3, "4D"), play(0, "5D"), play(1, "KD")]


@pytest.mark.parametrize("typed,code,ask", [
    (False, "observe.fault_or_slip", True),     # a camera log: either reading fits, asked
    (True, "shengji.out_of_turn", False),       # typed: no slip to read, the fault stands
], ids=["camera-asked", "typed-accused"])
def test_a_fault_a_slip_reading_explains_as_well_is_asked(typed: bool, code: str, ask: bool) -> None:
    verdicts = judge_text(json.dumps(e) for e in _deal(typed)).verdicts
    faults = [v for v in verdicts if v.fault is not None]
    assert [(v.i, v.fault.code) for v in faults if v.fault] == [(3, code)]
    assert faults[0].confirm is ask
    if ask:
        assert faults[0].fault is not None and faults[0].fault.facts["fault"] == "shengji.out_of_turn"
