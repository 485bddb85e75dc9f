"""D42 and D46 (docs/rules/gouji.md): a burn a camera slip may have made.

Rules the cases rest on: 004:15 (a single 2 or joker is a 够级; a joker brings a play to its
count, 挂王), 004:23-25 (only the 对门 answers a 够级; another seat beating it burns, 烧牌; all
pass, the one whose play stood leads again) and 004:11 / 004:25 cond. 3 (禹城: each burn play
after the take carries a joker, but the last).  Seat 0 leads; seat 2, not its 对门, beats it
and so burns; seat 2's next lead has no joker.  D42: the 够级 rests on one card read.  D46:
one play not seen between the 够级 and the take (seat 0 led again, or seat 5, seat 2's 对门,
took the 够级 first) makes the take a plain answer.
"""

from __future__ import annotations

import json

import pytest

from cardref.engine.judge import judge_text

NEEDS_JOKER = "gouji.burn_needs_joker"


def _play(seat: int, cards: str, camera: bool) -> dict:
    return {"type": "play", "seat": seat, "cards": cards.split(), **({"source": "camera"} if camera else {})}


@pytest.mark.parametrize("burned,answer,camera,asked", [
    ("2D", "BJ", True, True),           # D42: one 2: one index read as a 2 makes the burn
    ("9C SJ", "BJ BJ", True, True),     # D42: the one joker that makes 9s a 够级 (9C 9C read 9C SJ)
    ("2D 2H", "BJ BJ", True, True),     # D46: no one card makes it a 够级, but a play may be missed
    ("KD KH", "2S 2S", True, True),     # D46 (yucheng seed 2 deal 63: seat 5's AC AS not seen)
    ("2D", "BJ", False, False),         # typed: the burn is what the person saw
    ("KD KH", "2S 2S", False, False),
], ids=["single-two", "one-joker-makes-it", "two-twos", "pair-of-kings", "typed", "typed-kings"])
def test_a_burn_on_a_gouji_of_one_card_asks_its_joker_fault(burned: str, answer: str, camera: bool,
                                                            asked: bool) -> None:
    log = [{"type": "deal", "game": "gouji-yucheng", "seats": 6, "leader": 0},
           _play(0, burned, camera), _play(2, answer, camera), _play(2, "5S", camera)]
    verdicts = judge_text(json.dumps(e) for e in log).verdicts
    assert [v.i for v in verdicts if v.fault is not None] == [3]
    v = verdicts[3]
    assert v.fault is not None
    if asked:
        assert v.fault.code == "observe.fault_or_slip" and v.confirm and v.fault.facts["fault"] == NEEDS_JOKER
    else:
        assert v.fault.code == NEEDS_JOKER and v.accusation


@pytest.mark.parametrize("cards,one", [
    ("2D", True), ("SJ", True),                      # a single 2 or joker (004:15)
    ("9C SJ", True), ("10C 10C 10C 10C SJ", True),   # the joker brings it to its count (挂王)
    ("2D 2H", False), ("KC KD", False),              # two cards of the 够级 rank
    ("10C 10C 10C 10C 10C SJ", False),               # five 10s are a 够级 without the joker
    ("AC", False),                                   # no 够级 at all
])
def test_gouji_on_one_card_is_the_shape_one_misread_makes(cards: str, one: bool) -> None:
    from cardref.engine.cards import parse_cards
    from cardref.engine.gouji.shapes import Shape, gouji_on_one_card, parse_shape

    shape = parse_shape(parse_cards(cards.split()))
    assert isinstance(shape, Shape) and gouji_on_one_card(shape) is one
