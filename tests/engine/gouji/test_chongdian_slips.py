"""Camera slips in 冲点 (docs/rules/gouji.md D40, D41).

Rules the cases rest on:

- 004:11 冲点: the 冲点 seat plays three 纯够级 (nothing attached) in a row; its 对门 answers
  each or lets it stand;
- 002:46 (山东): all three beaten, the 冲点 fails: the 对门 开点 and throws all its 4s away
  (``throw4``); one stood, the 冲点 seat 开点.
"""

from __future__ import annotations

import json

import pytest

from cardref.engine.judge import judge_text


def _play(seat: int, cards: str, camera: bool) -> dict:
    return {"type": "play", "seat": seat, "cards": cards.split(), **({"source": "camera"} if camera else {})}


def _chongdian(camera: bool, answer2: bool, third: str = "JH JS JD JC") -> list[dict]:
    """Seat 0's 冲点 (山东), seat 3 answering the first and third plays, the second answer seen
    or not, then seat 3 throwing its 4s."""
    return [{"type": "deal", "game": "gouji-shandong", "seats": 6, "leader": 1},
            {"type": "declare", "seat": 0, "what": "chongdian"},
            _play(0, "KH KS", camera), _play(3, "AH AS", camera),
            _play(0, "QH QS QD", camera), *([_play(3, "KH KS KD", camera)] if answer2 else []),
            _play(0, third, camera), _play(3, "QH QS QC QD", camera),
            {"type": "declare", "seat": 3, "what": "throw4", "cards": ["4H", "4S"]}]


@pytest.mark.parametrize("camera,answer2,flag,kaidian", [
    # the second answer not seen by the camera: the throw shows the 冲点 failed (D40)
    (True, False, "observe.missing_play", [3]),
    # typed without it: a person's log is what happened, so the 冲点 stood and the throw is wrong
    (False, False, "gouji.throw4_bad", [0]),
    # every answer seen: the throw is the one 002:46 asks for
    (True, True, None, [3]),
], ids=["camera-answer-missed", "typed-stood", "camera-all-beaten"])
def test_a_throw4_after_a_set_seen_to_stand_shows_an_answer_missed(camera: bool, answer2: bool, flag: str | None,
                                                                  kaidian: list[int]) -> None:
    events = _chongdian(camera, answer2)
    result = judge_text(json.dumps(e) for e in events)
    flags = [(v.i, v.fault.code) for v in result.verdicts if v.fault is not None]
    assert flags == ([(len(events) - 1, flag)] if flag else [])
    deal = result.summary()["deals"][0]
    assert deal["kaidian"] == kaidian
    if flag == "observe.missing_play":
        assert result.verdicts[-1].confirm


@pytest.mark.parametrize("third,camera,code", [
    ("JH JS JD 2C", True, "observe.fault_or_slip"),       # J J J J with one read as a 2 (D41)
    ("JH JS JD 2C", False, "gouji.chongdian_not_pure"),   # typed: the 2 attached is the fault
    ("JH JS 2D 2C", True, "gouji.chongdian_not_pure"),    # two attached: no one card explains it
], ids=["camera-one-attached", "typed-one-attached", "camera-two-attached"])
def test_a_chongdian_play_one_card_off_pure_is_asked(third: str, camera: bool, code: str) -> None:
    events = _chongdian(camera, True, third)
    verdicts = judge_text(json.dumps(e) for e in events).verdicts
    v = verdicts[6]
    assert v.fault is not None and v.fault.code == code
    if code == "observe.fault_or_slip":
        assert v.confirm and v.fault.facts["fault"] == "gouji.chongdian_not_pure"


def _second_set_dropped(camera: bool, second: bool, answer: str) -> list[dict]:
    """Seat 0's 冲点 (山东): its first play, then its second (seen or not), then seat 3's
    ``answer``, then seat 0's third play."""
    return [{"type": "deal", "game": "gouji-shandong", "seats": 6, "leader": 1},
            {"type": "declare", "seat": 0, "what": "chongdian"},
            _play(0, "QH QS QD", camera), *([_play(0, "JH JS JD JC", camera)] if second else []),
            _play(3, answer, camera), _play(0, "KH KS", camera)]


@pytest.mark.parametrize("camera,second,answer,flags", [
    # the 对门 let the Qs stand (004:11) and beat seat 0's four Js, which the camera missed:
    # four cards on three do not answer the play seen, so asked, not charged (D48)
    (True, False, "AH AS AD AC", [("observe.fault_or_slip", "gouji.count_mismatch", False)]),
    # typed: what the person saw, so the count is the 对门's fault
    (False, False, "AH AS AD AC", [("gouji.count_mismatch", None, True)]),
    # every play seen: the answer fits the second play
    (True, True, "AH AS AD AC", []),
    # no 纯够级 of four cards is beaten by four 10s (four 10s are no 够级; 10s need five): no
    # play not seen explains it, the count stays the 对门's fault
    (True, False, "10H 10S 10D 10C", [("gouji.count_mismatch", None, True)]),
], ids=["camera-second-dropped", "typed", "camera-all-seen", "camera-no-set-it-beats"])
def test_an_answer_to_a_chongdian_play_not_seen_is_asked(camera: bool, second: bool, answer: str,
                                                         flags: list) -> None:
    """D48, rules 004:11 (冲点: three 纯够级, the 对门 answers each or lets it stand) and
    004:23 (an answer matches the count of the play it beats)."""
    result = judge_text(json.dumps(e) for e in _second_set_dropped(camera, second, answer))
    found = [(v.fault.code, v.fault.facts.get("fault"), v.accusation) for v in result.verdicts if v.fault is not None]
    assert found == flags
