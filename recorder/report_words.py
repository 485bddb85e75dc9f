"""The match report's own words in Chinese (default) and English.

The recorder may not import the dashboard (``ui``), so the report keeps this small catalogue
of its own.  Where the dashboard shows the same fact (a deal's score, the game's title, a
seat's name) the words here are the dashboard's (``ui/i18n.py``), so a referee reads the same
sentence in both places.  The games' own terms (够级, 头科, 进贡 …) stay Chinese in both languages.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

LANGS = ("zh", "en")

WORDS: dict[str, tuple[str, str]] = {
    # page
    "page.title": ("cardref 比赛报告 · 第 {id} 场", "cardref match report · match {id}"),
    "match.title": ("第 {id} 场", "Match {id}"),
    "match.table": ("牌桌", "Table"),
    "match.tournament": ("赛事", "tournament"),
    "match.started": ("开始于", "started"),
    "match.confirmed": ("由 {who} 于 {at} 确认", "confirmed by {who} at {at}"),
    "match.not_confirmed": ("尚未确认", "not confirmed"),
    "match.counts": ("共 {deals} 局，违规 {faults} 次。", "{deals} deals, {faults} faulty events."),
    "team.a": ("A 队（偶数座位）", "A (even seats)"),
    "team.b": ("B 队（奇数座位）", "B (odd seats)"),
    # sections
    "section.before": ("第一局之前", "Before the first deal"),
    "section.deal": ("第 {n} 局 · {game}", "Deal {n} · {game}"),
    "section.later": ("比赛结束后记录的更正", "Corrections recorded after the match"),
    "section.summary": ("本局结果", "Deal result"),
    # event table
    "col.seq": ("#", "#"),
    "col.seat": ("座位", "seat"),
    "col.event": ("事件", "event"),
    "col.cards": ("牌", "cards"),
    "col.verdict": ("判定", "verdict"),
    "col.corrections": ("更正", "corrections"),
    "col.time": ("记录时间", "recorded"),
    "verdict.proven_at": ("（第 {i} 条事件证实）", "(proven at {i})"),
    "correction.line": ("#{seq} → {cards}，{who}：{why}", "#{seq} → {cards} by {who}: {why}"),
    "later.line": ("#{seq} 更正 #{ref}，{who}，{at}：{why}", "#{seq} fixes #{ref} by {who} at {at}: {why}"),
    "unknown": ("？", "?"),
    # event types (the dashboard's type.*)
    "type.deal": ("开局", "deal"),
    "type.hand": ("手牌", "hand"),
    "type.bottom": ("底牌", "bottom"),
    "type.play": ("出牌", "play"),
    "type.pass": ("不要", "pass"),
    "type.declare": ("宣告", "declare"),
    "type.correct": ("更正", "correct"),
    "type.explode": ("炸", "explode"),
    "type.error": ("无法读取", "unreadable"),
    # the deal line (the dashboard's deal.*)
    "deal.level": ("打{level}", "level {level}"),
    "deal.trump": ("主{suit}", "trump {suit}"),
    "deal.no_trump": ("无主", "no trump"),
    "deal.dealer": ("庄家 {seat}", "dealer {seat}"),
    "deal.leader": ("首出 {seat}", "leader {seat}"),
    # scores (the dashboard's score.*)
    "score.not_scored": ("未计分（本局结果尚未决定）", "not scored (the summary decides no result yet)"),
    "score.teams": ("{a} {pa} : {pb} {b}", "{a} {pa} : {pb} {b}"),
    "score.places": ("名次分", "place points"),
    "score.tribute_points": ("进贡分", "tribute points"),
    "score.attacker_points": ("抓分方得分", "Attacker points"),
    "score.penalty_points": ("甩牌罚分", "甩牌 penalty"),
    "score.bonus_points": ("奖罚分（逼红5/保红5、炒底）", "bonus (逼红5/保红5, 炒底)"),
    "score.bottom_points": ("底分", "Bottom points"),
    "score.bottom_multiplier": ("扣底倍数", "扣底 multiplier"),
    "score.final_points": ("最终得分", "Final points"),
    "score.level_change": ("升级", "Level change"),
    "score.dealer_keeps": ("庄家连庄", "dealer keeps the deal"),
    "score.match_won": ("赢得整场比赛", "won the match"),
    "score.next_dealer": ("下一局庄家", "next dealer"),
    "score.next_level": ("下一局打", "next level"),
    "score.trump": ("主牌", "Trump"),
    "score.level": ("打几", "Level"),
    "score.dealer": ("庄家", "Dealer"),
    "score.leader": ("首出", "Leader"),
    "score.tricks": ("出牌轮次", "Tricks"),
    "score.complete": ("本局已打完", "deal complete"),
    "score.incomplete": ("本局未打完", "deal not finished"),
    "score.order": ("出完顺序", "Finishing order"),
    "score.kaidian": ("开点", "开点"),
    "score.tributes": ("下一局进贡", "Tributes owed"),
    "score.tribute": ("{giver} → {taker} {count} 张（{kind}）", "{giver} → {taker} {count} cards ({kind})"),
    "score.men": ("闷", "闷"),
    "score.men_by": ("{seat}（被 {by} 闷）", "{seat} (by {by})"),
    "score.parts": ("（{parts}）", " ({parts})"),
    "score.burns": ("烧牌", "烧牌"),
    "score.burn": ("{seat} 烧 {target}", "{seat} burns {target}"),
    "score.chuan": ("串", "串"),
    "none": ("—", "—"),
    "yes": ("是", "yes"),
    "no": ("否", "no"),
}

#: 够级 finishing places, 头科 first (the games' own terms, Chinese in both languages).
PLACES = ("头科", "二科", "三科", "四科", "二落", "大落")

#: Tribute kinds of 够级 (the dashboard's TRIBUTE_KINDS).
TRIBUTE_KINDS = {"dian": "点贡", "shao": "烧贡", "men": "闷贡", "chuan": "串贡"}

#: The games' titles (the dashboard's ``GAME_TITLES``).
GAME_TITLES: dict[str, tuple[str, str]] = {
    "gouji-yucheng": ("够级 · 禹城", "够级 · Yucheng"),
    "gouji-shandong": ("够级 · 山东", "够级 · Shandong"),
    "guafeng-zibo": ("刮风 · 淄博", "刮风 · Zibo"),
    "chaodipi-anchao": ("炒地皮 · 暗炒", "炒地皮 · 暗炒"),
    "chaodipi-kangqi": ("炒地皮 · 扛旗", "炒地皮 · 扛旗"),
    "chaodipi-mingchao": ("炒地皮 · 明炒", "炒地皮 · 明炒"),
}

#: Seat names by the number of seats (the dashboard's ``SEAT_NAMES``): the winds for four
#: seats, the numbered places for six.
SEAT_NAMES: dict[int, tuple[tuple[str, ...], tuple[str, ...]]] = {
    4: (("东", "南", "西", "北"), ("East", "South", "West", "North")),
    6: (("1号位", "2号位", "3号位", "4号位", "5号位", "6号位"),
        ("Seat 1", "Seat 2", "Seat 3", "Seat 4", "Seat 5", "Seat 6")),
}

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def word(key: str, lang: str = "zh", **facts: object) -> str:
    """The sentence for ``key`` in ``lang`` (zh unless "en"), formatted with ``facts``;
    an unknown key is shown as is."""
    pair = WORDS.get(key)
    if pair is None:
        return key
    text = pair[1] if lang == "en" else pair[0]
    if not facts:
        return text
    try:
        return text.format(**facts)
    except (KeyError, ValueError, IndexError):
        return text


def game_title(game: Any, lang: str = "zh") -> str:
    pair = GAME_TITLES.get(str(game))
    return str(game) if pair is None else pair[1 if lang == "en" else 0]


def seat_title(seat: Any, seats: int | None, lang: str = "zh") -> str:
    """Seat ``seat`` (0-based) in words; a seat that is not a number is shown as is."""
    if isinstance(seat, bool) or not isinstance(seat, int):
        return value_text(seat, lang)
    names = SEAT_NAMES.get(seats or 0)
    if names is not None and 0 <= seat < len(names[0]):
        return names[1 if lang == "en" else 0][seat]
    return f"{seat + 1}号位" if lang != "en" else f"Seat {seat + 1}"


def value_text(value: Any, lang: str = "zh") -> str:
    """A value for a person, never as JSON: None → "—", booleans 是/否, lists joined by
    spaces, mappings as ``key value`` pairs joined by " · "."""
    if value is None or value == "" or value == [] or value == {}:
        return word("none", lang)
    if isinstance(value, bool):
        return word("yes" if value else "no", lang)
    if isinstance(value, list | tuple):
        return " ".join(value_text(v, lang) for v in value)
    if isinstance(value, dict):
        return " · ".join(f"{k} {value_text(v, lang)}" for k, v in value.items())
    return str(value)


def timestamp(text: Any) -> str:
    """An ISO timestamp shown to the second: ``2026-12-02 17:55:31 UTC`` (another offset is
    written as ``+08:00``); text that is no timestamp is shown as is."""
    if not isinstance(text, str) or not text:
        return value_text(text)
    try:
        at = datetime.fromisoformat(text)
    except ValueError:
        return text
    shown = at.strftime("%Y-%m-%d %H:%M:%S")
    offset = at.utcoffset()
    if offset is None:
        return shown
    if not offset:
        return shown + " UTC"
    return shown + " " + at.strftime("%z")[:3] + ":" + at.strftime("%z")[3:]
