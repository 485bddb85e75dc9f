"""The games the referee knows, keyed by the spec's game names.

Each game family package exposes ``GAMES: tuple[GameRules, ...]``; this module collects
them.  A name of the spec whose family is not implemented maps to rules with no referee,
and the judge says so per deal.
"""

from __future__ import annotations

from functools import cache

from .decks import GOUJI_DECKS, TWO_DECKS
from .events import GAME_SEATS
from .referee import GameRules


@cache
def games() -> dict[str, GameRules]:
    from . import gouji, shengji

    found: dict[str, GameRules] = {}
    for family in (gouji, shengji):
        for rules in getattr(family, "GAMES", ()):
            found[rules.name] = rules
    for name, seats in GAME_SEATS.items():
        if name not in found:
            composition = GOUJI_DECKS if name.startswith("gouji") else TWO_DECKS
            found[name] = GameRules(name, seats, composition, None, None)
    return found


def get(name: str) -> GameRules | None:
    return games().get(name)


def is_gouji(name: str | None) -> bool:
    """Whether ``name`` is a 够级 game (its rules' ``family``, not a guess from the name)."""
    rules = games().get(name) if name else None
    return rules is not None and rules.family == "gouji"


def family_of(name: str | None) -> str | None:
    """The family of game ``name`` ("gouji", "shengji"), or None for a name it does not know."""
    rules = games().get(name) if name else None
    return rules.family or None if rules is not None else None


def names() -> list[str]:
    return sorted(games())
