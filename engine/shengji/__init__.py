"""升级 family: 刮风 (Zibo) and 炒地皮 (暗炒, 扛旗, 明炒 rooms).  Four seats, two decks.

One referee (:mod:`.referee`) plays every game; what differs is data in
:mod:`.settings`.  Modules: ``order`` (card order of a deal), ``combos`` (what cards make),
``compare`` (who wins, 毙/盖毙), ``follow`` (following rules), ``throws`` (甩牌), ``points``
(points and the bottom), ``levels`` (level tables and must-play levels), ``declares``
(亮主/冲主/续牌/粘牌/反主/抄底/回头望), ``declared`` (what they imply for the hand, bottom
and first play), ``options`` (the deal's options), ``plays`` (the rules a play is judged by),
``tricks`` (turn order, the tricks and their points), ``proofs`` (follows and throws later
cards prove wrong), ``failures`` (a failed throw's penalty and cards given back), ``readings``
and ``slips`` (camera slips: second readings of a play, cards misread), ``match`` (levels
across deals), ``results`` (summary and state), ``simulate`` (random legal deals), ``messages``.
"""

from ..decks import TWO_DECKS
from ..referee import GameRules
from .referee import make_referee
from .settings import ANCHAO, GUAFENG, KANGQI, MINGCHAO

GAMES: tuple[GameRules, ...] = (
    GameRules("guafeng-zibo", 4, TWO_DECKS, GUAFENG, make_referee, "shengji", "淄博刮风", "Guafeng (Zibo)"),
    GameRules("chaodipi-anchao", 4, TWO_DECKS, ANCHAO, make_referee, "shengji", "炒地皮·暗炒", "Chaodipi (hidden)"),
    GameRules("chaodipi-kangqi", 4, TWO_DECKS, KANGQI, make_referee, "shengji", "炒地皮·扛旗", "Chaodipi (flag)"),
    GameRules("chaodipi-mingchao", 4, TWO_DECKS, MINGCHAO, make_referee, "shengji", "炒地皮·明炒", "Chaodipi (open)"),
)
