"""ShengjiSettings: the defaults are a plain 升级, and the 炒地皮 rooms share one typed base."""

from __future__ import annotations

from dataclasses import fields

import pytest

from cardref.engine.cards import Rank
from cardref.engine.shengji.settings import (
    ANCHAO,
    KANGQI,
    MINGCHAO,
    BottomScoring,
    ShengjiSettings,
    WushikBonus,
)


def test_defaults_are_a_plain_two_deck_shengji() -> None:
    plain = ShengjiSettings(name="plain")
    assert (plain.hand_size, plain.bottom_size) == (25, 8)                   # 003 line 8
    assert plain.level_sequence == tuple(r for r in Rank if Rank.TWO <= r <= Rank.ACE)   # 003 line 22
    assert (plain.take_deal_at, plain.points_per_level) == (80, 40)           # 000 line 241
    assert (plain.throws, plain.throw_penalty) == (True, 10)                  # 003 line 58
    assert plain.bottom_scoring == BottomScoring.KOUDI                        # 003 lines 40-44
    assert plain.wushik_bonus == WushikBonus.NONE
    regional = [f.name for f in fields(plain) if isinstance(getattr(plain, f.name), bool) and getattr(plain, f.name)]
    assert regional == ["throws"]                                            # every regional rule off


# what every 炒地皮 room has (003 lines 4, 8, 22, 30, 76), whatever the room
SHARED = {"hand_size": 25, "bottom_size": 8, "heart_five_top": True, "allow_no_trump": True, "has_wushik": True,
          "has_yu": False, "has_lei_shan": False, "points_per_level": 10, "bottom_scoring": BottomScoring.KOUDI}


@pytest.mark.parametrize("room", [ANCHAO, KANGQI, MINGCHAO], ids=lambda r: r.name)
def test_chaodipi_rooms_share_the_base(room: ShengjiSettings) -> None:
    assert {k: getattr(room, k) for k in SHARED} == SHARED
    assert room.name.startswith("chaodipi-")


def test_rooms_keep_their_own_rules() -> None:
    assert ANCHAO.hidden_declares and not KANGQI.hidden_declares                  # 003 line 144
    assert (ANCHAO.wushik_score, KANGQI.wushik_score, MINGCHAO.wushik_score) == (16, 16, 13)   # 003:158, 170, 186
    assert KANGQI.flag_deal and KANGQI.flag_take_deal_at == 100                  # 003 line 164
    assert MINGCHAO.must_play == (Rank.JACK, Rank.KING, Rank.ACE)                # 003 line 180 (J、K / J、A)
