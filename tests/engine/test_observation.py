"""Observation faults apart from rule faults (issue 34; docs/rules/observation.md).

Each case gives a short log and the exact verdict list (code or None per line)."""

import json

import pytest

from cardref.engine.judge import judge_text

GF = {"type": "deal", "game": "guafeng-zibo", "seats": 4, "level": "2", "trump": "S", "dealer": 0}


def P(seat, *cards, **extra):
    return {"type": "play", "seat": seat, "cards": list(cards), **extra}


CASES = [
    # 000 (刮风 turn order: each seat follows in turn) — out of turn, and the skipped seat then plays
    ("out-of-turn play no gap explains: 0,2,1,3 flags seat 2 once (proven at seat 1's play)",
     [GF, P(0, "9D"), P(2, "10D"), P(1, "JD"), P(3, "QD")],
     [None, None, "shengji.out_of_turn", None, None]),
    ("a missed play: seat 2's play unseen, the trick closes when seat 3 (its winner) leads",
     [GF, P(0, "9D"), P(1, "10D"), P(3, "QD"), P(3, "5C")],
     [None, None, None, "observe.missing_play", None]),
    ("a missed last play of a trick: flagged once at the next lead",
     [GF, P(0, "9D"), P(1, "10D"), P(2, "QD"), P(2, "5C")],
     [None, None, None, None, "observe.missing_play"]),
    # O19 (chaodipi.md): seat 3 won the first trick; its lead is seen as seat 1's, and the trick
    # goes round from seat 3 (0, 1, 2): the seat was misread, one flag, and seat 2's ♣Q wins
    ("a lead seen by another seat than the winner, the trick going on from the winner: one flag",
     [GF, P(0, "9D"), P(1, "10D"), P(2, "JD"), P(3, "AD"), P(1, "9C"), P(0, "10C"), P(1, "JC"),
      P(2, "QC"), P(2, "3H"), P(3, "4H"), P(0, "6H"), P(1, "7H")],
     [None, None, None, None, None, "observe.unexpected_lead", None, None, None, None, None, None, None]),
    # 000:115 the dealer has the first lead; the trick then goes round in turn
    ("the first play by the seat after the dealer: the dealer's lead was not seen (O8)",
     [GF, P(1, "9D")],
     [None, "observe.missing_play"]),
    ("the first lead by a seat no unseen lead explains: an accusation (O8)",
     [GF, P(2, "9D")],
     [None, "shengji.out_of_turn"]),
    ("a low-confidence reading that would be a fault is a question",
     [GF, P(2, "9D", conf=0.3, source="camera")],
     [None, "shengji.out_of_turn"]),
]


@pytest.mark.parametrize("why,log,want", CASES, ids=[c[0] for c in CASES])
def test_verdicts(why, log, want) -> None:
    result = judge_text(json.dumps(x) for x in log)
    assert [v.fault.code if v.fault else None for v in result.verdicts] == want


def test_out_of_turn_is_proven_by_the_skipped_seat() -> None:
    v = judge_text(json.dumps(x) for x in CASES[0][1]).verdicts[2]
    assert v.fault.proven_at == 3 and v.accusation and not v.confirm


def test_missed_play_names_the_seat() -> None:
    v = judge_text(json.dumps(x) for x in CASES[1][1]).verdicts[3]
    assert v.observation and v.fault.facts["seats"] == [2] and v.fault.proven_at == 4


def test_low_confidence_asks_and_a_correction_settles_it() -> None:
    log = CASES[6][1]
    asked = judge_text(json.dumps(x) for x in log).verdicts[1]
    assert asked.confirm and asked.to_json()["confirm"] is True and not asked.ok
    settled = judge_text(json.dumps(x) for x in [*log, {"type": "correct", "ref": 1, "cards": ["9D"],
                                                          "why": "confirm"}]).verdicts[1]
    assert settled.fault.code == "shengji.out_of_turn" and not settled.confirm


def test_unsure_play_asks() -> None:
    v = judge_text(json.dumps(x) for x in [GF, P(2, "9D", sure=False)]).verdicts[1]
    assert v.confirm and v.fault.code == "shengji.out_of_turn"


def test_gouji_misread_card_is_flagged_once() -> None:
    """004:9 a play is cards of one rank (2s and jokers attached): 7 7 8 is a misread 7."""
    deal = {"type": "deal", "game": "gouji-yucheng", "seats": 6, "leader": 0}
    result = judge_text(json.dumps(x) for x in [deal, P(0, "7H", "7S", "8D"), P(1, "9H", "9S", "9D")])
    assert [v.fault.code if v.fault else None for v in result.verdicts] == [None, "observe.card_unplausible", None]


def test_gouji_missed_chongdian_play() -> None:
    """004:11 冲点 is three plays; another seat playing after one, no hand known: one was not seen."""
    log = [{"type": "deal", "game": "gouji-yucheng", "seats": 6, "leader": 1},
           {"type": "declare", "seat": 0, "what": "revolution"}, {"type": "declare", "seat": 0, "what": "chongdian"},
           P(0, "KH", "KS"), P(1, "5H"), P(2, "6H")]
    result = judge_text(json.dumps(x) for x in log)
    assert [v.fault.code if v.fault else None for v in result.verdicts] == [None, None, None, None,
                                                                              "observe.missing_play", None]


def test_a_misread_seat_is_read_as_the_winners_lead() -> None:
    """O19: the trick is read from the seat due (3), so seat 2 wins it and leads next."""
    result = judge_text(json.dumps(x) for x in CASES[3][1])
    second = result.deals[-1].referee.tricks.history[1]
    assert (second["leader"], second["winner"]) == (3, 2)
    assert [p["seat"] for p in second["plays"]] == [3, 0, 1, 2]
