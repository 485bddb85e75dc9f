"""闷牌 (000:217 「若本周庄家已经确定且本次摸牌过程中无人亮主，则庄家所打级别降一级，称为闷牌。
如果第一局无人亮主，则须重新发牌」): the ``menpai`` deal option and the ``menpai`` declare give
the same level and the same faults.  Decision in docs/rules/guafeng.md (闷牌)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cardref.engine.judge import judge_text

GF = "guafeng-zibo"
GF_BOTTOM = ["4C", "6C", "8C", "9C"]


def one_trick(game: str, level: str, dealer: int, cards: list[str], bottom: list[str],
              **extra: Any) -> list[dict[str, Any]]:
    """A one-card deal with trump S: seats play ``cards`` in order from the dealer."""
    deal = {"type": "deal", "game": game, "level": level, "trump": "S", "dealer": dealer,
            "hand_sizes": [1, 1, 1, 1], **extra}
    plays = [{"type": "play", "seat": (dealer + k) % 4, "cards": [c]} for k, c in enumerate(cards)]
    return [deal, *plays, {"type": "bottom", "cards": bottom}]

#: First deal: seat 0 deals at A; seat 2 deals next, at 4 (000:115, 000:247).
FIRST = one_trick(GF, "A", 0, ["AH", "4H", "6H", "8H"], GF_BOTTOM)
DEAL2 = len(FIRST)            # index of the second deal's `deal` line


def second(level: str, how: str) -> list[dict[str, Any]]:
    """The second deal at ``level``; 闷牌 by ``how``: "option", "declare" or "" (none)."""
    extra = {"menpai": True} if how == "option" else {}
    deal = one_trick(GF, level, 2, ["AD", "6D", "8D", "9D"], GF_BOTTOM, **extra)
    if how == "declare":
        deal.insert(1, {"type": "declare", "seat": 2, "what": "menpai"})
    return deal


def judged(events: list[dict[str, Any]]) -> tuple[dict[int, tuple[str, int | None]], list[dict[str, Any]]]:
    result = judge_text([json.dumps(e) for e in events])
    faults = {v.i: (v.fault.code, v.fault.proven_at) for v in result.verdicts if v.fault is not None}
    return faults, result.summary()["deals"]


CASES = [
    ("000:217 降一级: option, the deal one level lower", "3", "option", {}),
    ("000:217 降一级: declare, the deal one level lower", "3", "declare", {}),
    ("000:217 降一级: option, the level not lowered", "4", "option",
     {DEAL2: ("shengji.wrong_next_level", None)}),
    ("000:217 降一级: declare, the level not lowered", "4", "declare",
     {DEAL2 + 1: ("shengji.wrong_next_level", None)}),
    ("000:217 no 闷牌 declared: one level low is wrong, proven at the first play", "3", "",
     {DEAL2: ("shengji.wrong_next_level", DEAL2 + 1)}),
    ("000:115 without 闷牌 the dealer side plays the level it reached", "4", "", {}),
]


@pytest.mark.parametrize(("seed", "level", "how", "want"), CASES, ids=[c[0] for c in CASES])
def test_menpai_level(seed: str, level: str, how: str, want: dict[int, tuple[str, int | None]]) -> None:
    faults, _ = judged([*FIRST, *second(level, how)])
    assert faults == want, seed


def test_option_and_declare_give_the_same_result() -> None:
    """000:217: a 闷牌 deal's summary does not depend on how the 闷牌 was logged."""
    _, by_option = judged([*FIRST, *second("3", "option")])
    _, by_declare = judged([*FIRST, *second("3", "declare")])
    assert by_option[1]["level_change"] == by_declare[1]["level_change"]
    assert by_option[1]["level_change"] is not None


@pytest.mark.parametrize(("seed", "how", "want"), [
    ("000:217 第一局无人亮主须重新发牌: option", "option", {0: "shengji.bad_option"}),
    ("000:217 第一局无人亮主须重新发牌: declare", "declare", {1: "shengji.menpai_first_deal"}),
], ids=["option", "declare"])
def test_no_menpai_in_the_first_deal(seed: str, how: str, want: dict[int, str]) -> None:
    extra = {"menpai": True} if how == "option" else {}
    deal = one_trick(GF, "A", 0, ["AH", "4H", "6H", "8H"], GF_BOTTOM, **extra)
    if how == "declare":
        deal.insert(1, {"type": "declare", "seat": 0, "what": "menpai"})
    faults, _ = judged(deal)
    assert {i: code for i, (code, _) in faults.items()} == want, seed
