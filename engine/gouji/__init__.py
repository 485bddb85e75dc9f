"""够级 (Gouji): six seats, four decks less ten 3s and ten 4s.  Rules: not implemented yet."""

from ..referee import GameRules

GAMES: tuple[GameRules, ...] = ()
