"""Tournament scoring from the judge's deal summaries (spec: "Judge output").

Teams sit alternately, so in every match team A holds the even seats and team B the odd
seats (spec: "Seats and teams").  Each game family scores a deal from its own summary;
the rules are documented in docs/tournaments.md and are settings, not constants.

- 够级: each seat earns the points of its finishing place (头科 first … 大落 last, from
  ``order``), and each tribute (``tributes``) moves ``count × tribute_weight`` points from
  the team that pays to the team that receives.
- 升级 family (刮风, 炒地皮): a deal is worth the levels the side named by ``level_change``
  goes up; a team's "level reached" is ``start_level`` plus the levels it gained.

A match is won by the team with more points (levels), or in 升级 by the team a deal's
``level_change.match_won`` names (it passed A); win/draw/loss earn match points.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from cardref.engine import registry

#: The game families a tournament can be of, with their games (from the engine's rules).
FAMILIES = {fam: tuple(sorted(g for g in registry.names() if registry.family_of(g) == fam)) for fam in ("gouji", "shengji")}
GOUJI_GAMES = FAMILIES["gouji"]
SHENGJI_GAMES = FAMILIES["shengji"]
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def family_of(game: str | None) -> str | None:
    """The family of ``game`` as its rules say (:func:`cardref.engine.registry.family_of`)."""
    return registry.family_of(game)


@dataclass(frozen=True)
class Scoring:
    """How deals and matches turn into standings (see docs/tournaments.md)."""

    #: 够级 points of finishing places 头科, 二科, 三科, 四科, 二落, 大落.
    place_points: tuple[int, ...] = (3, 2, 1, -1, -2, -3)
    #: 够级 points per card of tribute received (and lost per card paid).
    tribute_weight: int = 1
    #: 升级 level every team starts a match at (2).
    start_level: int = 2
    win_points: int = 2
    draw_points: int = 1
    loss_points: int = 0


DEFAULT_SCORING = Scoring()


@dataclass(frozen=True)
class DealScore:
    """One deal's points for team A (even seats) and team B (odd seats), and the parts."""

    a: int
    b: int
    detail: dict[str, Any]


def _team(seat: Any) -> str | None:
    if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
        return None
    return "a" if seat % 2 == 0 else "b"


def score_deal(game: str | None, summary: Mapping[str, Any], scoring: Scoring = DEFAULT_SCORING) -> DealScore | None:
    """The deal's score, or ``None`` when its summary does not (yet) decide one."""
    family = family_of(game)
    if family == "gouji":
        return _gouji(summary, scoring)
    if family == "shengji":
        return _shengji(summary)
    return None


def _gouji(summary: Mapping[str, Any], scoring: Scoring) -> DealScore | None:
    order = summary.get("order")
    if not isinstance(order, list) or not order:
        return None
    seats = [s for s in order if _team(s) is not None]
    n = len(scoring.place_points)
    if len(seats) == n - 1:  # the last seat left is 大落
        missing = [s for s in range(n) if s not in seats]
        if len(missing) == 1:
            seats.append(missing[0])
    if len(seats) != n or len(set(seats)) != n:
        return None
    pts = {"a": 0, "b": 0}
    places = {"a": 0, "b": 0}
    for place, seat in enumerate(seats):
        team = _team(seat)
        assert team is not None
        places[team] += scoring.place_points[place]
    tribute = {"a": 0, "b": 0}
    for t in summary.get("tributes") or []:
        if not isinstance(t, Mapping):
            continue
        giver, taker, count = _team(t.get("from")), _team(t.get("to")), t.get("count", 1)
        if giver is None or taker is None or giver == taker or isinstance(count, bool) or not isinstance(count, int):
            continue
        tribute[taker] += count * scoring.tribute_weight
        tribute[giver] -= count * scoring.tribute_weight
    for team in pts:
        pts[team] = places[team] + tribute[team]
    return DealScore(pts["a"], pts["b"], {"places": places, "tributes": tribute, "order": seats})


def _shengji(summary: Mapping[str, Any]) -> DealScore | None:
    change = summary.get("level_change")
    if not isinstance(change, Mapping):
        return None
    seats = change.get("team")
    levels = change.get("levels", 0)
    if not isinstance(seats, list) or not seats or isinstance(levels, bool) or not isinstance(levels, int):
        return None
    teams = {_team(s) for s in seats}
    if len(teams) != 1 or None in teams:
        return None
    team = teams.pop()
    gained = {"a": 0, "b": 0}
    gained[team] = max(0, levels)  # type: ignore[index]
    detail: dict[str, Any] = {"levels": gained, "team_up": team}
    won = change.get("match_won")
    if isinstance(won, list) and won and len({_team(s) for s in won}) == 1 and _team(won[0]) is not None:
        detail["match_won"] = _team(won[0])  # 过A / 扛旗 decided the match
    return DealScore(gained["a"], gained["b"], detail)


@dataclass
class MatchScore:
    a: int = 0
    b: int = 0
    scored_deals: int = 0
    unscored_deals: int = 0
    family: str | None = None
    parts: dict[str, dict[str, int]] | None = None
    #: set when a deal decided the whole match (升级: a team passed A / won the flag deal)
    decided_by: str | None = None

    def winner(self) -> str | None:
        if self.decided_by is not None:
            return self.decided_by
        if self.a == self.b:
            return None
        return "a" if self.a > self.b else "b"


def score_match(deals: Iterable[tuple[str | None, Mapping[str, Any]]], scoring: Scoring = DEFAULT_SCORING) -> MatchScore:
    out = MatchScore(parts={"a": {}, "b": {}})
    for game, summary in deals:
        score = score_deal(game, summary, scoring)
        if score is None:
            out.unscored_deals += 1
            continue
        out.family = out.family or family_of(game)
        out.scored_deals += 1
        out.a += score.a
        out.b += score.b
        assert out.parts is not None
        if isinstance(score.detail.get("match_won"), str) and out.decided_by is None:
            out.decided_by = score.detail["match_won"]
        for key, value in score.detail.items():
            if isinstance(value, dict):
                for team in ("a", "b"):
                    out.parts[team][key] = out.parts[team].get(key, 0) + int(value.get(team, 0))
    return out


def level_name(start: int, gained: int) -> str:
    """The rank a 升级 team has reached (``A+`` once it has passed A)."""
    index = start - 2 + gained
    return RANKS[index] if 0 <= index < len(RANKS) else ("A+" if index >= len(RANKS) else "?")
