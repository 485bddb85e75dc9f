"""D44 (docs/rules/gouji.md): a play the camera did not see made a seat look as if it passed.

Rules the cases rest on: 004:23 (过牌: plays go round, each seat beats the play on the table or
passes, and a seat that passed does not play again in the round; when all pass, the one whose
play stood leads) and the spec's camera logs (no pass events: a pass is presumed when a later
seat plays).  Seat 0 leads 5S.  The camera missed seat 1's 7S answer, so seat 1 looks passed
when seat 2 beats it; seats 3, 4, 5 and 0 say pass, and seat 1's JS over the 9S looks like a
lead out of turn.  Seat 1 then leads again, as the seat whose play stood.  The bench deals
this was drawn from are in test_slip_cascades.py (``BENCH``, D44).
"""

from __future__ import annotations

import json

import pytest

from cardref.engine.judge import judge_text

DEAL = {"type": "deal", "game": "gouji-yucheng", "seats": 6, "leader": 0}


def _play(seat: int, cards: str, camera: bool = True) -> dict:
    return {"type": "play", "seat": seat, "cards": cards.split(), **({"source": "camera"} if camera else {})}


def _pass(seat: int) -> dict:
    return {"type": "pass", "seat": seat}


def _log(camera: bool = True, said: bool = False) -> list[dict]:
    return [_play(0, "5S", camera), *([_pass(1)] if said else []), _play(2, "9S", camera),
            _pass(3), _pass(4), _pass(5), _pass(0), _play(1, "JS", camera), _play(1, "6H", camera)]


def _flagged(events: list[dict]) -> list:
    return [v for v in judge_text(json.dumps(e) for e in [DEAL, *events]).verdicts if v.fault is not None]


def test_a_seat_presumed_passed_that_plays_on_is_asked() -> None:
    flagged = _flagged(_log())
    assert [(v.fault.code, v.fault.facts.get("fault"), v.confirm) for v in flagged] == [
        ("observe.fault_or_slip", "gouji.not_your_lead", True)]
    assert not any(v.accusation for v in flagged)


@pytest.mark.parametrize("camera,said", [(True, True), (False, False)], ids=["said-pass", "typed"])
def test_a_seat_that_passed_for_sure_is_accused(camera: bool, said: bool) -> None:
    """A pass in the log is no play the camera missed; a typed log saw every play."""
    flagged = _flagged(_log(camera, said))
    assert [v.fault.code for v in flagged if v.accusation] == ["gouji.not_your_lead"]
