"""Rule variants of the 升级 family as data: one frozen :class:`ShengjiSettings` per game name.

Every field names the seed line it comes from (000 = 淄博刮风, 003 = 炒地皮) or the
decision recorded in ``docs/rules/guafeng.md`` / ``docs/rules/chaodipi.md``.  Code reads
these fields; it never asks which game it is.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from ..cards import Rank


class BottomScoring(StrEnum):
    """How the buried cards score when the attackers take the last trick."""

    #: 刮风 (000 lines 187-213): own card values (大王 100, 小王 50, 级牌 20, 10/K 10, 5 5),
    #: multiplied by the number of cards of the last winning play, only if that play is trump.
    GUAFENG = "guafeng"
    #: 炒地皮 抠底 (003 lines 40-46): point cards of the bottom, ×2 singles, ×4 with a pair.
    KOUDI = "koudi"


class WushikBonus(StrEnum):
    """When a last-trick 5-10-K earns 上天入地 (003 lines 38, 46, 158, 170, 186)."""

    NONE = "none"
    #: 暗炒: only the bare same-suit 5-10-K, for 保底 (dealer side) as well as 抠底 (line 158).
    EXACT_BOTH_SIDES = "exact_both_sides"
    #: 扛旗/明炒: any play containing a same-suit 5-10-K, attackers only (lines 170, 186).
    CONTAINS_ATTACKERS = "contains_attackers"


#: levels 2, 3 … K, A, the plain 升级 order (003 line 22)
_PLAIN_LEVELS = tuple(r for r in Rank if Rank.TWO <= r <= Rank.ACE)


@dataclass(frozen=True)
class ShengjiSettings:
    """Everything that differs between 刮风 and the three 炒地皮 rooms.

    Only ``name`` is required.  The defaults are a plain two-deck 升级 with no regional rule:
    25 cards a seat and 8 buried (003 line 8), levels 2..A (003 line 22), 80 points to take
    the deal and 40 a level beyond (000 line 241), 甩牌 allowed at 10 a card (003 line 58), a
    bottom the attackers 抠 scores its point cards ×2 / ×4 (003 lines 40-44); every flag off,
    every bonus 0, every table empty.  A variant names what it changes.
    """

    name: str
    #: cards per seat when play starts, and cards buried (000 line 113: 26 + 4; 003 line 8: 25 + 8).
    hand_size: int = 25
    bottom_size: int = 8
    #: the order levels are played in; the first is where a team starts (000 line 7: A..K; 003 line 22: 2..A).
    level_sequence: tuple[Rank, ...] = _PLAIN_LEVELS
    #: ranks that are trumps in every suit besides the level rank (000 line 11: 2, 3, 5).
    permanent_ranks: tuple[Rank, ...] = ()
    #: ♥5 is the highest trump and never part of a tractor (003 lines 4, 30, 64).
    heart_five_top: bool = False
    #: whether 无主 (no trump suit) exists (003 line 30).
    allow_no_trump: bool = False
    #: side-suit tractors/雨牌 may skip the ranks that left the suit (level rank, 常主, ♥5).
    #: 扛旗 003 line 166 says yes; 暗炒/明炒 003 lines 154/182 only forbid level pairs (decision: gaps break);
    #: 刮风 decision: the removed ranks are skipped (docs/rules/guafeng.md).
    side_gap_skip: bool = False
    #: the trump suit's tractors run through its level card and 常主 by face value
    #: (000 line 65 AA22<2233<3344; 003 line 74).
    #: 刮风's 雨牌, 雷牌, 闪牌 (000 lines 75-107).
    has_yu: bool = False
    has_lei_shan: bool = False
    #: 炒地皮's 5-10-K and its paired form (003 line 76).
    has_wushik: bool = False
    #: ♥5 may form ♥5-10-K when hearts is a side suit (003 lines 156, 184 yes; 168 no).
    heart_five_side_wushik: bool = False
    #: 刮风's 从大到小: a follower who cannot match the led shape plays its largest cards of the suit
    #: (000 lines 59, 71-73, 89, 101).
    largest_first: bool = False
    #: 甩牌 allowed (003 line 58); 刮风's seed is silent (decision: allowed, same penalty).
    throws: bool = True
    #: points per card of a failed throw (003 line 58).
    throw_penalty: int = 10
    bottom_scoring: BottomScoring = BottomScoring.KOUDI
    #: 刮风 bottom values (000 lines 199-207; level card 20 per line 203, not 30 of line 187).
    bottom_level_value: int = 0
    #: the burier must bury every joker it holds (000 line 187).
    bury_all_jokers: bool = False
    #: cards shown to declare may not be buried by the seat that showed them (000 line 149).
    shown_cards_stay: bool = False
    wushik_bonus: WushikBonus = WushikBonus.NONE
    #: 逼红5 / 保红5 ±50 per ♥5 (003 lines 146-148, 暗炒 room).
    red_five_bonus: int = 0
    #: 暗炒: declarations are hidden; a 炒底 lower than the trump it meets costs ±80 (003 line 144).
    hidden_declares: bool = False
    chaodi_failure_points: int = 0
    #: 反主 order, lowest first (003 lines 142, 162, 176); items are "pair:C", "pair:SJ", "pair:H5", "huitouwang".
    fanzhu_order: tuple[str, ...] = ()
    #: points the attackers need to take the deal, and points per level beyond it
    #: (000 line 241: 80 and 40; 003 table lines 86-128: 80 and 10).
    take_deal_at: int = 80
    points_per_level: int = 40
    #: levels that cannot be skipped (000 lines 219-237: J, K; 003 line 180: J, A (title says J、K)).
    must_play: tuple[Rank, ...] = ()
    #: 暗炒 line 152: A must be played in the third 圈 only.
    must_play_ace_in_round: int | None = None
    #: 刮风 逢J/逢K 扣底 pull-backs (000 lines 221-233): (level, cards in the last play) -> new level.
    pullbacks: tuple[tuple[Rank, int, Rank], ...] = ()
    #: 明炒 J到底 (003 line 178): (level, last single/pair rank) -> dealer team's new level, needs 80.
    j_to_bottom: tuple[tuple[Rank, Rank, Rank], ...] = ()
    #: 扛旗 (003 line 164): after passing A, one deal with no trump, no bottom, 100 to go up.
    flag_deal: bool = False
    flag_take_deal_at: int = 0
    #: 闷牌 (000 line 217): nobody declared, the dealer plays one level lower.
    menpai: bool = False
    #: 上天入地 points (003 lines 158, 170, 186).
    wushik_score: int = 0


_GUAFENG_LEVELS = (Rank.ACE, *[r for r in Rank if Rank.TWO <= r <= Rank.KING])
_CHAODIPI_LEVELS = _PLAIN_LEVELS

GUAFENG = ShengjiSettings(
    name="guafeng-zibo", hand_size=26, bottom_size=4, level_sequence=_GUAFENG_LEVELS,
    permanent_ranks=(Rank.TWO, Rank.THREE, Rank.FIVE), heart_five_top=False, allow_no_trump=False,
    side_gap_skip=True, has_yu=True, has_lei_shan=True, has_wushik=False, heart_five_side_wushik=False,
    largest_first=True, throws=True, throw_penalty=10, bottom_scoring=BottomScoring.GUAFENG,
    bottom_level_value=20, bury_all_jokers=True, shown_cards_stay=True, wushik_bonus=WushikBonus.NONE, red_five_bonus=0,
    hidden_declares=False, chaodi_failure_points=0, fanzhu_order=(), take_deal_at=80, points_per_level=40,
    must_play=(Rank.JACK, Rank.KING), must_play_ace_in_round=None,
    pullbacks=((Rank.JACK, 1, Rank.SIX), (Rank.JACK, 2, Rank.ACE), (Rank.KING, 1, Rank.JACK),
               (Rank.KING, 2, Rank.SIX), (Rank.KING, 4, Rank.ACE)),
    j_to_bottom=(), flag_deal=False, flag_take_deal_at=0, menpai=True, wushik_score=0,
)

#: what the three 炒地皮 rooms share (003 lines 4-80); each room replaces the rest below
_CHAODIPI = ShengjiSettings(
    name="chaodipi", hand_size=25, bottom_size=8, level_sequence=_CHAODIPI_LEVELS, permanent_ranks=(),
    heart_five_top=True, allow_no_trump=True, has_yu=False, has_lei_shan=False, has_wushik=True,
    largest_first=False, throws=True, throw_penalty=10, bottom_scoring=BottomScoring.KOUDI, bottom_level_value=0,
    bury_all_jokers=False, shown_cards_stay=False, take_deal_at=80, points_per_level=10, pullbacks=(), menpai=False,
)

ANCHAO = replace(
    _CHAODIPI, name="chaodipi-anchao", side_gap_skip=False, heart_five_side_wushik=True,
    wushik_bonus=WushikBonus.EXACT_BOTH_SIDES, red_five_bonus=50, hidden_declares=True, chaodi_failure_points=80,
    fanzhu_order=("pair:C", "pair:D", "pair:S", "pair:H", "pair:SJ", "pair:BJ", "pair:H5", "huitouwang"),
    must_play=(), must_play_ace_in_round=3, j_to_bottom=(), flag_deal=False, flag_take_deal_at=0, wushik_score=16,
)

KANGQI = replace(
    _CHAODIPI, name="chaodipi-kangqi", side_gap_skip=True, heart_five_side_wushik=False,
    wushik_bonus=WushikBonus.CONTAINS_ATTACKERS, red_five_bonus=0, hidden_declares=False, chaodi_failure_points=0,
    fanzhu_order=("pair:D", "pair:C", "pair:H", "pair:S", "pair:SJ", "pair:BJ", "pair:H5"),
    must_play=(Rank.ACE,), must_play_ace_in_round=None, j_to_bottom=(), flag_deal=True, flag_take_deal_at=100,
    wushik_score=16,
)

MINGCHAO = replace(
    _CHAODIPI, name="chaodipi-mingchao", side_gap_skip=False, heart_five_side_wushik=True,
    wushik_bonus=WushikBonus.CONTAINS_ATTACKERS, red_five_bonus=0, hidden_declares=False, chaodi_failure_points=0,
    fanzhu_order=("pair:D", "pair:C", "pair:H", "pair:S", "pair:SJ", "pair:BJ", "pair:H5", "huitouwang"),
    must_play=(Rank.JACK, Rank.KING, Rank.ACE), must_play_ace_in_round=None,
    j_to_bottom=((Rank.JACK, Rank.JACK, Rank.TWO), (Rank.ACE, Rank.ACE, Rank.JACK)),
    flag_deal=False, flag_take_deal_at=0, wushik_score=13,
)

ALL_SETTINGS: dict[str, ShengjiSettings] = {s.name: s for s in (GUAFENG, ANCHAO, KANGQI, MINGCHAO)}
