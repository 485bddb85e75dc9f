"""Property tests: random legal deals are judged all-legal; a play mutated into an illegal
one is caught at its index; the live judge agrees with the offline judge."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from cardref.engine.eventlog import dump_event, read_lines
from cardref.engine.events import HandEvent
from cardref.engine.gouji import GAMES
from cardref.engine.gouji.simulate import simulate_deal, simulate_deal_with_faults
from cardref.engine.judge import Judge, LiveJudge

NAMES = [g.name for g in GAMES]


def judge(events):  # noqa: ANN001, ANN201
    return Judge.judge(list(read_lines([dump_event(e) for e in events])))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), game=st.sampled_from(NAMES), with_hands=st.booleans())
def test_random_legal_deals_are_all_legal(seed: int, game: str, with_hands: bool) -> None:
    events = simulate_deal(game, random.Random(seed), with_hands=with_hands)
    assert any(isinstance(e, HandEvent) for e in events) is with_hands
    result = judge(events)
    assert [v.to_json("en") for v in result.faults()] == []
    deal = result.summary()["deals"][0]
    assert deal["complete"] is True
    assert sorted(deal["order"]) == list(range(6))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), game=st.sampled_from(NAMES), with_hands=st.booleans(),
       k=st.integers(1, 3))
def test_mutated_plays_are_caught(seed: int, game: str, with_hands: bool, k: int) -> None:
    events, bad = simulate_deal_with_faults(game, random.Random(seed), illegal=k, with_hands=with_hands)
    assert bad, "no mutation could be made"
    result = judge(events)
    for i in bad:
        assert not result.verdicts[i].ok, (i, events[i])
    assert all(v.ok for v in result.verdicts[:bad[0]])


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), game=st.sampled_from(NAMES))
def test_live_judge_agrees_with_offline(seed: int, game: str) -> None:
    events, _ = simulate_deal_with_faults(game, random.Random(seed), illegal=2, with_hands=False)
    offline = judge(events)
    live = LiveJudge()
    for e in events:
        live.feed(e)
        state = live.state()
        assert state["game"] == game
    assert [v.to_json() for v in live.verdicts] == [v.to_json() for v in offline.verdicts]
    assert live.summary() == offline.summary()
