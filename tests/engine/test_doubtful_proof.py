"""C2 (docs/rules/observation.md): a fault proven by a later reading the camera was not sure of
is a question, not an accusation; a person confirming that reading makes it an accusation.

The deal (seed 000 line 57 / seed 003 line 54: a seat without the led suit discards or trumps,
so an off-suit follow is a revoke only if the seat held the suit): seat 1 trumps the dealer's
♥A with ♠4 and later leads ♥10, which proves it held ♥.
"""

from __future__ import annotations

import json

import pytest

from cardref.engine.judge import judge_text

DEAL = {"type": "deal", "game": "guafeng-zibo", "seats": 4, "level": "7", "trump": "S", "dealer": 0,
        "hand_sizes": [3, 3, 3, 3]}
REVOKE = "shengji.must_follow_suit"


def cam(seat: int, cards: str, **more: object) -> dict:
    return {"type": "play", "seat": seat, "cards": cards.split(), "source": "camera", **more}


def lines(proof: dict) -> list[dict]:
    return [DEAL, cam(0, "AH"), cam(1, "4S"), cam(2, "KH"), cam(3, "QH"),
            proof, cam(2, "6D"), cam(3, "9C"), cam(0, "4D"),
            cam(1, "4S"), cam(2, "8C"), cam(3, "5D"), cam(0, "6C"),
            {"type": "bottom", "cards": ["3D", "4D", "6D", "8D"]}]


def revoke_verdict(events: list[dict]) -> dict:
    got = [v.to_json() for v in judge_text([json.dumps(e) for e in events]).verdicts]
    assert [v["i"] for v in got if not v["ok"]] == [2], got
    return got[2]


@pytest.mark.parametrize("proof,ask", [
    (cam(1, "10H"), False),
    (cam(1, "10H", sure=True), False),
    (cam(1, "10H", sure=False), True),
    (cam(1, "10H", conf=0.4), True),
    (cam(1, "10H", conf=0.9), False),
], ids=["no-mark", "sure", "not-sure", "low-conf", "high-conf"])
def test_a_revoke_proven_by_a_doubtful_reading_is_asked(proof: dict, ask: bool) -> None:
    v = revoke_verdict(lines(proof))
    assert v["code"] == REVOKE and v["proven_at"] == 5
    assert bool(v.get("confirm")) is ask


def test_confirming_the_proof_makes_it_an_accusation() -> None:
    events = [*lines(cam(1, "10H", sure=False)), {"type": "correct", "ref": 5, "cards": ["10H"], "why": "confirm"}]
    v = revoke_verdict(events)
    assert v["code"] == REVOKE and not v.get("confirm")


def test_a_doubtful_accused_play_is_asked_whatever_the_proof() -> None:
    """C1 as before: the accused play's own reading in doubt."""
    events = lines(cam(1, "10H"))
    events[2] = cam(1, "4S", sure=False)
    assert revoke_verdict(events).get("confirm") is True


def _correct(ref: int, cards: str, **more: object) -> dict:
    return {"type": "correct", "ref": ref, "cards": cards.split(), **more}


@pytest.mark.parametrize("fix,ask", [
    # C3: the camera read seat 1's follow again (who/source camera): still a camera reading,
    # one it changed its mind on, so the revoke it shows is asked
    (_correct(2, "4S", who="camera", source="camera", conf=0.9, why="read again: 5S -> 4S"), True),
    # a person corrected it: a manual reading, the revoke is accused (C1)
    (_correct(2, "4S", who="referee"), False),
])
def test_a_camera_correction_keeps_the_play_a_camera_reading(fix: dict, ask: bool) -> None:
    events = lines(cam(1, "10H"))
    events[2] = cam(1, "5S")        # first read as ♠5, then read again as ♠4
    v = revoke_verdict([*events, fix])
    assert v["code"] == REVOKE and bool(v.get("confirm")) is ask


# C2 for a count: seat 2's ♠K ♠K follows a lead the camera read as one big joker, unsure (a
# pair of jokers read as one, docs/vision.md V21).  003:50: a follow has as many cards as the
# lead; the count fault rests on the lead as read.
COUNT = [{"type": "deal", "game": "chaodipi-mingchao", "seats": 4, "level": "7", "trump": "S", "dealer": 1},
         cam(1, "BJ"), cam(2, "KS KS"), cam(3, "4D"), cam(0, "6C"),
         cam(1, "9H"), cam(2, "10H"), cam(3, "JH"), cam(0, "QH")]


@pytest.mark.parametrize("lead,ask", [
    (cam(1, "BJ", sure=False), True),
    (cam(1, "BJ", sure=True), False),
    (cam(1, "BJ"), False),
], ids=["lead-unsure", "lead-sure", "lead-unmarked"])
def test_a_count_against_a_lead_read_in_doubt_is_asked(lead: dict, ask: bool) -> None:
    events = [COUNT[0], lead, *COUNT[2:]]
    got = [v.to_json() for v in judge_text([json.dumps(e) for e in events]).verdicts]
    assert got[2]["code"] == "shengji.wrong_count" and bool(got[2].get("confirm")) is ask, got


@pytest.mark.parametrize("table,ask", [
    ({"type": "play", "seat": 0, "cards": ["9H", "9S"], "source": "camera", "sure": False}, True),
    ({"type": "play", "seat": 0, "cards": ["9H", "9S"], "source": "camera", "sure": True}, False),
])
def test_a_gouji_answer_against_a_table_play_read_in_doubt_is_asked(table: dict, ask: bool) -> None:
    """004:23 上牌: an answer beats the play on the table with as many cards.  Seat 1 answers a
    single to seat 0's pair (typed, its hand known: no camera-slip reading asks it): the fault
    rests on the pair as read."""
    events = [{"type": "deal", "game": "gouji-shandong", "seats": 6, "leader": 0},
              {"type": "hand", "seat": 1, "cards": ["10H"] + ["5C"] * 35},
              table, {"type": "play", "seat": 1, "cards": ["10H"]}]
    got = [v.to_json() for v in judge_text([json.dumps(e) for e in events]).verdicts]
    assert got[3]["code"] == "gouji.count_mismatch" and bool(got[3].get("confirm")) is ask, got


@pytest.mark.parametrize("chong,ask", [
    ({"type": "play", "seat": 0, "cards": ["KH", "KS"], "source": "camera", "sure": False}, True),
    ({"type": "play", "seat": 0, "cards": ["KH", "KS"], "source": "camera", "sure": True}, False),
], ids=["chong-unsure", "chong-sure"])
@pytest.mark.parametrize("answer,code", [
    (["AH"], "gouji.count_mismatch"),
    (["QH", "QS"], "gouji.does_not_beat"),
], ids=["count", "beat"])
def test_a_chongdian_answer_against_a_play_read_in_doubt_is_asked(chong: dict, ask: bool, answer: list[str],
                                                                   code: str) -> None:
    """004:11 冲点: the 对门 answers each 冲点 play with as many cards that beat it.  Seat 3's
    hand is known (no camera-slip reading asks it); its fault rests on seat 0's play as read."""
    events = [{"type": "deal", "game": "gouji-yucheng", "seats": 6, "leader": 1},
              {"type": "hand", "seat": 3, "cards": ["AH", "QH", "QS"] + ["5C"] * 33},
              {"type": "declare", "seat": 0, "what": "revolution"},
              {"type": "declare", "seat": 0, "what": "chongdian"},
              chong, {"type": "play", "seat": 3, "cards": answer}]
    got = [v.to_json() for v in judge_text([json.dumps(e) for e in events]).verdicts]
    assert got[5]["code"] == code and bool(got[5].get("confirm")) is ask, got
