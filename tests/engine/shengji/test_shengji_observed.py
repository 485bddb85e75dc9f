"""Which faults are still caught when the same whole deal is judged without ``hand`` events.

Each scenario is a short whole deal (``hand_sizes`` keeps it small).  With hands the fault is
judged at once; without them it is proven by a later play (``proven_at``) when the seat's
later cards show what it held — or not at all when nothing later can show it.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from cardref.engine.judge import judge_text


def play(seat: int, cards: str) -> dict[str, Any]:
    return {"type": "play", "seat": seat, "cards": cards.split()}


def deal(game: str, sizes: int, *hand_cards: str, trump: str = "S", level: str = "7") -> list[dict[str, Any]]:
    head = {"type": "deal", "game": game, "level": level, "trump": trump, "dealer": 0, "hand_sizes": [sizes] * 4}
    return [head, *[{"type": "hand", "seat": s, "cards": c.split()} for s, c in enumerate(hand_cards)]]


GF, AN = "guafeng-zibo", "chaodipi-anchao"

# name, events, index of the faulty event, code, caught without hands, index (in the full log) proving it, ref
SCENARIOS = [
    ("pair not followed", [*deal(GF, 3, "8H 8H 4D", "QH QH 9H", "6H 6D 9D", "10H JH 4C"),
                           play(0, "8H 8H"), play(1, "QH 9H"), play(2, "6H 6D"), play(3, "10H JH"),
                           play(0, "4D"), play(1, "QH"), play(2, "9D"), play(3, "4C")],
     6, "shengji.must_follow_pairs", True, 10, "000:59 / 003:52"),
    ("从大到小", [*deal(GF, 3, "8H 8H 4D", "AH 9H 4H", "6H 6D 9D", "10H JH 4C"),
               play(0, "8H 8H"), play(1, "9H 4H"), play(2, "6H 6D"), play(3, "10H JH"),
               play(0, "4D"), play(1, "AH"), play(2, "9D"), play(3, "4C")],
     6, "shengji.not_largest_first", True, 10, "000:59 如果没有对，则选择手中从大到小的牌出"),
    ("炒地皮 has no 从大到小", [*deal(AN, 3, "8H 8H 4D", "AH 9H 4H", "6H 6D 9D", "10H JH 4C"),
                           play(0, "8H 8H"), play(1, "9H 4H"), play(2, "6H 6D"), play(3, "10H JH"),
                           play(0, "4D"), play(1, "AH"), play(2, "9D"), play(3, "4C")],
     None, None, False, None, "003:52"),
    ("tractor not followed", [*deal(AN, 5, "8D 8D 9D 9D 4S", "QD QD KD KD 4D", "2C 3C 6C 8C 9C", "2H 3H 6H 8H 9H"),
                              play(0, "8D 8D 9D 9D"), play(1, "QD QD KD 4D"), play(2, "2C 3C 6C 8C"),
                              play(3, "2H 3H 6H 8H"),
                              play(0, "4S"), play(1, "KD"), play(2, "9C"), play(3, "9H")],
     6, "shengji.must_follow_tractor", True, 10, "003:52 有连对必须出连对"),
    ("有雷出雷", [*deal(GF, 5, "5S 5H 5D 5C 4H", "3S 3H 3D 3C BJ", "6H 8H 9H 10H JH", "6D 8D 9D 10D JD"),
              play(0, "5S 5H 5D 5C"), play(1, "3S 3H 3D BJ"), play(2, "6H 8H 9H 10H"), play(3, "6D 8D 9D 10D"),
              play(0, "4H"), play(1, "3C"), play(2, "JH"), play(3, "JD")],
     6, "guafeng.must_play_lei", True, 10, "000:89 有雷出雷"),
    ("discard while holding the suit", [*deal(GF, 3, "AH 4D 6C", "4S 4S 10H", "KH 6D 8C", "5D QH 9C"),
                                        play(0, "AH"), play(1, "4S"), play(2, "KH"), play(3, "QH"),
                                        play(1, "10H"), play(2, "6D"), play(3, "9C"), play(0, "4D"),
                                        play(1, "4S"), play(2, "8C"), play(3, "5D"), play(0, "6C")],
     6, "shengji.must_follow_suit", True, 9, "000:57 / 003:54"),
    ("甩错", [*deal(AN, 2, "AH KH", "AH 4D", "6D 8D", "9D 10D"),
            play(0, "AH KH"), play(1, "AH"), play(2, "6D"), play(3, "9D"),
            play(1, "4D"), play(2, "8D"), play(3, "10D"), play(0, "AH")],
     5, "shengji.failed_throw", True, 6, "003:58 甩错: only the smallest unit stays, the ♥A goes back"),
    ("the burier kept a joker", [*deal(GF, 1, "SJ", "4H", "6H", "8H"),
                                 play(0, "SJ"), play(1, "4H"), play(2, "6H"), play(3, "8H")],
     1, "guafeng.jokers_not_buried", True, 5, "000:187"),
    ("a card the seat does not hold", [*deal(GF, 1, "4H", "5H", "6H", "8H"),
                                       play(0, "9S"), play(1, "5H"), play(2, "6H"), play(3, "8H")],
     5, "play.not_in_hand", False, None, "hand events"),
    ("the log stops before the proof", [*deal(GF, 3, "AH 4D 6C", "4S 4S 10H", "KH 6D 8C", "5D QH 9C"),
                                        play(0, "AH"), play(1, "4S"), play(2, "KH"), play(3, "QH")],
     6, "shengji.must_follow_suit", False, None, "000:57 proof needs a later play of the seat"),
]


def faults(events: list[dict[str, Any]]) -> dict[int, Any]:
    result = judge_text([json.dumps(e) for e in events])
    return {v.i: v.fault for v in result.verdicts if v.fault is not None}


@pytest.mark.parametrize("name,events,bad,code,observed,proof,ref", SCENARIOS, ids=[s[0] for s in SCENARIOS])
def test_with_hands(name: str, events: list[dict[str, Any]], bad: int | None, code: str | None, observed: bool,
                    proof: int | None, ref: str) -> None:
    got = faults(events)
    if bad is None:
        assert got == {}, ref
    else:
        assert set(got) == {bad} and got[bad].code == code and got[bad].proven_at is None, (ref, got)


@pytest.mark.parametrize("name,events,bad,code,observed,proof,ref", SCENARIOS, ids=[s[0] for s in SCENARIOS])
def test_without_hands(name: str, events: list[dict[str, Any]], bad: int | None, code: str | None, observed: bool,
                       proof: int | None, ref: str) -> None:
    kept = [i for i, e in enumerate(events) if e["type"] != "hand"]
    new = {old: k for k, old in enumerate(kept)}
    got = faults([events[i] for i in kept])
    if not observed:
        assert got == {}, ref
        return
    assert bad is not None and proof is not None
    target = new[bad] if bad in new else new[proof]  # a hand-event fault moves to the play that shows it
    assert set(got) == {target} and got[target].code == code, (ref, got)
    if bad in new:
        assert got[target].proven_at == new[proof], ref


def test_every_case_cites_a_seed_line() -> None:
    """Each row names its seed (000 = shared/seeds/000_4e95b884d4f4d9e2.txt 刮风,
    003 = shared/seeds/003_50a5b68db21d70bd.txt 炒地皮) and line, or the spec."""
    for table in (SCENARIOS,):
        for row in table:
            assert re.match(r"^(000|003):\d|^spec|^hand events", row[-1]), row
