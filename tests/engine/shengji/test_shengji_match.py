"""A match of several deals in one log: who deals next, levels, must-play levels, pull-backs, 扛旗."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cardref.engine.judge import judge_text


def play(seat: int, cards: str) -> dict[str, Any]:
    return {"type": "play", "seat": seat, "cards": cards.split()}


def codes(events: list[dict[str, Any]]) -> dict[int, str]:
    result = judge_text([json.dumps(e) for e in events])
    return {v.i: v.fault.code for v in result.verdicts if v.fault is not None}


def summary(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return judge_text([json.dumps(e) for e in events]).summary()["deals"]


def one_trick(game: str, level: str, dealer: int, cards: list[str], bottom: list[str],
              trump: str | None = "S", **extra: Any) -> list[dict[str, Any]]:
    """A one-card deal: seats play ``cards`` in order from the dealer."""
    deal = {"type": "deal", "game": game, "level": level, "trump": trump, "dealer": dealer,
            "hand_sizes": [1, 1, 1, 1], **extra}
    return [deal, *[play((dealer + k) % 4, c) for k, c in enumerate(cards)], {"type": "bottom", "cards": bottom}]


GF_BOTTOM = ["4C", "6C", "8C", "9C"]
CD_BOTTOM = ["4C", "6C", "8C", "9C", "JC", "QC", "AC", "2C"]


def test_guafeng_dealer_keeps_then_partner_deals() -> None:
    """000 line 115: 非庄家方未上台 → the dealer's partner deals; 0 points → dealer side +3 (line 247)."""
    d1 = one_trick("guafeng-zibo", "A", 0, ["AH", "4H", "6H", "8H"], GF_BOTTOM)
    deals = summary(d1)
    assert deals[0]["level_change"]["next_dealer"] == 2 and deals[0]["level_change"]["next_level"] == "4"
    d2 = one_trick("guafeng-zibo", "4", 2, ["AD", "6D", "8D", "9D"], GF_BOTTOM)
    assert codes([*d1, *d2]) == {}
    assert codes([*d1, *one_trick("guafeng-zibo", "4", 1, ["AD", "6D", "8D", "9D"], GF_BOTTOM)])[6] == \
        "shengji.wrong_next_dealer"
    assert codes([*d1, *one_trick("guafeng-zibo", "5", 2, ["AD", "6D", "8D", "9D"], GF_BOTTOM)])[6] == \
        "shengji.wrong_next_level"


def test_guafeng_menpai_plays_one_level_lower() -> None:
    """000 line 217: 闷牌 — nobody declared, the dealer plays one level lower."""
    d1 = one_trick("guafeng-zibo", "A", 0, ["AH", "4H", "6H", "8H"], GF_BOTTOM)
    d2 = one_trick("guafeng-zibo", "3", 2, ["AD", "6D", "8D", "9D"], GF_BOTTOM, menpai=True)
    assert codes([*d1, *d2]) == {}
    d2 = one_trick("guafeng-zibo", "3", 2, ["AD", "6D", "8D", "9D"], GF_BOTTOM)
    d2.insert(1, {"type": "declare", "seat": 2, "what": "menpai"})
    assert codes([*d1, *d2]) == {}        # the declare, like the option, lowers the level (000:217)


def test_guafeng_attackers_take_the_deal() -> None:
    """000 line 115: 非庄家方上台 → the dealer's next seat (逆时针下家) deals."""
    d1 = one_trick("guafeng-zibo", "A", 0, ["4S", "5S", "6S", "8S"], ["BJ", "6C", "8C", "9C"])
    deal = summary(d1)[0]
    # seat 1 wins with the trump-suit 常主 5: the bottom's 大王 counts ×1 → 100 points
    assert deal["final_points"] == 105 and deal["level_change"]["next_dealer"] == 1
    assert deal["level_change"]["next_level"] == "A"
    assert codes([*d1, *one_trick("guafeng-zibo", "A", 1, ["AD", "6D", "8D", "9D"], GF_BOTTOM)]) == {}


@pytest.mark.parametrize("level,last,back,ref", [
    ("J", ["4H", "JH", "6H", "8H"], "6", "000:221 单J扣底 → 6"),
    ("K", ["4H", "KH", "6H", "8H"], "J", "000:229 单K扣底 → J"),
])
def test_guafeng_pullbacks(level: str, last: list[str], back: str, ref: str) -> None:
    d1 = one_trick("guafeng-zibo", level, 0, last, GF_BOTTOM)
    change = summary(d1)[0]["level_change"]
    assert change["next_level"] == back, ref
    assert change["special"], ref


def test_guafeng_double_j_pulls_back_to_a() -> None:
    """000 line 221: 双J扣底 → back to A."""
    deal = {"type": "deal", "game": "guafeng-zibo", "level": "J", "trump": "S", "dealer": 0,
            "hand_sizes": [2, 2, 2, 2]}
    events = [deal, play(0, "4H 6H"), play(1, "JH JD"), play(2, "8H 9H"), play(3, "10H QH"),
              {"type": "bottom", "cards": GF_BOTTOM}]
    # JH JD is no pair: it cannot 毙 a pair… but the lead 4H 6H is a throw of singles, so it does
    change = summary(events)[0]["level_change"]
    assert change["next_level"] == "A"


def test_chaodipi_must_play_j_stops_climb() -> None:
    """003 line 180 (明炒): J must be played; 0 points would be +9 from 9."""
    d1 = one_trick("chaodipi-mingchao", "9", 0, ["AH", "4H", "6H", "8H"], CD_BOTTOM)
    change = summary(d1)[0]["level_change"]
    assert change["next_level"] == "J"
    assert change["jifen"] == {"dealer_side": 9, "attackers": -9}  # 003:92 大光: 9 / -9


def test_chaodipi_j_to_bottom() -> None:
    """003 line 178 (明炒 J到底): the attackers' last single J and 80 points → dealer side back to 2."""
    deal = {"type": "deal", "game": "chaodipi-mingchao", "level": "J", "trump": "S", "dealer": 0,
            "hand_sizes": [2, 2, 2, 2]}
    events = [deal, play(0, "KH"), play(1, "KS"), play(2, "10H"), play(3, "10D"),
              play(1, "JS"), play(2, "KD"), play(3, "10C"), play(0, "KC"),
              {"type": "bottom", "cards": ["5C", "10S", "KD", "4C", "6C", "8C", "9C", "QC"]}]
    deal_out = summary(events)[0]
    assert codes(events) == {}
    assert deal_out["attacker_points"] == 40 + 30
    assert deal_out["final_points"] == 70 + 25 * 2
    change = deal_out["level_change"]
    assert not change["dealer_keeps"]
    assert any("J到底" in s for s in change["special"])


def test_kangqi_flag_deal_follows_passing_a() -> None:
    """003 line 164: after passing A the next deal is 扛旗: no trump, no bottom, 100 to go up."""
    d1 = one_trick("chaodipi-kangqi", "A", 0, ["AH", "4H", "6H", "8H"], CD_BOTTOM)
    change = summary(d1)[0]["level_change"]
    assert change.get("flag_next") is True
    flag = {"type": "deal", "game": "chaodipi-kangqi", "level": "A", "trump": None, "dealer": 2, "flag": True,
            "hand_sizes": [1, 1, 1, 1]}
    flag_deal = [flag, play(2, "AD"), play(3, "6D"), play(0, "8D"), play(1, "9D")]
    assert codes([*d1, *flag_deal]) == {}
    out = summary([*d1, *flag_deal])[1]
    assert out["flag"] and out["bottom_points"] == 0 and out["level_change"]["match_won"] == [0, 2]
    no_flag = [dict(flag, flag=False, trump="S"), *flag_deal[1:]]
    assert codes([*d1, *no_flag])[6] == "chaodipi.flag_deal_expected"
    assert codes([*d1, dict(flag, trump="S"), *flag_deal[1:]])[6] == "chaodipi.flag_deal_expected"
    assert codes([*d1, *flag_deal, {"type": "bottom", "cards": ["4C"]}])[11] == "chaodipi.flag_no_bottom"


def test_bad_options() -> None:
    assert codes([{"type": "deal", "game": "guafeng-zibo", "level": "X", "trump": "S", "dealer": 0}])[0] == \
        "shengji.bad_option"
    assert codes([{"type": "deal", "game": "guafeng-zibo", "level": "7", "trump": None, "dealer": 0}])[0] == \
        "shengji.bad_option"
    assert codes([{"type": "deal", "game": "chaodipi-anchao", "level": "7", "trump": None, "dealer": 0}]) == {}
    assert codes([{"type": "deal", "game": "chaodipi-anchao", "level": "7", "trump": "S", "dealer": 7}])[0] == \
        "shengji.bad_option"


@pytest.mark.parametrize("trump,bottom,ok,ref", [
    ("D", ["4C", "7D", "7S", "6C", "8C", "9C", "JC", "QC"], True, "003:18 first level card ♦7 → ♦"),
    ("S", ["4C", "7D", "7S", "6C", "8C", "9C", "JC", "QC"], False, "003:18 the first one counts"),
    (None, ["4C", "SJ", "7S", "6C", "8C", "9C", "JC", "QC"], True, "003:18 如为王，则为无主"),
])
def test_chaodipi_fandi(trump, bottom, ok, ref) -> None:
    deal = {"type": "deal", "game": "chaodipi-anchao", "level": "7", "trump": trump, "dealer": 0, "fandi": True}
    got = codes([deal, {"type": "bottom", "cards": bottom}])
    assert (got == {}) is ok, ref
    assert codes([deal, {"type": "declare", "seat": 1, "what": "chaodi", "cards": ["BJ", "BJ"]}])[1] == \
        "chaodipi.fandi_no_chaodi", "003:18 本副牌无法炒底"


@pytest.mark.parametrize("game", ["guafeng-zibo", "chaodipi-mingchao"])
def test_summary_gives_both_sides_levels_after(game) -> None:
    """seed 003 line 46 / 158 / 178 (上天入地, J到底 set both sides' levels): the summary names each
    team's level after the deal; the next dealer's team plays the next deal at its level."""
    import random as _random

    from cardref.engine.eventlog import dump_event as _dump
    from cardref.engine.eventlog import read_lines as _read
    from cardref.engine.judge import Judge as _Judge
    from cardref.engine.shengji.simulate import simulate_match

    events = simulate_match(game, _random.Random(3), deals=2)
    deals = _Judge.judge(list(_read(_dump(e) for e in events))).summary()["deals"]
    first = deals[0]
    assert set(first["levels_after"]) == {"0", "1"}
    nxt = first["level_change"]["next_dealer"] % 2
    if not first.get("level_change", {}).get("flag_next"):
        assert first["levels_after"][str(nxt)] == first["level_change"]["next_level"] == deals[1]["level"]
