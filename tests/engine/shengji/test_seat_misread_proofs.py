"""O36 (docs/rules/chaodipi.md): a lead the seat-misread reading (O19) gave to the seat due
proves only questions: its cards may be the seat seen's after all (O32's doubtful cards).

Rules the cases rest on: seed 003 line 12 and 000:115 (the winner leads the next trick: O19
reads a lead seen by another seat as the seat due's), 003:52 (a pair for a pair: a follow of
two single ♥ on ♥K ♥K is a revoke when the seat held a ♥ pair) and 003:50 (the seats follow in
turn).  炒地皮·暗炒, level 2, spades trump, seat 0 deals.  Seat 1 answers ♥K ♥K with ♥4 ♥7, wins
the next trick with ♠K, and its ♥9 ♥9 lead is seen as seat 3's: O19 reads it as seat 1's (the
seat due; seat 2, 3 and 0 then follow in turn), and its ♥ pair would prove seat 1's ♥4 ♥7 a
pair revoke.  Seen as seat 1's, no reading moves it, and the revoke stands.
"""

from __future__ import annotations

import json

import pytest
from shengji_logs import deal_log

from cardref.engine.judge import judge_text


def _plays(lead_seat: int) -> list[tuple[int, str]]:
    return [(0, "KH KH"), (1, "4H 7H"), (2, "3H 6H"), (3, "8H QH"),
            (0, "AC"), (1, "KS"), (2, "4C"), (3, "5C"),
            (lead_seat, "9H 9H"), (2, "10H JH"), (3, "3D 4D"), (0, "5D 6D")]


def _log(lead_seat: int, typed: bool) -> list[dict]:
    return deal_log(_plays(lead_seat), [5, 5, 5, 5], typed)


@pytest.mark.parametrize("lead_seat,typed,expected", [
    # O36: the lead O19 gave to seat 1 proves the revoke only as a question; O19's flag stays
    (3, False, [(2, "observe.fault_or_slip", True), (9, "observe.unexpected_lead", True)]),
    # the camera read seat 1: no reading moves the lead, the revoke is accused (at the deal's end, O20)
    (1, False, [(2, "shengji.must_follow_pairs", False)]),
    # typed: no readings, the revoke is accused at its proof
    (1, True, [(2, "shengji.must_follow_pairs", False)]),
], ids=["seat-misread-asked", "camera-seat-right-accused", "typed-accused"])
def test_a_lead_given_to_the_seat_due_proves_only_questions(
        lead_seat: int, typed: bool, expected: list[tuple[int, str, bool]]) -> None:
    verdicts = judge_text(json.dumps(e) for e in _log(lead_seat, typed)).verdicts
    got = [(v.i, v.fault.code, v.confirm) for v in verdicts if v.fault is not None]
    assert got == expected
    if expected[0][2]:
        fault = verdicts[2].fault
        assert fault is not None and fault.facts["fault"] == "shengji.must_follow_pairs"
        assert fault.proven_at == 9
