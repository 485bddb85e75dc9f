"""The names of the 够级 declarations (the ``what`` of a ``declare`` event; their meaning is
in :mod:`.declares` and ``docs/rules/gouji.md``).  Each member equals its old string, so logs
and messages read the same."""

from __future__ import annotations

from enum import StrEnum


class Declare(StrEnum):
    BUY3 = "buy3"               # 买3
    BUY4 = "buy4"               # 买4
    XUANDIAN = "xuandian"       # 宣点
    KANGONG = "kangong"         # 扛贡
    TRIBUTE = "tribute"         # 进贡
    REVOLUTION = "revolution"   # 革命 (禹城)
    CHONGDIAN = "chongdian"     # 冲点
    YAOTOU = "yaotou"           # 要头 (禹城)
    YOUTOU = "youtou"           # 有头 (山东)
    WUTOU = "wutou"             # 无头
    RANGPAI = "rangpai"         # 让牌 (禹城)
    BURN = "burn"               # 烧牌
    RENDIAN = "rendian"         # 认点
    KAIDIAN = "kaidian"         # 开点 spoken
    THROW4 = "throw4"           # the 4s thrown after a failed 冲点 (山东)
    OUT = "out"                 # the seat went out (logs without hands)
