"""Rule variants of 够级 as data: one frozen :class:`GoujiSettings` per game name.

Every field names the seed line it comes from (seeds: ``shared/seeds/004_*`` 禹城够级 and
``shared/seeds/002_*`` 山东够级, partial).  Decisions where the seeds are silent or disagree
are recorded in ``docs/rules/gouji.md``.  Code never asks *which* game it judges; it reads
these fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..cards import Rank
from .declare_names import Declare

#: 点贡 table key: (a declared 宣点, b declared 宣点, a opened 开点, b opened 开点)
#: value: (cards a gives b, cards b gives a).  Written for every key (a/b symmetric).
DianTable = tuple[tuple[tuple[bool, bool, bool, bool], tuple[int, int]], ...]


def _symmetric(rows: dict[tuple[bool, bool, bool, bool], tuple[int, int]]) -> DianTable:
    out = dict(rows)
    for (da, db, oa, ob), (ab, ba) in rows.items():
        out.setdefault((db, da, ob, oa), (ba, ab))
    return tuple(sorted(out.items()))


#: 禹城 宣点 matrix, seed 004 line 7 (and line 19 for the no-宣点 rows).
YUCHENG_DIAN = _symmetric({
    # both declared 宣点 (004:7 "双方都宣点时")
    (True, True, True, False): (0, 4),
    (True, True, False, False): (2, 2),
    (True, True, True, True): (2, 2),
    # neither declared (004:7 "双方都不宣点时", 004:19)
    (False, False, True, False): (0, 1),
    (False, False, False, False): (1, 1),
    (False, False, True, True): (0, 0),     # silent in 004; 002:33 "都开点则不需要进贡"
    # a declared, b did not (004:7 "一方宣点，另一方没宣点时")
    (True, False, True, True): (2, 0),
    (True, False, False, False): (1, 2),
    (True, False, True, False): (0, 3),
    (True, False, False, True): (3, 0),
})

#: 山东 点贡, seed 002 lines 32-34; both-declared rows add up both declarations (decision D12).
SHANDONG_DIAN = _symmetric({
    (False, False, True, False): (0, 1),
    (False, False, False, False): (0, 0),
    (False, False, True, True): (0, 0),
    (True, False, True, False): (0, 2),     # 被宣点 b did not open, declarer a opened
    (True, False, False, False): (0, 0),
    (True, False, True, True): (2, 0),      # 被宣点 b opened: declarer gives 2
    (True, False, False, True): (2, 0),
    (True, True, True, False): (0, 4),
    (True, True, False, False): (0, 0),
    (True, True, True, True): (2, 2),
})


@dataclass(frozen=True)
class GoujiSettings:
    """One 够级 rule variant.  Field comments cite the seed line that sets them."""

    #: Display name of the rules text.
    source: str
    #: Minimum count per face rank for a 够级 play (004:9, 004:15; 002:4).  Ranks not
    #: listed never reach 够级 on count alone; any 2 or joker always does.
    gouji_min: tuple[tuple[Rank, int], ...] = (
        (Rank.TEN, 5), (Rank.JACK, 4), (Rank.QUEEN, 3), (Rank.KING, 2), (Rank.ACE, 2))
    #: 两大王杀一大王挂花牌 (004:15): more big jokers beat a 挂花 play holding big jokers.
    two_big_kill_one_big: bool = True
    #: 让牌: a seat may let its 对门's non-够级 play pass to the next two seats (004:25).
    rangpai: bool = True
    #: Burning a teammate's 够级 is allowed (002:14; 004 silent, only 对门 excluded 002:25).
    burn_teammates: bool = True
    #: 无头 seats neither burn nor get burned (004:25 condition 2).
    wutou_no_burn: bool = True
    #: A seat still holding a 4 may not burn (004:25 condition 4).
    burn_needs_four_out: bool = True
    #: After 解烧 nobody may burn again in this round (004:11).
    no_burn_after_jieshao: bool = True
    #: Anyone who beats a burner's play ends the burn (004:27 "有玩家上牌或烧此烧牌者都算解烧");
    #: when False only the burner's 对门 does 解烧 and others 反烧 (take over the burn, 002:11-12).
    any_interrupt_is_jieshao: bool = True
    #: A burn play without a joker: True = the burner is placed last (诈烧 → 拉客, 002:13);
    #: False = the play is illegal (004:11 "每次所出的牌必须挂至少一个小花或大花").
    zhashao_places_last: bool = False
    #: 开点 is closed to everyone once this many seats went out (004:9 "有人走头科后不能开点";
    #: 004:25 says 头科二科; decision D7).
    kaidian_closes_after: int = 1
    #: 四户乱缠 starts when this many seats are left in play (004:9-11, 004:27).
    luanchan_at: int = 4
    #: Yucheng's 革命 (004:11, 004:21): a seat without jokers and 2s may revolt.
    revolution: bool = True
    #: 冲点 needs a 革命 first (004:11) or stands alone (002:46).
    chongdian_needs_revolution: bool = True
    #: The 冲点 outcome table: "yucheng" (004:11-13, four outcomes) or "shandong" (002:46-47).
    chongdian_rules: str = "yucheng"
    #: The 无头 对门 of a successful 冲点 seat cannot 开点 (002:50); 禹城 grants 开点 by outcome.
    wutou_no_kaidian_after_chong: bool = False
    #: How many 冲点/革命 seats void the deal (004:13: two revolutions; 002:48: three 冲点).
    void_at: int = 2
    #: 要头 after a revolution without 冲点: this many 死够级 then 无头 (004:9).
    yaotou_dead: int = 3
    #: 吃了不吐 and buying: pay with a joker when the buyer has no 2 (002:24; 004:17 says only 2).
    buy_with_joker: bool = False
    #: 扛贡 thresholds: {joker: count} shielding oneself, and big jokers shielding the team.
    kangong_self: tuple[tuple[Rank, int], ...] = ((Rank.BIG_JOKER, 3), (Rank.SMALL_JOKER, 4))
    kangong_team_big: int = 4
    #: Tribute cards must be at least a 2 (002:41); None: any card (004:19).
    tribute_min: Rank | None = None
    #: 点贡 table (see DianTable).
    dian_table: DianTable = YUCHENG_DIAN
    #: 串三户: the losing three each give their 对门 one card instead of 落贡 (004:13, 004:19);
    #: the deal ends as soon as one team holds 头科, 二科 and 三科.
    chuan: bool = True
    #: 落贡 between teammates may be waived (002:30 "拉贡如果是同帮的话可以免贡").
    luo_same_team_waivable: bool = False
    #: Finishing places as the seed names them (1st..6th).
    place_names: tuple[str, ...] = ("头科", "二科", "三科", "四科", "二落", "大落")
    #: Declares that must come in this order before play (002:52); earlier stage first.
    prep_stages: tuple[tuple[str, int], ...] = (
        (Declare.BUY3, 0), (Declare.BUY4, 0), (Declare.TRIBUTE, 1), (Declare.REVOLUTION, 2), (Declare.CHONGDIAN, 2))
    #: Accepted declare names for this variant (see module docstring of ``referee``).
    declares: frozenset[str] = field(default_factory=lambda: frozenset({
        Declare.BUY3, Declare.BUY4, Declare.XUANDIAN, Declare.KANGONG, Declare.TRIBUTE, Declare.REVOLUTION,
        Declare.CHONGDIAN, Declare.YAOTOU, Declare.WUTOU, Declare.RANGPAI, Declare.BURN, Declare.RENDIAN,
        Declare.KAIDIAN, Declare.OUT}))

    def min_count(self) -> dict[int, int]:
        return {int(r): n for r, n in self.gouji_min}


YUCHENG = GoujiSettings(source="禹城够级 (seed 004)")

SHANDONG = GoujiSettings(
    source="山东够级 (seed 002)",
    rangpai=False,                       # 002 silent; 让牌 is a Yucheng rule (004:25)
    wutou_no_burn=True,                  # 002:49 无头: "不存在够级"
    burn_needs_four_out=False,           # 002 silent
    no_burn_after_jieshao=False,         # 002:12 only ends the burn
    any_interrupt_is_jieshao=False,      # 002:11 反烧 / 002:12 解烧
    zhashao_places_last=True,            # 002:13
    kaidian_closes_after=2,              # 002 silent: 开点 open until 四户乱缠 (decision D7)
    revolution=False,                    # 002 has 冲点 only (004:46)
    chongdian_needs_revolution=False,
    chongdian_rules="shandong",
    wutou_no_kaidian_after_chong=True,   # 002:50
    void_at=3,                           # 002:48
    buy_with_joker=True,                 # 002:24
    kangong_self=((Rank.BIG_JOKER, 4), (Rank.SMALL_JOKER, 4)),   # 002:41-42 四小扛自己
    tribute_min=Rank.TWO,                # 002:41
    dian_table=SHANDONG_DIAN,
    chuan=False,                         # 002 silent on 串三户
    luo_same_team_waivable=True,         # 002:30
    place_names=("头客", "二客", "三客", "四客", "二拉", "拉客"),
    prep_stages=((Declare.KANGONG, 0), (Declare.XUANDIAN, 1), (Declare.BUY3, 2), (Declare.BUY4, 2),
                 (Declare.TRIBUTE, 3), (Declare.CHONGDIAN, 4)),      # 002:52
    declares=frozenset({Declare.BUY3, Declare.BUY4, Declare.XUANDIAN, Declare.KANGONG, Declare.TRIBUTE,
                        Declare.CHONGDIAN, Declare.YOUTOU, Declare.WUTOU, Declare.BURN, Declare.RENDIAN,
                        Declare.KAIDIAN, Declare.OUT, Declare.THROW4}),
)
