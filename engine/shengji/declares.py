"""Declarations (``declare`` events): 亮主, 冲主, 续牌, 粘牌 and its hand-back, 换底, 扣底,
闷牌 (刮风); 亮主, 反主, 抄底, 回头望 (炒地皮).

Accepted ``what`` values and their keys (``cards`` always the shown cards):

=================  ============================================================================
``liangzhu``       亮主.  刮风: ≥1 joker + pair(s) of one suit (000 line 113).  炒地皮: one or two
                   level cards of one suit (003 line 24).
``chongzhu``       冲主 (刮风, 000 line 125): ≥2 jokers + pair(s), only over a one-joker 亮主.
``xupai``          续牌 (刮风, 000 line 135): by the 亮主 seat, before any 冲主: the same joker
                   again, or a pair extending its pairs to a run.
``zhanpai``        粘牌 (刮风, 000 line 145): jokers ≥ the 亮主's, pairs ≥ its pairs + 1.
``zhan_return``    粘牌 hand-back (000 lines 149, 155): ``cards`` given back, key ``to`` (seat);
                   as many cards as the 亮主 showed, at least one 大小王/级牌/2/3/5 per joker.
``exchange``       换底 (000 lines 161-191): ``take`` (bottom cards taken) and ``cards`` (side cards
                   given): only plain trumps, each for a side card of the same rank.
``bury``/``kou_di``  扣底: ``cards`` buried (optional); the seat is the burier.
``menpai``         闷牌 (000 line 217): nobody declared; the dealer plays one level lower.
``fanzhu``         反主 (003 line 26): a pair of level cards, 小王, 大王 or ♥5, higher in the
                   room's order (003 lines 142, 162, 176).
``chaodi``         抄底 (003 line 34): like ``fanzhu``, after the bottom is buried.  暗炒: a lower
                   抄底 is 炒底失败, ±80 (003 line 144).
``huitouwang``     回头望 (暗炒/明炒, 003 lines 140, 174): the 亮主 seat shows two of the card it
                   showed one of.
``out``            a seat has no cards left (spec); accepted, nothing to judge.
=================  ============================================================================
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..cards import Card, Rank, Suit
from ..events import DeclareEvent
from ..verdict import Fault
from .order import TrumpOrder

KNOWN = ("liangzhu", "chongzhu", "xupai", "zhanpai", "zhan_return", "exchange", "bury", "kou_di", "menpai",
         "fanzhu", "chaodi", "huitouwang", "out")


@dataclass
class Declared:
    seat: int
    jokers: int
    pairs: int
    suit: Suit | None
    cards: tuple[Card, ...]
    strength: int = -1        # 炒地皮's 反主 order index (-1: a plain 亮主)
    i: int = -1
    any_suit: bool = False    # ♥5 pair without a ``suit``: the trump may be any suit or 无主
    chongzhu: bool = False    # 冲主: in the first deal the 冲主 seat itself deals (000 line 127)


@dataclass
class DeclareState:
    """What the declarations of one deal have established so far."""

    current: Declared | None = None
    liangzhu: Declared | None = None
    chongzhu_done: bool = False
    zhan: Declared | None = None
    zhanned: list[Declared] = field(default_factory=list)
    buried: bool = False
    burier: int | None = None
    menpai: bool = False
    fanzhu_by_others: bool = False
    #: points to the attackers from 暗炒 炒底失败 (±80 each)
    chaodi_points: int = 0
    last_i: int | None = None
    shown_jokers: Counter[int] = field(default_factory=Counter)
    #: cards each seat showed and still owns (a 粘牌 takes them away after the burying)
    shown: dict[int, list[Card]] = field(default_factory=dict)

    @property
    def suit_known(self) -> bool:
        return self.current is not None

    @property
    def declared_suit(self) -> Suit | None:
        return None if self.current is None else self.current.suit


def _pairs(cards: Sequence[Card]) -> list[Card]:
    return [c for c, n in Counter(cards).items() if not c.is_joker for _ in range(n // 2)]


def _bad(what: str, cards: Sequence[Card], why: str, **facts: object) -> Fault:
    """``why`` is a phrase of engine/messages.py (its ``{fields}`` filled from ``facts``)."""
    return Fault("shengji.declare_bad_cards", {"what": what, "cards": list(cards), "why": why, **facts})


def _guafeng_show(ev: DeclareEvent, need_jokers: int) -> tuple[Declared | None, Fault | None]:
    jokers = sum(1 for c in ev.cards if c.is_joker)
    pairs = _pairs(ev.cards)
    suits = {p.suit for p in pairs}
    if jokers < need_jokers:
        return None, _bad(ev.what, ev.cards, "needs {jokers} joker(s)", jokers=need_jokers)
    if not pairs or len(suits) != 1:
        return None, _bad(ev.what, ev.cards, "needs a pair (or pairs) of one suit")
    return Declared(ev.seat, jokers, len(pairs), next(iter(suits)), ev.cards), None


def _run_positions(rank: Rank) -> tuple[int, ...]:
    return (1, 14) if rank == Rank.ACE else (int(rank),)


def _extends(old: Sequence[Card], new: Sequence[Card]) -> bool:
    """New pair(s) of the same suit adjacent (face value, A either end) to the declared pairs."""
    if {c.suit for c in new} != {c.suit for c in old}:
        return False
    have = {p for c in old for p in _run_positions(c.rank)}
    return all(any(q + 1 in have or q - 1 in have for q in _run_positions(c.rank)) for c in new)


def _fanzhu_token(cards: Sequence[Card], order: TrumpOrder) -> str | None:
    if len(cards) != 2 or cards[0] != cards[1]:
        return None
    c = cards[0]
    if c.rank == Rank.SMALL_JOKER:
        return "pair:SJ"
    if c.rank == Rank.BIG_JOKER:
        return "pair:BJ"
    if c.rank == Rank.FIVE and c.suit == Suit.HEARTS:
        return "pair:H5"
    if c.rank == order.level and c.suit is not None:
        return "pair:" + c.suit.value
    return None


def judge_declare(i: int, ev: DeclareEvent, state: DeclareState, order: TrumpOrder,
                  dealer: int, attackers: tuple[int, ...]) -> Fault | None:
    """Check one declaration and update ``state``; returns the first broken rule."""
    what = ev.what.lower()
    s = order.settings
    if what not in KNOWN:
        return Fault("shengji.unknown_declare", {"what": ev.what, "known": ", ".join(KNOWN)})
    if what == "out":
        return None
    state.last_i = i
    if what in ("bury", "kou_di"):
        state.buried = True
        state.burier = ev.seat
        if s.bury_all_jokers:  # 刮风 who buries (000 lines 115-121, 159, 171)
            allowed = allowed_buriers(state, dealer)
            if ev.seat not in allowed:
                return Fault("guafeng.wrong_burier", {"seat": ev.seat, "expected": " / ".join(map(str, allowed))})
        if ev.cards and len(ev.cards) != s.bottom_size:
            return Fault("shengji.bottom_wrong_size", {"expected": s.bottom_size, "got": len(ev.cards)})
        return None
    if what == "menpai":
        if not s.menpai:
            return Fault("shengji.unknown_declare", {"what": ev.what, "known": ", ".join(KNOWN)})
        if state.current is not None:
            return _bad(what, ev.cards, "someone declared a trump this deal")
        state.menpai = True
        return None
    if s.has_lei_shan:  # 刮风
        return _guafeng(i, what, ev, state, order)
    return _chaodipi(i, what, ev, state, order, attackers)


def expected_burier(state: DeclareState, dealer: int) -> int:
    """刮风: who buries when nobody said (000 lines 117-121, 159): the declarer's partner when a
    dealer-side seat declared, else the dealer."""
    if state.burier is not None:
        return state.burier
    first = state.liangzhu if state.zhan is None else state.zhanned[0] if state.zhanned else state.liangzhu
    declarer = state.current.seat if state.zhan is None and state.current is not None else (
        first.seat if first is not None else None)
    if declarer is not None and declarer % 2 == dealer % 2:
        return (declarer + 2) % 4
    return dealer


def allowed_buriers(state: DeclareState, dealer: int) -> tuple[int, ...]:
    """刮风: the seats that may bury: with a 粘牌 after an attacker's 亮主 the dealer side agrees
    among itself (000 line 171); otherwise the one seat of :func:`expected_burier`."""
    saved, state.burier = state.burier, None
    try:
        one = expected_burier(state, dealer)
    finally:
        state.burier = saved
    first = state.zhanned[0] if state.zhanned else None
    if state.zhan is not None and first is not None and first.seat % 2 != dealer % 2:
        return tuple(sorted((dealer, (dealer + 2) % 4)))
    return (one,)


def _guafeng(i: int, what: str, ev: DeclareEvent, state: DeclareState, order: TrumpOrder) -> Fault | None:
    cur = state.current
    if what == "liangzhu":
        if cur is not None:
            return _bad(what, ev.cards, "a trump is already declared (冲主/粘牌 instead)")
        d, fault = _guafeng_show(ev, 1)
        if d is None:
            return fault
        d.i = i
        state.current = state.liangzhu = d
        state.shown_jokers[ev.seat] += d.jokers
        state.shown.setdefault(ev.seat, []).extend(ev.cards)
        return None
    if what in ("chongzhu", "xupai") and state.buried:
        # 冲主 「在发牌结束前」 (000:125), 续牌 「在后续发牌中」 (000:135); 扣底 comes after
        # dealing (000:159): once the bottom is buried both are too late.
        return Fault("guafeng.declare_after_kou_di", {"what": what, "seat": ev.seat})
    if what == "chongzhu":
        if cur is None or state.liangzhu is None:
            return Fault("guafeng.chongzhu_not_allowed", {"why": "no 亮主 yet"})
        if state.chongzhu_done or cur.jokers != 1:
            return Fault("guafeng.chongzhu_not_allowed", {"why": "the 亮主 has {jokers} jokers", "jokers": cur.jokers})
        if ev.seat == cur.seat:
            return Fault("guafeng.chongzhu_not_allowed", {"why": "the 亮主 seat cannot 冲主 itself"})
        d, fault = _guafeng_show(ev, 2)
        if d is None:
            return fault
        d.i = i
        d.chongzhu = True
        state.current = d
        state.chongzhu_done = True
        state.shown_jokers[ev.seat] += d.jokers
        state.shown.setdefault(ev.seat, []).extend(ev.cards)
        return None
    if what == "xupai":
        if cur is None or state.liangzhu is None or ev.seat != state.liangzhu.seat:
            return Fault("guafeng.xupai_not_allowed", {"why": "only the 亮主 seat adds cards"})
        if state.chongzhu_done:
            return Fault("guafeng.xupai_not_allowed", {"why": "someone already 冲主 (000 line 137)"})
        jokers = [c for c in ev.cards if c.is_joker]
        pairs = _pairs(ev.cards)
        if jokers and (len(ev.cards) != 1 or jokers[0] not in cur.cards):
            return Fault("guafeng.xupai_not_allowed", {"why": "a joker must match the joker shown"})
        if not jokers and (not pairs or len(pairs) * 2 != len(ev.cards)
                           or not _extends([c for c in cur.cards if not c.is_joker], pairs)):
            return Fault("guafeng.xupai_not_allowed", {"why": "the pair must join the shown pairs as a run"})
        cur.jokers += len(jokers)
        cur.pairs += len(pairs)
        cur.cards = cur.cards + tuple(ev.cards)
        state.shown_jokers[ev.seat] += len(jokers)
        state.shown.setdefault(ev.seat, []).extend(ev.cards)
        return None
    if what == "zhanpai":
        if cur is None:
            return _bad(what, ev.cards, "nothing to 粘 yet")
        d, fault = _guafeng_show(ev, max(1, cur.jokers))
        if d is None or d.pairs < cur.pairs + 1:
            return Fault("guafeng.zhanpai_too_weak", {"jokers": cur.jokers, "pairs": cur.pairs})
        d.i = i
        state.zhanned.append(cur)
        state.shown.pop(cur.seat, None)
        state.current = state.zhan = d
        return None
    if what == "zhan_return":
        if state.zhan is None or ev.seat != state.zhan.seat or not state.zhanned:
            return Fault("guafeng.zhan_return_wrong", {"expected": 0, "trumps": 0, "got": len(ev.cards)})
        to = ev.args.get("to")
        owed = [d for d in state.zhanned if to is None or d.seat == to] or state.zhanned[-1:]
        expected = sum(d.jokers + 2 * d.pairs for d in owed)
        trumps_needed = sum(d.jokers for d in owed)
        strong = sum(1 for c in ev.cards if c.is_joker or c.rank == order.level
                     or c.rank in order.settings.permanent_ranks)
        if len(ev.cards) != expected or strong < trumps_needed:
            return Fault("guafeng.zhan_return_wrong", {"expected": expected, "trumps": trumps_needed,
                                                       "got": len(ev.cards)})
        return None
    if what == "exchange":
        return _exchange(ev, state, order)
    return Fault("shengji.unknown_declare", {"what": ev.what, "known": ", ".join(KNOWN)})


def _exchange(ev: DeclareEvent, state: DeclareState, order: TrumpOrder) -> Fault | None:
    from ..cards import CardCodeError, parse_cards
    try:
        take = parse_cards(ev.args.get("take", []))
    except CardCodeError as exc:
        return Fault("guafeng.exchange_not_allowed", {"why": "bad card {card!r} in take", "card": exc.text})
    owner = state.current.seat if state.current is not None else None
    if owner is not None and ev.seat != owner:
        return Fault("guafeng.exchange_not_allowed", {"why": "only seat {owner} (亮主/粘牌) may swap", "owner": owner})
    if len(take) != len(ev.cards) or not take:
        return Fault("guafeng.exchange_not_allowed", {"why": "take and cards must be as many"})
    for c in take:
        if not order.is_trump(c) or order.is_permanent(c):
            return Fault("guafeng.exchange_not_allowed", {"why": "{card} is not a plain trump", "card": c.code})
    for c in ev.cards:
        if order.is_trump(c):
            return Fault("guafeng.exchange_not_allowed", {"why": "{card} is a trump, not a side card", "card": c.code})
    if sorted(c.rank for c in take) != sorted(c.rank for c in ev.cards):
        return Fault("guafeng.exchange_not_allowed", {"why": "each card given must have the rank of one taken"})
    return None


def _chaodipi(i: int, what: str, ev: DeclareEvent, state: DeclareState, order: TrumpOrder,
              attackers: tuple[int, ...]) -> Fault | None:
    s = order.settings
    cur = state.current
    if what == "liangzhu":
        if cur is not None:
            return _bad(what, ev.cards, "a trump is already shown (反主 instead)")
        suits = {c.suit for c in ev.cards}
        if not 1 <= len(ev.cards) <= 2 or any(c.rank != order.level for c in ev.cards) or len(suits) != 1:
            return _bad(what, ev.cards, "one or two level cards of one suit")
        d = Declared(ev.seat, 0, len(ev.cards) - 1, next(iter(suits)), ev.cards, -1 if len(ev.cards) == 1 else
                     s.fanzhu_order.index("pair:" + ev.cards[0].suit.value) if ev.cards[0].suit else -1, i)
        state.current = state.liangzhu = d
        return None
    if what == "huitouwang":
        if "huitouwang" not in s.fanzhu_order:
            return Fault("chaodipi.no_huitouwang", {})
        lz = state.liangzhu
        if (lz is None or ev.seat != lz.seat or len(lz.cards) != 1 or len(ev.cards) != 2
                or any(c != lz.cards[0] for c in ev.cards) or cur is None or cur.seat == ev.seat):
            return _bad(what, ev.cards, "the 亮主 seat shows two of its one shown card after another's 反主")
        state.current = Declared(ev.seat, 0, 1, lz.suit, ev.cards, s.fanzhu_order.index("huitouwang"), i)
        return None
    if what in ("fanzhu", "chaodi"):
        token = _fanzhu_token(ev.cards, order)
        if token is None or token not in s.fanzhu_order:
            return _bad(what, ev.cards, "a pair of level cards, 小王, 大王 or ♥5")
        strength = s.fanzhu_order.index(token)
        suit: Suit | None
        if token in ("pair:SJ", "pair:BJ"):
            suit = None
        elif token == "pair:H5":
            chosen = ev.args.get("suit")
            suit = Suit(chosen) if chosen in ("S", "H", "D", "C") else None
        else:
            suit = ev.cards[0].suit
        current = cur.strength if cur is not None else -2
        if strength <= current:
            if s.hidden_declares and what == "chaodi":
                state.chaodi_points += -s.chaodi_failure_points if ev.seat in attackers else s.chaodi_failure_points
                return None
            if s.hidden_declares:
                return None  # a hidden 反主 that is too low simply does not take effect
            return Fault("chaodipi.fanzhu_too_low", {"got": token, "current": s.fanzhu_order[current]
                                                     if current >= 0 else "亮主"})
        state.current = Declared(ev.seat, 0, 1, suit, ev.cards, strength, i,
                                 any_suit=token == "pair:H5" and suit is None)
        if what == "chaodi":
            state.buried = False
        return None
    return Fault("shengji.unknown_declare", {"what": ev.what, "known": ", ".join(KNOWN)})


__all__ = ["KNOWN", "DeclareState", "Declared", "allowed_buriers", "expected_burier", "judge_declare"]
