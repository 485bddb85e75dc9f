"""The referee never raises: random, mostly illegal event sequences are judged line by line."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from cardref.engine.cards import ALL_CARDS
from cardref.engine.judge import judge_text

CODES = [c.code for c in ALL_CARDS]
WHATS = ["buy3", "buy4", "xuandian", "kangong", "tribute", "revolution", "chongdian", "yaotou", "youtou",
         "wutou", "rangpai", "burn", "rendian", "kaidian", "throw4", "out", "hui"]
VALUES = st.one_of(st.integers(-2, 8), st.sampled_from(["dian", "shao", "men", "luo", "chuan", "x"]), st.none())

seat = st.integers(0, 5)
cards = st.lists(st.sampled_from(CODES), min_size=1, max_size=6)
play = st.builds(lambda s, c: {"type": "play", "seat": s, "cards": c}, seat, cards)
pass_ = st.builds(lambda s: {"type": "pass", "seat": s}, seat)
declare = st.builds(lambda s, w, c, a, b: {"type": "declare", "seat": s, "what": w, "cards": c,
                                           "from": a, "target": b, "kind": a, "prev_rank": b},
                    seat, st.sampled_from(WHATS), st.lists(st.sampled_from(CODES), max_size=2), VALUES, VALUES)
hand = st.builds(lambda s, c: {"type": "hand", "seat": s, "cards": c}, seat,
                 st.lists(st.sampled_from(CODES), min_size=1, max_size=12))
bottom = st.builds(lambda c: {"type": "bottom", "cards": c}, cards)
event = st.one_of(play, play, play, pass_, declare, hand, bottom)


@settings(max_examples=150, deadline=None)
@given(game=st.sampled_from(["gouji-yucheng", "gouji-shandong"]), leader=st.one_of(seat, st.none()),
       sizes=st.one_of(st.none(), st.lists(st.integers(0, 6), min_size=6, max_size=6)),
       events=st.lists(event, max_size=60))
def test_referee_never_raises(game: str, leader: int | None, sizes: list[int] | None, events: list[dict]) -> None:
    deal: dict = {"type": "deal", "game": game, "seats": 6}
    if leader is not None:
        deal["leader"] = leader
    if sizes is not None:
        deal["hand_sizes"] = sizes
    lines = [json.dumps(deal)] + [json.dumps(e) for e in events]
    result = judge_text(lines)
    assert len(result.verdicts) == len(lines)
    json.dumps(result.summary(), ensure_ascii=False)
    json.dumps(result.deals[0].referee.state(), ensure_ascii=False)
    for v in result.verdicts:
        json.dumps(v.to_json("en"), ensure_ascii=False)
