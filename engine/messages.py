"""Sentences for fault codes, in Chinese (default) and English.

Each rules module registers its own catalogue with :func:`register`; templates use
``str.format`` fields named after the fault's facts.  The games' own terms (够级, 烧牌,
开点, 扣底 …) stay in Chinese in both languages.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

LANGS = ("zh", "en")

_CATALOGUE: dict[str, dict[str, str]] = {}


def register(catalogue: Mapping[str, Mapping[str, str]]) -> None:
    """Add ``{code: {"zh": template, "en": template}}`` entries."""
    for code, texts in catalogue.items():
        missing = [lang for lang in LANGS if lang not in texts]
        if missing:
            raise ValueError(f"message {code!r} lacks {missing}")
        _CATALOGUE[code] = dict(texts)


def known_codes() -> set[str]:
    return set(_CATALOGUE)


class _Facts(dict):
    def __missing__(self, key: str) -> str:
        return "?"


#: The fixed English phrases that facts carry (a bad option's ``why``: "a seat 0-3"; its
#: ``key``: "level"), in Chinese: such a fact is shown in the sentence's language, while the
#: facts themselves stay as they are (stable data for tools).
_PHRASES_ZH: dict[str, str] = {}
#: The facts whose values are phrases.
PHRASE_FACTS = ("why", "key")


def register_phrases(phrases: Mapping[str, str]) -> None:
    """Add ``{english phrase: chinese phrase}`` entries."""
    _PHRASES_ZH.update(phrases)


def _show(value: Any, lang: str = "en", fact: str = "") -> Any:
    if isinstance(value, list | tuple) and all(hasattr(v, "code") for v in value):
        return " ".join(v.code for v in value)
    if hasattr(value, "code") and not isinstance(value, str):
        return value.code
    if fact == "value" and value is None:  # an option left out or written null: as the log writes it
        return "空（null）" if lang == "zh" else "null"
    if lang == "zh" and fact in PHRASE_FACTS and isinstance(value, str):
        return _PHRASES_ZH.get(value, value)
    return value


def render(code: str, facts: Mapping[str, Any], lang: str = "zh") -> str:
    lang = lang if lang in LANGS else "zh"
    texts = _CATALOGUE.get(code)
    shown = _Facts({k: _show(v, lang, k) for k, v in facts.items()})
    inner = facts.get("fault")
    if isinstance(inner, str) and isinstance(facts.get("fault_facts"), Mapping):
        shown["fault_message"] = render(inner, facts["fault_facts"], lang)  # the fault it would be
    if texts is None:
        detail = ", ".join(f"{k}={v}" for k, v in shown.items())
        return f"{code}" + (f" ({detail})" if detail else "")
    for key in PHRASE_FACTS:  # a phrase with fields of its own ("only seat {owner} may swap")
        phrase = shown.get(key)
        if isinstance(phrase, str) and "{" in phrase:
            try:
                shown[key] = phrase.format_map(_Facts({k: v for k, v in shown.items() if k not in PHRASE_FACTS}))
            except (ValueError, IndexError, AttributeError):
                pass
    try:
        return texts[lang].format_map(shown)
    except (ValueError, IndexError, AttributeError):
        return texts[lang]


register({
    "log.bad_json": {"zh": "第 {lineno} 行不是 JSON：{detail}", "en": "line {lineno} is not JSON: {detail}"},
    "log.not_object": {"zh": "第 {lineno} 行不是 JSON 对象", "en": "line {lineno} is not a JSON object"},
    "log.unknown_type": {"zh": "第 {lineno} 行：未知事件类型 {type!r}", "en": "line {lineno}: unknown event type {type!r}"},
    "event.missing_key": {"zh": "第 {lineno} 行：缺少字段 {key!r}", "en": "line {lineno}: missing key {key!r}"},
    "event.bad_value": {"zh": "第 {lineno} 行：字段 {key!r} 的值无效：{value!r}",
                        "en": "line {lineno}: bad value for {key!r}: {value!r}"},
    "event.bad_card": {"zh": "第 {lineno} 行：未知牌码 {card!r}", "en": "line {lineno}: unknown card code {card!r}"},
    "event.bad_seat": {"zh": "第 {lineno} 行：座位 {seat} 不存在（本局 {seats} 个座位）",
                       "en": "line {lineno}: there is no seat {seat} (this deal has {seats} seats)"},
    "log.no_deal": {"zh": "在第一个 deal 事件之前的事件无法判定", "en": "event before the first deal event cannot be judged"},
    "log.unknown_game": {"zh": "未知游戏 {game!r}（可用：{known}）", "en": "unknown game {game!r} (known: {known})"},
    "log.seats_mismatch": {"zh": "{game} 需要 {expected} 个座位，日志写了 {seats}",
                           "en": "{game} is played by {expected} seats, the log says {seats}"},
    "judge.game_unsupported": {"zh": "{game} 的规则尚未实现，本局只检查牌码、座位和牌数，不判定出牌是否合规",
                               "en": "rules for {game} are not implemented yet: this deal is checked only for card codes, "
                                     "seats and copies, not judged"},
    "deck.too_many_copies": {"zh": "{card} 出现了 {seen} 张，但本局牌中只有 {limit} 张（误读或外来的牌）",
                             "en": "{card} seen {seen} times but the decks hold only {limit} (a misread or a foreign card)"},
    "deck.too_many_of_rank": {"zh": "点数 {rank} 出现了 {seen} 张，但本局牌中只有 {limit} 张（误读或外来的牌）",
                              "en": "{seen} cards of rank {rank} seen but the decks hold only {limit} "
                                    "(a misread or a foreign card)"},
    "correct.bad_ref": {"zh": "更正指向的事件（ref={ref}，从 0 数）不存在或不能更正",
                        "en": "correction refers to event ref={ref} (counted from 0), "
                        "which does not exist or cannot be corrected"},
    "hand.wrong_size": {"zh": "座位 {seat} 的手牌有 {got} 张，本局应为 {expected} 张",
                        "en": "seat {seat} holds {got} cards but this deal gives {expected}"},
    "play.not_in_hand": {"zh": "座位 {seat} 手里没有这些牌：{cards}", "en": "seat {seat} does not hold {cards}"},
    "play.after_out": {"zh": "座位 {seat} 已经出完牌，不能再出", "en": "seat {seat} has already gone out and cannot play"},
    "play.empty": {"zh": "出牌不能为空", "en": "a play needs at least one card"},
    "observe.missing_play": {"zh": "没有看到座位 {seat} 的出牌（被遮挡或漏拍？），按看到的牌继续判定",
                             "en": "a play by seat {seat} was not seen (covered or missed?); judging goes on "
                                   "from what was seen"},
    "observe.card_unplausible": {"zh": "座位 {seat} 的 {cards} 中 {card} 与其他牌不成一手，可能看错了（按 {as} 判定）",
                                 "en": "seat {seat}: {card} in {cards} cannot go with the others, probably misread "
                                       "(judged as {as})"},
    "observe.fault_or_slip": {"zh": "{fault_message}（看到的是 {cards}）——也可能是摄像头漏看了一手牌或看错了牌，请确认",
                              "en": "{fault_message} (seen: {cards}) — or the camera missed a play or misread "
                                    "a card; please confirm"},
    "observe.unexpected_lead": {"zh": "按看到的牌上一轮应由座位 {expected} 领出，座位 {seat} 却领出：上一轮可能有牌看错或漏看",
                                "en": "by the cards seen seat {expected} leads, but seat {seat} led: a card of the last "
                                      "trick may be misread or missed"},
})


register_phrases({
    # the deal options (their log keys kept, so that the log can be fixed) and their valid values
    "level": "打几（level）",
    "dealer": "庄家（dealer）",
    "leader": "首家（leader）",
    "trump": "主花色（trump）",
    "a seat 0-3": "0-3 号座位",
    "a seat 0-5": "0-5 号座位",
    "the previous deal's 大落, seat {daluo} (第二局开始由大落上班, 004:17)": "上局大落座位 {daluo}（第二局开始由大落上班，004:17）",
    "a rank 2-10, J, Q, K or A": "2-10、J、Q、K 或 A",
    "this game always has a trump suit": "本游戏必须有主花色",
    "S, H, D, C or null": "S、H、D、C 或 null（无主）",
    # the declarations' conditions
    "2/joker": "2 或王",
    "3 sets": "三手纯够级",
    "a joker must match the joker shown": "王须与亮出的王相同",
    "each card given must have the rank of one taken": "给出的每张牌须与拿走的某张牌同点数",
    "no 亮主 yet": "还没有人亮主",
    "only the 亮主 seat adds cards": "只有亮主的座位能续牌",
    "someone already 冲主 (000 line 137)": "已经有人冲主（000 第 137 行）",
    "take and cards must be as many": "拿走与给出的牌须一样多",
    "the pair must join the shown pairs as a run": "这对牌须与亮出的对子连成拖拉机",
    "the 亮主 seat cannot 冲主 itself": "亮主的座位不能自己冲主",
    "needs {jokers} joker(s)": "须有 {jokers} 张王",
    "needs a pair (or pairs) of one suit": "须是同一花色的对子",
    "someone declared a trump this deal": "本局已有人亮主",
    "a trump is already declared (冲主/粘牌 instead)": "已经有人亮主（应冲主或粘牌）",
    "nothing to 粘 yet": "还没有可粘的牌",
    "a trump is already shown (反主 instead)": "已经有人亮主（应反主）",
    "one or two level cards of one suit": "同一花色的一张或两张级牌",
    "the 亮主 seat shows two of its one shown card after another's 反主": "别家反主后，亮主的座位又亮出它已亮那张牌的一对",
    "a pair of level cards, 小王, 大王 or ♥5": "一对级牌、小王、大王或♥5",
    "the 亮主 has {jokers} jokers": "亮主有 {jokers} 张王",
    "bad card {card!r} in take": "take 中的牌码 {card!r} 无效",
    "only seat {owner} (亮主/粘牌) may swap": "只有座位 {owner}（亮主/粘牌）能换底",
    "{card} is not a plain trump": "{card} 不是普通主牌",
    "{card} is a trump, not a side card": "{card} 是主牌，不是副牌",
})
