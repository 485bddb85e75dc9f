"""The options of a 升级-family ``deal`` event, read once with their faults.

``dealer`` (a seat, default 0), ``level`` (a rank code; none in a 扛旗 deal), ``trump`` (S, H, D,
C or null for 无主 where the game has it, 003:30), and the flags ``menpai`` (刮风 闷牌, 000:217),
``flag`` / ``kangqi`` (炒地皮·扛旗 deal, 003:164) and ``fandi`` (炒地皮 翻底, 003:18).  A bad
value is a ``shengji.bad_option`` fault on the ``deal`` line and the referee goes on with a
stand-in (seat 0, the first level, no trump).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..cards import Rank, Suit
from ..verdict import Fault
from .settings import ShengjiSettings

_RANKS = {r.code: r for r in Rank if not r.is_joker}
_RANKS["T"] = Rank.TEN


@dataclass(frozen=True)
class DealOptions:
    dealer: int
    level: Rank | None
    trump: Suit | None
    flag: bool
    menpai: bool
    fandi: bool


def read_options(opts: Mapping[str, Any], settings: ShengjiSettings) -> tuple[DealOptions, list[Fault]]:
    """The deal's options as the referee plays them, and the faults of the bad ones."""
    faults: list[Fault] = []
    flag = bool(opts.get("flag") or opts.get("kangqi")) and settings.flag_deal
    dealer = _dealer(opts.get("dealer", 0), faults)
    level = None if flag else _level(opts.get("level"), settings, faults)
    trump = _trump(opts.get("trump"), settings, flag, faults)
    fandi = bool(opts.get("fandi")) and settings.has_wushik
    return DealOptions(dealer, level, trump, flag, bool(opts.get("menpai")), fandi), faults


def _dealer(value: Any, faults: list[Fault]) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 4:
        faults.append(Fault("shengji.bad_option", {"key": "dealer", "value": value, "why": "a seat 0-3"}))
        return 0
    return value


def _level(value: Any, settings: ShengjiSettings, faults: list[Fault]) -> Rank:
    rank = _RANKS.get(str(value).upper()) if value is not None else None
    if rank is None:
        faults.append(Fault("shengji.bad_option", {"key": "level", "value": value,
                                                   "why": "a rank 2-10, J, Q, K or A"}))
        return settings.level_sequence[0]
    return rank


def _trump(value: Any, settings: ShengjiSettings, flag: bool, faults: list[Fault]) -> Suit | None:
    if value is None:
        if not settings.allow_no_trump and not flag:
            faults.append(Fault("shengji.bad_option", {"key": "trump", "value": value,
                                                       "why": "this game always has a trump suit"}))
        return None
    if isinstance(value, str) and value.upper() in ("S", "H", "D", "C"):
        if flag:
            faults.append(Fault("chaodipi.flag_deal_expected", {}))
            return None
        return Suit(value.upper())
    faults.append(Fault("shengji.bad_option", {"key": "trump", "value": value, "why": "S, H, D, C or null"}))
    return None
