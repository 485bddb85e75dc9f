"""``ShengjiReferee.check_play``: the fault a play would have now, without playing it.

A table of plays, one per rule, each with its seed line (000 = 淄博刮风, 003 = 炒地皮); then the
same answer as feeding the play, and no change of state.  Simulated deals close the loop: every
play of a legal deal checks ``None``, and every broken follow checks as the fault the referee
gives it when fed.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from cardref.engine.cards import Card, parse_cards
from cardref.engine.events import AnyEvent, DealEvent, HandEvent, PlayEvent
from cardref.engine.shengji import GAMES
from cardref.engine.shengji.referee import ShengjiReferee
from cardref.engine.shengji.simulate import simulate_deal_with_faults

RULES = {g.name: g for g in GAMES}


def cards_of(text: str) -> tuple[Card, ...]:
    return parse_cards(text.split())
GF, AN = "guafeng-zibo", "chaodipi-anchao"

# 刮风, level 7, ♠ trump, dealer 0 (leads first): hands of four cards
GF_HANDS = ("AH AH KH 4D", "QH QH 4H 6C", "QH JH 4H 6C", "9D 9D 6S 8C")


def referee(game: str, level: str, trump: str | None, hands: tuple[str, ...] | None,
            sizes: tuple[int, ...] | None = None) -> ShengjiReferee:
    """A deal (dealer 0) with ``hands`` known (``None``: observation only, ``sizes`` cards each)."""
    if hands is not None:
        sizes = tuple(len(h.split()) for h in hands)
    deal = DealEvent(game=game, seats=4, options={"level": level, "trump": trump, "dealer": 0}, hand_sizes=sizes)
    ref = RULES[game].new_deal(deal, 0)
    assert isinstance(ref, ShengjiReferee)
    assert ref.opening_faults(None) == []
    for seat, cards in enumerate(hands or ()):
        assert ref.feed(1 + seat, HandEvent(seat=seat, cards=cards_of(cards))) == []
    return ref


def feed_plays(ref: ShengjiReferee, plays: list[tuple[int, str]], start: int = 10) -> None:
    for k, (seat, cards) in enumerate(plays):
        ref.feed(start + k, PlayEvent(seat=seat, cards=cards_of(cards)))


# (id, game, level, trump, hands (None: not known), sizes, plays before, (seat, cards) checked,
#  expected code or None, seed line)
CASES: list[tuple[Any, ...]] = [
    ("lead single", GF, "7", "S", GF_HANDS, None, [], (0, "KH"), None, "003:12 庄家首先出牌"),
    ("lead pair", GF, "7", "S", GF_HANDS, None, [], (0, "AH AH"), None, "000:41 对牌"),
    ("first lead not dealer", GF, "7", "S", GF_HANDS, None, [], (1, "QH"), "shengji.out_of_turn",
     "003:12 庄家第一轮的首先出牌权"),
    ("follower skips a seat", GF, "7", "S", GF_HANDS, None, [(0, "KH")], (2, "QH"), "shengji.out_of_turn",
     "003:50 跟出, turn order (docs/rules/guafeng.md)"),
    ("seat plays twice", GF, "7", "S", GF_HANDS, None, [(0, "KH")], (0, "4D"), "shengji.out_of_turn",
     "003:50 one play a seat a trick"),
    ("card not held", GF, "7", "S", GF_HANDS, None, [], (0, "QS"), "play.not_in_hand", "000:113 发26张"),
    ("more cards than held", GF, "7", "S", None, (2, 2, 2, 2), [], (0, "AH AH KH"), "shengji.too_many_cards",
     "000:113 每人发26张"),
    ("mixed lead", GF, "7", "S", GF_HANDS, None, [], (0, "AH 4D"), "shengji.lead_mixed", "003:58 同门花色"),
    ("throw a hand beats", GF, "7", "S", ("AH KH 4D 4D", "AH 4H 6C 6C", "QH JH 4H 6C", "9D 9D 6S 8C"), None,
     [], (0, "AH KH"), "shengji.failed_throw", "003:58 甩错牌"),
    ("throw nobody beats", GF, "7", "S", GF_HANDS, None, [], (0, "AH AH KH"), None, "003:58 甩牌"),
    ("follow count", GF, "7", "S", GF_HANDS, None, [(0, "AH AH")], (1, "QH"), "shengji.wrong_count",
     "003:50 跟出牌数必须与首家出牌数相同"),
    ("revoke", GF, "7", "S", GF_HANDS, None, [(0, "KH")], (1, "6C"), "shengji.must_follow_suit",
     "003:54 无此门花色时 垫牌"),
    ("follow suit", GF, "7", "S", GF_HANDS, None, [(0, "KH")], (1, "4H"), None, "003:54"),
    ("void: 垫牌", GF, "7", "S", GF_HANDS, None, [(0, "4D")], (1, "6C"), None, "003:54 垫牌"),
    ("pair for a pair", GF, "7", "S", GF_HANDS, None, [(0, "AH AH")], (1, "QH 4H"), "shengji.must_follow_pairs",
     "003:52 有对牌必须出对牌"),
    ("the pair", GF, "7", "S", GF_HANDS, None, [(0, "AH AH")], (1, "QH QH"), None, "003:52"),
    ("largest first", GF, "7", "S", GF_HANDS, None, [(0, "AH AH"), (1, "QH QH")], (2, "QH 4H"),
     "shengji.not_largest_first", "000:59 从大到小"),
    ("largest first kept", GF, "7", "S", GF_HANDS, None, [(0, "AH AH"), (1, "QH QH")], (2, "QH JH"), None,
     "000:59 从大到小"),
    ("joker not buried", GF, "7", "S", None, (2, 2, 2, 2), [], (0, "BJ"), "guafeng.jokers_not_buried",
     "000:187 庄家必须将所有的王都扣为底牌"),
    ("trump 5-10-K forces 5-10-K", AN, "2", "S", ("5S TS KS", "5S TS KS", "3S 4S 6S", "3D 4D 6D"), None,
     [(0, "5S TS KS")], (1, "5S TS KS"), None, "003:78 主花色的5、10、K"),
    ("trump 5-10-K held", AN, "2", "S", ("5S TS KS", "3S 4S 5S TS KS", "3S 4S 6S", "3D 4D 6D"), None,
     [(0, "5S TS KS")], (1, "3S 4S 5S"), "chaodipi.must_play_wushik", "003:78 其他玩家也有…则必出"),
    ("after the last trick", GF, "7", "S", ("KH", "4H", "QH", "8C"), None,
     [(0, "KH"), (1, "4H"), (2, "QH"), (3, "8C")], (0, "KH"), "shengji.play_after_end", "000:113 26张 a seat"),
]
#: plays a fed referee reads as the camera's gaps (docs/rules/observation.md): the fault it gives them now
FED_AS_GAP = {
    "follower skips a seat": None,                      # O7: out of turn once the skipped seat plays
    "seat plays twice": "observe.missing_play",         # O6: it leads the next trick
}


def snapshot(ref: ShengjiReferee) -> dict[str, Any]:
    """The referee's state and every attribute a play changes."""
    keep = ("left", "assumed", "hands", "played_by", "penalty_points", "red_five_points", "started", "bottom_result")
    parts = {name: {k: v for k, v in vars(getattr(ref, name)).items() if k != "order"}
             for name in ("tricks", "proofs")}     # turn order, tricks, points; open follows and throws
    return {"state": ref.state(), **copy.deepcopy(parts), **{k: copy.deepcopy(getattr(ref, k)) for k in keep}}


def _build(case: tuple[Any, ...]) -> tuple[ShengjiReferee, int, tuple[Any, ...], str | None]:
    _, game, level, trump, hands, sizes, before, (seat, cards), expected, _ = case
    ref = referee(game, level, trump, hands, sizes)
    feed_plays(ref, before)
    return ref, seat, cards_of(cards), expected


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_check_play(case: tuple[Any, ...]) -> None:
    ref, seat, cards, expected = _build(case)
    fault = ref.check_play(seat, cards)
    assert (fault.code if fault else None) == expected, case[-1]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_check_play_changes_nothing_and_agrees_with_feeding(case: tuple[Any, ...]) -> None:
    ref, seat, cards, expected = _build(case)
    before = snapshot(ref)
    fault = ref.check_play(seat, cards)
    assert snapshot(ref) == before
    own = [f for f in ref.feed(50, PlayEvent(seat=seat, cards=cards)) if f.i is None]
    if case[0] in FED_AS_GAP:
        assert fault is not None and [f.code for f in own][:1] == [c for c in [FED_AS_GAP[case[0]]] if c]
    else:
        assert (own[0] if own else None) == fault


def _check_all(game: str, events: list[AnyEvent]) -> dict[int, str | None]:
    """Each play's check_play code before it is fed."""
    deal = events[0]
    assert isinstance(deal, DealEvent)
    ref = RULES[game].new_deal(deal, 0)
    assert isinstance(ref, ShengjiReferee)
    ref.opening_faults(None)
    out: dict[int, str | None] = {}
    for i, ev in enumerate(events[1:], start=1):
        if isinstance(ev, PlayEvent):
            fault = ref.check_play(ev.seat, ev.cards)
            out[i] = fault.code if fault else None
            own = [f.code for f in ref.feed(i, ev) if f.i is None]
            assert (own[0] if own else None) == out[i], (game, i)
        else:
            ref.feed(i, ev)
    return out


@pytest.mark.parametrize("with_hands", [True, False], ids=["hands", "camera"])
@pytest.mark.parametrize("game", sorted(RULES))
def test_every_play_of_a_legal_deal_checks_none(game: str, with_hands: bool) -> None:
    rng = random.Random(30)
    for _ in range(4):
        events, _ = simulate_deal_with_faults(game, rng, with_hands=with_hands)
        codes = _check_all(game, events)
        assert codes and set(codes.values()) == {None}


@pytest.mark.parametrize("game", sorted(RULES))
def test_broken_follows_check_as_faults(game: str) -> None:
    rng = random.Random(31)
    broken = 0
    for _ in range(4):
        events, faulty = simulate_deal_with_faults(game, rng, illegal=3)
        codes = _check_all(game, events)
        assert all(codes[i] is not None for i in faulty)
        broken += len(faulty)
    assert broken > 0
