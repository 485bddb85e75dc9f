"""The match report's own words in Chinese (default) and English.

The recorder may not import the dashboard (``ui``), so the report keeps this small catalogue
of its own.  Where the dashboard shows the same fact (a deal's score, the game's title, a
seat's name) the words are the one copy both share (:mod:`cardref.engine.names`), so a
referee reads the same sentence in both places.  The games' own terms (够级, 头科, 进贡 …)
stay Chinese in both languages.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from cardref.engine.cards import Suit
from cardref.engine.names import GAME_TITLES as GAME_TITLES
from cardref.engine.names import LANGS as LANGS
from cardref.engine.names import SEAT_NAMES as SEAT_NAMES
from cardref.engine.names import SHARED_WORDS, seat_name
from cardref.engine.names import TRIBUTE_KINDS as TRIBUTE_KINDS
from cardref.engine.names import game_title as game_title

WORDS: dict[str, tuple[str, str]] = {
    **SHARED_WORDS,  # the columns, event types, deal line and score words the dashboard shows too
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
    "col.event": ("事件", "event"),
    "col.corrections": ("更正", "corrections"),
    "col.time": ("记录时间", "recorded"),
    "verdict.proven_at": ("（第 {i} 条事件证实）", "(proven at {i})"),
    "correction.line": ("#{seq} → {cards}，{who}：{why}", "#{seq} → {cards} by {who}: {why}"),
    "later.line": ("#{seq} 更正 #{ref}，{who}，{at}：{why}", "#{seq} fixes #{ref} by {who} at {at}: {why}"),
    "unknown": ("？", "?"),
    # event types (the others are shared)
    "type.explode": ("炸", "explode"),
    # scores (the others are shared)
    "score.not_scored": ("未计分（本局结果尚未决定）", "not scored (the summary decides no result yet)"),
    "score.teams": ("{a} {pa} : {pb} {b}", "{a} {pa} : {pb} {b}"),
    "score.places": ("名次分", "place points"),
    "score.tribute_points": ("进贡分", "tribute points"),
    "score.dealer_keeps": ("庄家连庄", "dealer keeps the deal"),
    "score.match_won": ("赢得整场比赛", "won the match"),
    "score.tricks": ("出牌轮次", "Tricks"),
    "score.complete": ("本局已打完", "deal complete"),
    "score.incomplete": ("本局未打完", "deal not finished"),
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

#: The suits' symbols by their event-log letter: the engine's own (:attr:`Suit.symbol`).
SUITS: dict[str, str] = {suit.value: suit.symbol for suit in Suit}


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


def seat_title(seat: Any, seats: int | None, lang: str = "zh") -> str:
    """Seat ``seat`` (0-based) in words; a seat that is not a number is shown as is."""
    if isinstance(seat, bool) or not isinstance(seat, int):
        return value_text(seat, lang)
    return seat_name(seat, seats, lang)


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
