"""O24 (docs/rules/chaodipi.md): 刮风's burier showing a joker on a camera play is judged at the
deal's end, when the decks' count says whether that joker was a card read wrong.

Rules the cases rest on:

- seed 000 line 187 「庄家若有王，则必须将所有的王都扣为底牌」: the burier (here the dealer,
  nobody declared) buries every joker it holds, so a joker it plays is a fault;
- seed 000 line 7: two decks, two copies of each joker;
- spec "Judge output": a fault shown only later carries ``proven_at``.
"""

from __future__ import annotations

import json

import pytest

from cardref.engine.judge import judge_text

DEAL = {"type": "deal", "game": "guafeng-zibo", "seats": 4, "level": "7", "trump": "S", "dealer": 0,
        "hand_sizes": [2, 2, 2, 2]}
KEPT = "guafeng.jokers_not_buried"


def cam(seat: int, *cards: str) -> dict:
    return {"type": "play", "seat": seat, "cards": list(cards), "source": "camera"}


def typed(seat: int, *cards: str) -> dict:
    return {"type": "play", "seat": seat, "cards": list(cards)}


def verdicts(lines: list[dict]) -> list[dict]:
    return [v.to_json() for v in judge_text([json.dumps(e) for e in lines]).verdicts]


def codes(lines: list[dict]) -> list[str | None]:
    return [v.get("code") for v in verdicts(lines)]


# Trick 1: the dealer's ♣9 read as BJ, seat 1 follows with a genuine BJ; trick 2 (the dealer
# won: equal cards, the first played wins) seat 2 trumps ♥ with the other genuine BJ: a third
# BJ, the deck flag (O14).  The bottom shows no joker.
MISREAD = [DEAL, cam(0, "BJ"), cam(1, "BJ"), cam(2, "6S"), cam(3, "8S"),
           cam(0, "4H"), cam(1, "5H"), cam(2, "BJ"), cam(3, "6H"),
           {"type": "bottom", "cards": ["3D", "4D", "6D", "8D"]}]
# The same deal where the dealer truly kept a joker: only two BJ are ever seen.
KEPT_JOKER = [DEAL, cam(0, "BJ"), cam(1, "BJ"), cam(2, "6S"), cam(3, "8S"),
              cam(0, "4H"), cam(1, "5H"), cam(2, "7H"), cam(3, "6H"),
              {"type": "bottom", "cards": ["3D", "4D", "6D", "8D"]}]


@pytest.mark.parametrize("why,lines,want", [
    ("000:187 + 000:7: the joker the dealer showed is seen once too often by the deal's end: "
     "a misread, only the deck flag", MISREAD,
     [None, None, None, None, None, None, None, "deck.too_many_copies", None, None]),
    ("000:187: two BJ in all, the dealer's is genuine: the fault stands, said at the deal's end", KEPT_JOKER,
     [None, KEPT, None, None, None, None, None, None, None, None]),
], ids=["misread", "kept"])
def test_burier_joker_on_a_camera_play(why: str, lines: list[dict], want: list) -> None:
    assert codes(lines) == want, why


def test_kept_joker_is_said_at_the_deals_end_and_accused() -> None:
    """The fault waits for the bottom (line 9), the proof that no joker copy is unaccounted for."""
    got = verdicts(KEPT_JOKER)[1]
    assert got["code"] == KEPT and got["proven_at"] == 9 and not got.get("confirm")


def test_kept_joker_said_when_the_log_ends_first() -> None:
    """close (observation.md): the log stops before the deal's end; what waited is said then."""
    got = verdicts(KEPT_JOKER[:6])
    assert got[1]["code"] == KEPT and got[1]["proven_at"] == 5


def test_typed_plays_are_judged_at_once() -> None:
    """O24 is for camera readings: a play a person typed is trusted as written."""
    lines = [DEAL, typed(0, "BJ"), typed(1, "BJ"), typed(2, "6S"), typed(3, "8S")]
    got = verdicts(lines)[1]
    assert got["code"] == KEPT and "proven_at" not in got
