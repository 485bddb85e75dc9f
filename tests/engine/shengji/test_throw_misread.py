"""O26 (docs/rules/chaodipi.md): a camera throw of two cards found failed is asked as its trick
closes, and charged at the deal's end unless a card it rests on was seen once too often.

Rules the cases rest on:

- seed 003 line 58 (甩错): a throw another seat beats fails; the smallest unit stands, the rest
  goes back, and the thrower pays 10 points a card;
- seed 000 line 7 / seed 003 line 8: two decks, two copies of each card; a pair read with one
  card wrong (♦8 ♦8 as ♦8 ♦7) looks like a throw of two singles;
- spec "Judge output": a question (`confirm`) that a later fault replaces; `proven_at`.
"""

from __future__ import annotations

import json

import pytest
from slips_bench import slips_deal

from cardref.engine.judge import judge_text

DEAL = {"type": "deal", "game": "chaodipi-anchao", "level": "7", "trump": "S", "dealer": 0,
        "hand_sizes": [2, 2, 2, 2]}
ASKED, THROW = "observe.fault_or_slip", "shengji.failed_throw"


def cam(seat: int, cards: str) -> dict:
    return {"type": "play", "seat": seat, "cards": cards.split(), "source": "camera"}


def typed(seat: int, cards: str) -> dict:
    return {"type": "play", "seat": seat, "cards": cards.split()}


def judged(plays: list[dict]) -> tuple[list[dict], dict]:
    result = judge_text([json.dumps(e) for e in [DEAL, *plays]])
    return [v.to_json() for v in result.verdicts if not v.ok], result.summary()["deals"][0]


# seat 0 throws ♥A ♥K; seat 1's ♥A beats the ♥K (003:58): the ♥K stands, the ♥A goes back
GENUINE = [cam(0, "AH KH"), cam(1, "AH"), cam(2, "6D"), cam(3, "9D"),
           cam(1, "4D"), cam(2, "8D"), cam(3, "10D"), cam(0, "AH")]
# the same, but a third ♥A shows (seat 3's): one ♥A sighting was a card read wrong
MISREAD = [*GENUINE[:6], cam(3, "AH"), cam(0, "AH")]


def test_a_genuine_failed_throw_is_charged_at_the_deals_end() -> None:
    flags, deal = judged(GENUINE)
    assert [(f["i"], f["code"], f.get("confirm", False), f.get("proven_at")) for f in flags] == [(1, THROW, False, 2)]
    assert deal["penalty_points"] == 20


def test_a_throw_resting_on_a_card_seen_too_often_stays_a_question() -> None:
    flags, deal = judged(MISREAD)
    assert [(f["i"], f["code"], f.get("confirm")) for f in flags] == [(1, ASKED, True)]
    assert flags[0]["message"]
    assert deal["penalty_points"] == 0          # the penalty is taken back


def test_a_typed_failed_throw_is_said_at_once() -> None:
    """O26 is for camera readings: a play a person typed is trusted as written."""
    flags, deal = judged([typed(0, "AH KH"), typed(1, "AH"), typed(2, "6D"), typed(3, "9D")])
    assert [(f["i"], f["code"]) for f in flags] == [(1, THROW)] and deal["penalty_points"] == 20


#: ``cardref bench verdicts --slips 0.03 0.02`` (seed 1) chaodipi-mingchao deals where a pair
#: lead read with one card wrong was accused of a failed throw as its trick closed:
#: (deal, line, cards seen, the pair it was)
PAIRS_MISREAD = [
    (6, 13, "8D 7D", "8D 8D"),
    (7, 13, "9H 8H", "9H 9H"),
    (75, 5, "4H QH", "4H 4H"),
]


@pytest.mark.parametrize("n,line,seen,pair", PAIRS_MISREAD, ids=[f"deal-{n}" for n, *_ in PAIRS_MISREAD])
def test_a_pair_read_as_a_failed_throw_is_asked_not_accused(n: int, line: int, seen: str, pair: str) -> None:
    verdicts, false_at = slips_deal("chaodipi-mingchao", n, 0.03, 0.02)
    v = verdicts[line]
    assert v.fault is not None and v.fault.code == ASKED and v.confirm, (pair, v.fault)
    assert v.fault.facts["fault"] == THROW and [str(c) for c in v.fault.facts["cards"]] == seen.split()
    assert line not in false_at


# O29: a throw proven failed by a card a later trick shows (seat 1's ♥A on a ♣ lead: it held a
# card beating the ♥K, 003:58) waits for the deal's end with the throw and that card.  Misread
# (a third ♥A seen later: 000:7 / 003:8, two copies) it proves nothing and its penalty goes back;
# genuine, it is charged then, proven at the ♥A.
LATER = {"type": "deal", "game": "chaodipi-anchao", "seats": 4, "level": "2", "trump": "S", "dealer": 0,
         "hand_sizes": [4, 4, 4, 4]}
LATER_PLAYS = [cam(0, "KH QH"), cam(1, "3H 4H"), cam(2, "5H 6H"), cam(3, "7H 8H"),
               cam(0, "9C"), cam(1, "AH"), cam(2, "10C"), cam(3, "JC"),
               cam(3, "AH"), cam(0, "5D"), cam(1, "6D")]
BOTTOM = {"type": "bottom", "cards": ["3S", "4S", "5S", "6S", "7S", "8S", "10S", "JS"]}


@pytest.mark.parametrize("last,flags,penalty", [
    (cam(2, "AH"), [(12, "deck.too_many_copies", None)], 0),
    (cam(2, "2D"), [(1, THROW, 6)], 20),
], ids=["third-copy-misread", "genuine"])
def test_a_throw_proven_by_a_later_trick_waits_for_the_deal_end(last: dict, flags: list, penalty: int) -> None:
    result = judge_text([json.dumps(e) for e in [LATER, *LATER_PLAYS, last, BOTTOM]])
    got = [(v.i, v.fault.code, v.fault.proven_at) for v in result.verdicts if v.fault is not None]
    assert got == flags
    assert abs(result.summary()["deals"][0]["penalty_points"]) == penalty
