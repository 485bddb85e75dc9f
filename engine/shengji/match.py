"""Levels across deals: one deal's level change, and a match of several deals in one log.

:class:`MatchRules` is mixed into the deal referee.  The judge hands each new deal the
referee of the deal before it (:meth:`opening_faults`); the new deal checks its dealer and
level against what the previous result says (000 lines 115, 217, 219-237, 241; 003 lines
86-128, 152, 164, 178-180) and carries both teams' levels on.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..cards import Rank
from ..referee import DealReferee
from ..verdict import Fault
from .levels import TeamLevel, advance, level_index, table_outcome

if TYPE_CHECKING:
    from ..events import DealEvent
    from .points import BottomResult
    from .settings import ShengjiSettings
    from .tricks import Tricks


@dataclass
class MatchState:
    """Levels of both teams (``None`` where unknown) and who deals, before or after a deal."""

    levels: dict[int, TeamLevel | None]
    dealer: int
    flag_next: bool = False
    #: 扛旗: teams that passed A and must carry the flag (play a 扛旗 deal) when they deal
    flag_teams: frozenset[int] = frozenset()


def _lowered(level: TeamLevel) -> TeamLevel:
    """闷牌 (000:217): one level lower; the lowest level stays."""
    return TeamLevel(level.index - 1, level.round) if level.index > 0 else level


class MatchRules:
    """Match bookkeeping of :class:`~.referee.ShengjiReferee` (a mixin; ``self`` is the referee)."""

    # provided by the referee
    deal: DealEvent
    settings: ShengjiSettings
    option_faults: list[Fault]
    dealer: int
    dealer_team: tuple[int, ...]
    attackers: tuple[int, ...]
    level: Rank | None
    flag: bool
    menpai: bool
    first_deal: bool
    deal_index: int
    #: the level the previous deal gave the dealer side (``None``: not known from the log)
    level_expected: TeamLevel | None = None
    #: the deal is one level low with no 闷牌 yet: a ``menpai`` declare must come before play
    menpai_pending: bool = False
    bottom_size: int
    bottom_result: BottomResult | None
    tricks: Tricks
    match_before: MatchState | None
    final_points: Callable[[], int]

    if TYPE_CHECKING:
        @property
        def complete(self) -> bool:
            """Every card played and no trick open (the referee's read-only property)."""

    def opening_faults(self, previous: DealReferee | None) -> list[Fault]:
        faults = list(self.option_faults)
        s = self.settings
        levels: dict[int, TeamLevel | None] = {0: None, 1: None}
        prev_after = previous.match_after() if isinstance(previous, MatchRules) and \
            previous.settings is s else None
        team = self.dealer % 2
        self.first_deal = previous is None
        if self.first_deal and self.menpai:
            faults.append(Fault("shengji.bad_option", {"key": "menpai", "value": True,
                                                       "why": "第一局无人亮主须重新发牌 (000:217)"}))
        if prev_after is not None:
            levels = dict(prev_after.levels)
            if self.dealer != prev_after.dealer:
                faults.append(Fault("shengji.wrong_next_dealer", {"expected": prev_after.dealer, "got": self.dealer}))
            if s.flag_deal and prev_after.flag_next != self.flag:
                faults.append(Fault("chaodipi.flag_deal_expected", {}))
            expected = levels.get(team)
            if expected is not None and self.level is not None and not self.flag:
                self.level_expected = expected
                want = _lowered(expected) if self.menpai else expected
                if self.level != want.rank(s):
                    if s.menpai and not self.menpai and self.level == _lowered(expected).rank(s):
                        self.menpai_pending = True      # a `menpai` declare may follow (000:217)
                    else:
                        faults.append(Fault("shengji.wrong_next_level", {"expected": want.rank(s).code,
                                                                         "got": self.level.code}))
        if self.level is not None and self.level in s.level_sequence:
            current = levels.get(team)
            rnd = current.round if current is not None else 1
            given = self.deal.options.get("round")
            if isinstance(given, int) and not isinstance(given, bool) and given >= 1:
                rnd = given  # deal option "round": the 圈 the dealer side is in (003:152)
            levels[team] = TeamLevel(level_index(self.level, s), rnd)
            if prev_after is None and self.level == s.level_sequence[0]:
                levels[1 - team] = TeamLevel(0, 1)
        flag_teams: frozenset[int] = prev_after.flag_teams if prev_after is not None else frozenset()
        self.match_before = MatchState(levels, self.dealer, self.flag, flag_teams)
        return faults

    def menpai_faults(self, i: int) -> list[Fault]:
        """A ``menpai`` declare (event ``i``) gives what the ``menpai`` deal option gives
        (000:217, decision in docs/rules/guafeng.md): not in a log's first deal, and the deal's
        level is one below the level the dealer side reached."""
        self.menpai = True
        if self.first_deal:
            return [Fault("shengji.menpai_first_deal", {})]
        if self.menpai_pending:
            self.menpai_pending = False
            return []
        expected = self.level_expected
        if expected is not None and self.level is not None and expected.index > 0:
            want = _lowered(expected).rank(self.settings)
            if self.level != want:
                return [Fault("shengji.wrong_next_level", {"expected": want.code, "got": self.level.code})]
        return []

    def menpai_missing(self, i: int) -> list[Fault]:
        """At the first play: a deal one level low whose 闷牌 was never declared is proven to have
        the wrong level (the fault goes to the ``deal`` line)."""
        if not self.menpai_pending or self.menpai or self.level_expected is None or self.level is None:
            return []
        self.menpai_pending = False
        return [Fault("shengji.wrong_next_level", {"expected": self.level_expected.rank(self.settings).code,
                                                   "got": self.level.code}, self.deal_index, i)]

    def match_after(self) -> MatchState | None:
        """Levels and next dealer once this deal is complete (``None`` while it is not)."""
        change = self._level_change()
        if change is None or self.match_before is None:
            return None
        levels = dict(self.match_before.levels)
        for team_key, rank_code in change.get("levels_after", {}).items():
            team = int(team_key)
            if rank_code is None:
                levels[team] = None
            else:
                levels[team] = TeamLevel(*rank_code)
        return MatchState(levels, change["next_dealer"], change.get("flag_next", False),
                          frozenset(change.get("flag_teams", ())))

    # -- feeding -------------------------------------------------------------------------
    def _level_change(self) -> dict[str, Any] | None:
        if not self.complete or (self.bottom_result is None and self.bottom_size):
            return None
        s = self.settings
        final = self.final_points()
        take_at = s.flag_take_deal_at if self.flag else None
        outcome = table_outcome(final, s, take_at)
        before = self.match_before.levels if self.match_before else {0: None, 1: None}
        levels = dict(before)
        dealer_t, attack_t = self.dealer % 2, 1 - self.dealer % 2
        up_team = dealer_t if outcome.dealer_keeps else attack_t
        change: dict[str, Any] = {
            "team": list(self.dealer_team if outcome.dealer_keeps else self.attackers),
            "levels": outcome.levels,
            "dealer_keeps": outcome.dealer_keeps,
            "next_dealer": (self.dealer + 2) % 4 if outcome.dealer_keeps else (self.dealer + 1) % 4,
        }
        flag_teams = set(self.match_before.flag_teams) if self.match_before else set()
        if self.flag:
            # 扛旗 (003:164): the flag side needs to hold the attackers under 100; no levels move
            change["levels"] = 0
            flag_teams.add(dealer_t)
            if outcome.dealer_keeps:
                change["match_won"] = list(self.dealer_team)
                levels = {0: TeamLevel(0, 1), 1: TeamLevel(0, 1)}
                flag_teams.clear()
        elif levels.get(up_team) is not None and outcome.levels:
            new, passed = advance(levels[up_team], outcome.levels, s)  # type: ignore[arg-type]
            if passed and s.flag_deal:  # passed A: this side carries the flag when it deals next
                new = TeamLevel(len(s.level_sequence) - 1, levels[up_team].round)  # type: ignore[union-attr]
                flag_teams.add(up_team)
            levels[up_team] = new
        if s.wushik_score and not self.flag:  # 炒地皮 积分 (003:86 columns 3-4, 158, 170, 186)
            dealer_pts = outcome.levels if outcome.dealer_keeps else -(outcome.levels + 1)
            shangtian = self.bottom_result.shangtian if self.bottom_result else None
            if shangtian == "attackers":
                dealer_pts = min(dealer_pts, -s.wushik_score)
            elif shangtian == "dealer":
                dealer_pts = max(dealer_pts, s.wushik_score)
            change["jifen"] = {"dealer_side": dealer_pts, "attackers": -dealer_pts}
        specials = self._specials(final)
        for team, level, note in specials:
            levels[team] = level
            change.setdefault("special", []).append(note)
        next_team = change["next_dealer"] % 2
        if next_team in flag_teams:
            change["flag_next"] = True
        change["flag_teams"] = sorted(flag_teams)
        nxt = levels.get(next_team)
        change["next_level"] = nxt.rank(s).code if nxt is not None else None
        change["levels_after"] = {str(t): ((lv.index, lv.round) if lv is not None else None)
                                  for t, lv in levels.items()}
        return change

    def _specials(self, final: int) -> list[tuple[int, TeamLevel, str]]:
        """上天入地, 刮风's J/K 扣底 pull-backs, 明炒's J到底: levels set outright."""
        s = self.settings
        out: list[tuple[int, TeamLevel, str]] = []
        last_trick, last_winner = self.tricks.last_trick, self.tricks.last_winner
        if not last_trick or last_winner is None:
            return out
        win = next(p for p in last_trick if p.seat == last_winner)
        attackers_won = last_winner in self.attackers
        dealer_t, attack_t = self.dealer % 2, 1 - self.dealer % 2
        round_now = 1
        if self.match_before and self.match_before.levels.get(dealer_t) is not None:
            round_now = self.match_before.levels[dealer_t].round  # type: ignore[union-attr]
        if attackers_won and self.level is not None:
            for level, count, back in s.pullbacks:
                if self.level == level and len(win.cards) == count and all(c.rank == level for c in win.cards):
                    out.append((dealer_t, TeamLevel(level_index(back, s), round_now),
                                f"扣底 {count}×{level.code}: dealer side back to {back.code}"))
            for level, rank, back in s.j_to_bottom:
                if (self.level == level and final >= s.take_deal_at and 1 <= len(win.cards) <= 2
                        and all(c.rank == rank for c in win.cards) and len(set(win.cards)) == 1
                        and (rank != Rank.ACE or len(win.cards) == 2)):
                    out.append((dealer_t, TeamLevel(level_index(back, s), round_now),
                                f"J到底: dealer side to {back.code}"))
        result = self.bottom_result
        if result is not None and result.shangtian is not None:
            loser = dealer_t if result.shangtian == "attackers" else attack_t
            top = len(s.level_sequence) - 1
            out.append((loser, TeamLevel(0, 1), "上天入地: down to 2"))
            out.append((1 - loser, TeamLevel(top, 3 if s.must_play_ace_in_round else 1), "上天入地: up to A"))
        return out

