"""Two camera slips close together (docs/rules/gouji.md D49-D52).

Rules the cases rest on:

- 004:23 (过牌 and 上牌: each seat in turn beats the play on the table or passes; when all pass,
  the one whose play stood leads; 「由上班的人出牌」: the leader leads the deal's first round);
- 004:17 (each seat's cards are counted from the deal: a count is all that shows a seat out
  without its hand) and observation.md O3 (after a flagged slip the counts are not trusted);
- 004:25 让牌 (on the 对门's non-够级 play, by a seat in play);
- 004:15-17 (挂钱: 2s played with one card of a face rank take its rank; K K is a 够级, 5 5 is
  not) and 004:25 cond. 4 (禹城: a seat burns only once it has played its 4s).

Typed logs (no ``source``) keep the rule fault: a person typing a log does not skip a play.
"""

from __future__ import annotations

import json

import pytest
from slips_bench import slips_deal

from cardref.engine.judge import judge_text

ASK = "observe.fault_or_slip"


def _play(seat: int, cards: str, camera: bool) -> dict:
    return {"type": "play", "seat": seat, "cards": cards.split(), **({"source": "camera"} if camera else {})}


def _flags(events: list[dict]) -> list[tuple[int, str, str | None, bool]]:
    verdicts = judge_text(json.dumps(e) for e in events).verdicts
    return [(v.i, v.fault.code, v.fault.facts.get("fault"), v.accusation) for v in verdicts if v.fault is not None]


@pytest.mark.parametrize("camera,want", [
    # D49: seat 0's lead of the 7s' size charged by the slip's reading (D44) runs its count out
    # at its 10H; the reading in which seat 5's 7s stood then fits, but proves nothing
    (True, [(3, ASK, "gouji.passed_already", False)]),
    (False, [(3, "gouji.passed_already", None, True)]),      # typed: what the person saw
], ids=["camera", "typed"])
def test_a_count_after_two_slips_proves_no_fault(camera: bool, want: list) -> None:
    """Seat 0's QS beats seat 4's 9C (seat 5 presumed passed); seat 0's 7D lead and seat 5's
    QS answer are not seen; seat 5 leads 7C 7D 7S (``passed_already`` as seen); seat 0 holds
    four cards (``hand_sizes``) and plays its 10H later."""
    deal = {"type": "deal", "game": "gouji-shandong", "seats": 6, "leader": 4, "hand_sizes": [4, 10, 10, 10, 10, 10]}
    plays = [(4, "9C"), (0, "QS"), (5, "7C 7D 7S"), (2, "KD KH KH"), (2, "8H"), (3, "9H"), (0, "10H")]
    assert _flags([deal, *[_play(s, c, camera) for s, c in plays]]) == want


@pytest.mark.parametrize("camera,count,want", [
    # D49a: the reading in which seat 3's 8S was seat 0's lead fails on 闷 proven by seat 0's 3S
    # (beaten by seat 5's QH, D14): the order of the plays, no count; the 8S stood proves it
    (True, False, [(3, "gouji.passed_already", None, True)]),
    (False, False, [(3, "gouji.passed_already", None, True)]),    # typed: what the person saw
    # D49 control: that reading fails on seat 0's count (one card, 8S then 3S): no proof
    (True, True, [(3, ASK, "gouji.passed_already", False)]),
], ids=["camera-men-by-three", "typed", "camera-count"])
def test_men_proven_by_a_three_is_no_count(camera: bool, count: bool, want: list) -> None:
    """Seat 0's 9s beat seat 2's 8s (seats 3-5 passed); seat 3's 8S comes out of turn (read as
    seat 0's lead after all passed, O2, it is legal); seat 5's QH beats it and seat 5 goes out
    with its 3H; seat 0 leads its 3S (接风).  ``count``: seat 0 held four cards (``hand_sizes``)."""
    deal = {"type": "deal", "game": "gouji-shandong", "seats": 6, "leader": 2,
            **({"hand_sizes": [4, 10, 10, 10, 10, 10]} if count else {})}
    plays = [(2, "8C 8D 8D"), (0, "9C 9D 9D"), (3, "8S"), (5, "QH"), (5, "3H"), (0, "3S")]
    assert _flags([deal, *[_play(s, c, camera) for s, c in plays]]) == want


def _three_log(camera: bool) -> list[dict]:
    """Seat 2's pair on seat 1's 5H is flagged first (a slip: the counts are not trusted, O3).
    Seat 0 leads 2D 2D; seat 1's single 3C on it is flagged (``count_mismatch``); read as seat
    0's lead after all passed (O2) it is legal, but each seat holds ten cards (``hand_sizes``):
    the 3 is no seat's last.  Seat 0 plays its 9S and seat 1 its 10S later."""
    deal = {"type": "deal", "game": "gouji-shandong", "seats": 6, "leader": 1, "hand_sizes": [10] * 6}
    plays = [(1, "5H"), (2, "6C 6D"), (3, "7H"), (4, "9H"), (5, "10H"), (0, "JH"), (0, "2D 2D"), (1, "3C"),
             (2, "2H"), (2, "6S"), (3, "7S"), (0, "9S"), (1, "10S")]
    return [deal, *[_play(s, c, camera) for s, c in plays]]


@pytest.mark.parametrize("camera,want", [
    # D53: in the reading in which the 3C was seat 0's, the count says it was not seat 0's last
    # 3 (004:27), as in the reading in which it stood: seat 0 plays on, no proof; asked
    (True, [(2, ASK, "gouji.count_mismatch", False), (8, ASK, "gouji.count_mismatch", False)]),
    (False, [(2, "gouji.count_mismatch", None, True), (8, "gouji.count_mismatch", None, True)]),   # typed
], ids=["camera", "typed"])
def test_a_three_not_last_by_the_count_in_another_seats_reading(camera: bool, want: list) -> None:
    assert _flags(_three_log(camera)) == want


def _rangpai_log(camera: bool, slip: bool) -> list[dict]:
    """Seat 4 holds one card (``hand_sizes``) and plays it (9S): out by the count.  Seat 4 then
    declares 让牌 on its 对门 seat 1's 7C.  ``slip``: seat 2's pair on seat 1's single, flagged
    first (a slip the counts then rest on, O3)."""
    deal = {"type": "deal", "game": "gouji-yucheng", "seats": 6, "leader": 1, "hand_sizes": [10, 10, 10, 10, 1, 10]}
    plays = [(1, "5H"), *([(2, "6C 6D")] if slip else []), (3, "7H"), (5, "9H"), (0, "10H"),
             (0, "5S"), (1, "6S"), (2, "7S"), (3, "8S"), (4, "9S"), (5, "10S"),
             (5, "5C"), (0, "6C"), (1, "7C")]
    return [deal, *[_play(s, c, camera) for s, c in plays], {"type": "declare", "seat": 4, "what": "rangpai"}]


@pytest.mark.parametrize("camera,slip,want", [
    # D50: out only by a count after a slip: the person saw seat 4 hold cards; asked
    (True, True, [(2, ASK, "gouji.count_mismatch", False), (15, ASK, "gouji.rangpai_bad", False)]),
    # no slip flagged: the count is the deal's, seat 4 is out
    (True, False, [(14, "gouji.rangpai_bad", None, True)]),
    # typed: what the person saw
    (False, True, [(2, "gouji.count_mismatch", None, True), (15, "gouji.rangpai_bad", None, True)]),
], ids=["camera-after-a-slip", "camera-no-slip", "typed"])
def test_rangpai_by_a_seat_out_only_by_count_after_a_slip_is_asked(camera: bool, slip: bool, want: list) -> None:
    assert _flags(_rangpai_log(camera, slip)) == want


@pytest.mark.parametrize("gouji,camera,want", [
    # D51: K K only by the one K read (5C 2S read KH 2S would be no 够级, no burn): asked
    ("KH 2S", True, (2, ASK, "gouji.burn_before_four", False)),
    ("KH KS", True, (2, "gouji.burn_before_four", None, True)),    # two kings: no one card
    ("KH 2S", False, (2, "gouji.burn_before_four", None, True)),   # typed
], ids=["camera-one-king", "camera-two-kings", "typed-one-king"])
def test_burn_before_four_on_a_gouji_of_one_card_is_asked(gouji: str, camera: bool, want: tuple) -> None:
    """Seat 3 leads the 够级, seat 4 (not its 对门) takes it with AH 2D: a burn; seat 5 beats
    it (解烧); seat 4 later leads its 4H, proving it held 4s when it burned."""
    events = [{"type": "deal", "game": "gouji-yucheng", "seats": 6, "leader": 3},
              *[_play(s, c, camera) for s, c in [(3, gouji), (4, "AH 2D"), (5, "2C 2H"), (5, "5C"), (4, "6C"),
                                                 (4, "4H")]]]
    assert _flags(events) == [want]


@pytest.mark.parametrize("camera,want", [
    # D52: the leader's lead and seat 1's answer not seen, seat 1 leads: asked, and the plays
    # after it (the round seat 1 leads) do not prove it
    (True, [(1, ASK, "gouji.not_your_lead", False)]),
    (False, [(1, "gouji.not_your_lead", None, True)]),      # typed
], ids=["camera", "typed"])
def test_a_first_lead_of_fours_by_another_seat_is_asked(camera: bool, want: list) -> None:
    events = [{"type": "deal", "game": "gouji-shandong", "seats": 6, "leader": 5},
              *[_play(s, c, camera) for s, c in [(1, "4S"), (2, "JC"), (3, "QS"), (4, "KC"), (0, "AD")]]]
    assert _flags(events) == want


#: ``cardref bench verdicts --slips 0.03 0.02`` deals with two slips close together where a
#: legal play was accused: (game, seed, deal, line, the decision)
BENCH = [
    ("gouji-yucheng", 9, 20, 77, "D49"),      # seat 0's 7D lead and seat 5's QS answer dropped
    ("gouji-yucheng", 3, 78, 111, "D49"),     # seat 5's 7H dropped, next to the injected play
    ("gouji-shandong", 7, 58, 94, "D49"),     # seat 1's 6C dropped, seat 5 then 闷 by the count
    ("gouji-yucheng", 1, 72, 69, "D50"),      # seat 0's KC KD KD BJ BJ and AH AH dropped
    ("gouji-yucheng", 3, 98, 18, "D51"),      # seat 3's 5C 2S read KH 2S
    ("gouji-shandong", 3, 21, 6, "D52"),      # seat 5's lead and seat 1's answer dropped
    ("gouji-shandong", 13, 86, 46, "D53"),    # seat 4's 5D dropped, seat 5's 7S read 3C
]


@pytest.mark.parametrize("game,seed,n,line,rule", BENCH, ids=[f"{r} {g} seed {s} deal {n}" for g, s, n, _, r in BENCH])
def test_bench_two_slips_are_not_accused(game: str, seed: int, n: int, line: int, rule: str) -> None:
    verdicts, false_at = slips_deal(game, n, 0.03, 0.02, seed=seed)
    assert false_at == []
    fault = verdicts[line].fault
    assert fault is not None and fault.code == ASK


#: bench deals where an injected fault is accused after two slips: (game, seed, deal, line, fault,
#: the decision)
REAL = [
    # seat 0's 8S out of turn; the reading in which it was seat 3's failed on seat 3's 3H (闷 by
    # seat 5, D14, seat 3's 9H between dropped): no count, the proof stands (D49a)
    ("gouji-shandong", 13, 66, 100, "gouji.passed_already", "D49a"),
]


@pytest.mark.parametrize("game,seed,n,line,code,rule", REAL, ids=[f"{r} {g} seed {s} deal {n}" for g, s, n, _, _, r in REAL])
def test_bench_real_fault_after_two_slips_is_accused(game: str, seed: int, n: int, line: int, code: str,
                                                     rule: str) -> None:
    verdicts, false_at = slips_deal(game, n, 0.03, 0.02, seed=seed)
    assert false_at == []
    assert verdicts[line].fault is not None and verdicts[line].fault.code == code and verdicts[line].accusation
