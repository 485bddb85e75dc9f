"""The words the dashboard (``ui/i18n.py``) and the match report (``recorder/report_words.py``)
both show, kept once: the games' titles, the seats' names, the tribute kinds, and the
sentences of the facts both pages state (a deal's line, its score, the event types).

Pure data with two look-ups; no I/O.  It lives in the engine because neither of its two
readers may import the other (the recorder may not import the dashboard).  Each pair is
``(zh, en)``; the games' own terms (够级, 开点, 扣底 …) stay Chinese in both languages.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

LANGS = ("zh", "en")

#: The games' titles, by the rules' registry name.
GAME_TITLES: dict[str, tuple[str, str]] = {
    "gouji-yucheng": ("够级 · 禹城", "够级 · Yucheng"),
    "gouji-shandong": ("够级 · 山东", "够级 · Shandong"),
    "guafeng-zibo": ("刮风 · 淄博", "刮风 · Zibo"),
    "chaodipi-anchao": ("炒地皮 · 暗炒", "炒地皮 · 暗炒"),
    "chaodipi-kangqi": ("炒地皮 · 扛旗", "炒地皮 · 扛旗"),
    "chaodipi-mingchao": ("炒地皮 · 明炒", "炒地皮 · 明炒"),
}

#: How the seats are named, by the number of seats (seat 0 first, in the order of play,
#: 逆时针).  Decision (issue #31 item 1), used in every message, picker, picture and report:
#:
#: * 4 seats (刮风, 炒地皮): the winds 东 南 西 北, in play order as at a Chinese card or
#:   mahjong table (东 leads the order, 南 plays after 东, …; the 对家 of 东 is 西).
#: * 6 seats (够级): the numbered places 1号位 … 6号位 that 够级 matches call the seats by;
#:   对门 are three apart (1号位 and 4号位, 2号位 and 5号位, 3号位 and 6号位) and the two
#:   联邦 (teams) are the odd and the even places.  No wind names here: six seats have no
#:   four winds, and a referee calls out "3号位" at a 够级 table.
#:
#: A player's name, when the deal gives one, follows the seat's ("南·张三").
SEAT_NAMES: dict[int, tuple[tuple[str, ...], tuple[str, ...]]] = {
    4: (("东", "南", "西", "北"), ("East", "South", "West", "North")),
    6: (("1号位", "2号位", "3号位", "4号位", "5号位", "6号位"),
        ("Seat 1", "Seat 2", "Seat 3", "Seat 4", "Seat 5", "Seat 6")),
}

#: The tribute kinds of 够级 (a tribute's ``kind`` in a deal's score); Chinese in both languages.
TRIBUTE_KINDS: dict[str, str] = {"luo": "落贡", "shao": "烧贡", "men": "闷贡", "dian": "点贡", "chuan": "串贡"}

#: Sentences both catalogues hold with the same key: each catalogue adds these to its own.
SHARED_WORDS: dict[str, tuple[str, str]] = {
    # table columns
    "col.seat": ("座位", "seat"),
    "col.cards": ("牌", "cards"),
    "col.verdict": ("判定", "verdict"),
    # event types
    "type.deal": ("开局", "deal"),
    "type.hand": ("手牌", "hand"),
    "type.bottom": ("底牌", "bottom"),
    "type.play": ("出牌", "play"),
    "type.pass": ("不要", "pass"),
    "type.declare": ("宣告", "declare"),
    "type.correct": ("更正", "correct"),
    "type.error": ("无法读取", "unreadable"),
    # the deal line
    "deal.level": ("打{level}", "level {level}"),
    "deal.trump": ("主{suit}", "trump {suit}"),
    "deal.no_trump": ("无主", "no trump"),
    "deal.dealer": ("庄家 {seat}", "dealer {seat}"),
    "deal.leader": ("首出 {seat}", "leader {seat}"),
    # a deal's score
    "score.attacker_points": ("抓分方得分", "Attacker points"),
    "score.penalty_points": ("甩牌罚分", "甩牌 penalty"),
    "score.bonus_points": ("奖罚分（逼红5/保红5、炒底）", "bonus (逼红5/保红5, 炒底)"),
    "score.bottom_points": ("底分", "Bottom points"),
    "score.bottom_multiplier": ("扣底倍数", "扣底 multiplier"),
    "score.final_points": ("最终得分", "Final points"),
    "score.level_change": ("升级", "Level change"),
    "score.next_dealer": ("下一局庄家", "next dealer"),
    "score.next_level": ("下一局打", "next level"),
    "score.trump": ("主牌", "Trump"),
    "score.level": ("打几", "Level"),
    "score.dealer": ("庄家", "Dealer"),
    "score.leader": ("首出", "Leader"),
    "score.order": ("出完顺序", "Finishing order"),
    "score.kaidian": ("开点", "开点"),
    "score.tributes": ("下一局进贡", "Tributes owed"),
}


def game_title(game: object, lang: str = "zh") -> str:
    """The title of ``game`` in ``lang`` (zh unless "en"); a game the table does not know is
    shown by its name."""
    pair = GAME_TITLES.get(str(game))
    return str(game) if pair is None else pair[1 if lang == "en" else 0]


def seat_name(seat: int, seats: int | None, lang: str = "zh") -> str:
    """Seat ``seat`` (0-based, as in the event log) of a ``seats``-seat table in ``lang``;
    a table size without names, or a seat outside it, is numbered ("3号位", "Seat 3")."""
    names = SEAT_NAMES.get(seats or 0)
    if names is not None and 0 <= seat < len(names[0]):
        return names[1 if lang == "en" else 0][seat]
    return f"Seat {seat + 1}" if lang == "en" else f"{seat + 1}号位"


#: "座位 N" / "seat N" (0-based) as the rules' messages write a seat.
_SEAT_IN_TEXT = {"zh": re.compile(r"座位 ?(\d+)"), "en": re.compile(r"\b[Ss]eat (\d+)\b")}


def name_seats(text: str, names: Sequence[str], lang: str = "zh") -> str:
    """``text`` (a rules message) with each "座位 N" / "seat N" written as ``names[N]``, so
    that one message never names a seat two ways; a seat beyond ``names`` stays as written."""
    if not names or not text:
        return text

    def sub(m: re.Match[str]) -> str:
        k = int(m.group(1))
        return names[k] if 0 <= k < len(names) else m.group(0)

    return _SEAT_IN_TEXT["en" if lang == "en" else "zh"].sub(sub, text)
