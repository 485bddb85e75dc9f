"""One misread card costs at most one flag in the 升级 family (issue 34).

Decisions O13, O14, O16-O18 of docs/rules/chaodipi.md ("Camera slips"), after
docs/rules/observation.md O8-O9.  Each case is a short camera log (no ``pass``, no ``hand``)
with the exact verdict list, for 刮风 and for 炒地皮; then deals of ``worst.py GAME 200 misread``
(seed 1) that gave 2-5 flags before, with the exact flags they give now.  Rules the cases rest on:

- seed 000 line 7 and seed 003 line 8: two decks, two copies of each card (a third copy seen
  is a misread, ``deck.too_many_copies``);
- seed 003 lines 54-56 and seed 000 line 57: a seat without the led suit discards or trumps, so
  an off-suit follow is a revoke only if the seat held the suit (proven by its later cards);
- seed 003 line 52: a seat holding a pair must answer a pair lead with a pair;
- seed 003 line 58: a throw (甩牌) another seat beats is 甩错, a penalty;
- seed 003 line 50: each seat follows with as many cards as the lead.
"""

from __future__ import annotations

import json
import random

import pytest

from cardref.engine.camera import camera_log, misread, play_indices
from cardref.engine.judge import judge_text
from cardref.engine.shengji.simulate import simulate_deal

MISREAD, DECK, LEAD = "observe.card_unplausible", "deck.too_many_copies", "observe.unexpected_lead"
REVOKE = "shengji.must_follow_suit"
#: the bottom each game shows at the deal's end (刮风 4 cards, 000:7; 炒地皮 8, 003:8), no ♦ ♣ ♥
BOTTOMS = {"guafeng-zibo": ["3S", "4S", "5S", "6S"],
           "chaodipi-anchao": ["3S", "4S", "5S", "6S", "7S", "8S", "10S", "JS"]}


def P(seat: int, *cards: str) -> dict:
    return {"type": "play", "seat": seat, "cards": list(cards)}


def deal(game: str, size: int) -> dict:
    return {"type": "deal", "game": game, "seats": 4, "level": "2", "trump": "S", "dealer": 0,
            "hand_sizes": [size] * 4}


# (why, cards per seat, plays, bottom shown, verdict per line from the deal line on, accused lines)
CASES = [
    # O16 (pattern a): seat 0's ♣ lead is read ♦9; all three follow ♣ and show ♦ later.  The
    # third ♦9 (line 11) shows the lead misread: its deck flag is the one flag.  Before: three
    # revokes proven (lines 2-4) and the deck flag.
    ("a single-card lead misread into another suit: the deck flag only",
     3, [P(0, "9D"), P(1, "7C"), P(2, "8C"), P(3, "JC"), P(0, "6H"), P(1, "7H"), P(2, "8H"), P(3, "9H"),
         P(3, "9D"), P(0, "10D"), P(1, "9D"), P(2, "JD")], True,
     [None] * 11 + [DECK, None, None], []),
    # O16, a real double revoke: the same trick, but no card shows the lead misread by the deal's
    # end (bottom seen): the revokes waited and are said then, each proven by its seat's ♦.
    ("followers off the lead in one suit, no misread shown: revokes said at the deal's end",
     3, [P(0, "9D"), P(1, "7C"), P(2, "8C"), P(3, "JC"), P(0, "6H"), P(1, "7H"), P(2, "8H"), P(3, "9H"),
         P(3, "QD"), P(0, "10D"), P(1, "KD"), P(2, "JD")], True,
     [None, None, REVOKE, REVOKE, REVOKE, *[None] * 9], [2, 3, 4]),
    # O14 + O16: the lead is the third ♦9 seen (line 5): its follows prove nothing (before: the
    # three ♣ follows were revokes proven by the ♦ each seat showed later).
    ("a lead seen once too often: its off-suit follows prove nothing",
     3, [P(0, "9D"), P(1, "9D"), P(2, "10D"), P(3, "JD"), P(3, "9D"), P(0, "7C"), P(1, "8C"), P(2, "JC"),
         P(3, "6H"), P(0, "QD"), P(1, "KD"), P(2, "AD")], True,
     [None] * 5 + [DECK] + [None] * 8, []),
    # O13 (pattern c), 003:52: a ♣9 pair read ♦9 ♣9 (混合); two followers answer with ♣ pairs.
    # One misread card, said as the trick closes; the later ♦9s are not flagged again.
    # Before: shengji.lead_mixed (an accusation), then deck.too_many_copies at line 7.
    ("a pair lead misread into two suits: one misread card, not 混合",
     4, [P(0, "9D", "9C"), P(1, "7C", "7C"), P(2, "8C", "8C"), P(3, "JD", "QD"), P(2, "9D"), P(3, "10D"),
         P(0, "9D"), P(1, "JD")], False,
     [None, MISREAD, *[None] * 7], []),
    # O17 (pattern d), 003:58 + 003:52: a ♦4 pair read ♦4 ♦7, a throw seat 1's ♦9 pair beats;
    # two followers answer with ♦ pairs: a misread pair, not 甩错 (before: failed_throw, and the
    # unexpected lead of seat 3, who won the genuine pair trick).
    ("a pair lead read as a failed throw: one misread card",
     3, [P(0, "4D", "7D"), P(1, "9D", "9D"), P(2, "JD", "JD"), P(3, "QD", "QD"), P(3, "6H"), P(0, "7H"),
         P(1, "8H"), P(2, "9H")], False,
     [None, MISREAD, *[None] * 7], []),
    # O8: seat 1 leads ♥A (a misread ♥5) and wins by the cards seen; seat 3 (genuine ♥K) leads
    # next.  The ♥A proved seat 1's ♣7 on ♥ a revoke (line 2); the unexpected lead drops it.
    ("a misread winner: the unexpected lead only, no revoke it proved",
     5, [P(0, "9H"), P(1, "7C"), P(2, "10H"), P(3, "JH"), P(3, "6C"), P(0, "8C"), P(1, "KC"), P(2, "9C"),
         P(1, "AH"), P(2, "9H"), P(3, "KH"), P(0, "QH"), P(3, "6D")], False,
     [None] * 13 + [LEAD], []),
    # O16, 003:56: two seats trump (毙) a side lead (♥ led, ♠9 and ♠10): two seats void trumping
    # is common, so it casts no doubt on the lead (all three must, for trumps): seat 1's ♠9
    # revoke is proven at once by its ♥6.
    ("two followers trumping a side lead: a revoke is proven at once",
     4, [P(0, "AH"), P(1, "9S"), P(2, "4H"), P(3, "10S"), P(3, "QD"), P(0, "7D"), P(1, "6H")], False,
     [None, None, REVOKE, *[None] * 5], [2]),
    # 003:54, a real revoke (not a misread): seat 1 discards ♣7 on ♦ and shows ♦8 later in a
    # trick read in phase: proven at once.
    ("a real revoke is still proven at once",
     4, [P(0, "9D"), P(1, "7C"), P(2, "10D"), P(3, "JD"), P(3, "8H"), P(0, "9H"), P(1, "10H"), P(2, "JH"),
         P(2, "KD"), P(3, "QD"), P(0, "AD"), P(1, "8D")], False,
     [None, None, REVOKE, *[None] * 10], [2]),
]

GAMES = ["guafeng-zibo", "chaodipi-anchao"]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("why,size,plays,bottom,want,accused", CASES, ids=[c[0] for c in CASES])
def test_misread_costs_one_flag(game: str, why: str, size: int, plays: list, bottom: bool, want: list,
                                accused: list) -> None:
    log = [deal(game, size), *plays]
    if bottom:
        log.append({"type": "bottom", "cards": BOTTOMS[game]})
    result = judge_text(json.dumps(x) for x in log)
    assert [v.fault.code if v.fault else None for v in result.verdicts] == want
    assert [v.i for v in result.verdicts if v.accusation] == accused


def test_misread_pair_names_the_card() -> None:
    """O13: the flag names the misread card and the pair the lead is judged as."""
    plays = CASES[3][2]
    v = judge_text(json.dumps(x) for x in [deal("guafeng-zibo", 4), *plays]).verdicts[1]
    assert v.confirm and v.fault.proven_at == 4
    assert v.fault.facts["card"].code == "9D" and [c.code for c in v.fault.facts["as"]] == ["9C", "9C"]


def test_misread_throw_takes_its_penalty_back() -> None:
    """O17, 003:58: a throw shown to be a misread pair costs no 甩错 penalty."""
    plays = CASES[4][2]
    result = judge_text(json.dumps(x) for x in [deal("chaodipi-anchao", 3), *plays])
    assert result.summary()["deals"][0]["penalty_points"] == 0


# Deals of ``worst.py GAME 200 misread`` (deal n: random.Random(100_003 + n), a drop index drawn,
# then one card of the play at rng.choice misread) and the flags they give now; before, each gave
# 2-5, most of them accusations.  (pattern, the one flag's line and code)
BENCH_MISREADS = [
    ("chaodipi-anchao", 2, "d: pair read as a failed throw", [(25, MISREAD)]),
    ("chaodipi-anchao", 12, "a+O8: misread lead, winner moved", [(73, LEAD)]),
    ("chaodipi-anchao", 28, "O14: lead seen once too often", [(77, DECK)]),
    ("chaodipi-anchao", 37, "c: pair read 混合", [(29, MISREAD)]),
    ("chaodipi-anchao", 42, "a: three followers off, 3rd copy in the bottom", [(77, DECK)]),
    ("chaodipi-anchao", 79, "O18: deck flag after an open unexpected lead", [(56, DECK)]),
    ("chaodipi-anchao", 174, "O8: misread card completed a pair proof later", [(25, LEAD)]),
    ("chaodipi-anchao", 186, "b+O8: proofs by a misread winning lead", [(61, LEAD)]),
    ("guafeng-zibo", 11, "O14: lead seen once too often", [(13, DECK)]),
    ("guafeng-zibo", 30, "c: pair read 混合", [(17, MISREAD)]),
    ("guafeng-zibo", 55, "a: three followers off", [(33, DECK)]),
    ("guafeng-zibo", 92, "a+b: lead proofs and followers", [(63, DECK)]),
    ("guafeng-zibo", 152, "O18: deck flag after an open unexpected lead", [(78, DECK)]),
]


@pytest.mark.parametrize("game,n,why,want", BENCH_MISREADS, ids=[f"{g}-{n}" for g, n, _, _ in BENCH_MISREADS])
def test_bench_misread_costs_one_flag(game: str, n: int, why: str, want: list) -> None:
    rng = random.Random(100_003 + n)
    cam, _ = camera_log(simulate_deal(game, rng))
    assert not [v for v in judge_text(json.dumps(e.to_json()) for e in cam).verdicts if not v.ok]
    plays = play_indices(cam)
    rng.choice(plays)                   # worst.py draws the dropped play first
    log = misread(cam, rng.choice(plays), rng)
    flags = [(v.i, v.fault.code) for v in judge_text(json.dumps(e.to_json()) for e in log).verdicts if not v.ok]
    assert flags == want
    assert not [v for v in judge_text(json.dumps(e.to_json()) for e in log).verdicts if v.accusation]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("then", ["log ends", "next deal"])
def test_revokes_waiting_are_said_when_the_log_stops_mid_deal(game: str, then: str) -> None:
    """O16: the real double revoke above (003:54), the log cut before the deal's last trick
    closes: the revokes its seats' ♦ proved (seat 3's ♣J by ♦Q, seat 1's ♣7 by ♦K) waited for
    the deal's end; they are said when the log ends, or when the next deal starts."""
    plays = CASES[1][2][:11]
    log = [deal(game, 3), *plays]
    if then == "next deal":
        log.append(deal(game, 3))
    result = judge_text(json.dumps(x) for x in log)
    said = [(v.i, v.fault.code, v.fault.proven_at) for v in result.verdicts if v.fault is not None]
    assert said == [(2, REVOKE, 11), (4, REVOKE, 9)]


def _camera(log: list) -> list:
    return [{**x, "source": "camera"} if x["type"] == "play" else x for x in log]


#: O20 (chaodipi.md): seat 1's ♦7 on the ♦ lead is read ♣7 (line 2); its ♦8 on the ♥ lead
#: (line 7, a legal discard) then proves it a revoke (003:54); the two genuine ♣7 show later, the
#: second of them the third seen (line 10, 000:7: two decks, two copies).  Typed, the revoke is
#: said at line 7 (and explains the third ♣7); seen by a camera, it waits for the deal's end and
#: the deck flag is the one flag.
MISREAD_REVOKE = [P(0, "9D"), P(1, "7C"), P(2, "10D"), P(3, "JD"), P(3, "6H"), P(0, "7H"), P(1, "8D"), P(2, "9H"),
                  P(2, "7C"), P(3, "7C"), P(0, "8C"), P(1, "9C"), P(1, "QS"), P(2, "KS"), P(3, "AS"), P(0, "3S")]


@pytest.mark.parametrize("game", GAMES)
def test_camera_revoke_resting_on_a_card_seen_too_often_is_not_said(game: str) -> None:
    log = [deal(game, 4), *MISREAD_REVOKE]
    typed = judge_text(json.dumps(x) for x in log).verdicts
    seen = judge_text(json.dumps(x) for x in _camera(log)).verdicts
    assert [(v.i, v.fault.code, v.fault.proven_at) for v in typed if v.fault] == [(2, REVOKE, 7)]
    assert [(v.i, v.fault.code) for v in seen if v.fault] == [(10, DECK)]


@pytest.mark.parametrize("game", GAMES)
def test_camera_revoke_no_card_doubts_is_said_at_the_deal_end(game: str) -> None:
    """O20: the real revoke case above (003:54) on a camera log: the same verdict, said at the
    deal's end (the bottom shown) rather than at the proving play."""
    why, size, plays, bottom, want, accused = CASES[-1]
    log = _camera([deal(game, size), *plays, {"type": "bottom", "cards": BOTTOMS[game]}])
    result = judge_text(json.dumps(x) for x in log)
    assert [v.fault.code if v.fault else None for v in result.verdicts] == [*want, None]
    assert [(v.i, v.fault.proven_at) for v in result.verdicts if v.accusation] == [(2, 12)]


def C(seat: int, *cards: str) -> dict:
    """A camera's play (``source: "camera"``)."""
    return {**P(seat, *cards), "source": "camera"}


ASKED = "observe.fault_or_slip"
# O13a (docs/rules/chaodipi.md), 003:58 「同门花色」: a 混合 lead whose follows do not show which
# suit it was of.  (why, plays, verdict per line from the deal line on)
MIXED_SILENT = [
    ("one card off the lead's suit, at the camera: asked, naming lead_mixed",
     [C(0, "9D", "9C"), C(1, "7H", "8H"), C(2, "JH", "QH"), C(3, "KH", "AH")], [None, ASKED, None, None, None]),
    ("the same lead typed by a person: the rule fault",
     [P(0, "9D", "9C"), P(1, "7H", "8H"), P(2, "JH", "QH"), P(3, "KH", "AH")],
     [None, "shengji.lead_mixed", None, None, None]),
    ("two cards off each other's suit in a lead of four, at the camera: no one card explains it",
     [C(0, "9D", "9D", "9C", "9C"), C(1, "7H", "8H", "10H", "JH"), C(2, "JH", "QH", "KH", "AH"),
      C(3, "3H", "4H", "5H", "6H")], [None, "shengji.lead_mixed", None, None, None]),
]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("why,plays,want", MIXED_SILENT, ids=[c[0] for c in MIXED_SILENT])
def test_a_mixed_lead_one_card_off_at_the_camera_is_asked(game: str, why: str, plays: list, want: list) -> None:
    result = judge_text(json.dumps(x) for x in [deal(game, 4), *plays])
    assert [v.fault.code if v.fault else None for v in result.verdicts] == want
    asked = [v for v in result.verdicts if v.fault is not None and v.fault.code == ASKED]
    assert all(v.confirm and v.fault.facts["fault"] == "shengji.lead_mixed" for v in asked)


# O30: seat 1's ♣7 on the ♦ lead is proven a revoke by its ♦A, the winning play of the deal's
# last trick (003:54; such a proof waits for the next lead, O8, and the deal ends first).  The
# bottom then shows two more ♦A (000:7 / 003:8: two copies): the ♦A was a misread, the deck
# flag is the one flag.  Without them the revoke is said, proven at the ♦A.
LAST_TRICK = [C(0, "9D"), C(1, "7C"), C(2, "10D"), C(3, "JD"), C(3, "5D"), C(0, "6D"), C(1, "AD"), C(2, "7D")]


# O31 (O30 at the deal's final play): seat 2's ♣7 on the ♦ lead is proven a revoke by its ♦4, the
# deal's last play, which neither leads nor wins its trick (003:54; a proof said at once, not
# held by O8).  The bottom then shows two more ♦4 (000:7 / 003:8): the ♦4 was a misread, the
# deck flag is the one flag.  Without them the revoke is said, proven at the ♦4.
FINAL_PLAY = [C(0, "9D"), C(1, "10D"), C(2, "7C"), C(3, "JD"), C(3, "5D"), C(0, "KD"), C(1, "8D"), C(2, "4D")]


@pytest.mark.parametrize("trick,bottom,flags", [
    (LAST_TRICK, ["AD", "AD", "3S", "4S", "5S", "6S", "7S", "8S"], [(9, DECK, None)]),        # O30
    (LAST_TRICK, ["3S", "4S", "5S", "6S", "7S", "8S", "10S", "JS"], [(2, REVOKE, 7)]),
    (FINAL_PLAY, ["4D", "4D", "3S", "4S", "5S", "6S", "7S", "8S"], [(9, DECK, None)]),        # O31
    (FINAL_PLAY, ["3S", "4S", "5S", "6S", "7S", "8S", "10S", "JS"], [(3, REVOKE, 8)]),
], ids=["last-trick-proof-seen-again-in-the-bottom", "last-trick-genuine",
        "final-play-proof-seen-again-in-the-bottom", "final-play-genuine"])
def test_a_proof_in_the_last_trick_waits_for_the_bottom(trick: list, bottom: list, flags: list) -> None:
    log = [deal("chaodipi-anchao", 2), *trick, {"type": "bottom", "cards": bottom}]
    verdicts = judge_text(json.dumps(x) for x in log).verdicts
    assert [(v.i, v.fault.code, v.fault.proven_at) for v in verdicts if v.fault is not None] == flags
