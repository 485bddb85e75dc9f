"""Random whole deals for all four games: legal deals judge clean; broken follows are caught,
at once with hands and later (``proven_at``) without them."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardref.engine.judge import LiveJudge, judge_text
from cardref.engine.shengji.simulate import simulate_deal, simulate_deal_with_faults, simulate_match

GAMES = ["guafeng-zibo", "chaodipi-anchao", "chaodipi-kangqi", "chaodipi-mingchao"]


def judge(events):
    return judge_text([json.dumps(e.to_json()) for e in events])


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), with_hands=st.booleans())
def test_legal_deals_judge_clean(game: str, seed: int, with_hands: bool) -> None:
    events = simulate_deal(game, random.Random(seed), with_hands=with_hands)
    result = judge(events)
    bad = [v.to_json("en") for v in result.verdicts if not v.ok]
    assert not bad, bad
    deal = result.summary()["deals"][0]
    assert deal["complete"] and deal["final_points"] is not None and deal["level_change"] is not None
    assert deal["attacker_points"] % 5 == 0 and 0 <= deal["attacker_points"] <= 200


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_broken_follows_are_caught(game: str, seed: int) -> None:
    events, faulty = simulate_deal_with_faults(game, random.Random(seed), illegal=3, with_hands=True)
    result = judge(events)
    flagged = {v.i for v in result.verdicts if not v.ok}
    assert flagged == set(faulty)
    assert all(result.verdicts[i].fault.proven_at is None for i in faulty)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_broken_follows_are_proven_later_without_hands(game: str, seed: int) -> None:
    events, faulty = simulate_deal_with_faults(game, random.Random(seed), illegal=3, with_hands=False)
    result = judge(events)
    flagged = {v.i: v for v in result.verdicts if not v.ok}
    assert set(flagged) == set(faulty)
    for i in faulty:
        assert flagged[i].fault.proven_at is not None and flagged[i].fault.proven_at > i


@pytest.mark.parametrize("game", GAMES)
def test_live_matches_offline(game: str) -> None:
    events = simulate_deal(game, random.Random(7), with_hands=False)
    live = LiveJudge()
    for e in events:
        live.feed(e)
        state = live.state()
        json.dumps(state)
    assert live.summary() == judge(events).summary()
    assert state["complete"] and state["to_play"] is None


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), with_hands=st.booleans())
def test_simulated_matches_judge_clean(game: str, seed: int, with_hands: bool) -> None:
    """A match of several deals: each deal's dealer and level follow from the one before
    (000 line 115; 003 lines 86-128, 152, 164, 180)."""
    events = simulate_match(game, random.Random(seed), 5, with_hands=with_hands)
    result = judge(events)
    assert [v.to_json("en") for v in result.verdicts if not v.ok] == []
    deals = result.summary()["deals"]
    assert len(deals) == 5
    for before, after in zip(deals, deals[1:], strict=False):
        assert after["dealer"] == before["level_change"]["next_dealer"]
        assert after.get("flag", False) or after["level"] == before["level_change"]["next_level"]


def test_a_tampered_match_is_caught() -> None:
    events = simulate_match("chaodipi-mingchao", random.Random(5), 3, with_hands=False)
    starts = [i for i, e in enumerate(events) if e.type == "deal"]
    second = events[starts[1]]
    wrong = type(second)(game=second.game, seats=4, options={**second.options,
                                                               "dealer": (second.options["dealer"] + 1) % 4},
                         hand_sizes=second.hand_sizes)
    events[starts[1]] = wrong
    result = judge(events)
    assert result.verdicts[starts[1]].fault.code == "shengji.wrong_next_dealer"
