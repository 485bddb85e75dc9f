"""Levels across deals: the level-change tables, must-play levels, pull-backs and who deals next.

炒地皮 (003 lines 86-128): attackers' points p → dealer side up 9 at 0 (大光), 8 at 5,
7 at 10-15 … 1 at 70-75; 80-85 换庄; 90-95 attackers up 1 … 160-165 up 8; 类推 both ways
(below 0: -10..-5 up 10, -20..-15 up 11 …; 170-175 up 9 …).
刮风 (000 lines 241-247, the seed stops after two rows): 80 takes the deal, every further
40 a level; completed as -40..-5 → dealer +4, 0 → +3, 5..35 → +2, 40..75 → +1, 80..115
换庄, 120..155 attackers +1, 160..195 +2 … and -80..-45 → +5 … (docs/rules/guafeng.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import Rank
from .settings import ShengjiSettings


@dataclass(frozen=True)
class Outcome:
    """What the table says for one deal's final points."""

    dealer_keeps: bool
    levels: int          # levels the side that keeps/takes the deal goes up


def table_outcome(points: int, settings: ShengjiSettings, take_at: int | None = None) -> Outcome:
    take = settings.take_deal_at if take_at is None else take_at
    step = settings.points_per_level
    if points >= take:
        return Outcome(False, (points - take) // step)
    if step == 40:  # 刮风
        if points == 0:
            return Outcome(True, 3)
        if points < 0:
            return Outcome(True, 4 + (-points - 5) // 40)
        return Outcome(True, 2 if points < 40 else 1)
    # 炒地皮
    if points >= 10:
        return Outcome(True, max(1, 8 - points // 10 + (take - 80) // 10))
    if points == 5:
        return Outcome(True, 8)
    if points == 0:
        return Outcome(True, 9)
    return Outcome(True, 10 + (-points - 5) // 10)


@dataclass(frozen=True)
class TeamLevel:
    """A team's place: the index into the settings' level sequence and the 圈 it is in (1-based)."""

    index: int
    round: int = 1

    def rank(self, settings: ShengjiSettings) -> Rank:
        return settings.level_sequence[self.index]


def advance(level: TeamLevel, levels: int, settings: ShengjiSettings) -> tuple[TeamLevel, bool]:
    """Go up ``levels``, stopping at a must-play level (逢J/逢K必打, J·K·A 必打, 第三圈A必打).

    Returns the new level and whether the team passed the last level (finished a 圈).
    """
    seq = settings.level_sequence
    idx, rnd = level.index, level.round
    passed_end = False
    for _ in range(levels):
        rank = seq[idx]
        if _must_play(rank, rnd, settings) and _stopped_here(level, idx, rnd):
            break
        if idx + 1 >= len(seq):
            idx, rnd, passed_end = 0, rnd + 1, True
        else:
            idx += 1
        if _must_play(seq[idx], rnd, settings):
            break
    return TeamLevel(idx, rnd), passed_end


def _stopped_here(start: TeamLevel, idx: int, rnd: int) -> bool:
    """A must-play level only blocks the climb if the team has not played it yet this deal."""
    return not (start.index == idx and start.round == rnd)


def _must_play(rank: Rank, rnd: int, settings: ShengjiSettings) -> bool:
    if rank in settings.must_play:
        return True
    return settings.must_play_ace_in_round is not None and rank == Rank.ACE and rnd >= settings.must_play_ace_in_round


def level_index(rank: Rank, settings: ShengjiSettings) -> int:
    return settings.level_sequence.index(rank)
