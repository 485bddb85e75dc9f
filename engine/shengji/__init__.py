"""升级 family (刮风, 炒地皮): four seats, two decks.  Rules: not implemented yet."""

from ..referee import GameRules

GAMES: tuple[GameRules, ...] = ()
