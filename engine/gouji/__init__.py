"""够级 (Gouji): six seats in two teams, four decks less ten 3s and ten 4s (196 cards).

Two rule variants, one :class:`~.settings.GoujiSettings` each: ``gouji-yucheng`` (禹城够级,
seed 004) and ``gouji-shandong`` (山东够级, seed 002, partial).  Rule decisions:
``docs/rules/gouji.md``.
"""

from __future__ import annotations

from ..decks import GOUJI_DECKS
from ..referee import GameRules
from . import messages as _messages  # noqa: F401  (registers the fault sentences)
from .referee import GoujiReferee
from .settings import SHANDONG, YUCHENG, GoujiSettings

GAMES: tuple[GameRules, ...] = (
    GameRules("gouji-yucheng", 6, GOUJI_DECKS, YUCHENG, GoujiReferee, family="gouji",
              title_zh="禹城够级", title_en="Gouji (Yucheng rules)"),
    GameRules("gouji-shandong", 6, GOUJI_DECKS, SHANDONG, GoujiReferee, family="gouji",
              title_zh="山东够级", title_en="Gouji (Shandong rules)"),
)

__all__ = ["GAMES", "GoujiReferee", "GoujiSettings", "SHANDONG", "YUCHENG"]
