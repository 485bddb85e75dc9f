"""Whole deals through ``cardref judge``: with hands, and the same deals observation-only."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cardref.engine.judge import LiveJudge, judge_text


def run(events: list[dict[str, Any]]):
    return judge_text([json.dumps(e) for e in events])


def codes(events: list[dict[str, Any]]) -> dict[int, tuple[str, int | None]]:
    result = run(events)
    return {v.i: (v.fault.code, v.fault.proven_at) for v in result.verdicts if v.fault is not None}


def without_hands(events: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[int, int]]:
    """The deal with ``hand`` events removed, and old index -> new index."""
    out, index = [], {}
    for i, e in enumerate(events):
        if e["type"] != "hand":
            index[i] = len(out)
            out.append(e)
    return out, index


def play(seat: int, cards: str) -> dict[str, Any]:
    return {"type": "play", "seat": seat, "cards": cards.split()}


def hands(*cards: str) -> list[dict[str, Any]]:
    return [{"type": "hand", "seat": s, "cards": c.split()} for s, c in enumerate(cards)]


# 刮风, level 7, ♠ trump, dealer 0; attackers 1 and 3 take the last trick with the 常主 5D.
GUAFENG_DEAL = [
    {"type": "deal", "game": "guafeng-zibo", "level": "7", "trump": "S", "dealer": 0, "hand_sizes": [3, 3, 3, 3]},
    *hands("AH 4D 6C", "4S 4S 10H", "KH 6D 8C", "5D QH 9C"),
    play(0, "AH"), play(1, "10H"), play(2, "KH"), play(3, "QH"),
    play(0, "6C"), play(1, "4S"), play(2, "8C"), play(3, "9C"),
    play(1, "4S"), play(2, "6D"), play(3, "5D"), play(0, "4D"),
    {"type": "bottom", "cards": ["BJ", "10S", "4C", "6H"]},
]


@pytest.mark.parametrize("observed", [False, True], ids=["hands", "observation-only"])
def test_guafeng_deal_end_to_end(observed: bool) -> None:
    """000 lines 41, 57, 199-213, 241: trick winners, 毙 by a trump, bottom ×1 on a trump last play."""
    events = without_hands(GUAFENG_DEAL)[0] if observed else GUAFENG_DEAL
    result = run(events)
    assert all(v.ok for v in result.verdicts), [v.to_json("en") for v in result.verdicts if not v.ok]
    deal = result.summary()["deals"][0]
    assert deal["attacker_points"] == 5
    assert (deal["bottom_points"], deal["bottom_multiplier"]) == (110, 1)
    assert deal["final_points"] == 115
    assert deal["level_change"]["team"] == [1, 3] and deal["level_change"]["levels"] == 0
    assert deal["level_change"]["next_dealer"] == 1


def test_guafeng_revoke_with_and_without_hands() -> None:
    """000 line 57 / 003 line 54: seat 1 trumps ♥ while still holding ♥10."""
    events = [*GUAFENG_DEAL[:5], play(0, "AH"), play(1, "4S"), play(2, "KH"), play(3, "QH"),
              play(1, "10H"), play(2, "6D"), play(3, "9C"), play(0, "4D"),
              play(1, "4S"), play(2, "8C"), play(3, "5D"), play(0, "6C")]
    events[5:] = events[5:]
    with_h = codes(events)
    assert with_h[6] == ("shengji.must_follow_suit", None)
    observed, index = without_hands(events)
    got = codes(observed)
    assert got[index[6]] == ("shengji.must_follow_suit", index[9]), got


def test_guafeng_joker_must_be_buried() -> None:
    """000 line 187: the burier keeps no joker (with hands: at once; without: when it plays one)."""
    events = [
        {"type": "deal", "game": "guafeng-zibo", "level": "7", "trump": "S", "dealer": 0, "hand_sizes": [1, 1, 1, 1]},
        *hands("SJ", "4H", "6H", "8H"), play(0, "SJ"), play(1, "4H"), play(2, "6H"), play(3, "8H"),
    ]
    assert codes(events)[1][0] == "guafeng.jokers_not_buried"
    observed, index = without_hands(events)
    assert codes(observed)[index[5]][0] == "guafeng.jokers_not_buried"


ANCHAO_THROW = [
    {"type": "deal", "game": "chaodipi-anchao", "level": "7", "trump": "S", "dealer": 0, "hand_sizes": [2, 2, 2, 2]},
    *hands("AH KH", "AH 4D", "6D 8D", "9D 10D"),
    play(0, "AH KH"), play(1, "AH 4D"), play(2, "6D 8D"), play(3, "9D 10D"),
]


def test_failed_throw_with_hands() -> None:
    """003 line 58: 甩错 — seat 1 holds the other ♥A; the dealer side pays 10 a card to the attackers."""
    got = codes(ANCHAO_THROW)
    assert got[5][0] == "shengji.failed_throw"
    deal = run(ANCHAO_THROW).summary()["deals"][0]
    assert deal["penalty_points"] == 20


def test_failed_throw_observation_only() -> None:
    """003 line 58: without hands the throw is proven wrong when seat 1 shows the ♥A."""
    observed, index = without_hands(ANCHAO_THROW)
    got = codes(observed)
    assert got[index[5]] == ("shengji.failed_throw", index[6])
    assert run(observed).summary()["deals"][0]["penalty_points"] == 20


def test_attacker_failed_throw_costs_attackers() -> None:
    """003 line 58: 抓分方甩错1张牌，扣10分."""
    events = [
        {"type": "deal", "game": "chaodipi-mingchao", "level": "7", "trump": "S", "dealer": 3,
         "hand_sizes": [2, 2, 2, 2]},
        *hands("AH KH", "AH 4D", "6D 8D", "9D 10D"),
        play(3, "9D 10D"), play(0, "AH KH"), play(1, "AH 4D"), play(2, "6D 8D"),
    ]
    assert 5 not in codes(events)  # seat 3's 9D 10D: seat 2 has 6D 8D only, so nothing beats it
    events2 = [
        {"type": "deal", "game": "chaodipi-mingchao", "level": "7", "trump": "S", "dealer": 3,
         "hand_sizes": [2, 2, 2, 2]},
        *hands("6D 8D", "9D 10D", "AH 4D", "AH KH"),
        play(3, "AH KH"), play(0, "6D 8D"), play(1, "9D 10D"), play(2, "AH 4D"),
    ]
    got = codes(events2)
    assert got[5][0] == "shengji.failed_throw"
    deal = run(events2).summary()["deals"][0]
    assert deal["penalty_points"] == 20  # dealer seat 3 threw: the attackers gain


def test_red_five_forced_and_kept() -> None:
    """003 lines 146-148 (暗炒): 逼红5 −50 a card; 保红5 +50 a card."""
    events = [
        {"type": "deal", "game": "chaodipi-anchao", "level": "7", "trump": "S", "dealer": 0,
         "hand_sizes": [2, 2, 2, 2]},
        *hands("5H 4D", "5H 6D", "BJ 8D", "9D 10D"),
        play(0, "5H"), play(1, "5H"), play(2, "BJ"), play(3, "9D"),
        play(0, "4D"), play(1, "6D"), play(2, "8D"), play(3, "10D"),
        {"type": "bottom", "cards": ["2C", "3C", "4C", "6C", "7C", "8C", "9C", "KC"]},
    ]
    deal = run(events).summary()["deals"][0]
    # seat 1's ♥5 fell under seat 0's ♥5 (dealer side): the attackers lose 50
    assert deal["bonus_points"] == -50
    assert deal["attacker_points"] == 10 and deal["final_points"] == 10 - 50 + 10 * 2


SHANGTIAN = [
    {"type": "deal", "game": "chaodipi-anchao", "level": "7", "trump": "S", "dealer": 0, "hand_sizes": [4, 4, 4, 4]},
    *hands("4S 4D 6D 8D", "BJ 5C 10C KC", "6S 2D 3D 9D", "8S JD QD AD"),
    play(0, "4S"), play(1, "BJ"), play(2, "6S"), play(3, "8S"),
    play(1, "5C 10C KC"), play(2, "2D 3D 9D"), play(3, "JD QD AD"), play(0, "4D 6D 8D"),
    {"type": "bottom", "cards": ["2H", "3H", "4H", "6H", "7C", "8C", "9C", "10H"]},
]


@pytest.mark.parametrize("game", ["chaodipi-anchao", "chaodipi-mingchao"])
def test_shangtian_rudi_levels(game: str) -> None:
    """003 lines 38, 46, 158, 186: the attackers' last 5-10-K is 上天入地 (dealer side to 2, attackers to A)."""
    events = [dict(SHANGTIAN[0], game=game), *SHANGTIAN[1:]]
    result = run(events)
    assert all(v.ok for v in result.verdicts), [v.to_json("en") for v in result.verdicts if not v.ok]
    deal = result.summary()["deals"][0]
    assert deal["shangtian"] == "attackers"
    assert (deal["attacker_points"], deal["bottom_points"], deal["bottom_multiplier"]) == (25, 10, 2)
    assert deal["final_points"] == 45
    change = deal["level_change"]
    assert change["dealer_keeps"] and change["next_dealer"] == 2 and change["next_level"] == "2"
    # 积分: 45 points would give the dealer side +4 (003:102); 上天入地 gives the attackers 16 / 13
    assert change["jifen"]["attackers"] == (16 if game == "chaodipi-anchao" else 13)
    nxt = {"type": "deal", "game": game, "level": "2", "trump": "H", "dealer": 2}
    assert codes([*events, nxt]) == {}
    assert codes([*events, dict(nxt, level="9")])[len(events)][0] == "shengji.wrong_next_level"


def test_kangqi_shangtian_needs_attackers() -> None:
    """003 line 170: 扛旗 gives 上天入地 only to the attackers' 抠底; observation-only the same."""
    events = [dict(SHANGTIAN[0], game="chaodipi-kangqi"), *SHANGTIAN[1:]]
    for log in (events, without_hands(events)[0]):
        deal = run(log).summary()["deals"][0]
        assert deal["shangtian"] == "attackers"


def test_live_one_event_at_a_time() -> None:
    """The live API: each event's verdict and the updated state."""
    live = LiveJudge()
    live.feed(GUAFENG_DEAL[0])
    for e in GUAFENG_DEAL[1:5]:
        assert all(v.ok for v in live.feed(e))
    state = live.state()
    assert state["leader"] == 0 and state["to_play"] == 0 and state["trick"] == []
    live.feed(GUAFENG_DEAL[5])
    live.feed(GUAFENG_DEAL[6])
    state = live.state()
    assert state["trick"] == [{"seat": 0, "cards": ["AH"]}, {"seat": 1, "cards": ["10H"]}]
    assert state["to_play"] == 2 and state["winning"] == 0
    for e in GUAFENG_DEAL[7:]:
        live.feed(e)
    state = live.state()
    assert state["complete"] and state["attacker_points"] == 5 and state["final_points"] == 115
    assert state["points"] == {"attackers": 5, "dealer_side": 20}
    assert state["bottom_multiplier"] == 1 and len(state["tricks"]) == 3
    assert state["tricks"][0] == {"leader": 0, "winner": 0, "points": 20, "plays": [
        {"seat": 0, "cards": ["AH"], "i": 5}, {"seat": 1, "cards": ["10H"], "i": 6},
        {"seat": 2, "cards": ["KH"], "i": 7}, {"seat": 3, "cards": ["QH"], "i": 8}]}
    json.dumps(state)


@pytest.mark.parametrize("bad,code,ref", [
    (play(1, "10H"), "shengji.out_of_turn", "spec: the dealer leads the first trick"),
    ({"type": "pass", "seat": 0}, "shengji.pass_not_allowed", "000:19 everyone follows"),
    (play(0, "AH 4D"), "shengji.lead_mixed", "000:47"),
    (play(0, "9S"), "play.not_in_hand", "hand events"),
])
def test_single_event_faults(bad: dict[str, Any], code: str, ref: str) -> None:
    events = [*GUAFENG_DEAL[:5], bad]
    assert codes(events)[5][0] == code, ref


def test_wrong_count_and_after_end() -> None:
    events = [*GUAFENG_DEAL[:6], play(1, "10H 4S")]
    assert codes(events)[6][0] == "shengji.wrong_count"
    events = [*GUAFENG_DEAL[:-1], play(0, "4D")]
    assert codes(events)[len(events) - 1][0] == "shengji.play_after_end"


def test_red_five_kept_at_the_end() -> None:
    """003 line 148 (暗炒 保红5): the seat that won the trick before leads its last ♥5: +50."""
    events = [
        {"type": "deal", "game": "chaodipi-anchao", "level": "7", "trump": "S", "dealer": 0,
         "hand_sizes": [2, 2, 2, 2]},
        *hands("4S 4D", "BJ 5H", "6S 8D", "9S 10D"),
        play(0, "4S"), play(1, "BJ"), play(2, "6S"), play(3, "9S"),
        play(1, "5H"), play(2, "8D"), play(3, "10D"), play(0, "4D"),
        {"type": "bottom", "cards": ["2C", "3C", "4C", "6C", "7C", "8C", "9C", "QC"]},
    ]
    deal = run(events).summary()["deals"][0]
    assert deal["bonus_points"] == 50
    assert deal["final_points"] == 15 + 50  # ♥5 and ♦10 are points too


def test_no_bottom_event_when_dealer_side_keeps_it() -> None:
    """Without a ``bottom`` event the deal still scores when the dealer side takes the last trick,
    and waits for the bottom when the attackers took it."""
    no_bottom = GUAFENG_DEAL[:-1]
    assert run(no_bottom).summary()["deals"][0]["final_points"] is None
    events = [{"type": "deal", "game": "guafeng-zibo", "level": "7", "trump": "S", "dealer": 0,
               "hand_sizes": [1, 1, 1, 1]}, play(0, "AH"), play(1, "10H"), play(2, "KH"), play(3, "QH")]
    deal = run(events).summary()["deals"][0]
    assert deal["final_points"] == 0 and deal["bottom_points"] is None
    assert deal["level_change"]["dealer_keeps"] and deal["level_change"]["levels"] == 3


def test_shown_cards_are_not_buried() -> None:
    """000 line 149: a seat that buries may not bury the cards it showed to declare (here the
    declaring dealer buries itself, which 000 line 117 already forbids)."""
    head = {"type": "deal", "game": "guafeng-zibo", "level": "7", "trump": "H", "dealer": 0,
            "hand_sizes": [3, 1, 1, 1]}
    declare = {"type": "declare", "seat": 0, "what": "liangzhu", "cards": ["SJ", "6H", "6H"]}
    bury = {"type": "declare", "seat": 0, "what": "bury"}
    kept = [head, declare, bury, {"type": "hand", "seat": 0, "cards": ["SJ", "6H", "6H"]}]
    assert codes(kept) == {2: ("guafeng.wrong_burier", None)}
    buried = [head, declare, bury, {"type": "hand", "seat": 0, "cards": ["SJ", "6H", "4D"]}]
    assert codes(buried)[3][0] == "guafeng.declared_cards_buried"
