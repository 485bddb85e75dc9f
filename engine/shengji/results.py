"""The results of one 升级-family deal: its points, the judge's summary and the dashboard state.

:class:`DealResults` is mixed into the deal referee (:mod:`.referee`; ``self`` is the referee)
on top of :class:`~.match.MatchRules`, and only reads: the keys of ``state()`` are listed in the
referee's module docstring.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from ..cards import Card, Suit, format_cards
from .match import MatchRules

if TYPE_CHECKING:
    from .declares import DeclareState


class DealResults(MatchRules):
    """Points and the summary/state of a deal (a mixin; ``self`` is the referee)."""

    # provided by the referee
    trump: Suit | None
    penalty_points: int
    red_five_points: int
    declares: DeclareState
    bottom: tuple[Card, ...] | None
    left: list[int]
    hands: dict[int, Counter[Card]]

    if TYPE_CHECKING:
        def to_play(self) -> int | None:
            """The seat expected next (the referee's)."""

    @property
    def bonus_points(self) -> int:
        return self.red_five_points + self.declares.chaodi_points

    def final_points(self) -> int:
        scored = self.bottom_result.scored if self.bottom_result else 0
        return self.tricks.attacker_points + self.penalty_points + self.bonus_points + scored

    def summary(self) -> dict[str, Any]:
        result = self.bottom_result
        change = self._level_change()
        out: dict[str, Any] = {
            "dealer": self.dealer,
            "level": self.level.code if self.level else None,
            "trump": self.trump.value if self.trump else None,
            "complete": self.complete,
            "tricks": len(self.tricks.history),
            "attacker_points": self.tricks.attacker_points,
            "penalty_points": self.penalty_points,
            "bonus_points": self.bonus_points,
            "bottom_points": result.points if result and (self.bottom is not None or not self.bottom_size) else None,
            "bottom_multiplier": result.multiplier if result else None,
            "final_points": self.final_points() if self.complete and result is not None else None,
            "level_change": None,
        }
        if self.flag:
            out["flag"] = True
        if change is not None:
            public = {k: v for k, v in change.items() if k not in ("levels_after", "flag_teams")}
            out["level_change"] = public
            seq = self.settings.level_sequence
            # both sides' levels after this deal (003:46, 003:158 上天入地, 003:178 J到底), rank codes
            out["levels_after"] = {t: (seq[lv[0]].code if lv is not None else None)
                                   for t, lv in change["levels_after"].items()}
            if result is not None and result.shangtian:
                out["shangtian"] = result.shangtian
        return out

    def state(self) -> dict[str, Any]:
        s = self.settings
        levels = self.match_before.levels if self.match_before else {}
        result = self.bottom_result
        tricks = self.tricks
        return {
            "game": self.deal.game,
            "dealer": self.dealer,
            "dealer_team": list(self.dealer_team),
            "attackers": list(self.attackers),
            "level": self.level.code if self.level else None,
            "trump": self.trump.value if self.trump else None,
            "leader": tricks.leader,
            "to_play": self.to_play(),
            "trick": [{"seat": p.seat, "cards": format_cards(p.cards)} for p in tricks.trick],
            "winning": tricks.trick[tricks.best].seat if tricks.trick else None,
            "tricks": tricks.history,
            "attacker_points": tricks.attacker_points,
            "points": {"attackers": tricks.attacker_points, "dealer_side": tricks.dealer_side_points},
            "penalty_points": self.penalty_points,
            "bonus_points": self.bonus_points,
            "cards_left": list(self.left),
            "hands_known": sorted(self.hands),
            "complete": self.complete,
            "bottom": format_cards(self.bottom) if self.bottom is not None else None,
            "bottom_points": result.points if result else None,
            "bottom_multiplier": result.multiplier if result else None,
            "final_points": self.final_points() if self.complete else None,
            "level_change": self.summary()["level_change"] if self.complete else None,
            "team_levels": {str(t): (lv.rank(s).code if lv is not None else None) for t, lv in levels.items()},
        }
