"""Declares of 够级 (spoken acts the camera cannot see) and the 冲点 phase.

Before play (in the order of ``settings.prep_stages``): ``kangong`` 扛贡, ``xuandian`` 宣点,
``buy3``/``buy4`` 买3买4, ``tribute`` 进贡, ``revolution`` 革命, ``chongdian`` 冲点.  During
play: ``burn`` 烧牌, ``rangpai`` 让牌, ``rendian`` 认点, ``yaotou``/``youtou``/``wutou``
(head choice of a 革命/冲点 seat's 对门), ``out``.  Each is judged for legality as far as the
known cards allow.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..events import DeclareEvent
from ..verdict import Fault
from .burning import burn_fault
from .chongdian import answer_missed, fail_unseen
from .chongdian_state import Chong
from .declare_names import Declare
from .hands import Hand
from .shapes import BJ, FOUR, ORDER, RANK_CODE, SJ, THREE, TWO
from .table import Phase
from .tributes import KIND_ORDER

if TYPE_CHECKING:
    from ..cards import Card
    from .deal import GoujiDeal

PREP = frozenset({Declare.BUY3, Declare.BUY4, Declare.XUANDIAN, Declare.KANGONG, Declare.TRIBUTE,
                  Declare.REVOLUTION, Declare.CHONGDIAN})
KNOWN = frozenset(Declare)


def _opp(seat: int) -> int:
    return (seat + 3) % 6


def _count(hand: Hand, order: int) -> int:
    return hand.count(order)


def _seat_arg(ev: DeclareEvent, key: str) -> int | None:
    value = ev.args.get(key)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 6:
        return value
    return None


def judge(ref: GoujiDeal, i: int, ev: DeclareEvent) -> list[Fault]:
    what = ev.what
    seat = ev.seat
    s = ref.s
    if what not in s.declares:
        code = "gouji.not_in_variant" if what in KNOWN else "gouji.unknown_declare"
        return [Fault(code, {"seat": seat, "what": what, "game": ref.deal.game})]
    if ref.phase == Phase.VOID:
        return [Fault("gouji.deal_void", {"seat": seat})]
    if what in PREP:
        if ref.phase != Phase.PREP:
            return [Fault("gouji.declare_too_late", {"seat": seat, "what": what})]
        stage = dict(s.prep_stages).get(what)
        if stage is not None:
            if stage < ref.prep_stage:
                return [Fault("gouji.declare_out_of_order", {"seat": seat, "what": what})]
            ref.prep_stage = stage
    handler = _HANDLERS[what]
    return handler(ref, i, ev)


# ---------------------------------------------------------------------- before play
def _buy(ref: GoujiDeal, i: int, ev: DeclareEvent) -> list[Fault]:
    """买3买4 (004:17-19; 002:20-25)."""
    buyer = ev.seat
    rank = THREE if ev.what == Declare.BUY3 else FOUR
    seller = _seat_arg(ev, "from")
    facts: dict[str, Any] = {"seat": buyer, "rank": RANK_CODE[rank], "from": seller}
    if seller is None or seller == buyer:
        return [Fault("gouji.buy_bad_seller", facts)]
    pay = ev.cards
    if len(pay) > 1 or any(ORDER[c.rank] not in (TWO, SJ, BJ) for c in pay):
        return [Fault("gouji.buy_wrong_payment", {**facts, "cards": list(pay)})]
    if pay and ORDER[pay[0].rank] != TWO and not ref.s.buy_with_joker:
        return [Fault("gouji.buy_wrong_payment", {**facts, "cards": list(pay)})]
    hands = ref.hands
    hb, hs = hands[buyer], hands[seller]
    if hb is not None and _count(hb, rank) > 0:
        return [Fault("gouji.buy_not_needed", facts)]
    if hs is not None and _count(hs, rank) < 2:
        return [Fault("gouji.buy_no_spare", facts)]
    # who must sell: the 对门, else a teammate, else the 对门's team (004:17; 002:23-24)
    opp = _opp(buyer)
    mates = [(buyer + 2) % 6, (buyer + 4) % 6]

    def spare(seat: int) -> bool:
        h = hands[seat]
        return h is not None and _count(h, rank) >= 2

    if seller != opp and spare(opp):
        return [Fault("gouji.buy_wrong_seller", {**facts, "should": opp})]
    if seller not in mates and seller != opp:
        better = [m for m in mates if spare(m)]
        if better:
            return [Fault("gouji.buy_wrong_seller", {**facts, "should": better[0]})]
    if hb is not None:
        twos = _count(hb, TWO)
        jokers = _count(hb, SJ) + _count(hb, BJ)
        free_ok = seller in mates                                   # teammates may give free (002:23)
        if pay and hb.holds(pay[0]) <= 0:
            return [Fault("play.not_in_hand", {"seat": buyer, "cards": list(pay)})]
        if twos and (not pay or ORDER[pay[0].rank] != TWO) and not (free_ok and not pay):
            return [Fault("gouji.buy_wrong_payment", {**facts, "cards": list(pay), "needed": "2"})]
        if not twos and jokers and ref.s.buy_with_joker and not pay and not free_ok:
            return [Fault("gouji.buy_wrong_payment", {**facts, "cards": list(pay), "needed": "SJ/BJ"})]
        if not twos and not jokers and pay:
            return [Fault("gouji.buy_wrong_payment", {**facts, "cards": list(pay)})]
    # move the cards
    if hs is not None:
        card = hs.first_of(rank)
        if card is not None:
            hs.remove([card])
            if hb is not None:
                hb.add(card)
    for c in pay:
        if hb is not None:
            hb.remove([c])
        if hs is not None:
            hs.add(c)
        ref.eaten[seller].append(c)                                 # 吃了不吐 (002:25)
    return []


def _xuandian(ref: GoujiDeal, i: int, ev: DeclareEvent) -> list[Fault]:
    """宣点: declare that the 对门 will not 开点 (004:19-21; 002:34)."""
    target = ev.args.get("target", _opp(ev.seat))
    if target != _opp(ev.seat):
        return [Fault("gouji.xuandian_target", {"seat": ev.seat, "target": target, "opposite": _opp(ev.seat)})]
    ref.points.xuandian.add(ev.seat)
    return []


def _kangong(ref: GoujiDeal, i: int, ev: DeclareEvent) -> list[Fault]:
    """扛贡 (004:19 "3大4小抗自己，4大抗全联邦"; 002:41-42)."""
    hand = ref.hands[ev.seat]
    scope = "self"
    if hand is not None:
        big, small = _count(hand, BJ), _count(hand, SJ)
        have = {BJ: big, SJ: small}
        if big >= ref.s.kangong_team_big:
            scope = "team"
        elif not any(have[ORDER[r]] >= n for r, n in ref.s.kangong_self):
            need = " / ".join(f"{n}×{RANK_CODE[ORDER[r]]}" for r, n in ref.s.kangong_self)
            return [Fault("gouji.kangong_not_allowed", {"seat": ev.seat, "big": big, "small": small,
                                                        "needed": need})]
    ref.points.kangong[ev.seat] = scope
    return []


def _only_eaten(hand: Hand, card: Card, eaten: list[Card]) -> bool:
    """Every copy of ``card`` that ``hand`` holds was received by 买3买4 or as tribute."""
    received = sum(1 for c in eaten if c == card)
    return received > 0 and hand.holds(card) <= received


def _tribute(ref: GoujiDeal, i: int, ev: DeclareEvent) -> list[Fault]:
    """进贡: order 点、烧、闷、落 (004:19; 002:29); the largest card in hand (004:19;
    002:27), never one received by 买3买4 or as tribute (吃了不吐, 002:25-27)."""
    giver = ev.seat
    target = _seat_arg(ev, "target")
    kind = ev.args.get("kind")
    facts: dict[str, Any] = {"seat": giver, "target": target, "kind": kind}
    if target is None or target == giver or kind not in KIND_ORDER or not ev.cards:
        return [Fault("gouji.tribute_bad", facts)]
    shield = ref.points.kangong.get(giver) or next(
        (v for m, v in ref.points.kangong.items() if v == "team" and m % 2 == giver % 2), None)
    if shield:                                             # 扛贡 (004:19, 002:41-42)
        return [Fault("gouji.tribute_shielded", {**facts, "scope": shield})]
    rank = KIND_ORDER[kind]
    if rank < ref.tribute_stage:
        return [Fault("gouji.tribute_order", facts)]
    ref.tribute_stage = rank
    hand = ref.hands[giver]
    for card in ev.cards:
        o = ORDER[card.rank]
        if ref.s.tribute_min is not None and o < ORDER[ref.s.tribute_min]:
            return [Fault("gouji.tribute_too_small", {**facts, "card": card})]
        if hand is not None:
            if hand.holds(card) <= 0:
                return [Fault("play.not_in_hand", {"seat": giver, "cards": [card]})]
            if _only_eaten(hand, card, ref.eaten[giver]):      # 吃了不吐 (002:25-27, D16)
                return [Fault("gouji.tribute_eaten", {**facts, "card": card})]
            best = hand.largest(ref.eaten[giver])
            if best is not None and o < best:
                return [Fault("gouji.tribute_not_largest", {**facts, "card": card, "largest": RANK_CODE[best]})]
            hand.remove([card])
        receiver = ref.hands[target]
        if receiver is not None:
            receiver.add(card)
        ref.eaten[target].append(card)
    return []


def _revolution(ref: GoujiDeal, i: int, ev: DeclareEvent) -> list[Fault]:
    """革命: no jokers and no 2s in hand (004:11, 004:21); two revolutions void the deal (004:13)."""
    seat = ev.seat
    hand = ref.hands[seat]
    if seat in ref.revolts:
        return [Fault("gouji.revolution_twice", {"seat": seat})]
    if hand is not None and (_count(hand, TWO) or _count(hand, SJ) or _count(hand, BJ)):
        return [Fault("gouji.revolution_not_allowed", {"seat": seat})]
    ref.revolts.append(seat)
    if len(ref.revolts) >= ref.s.void_at:
        ref.phase = Phase.VOID
    return []


def pure_sets(hand: Hand, min_table: tuple[int, ...]) -> int:
    """How many 纯够级 plays a hand can make (10..A only)."""
    return sum(hand.count(o) // min_table[o] for o in range(7, 12))


def _chongdian(ref: GoujiDeal, i: int, ev: DeclareEvent) -> list[Fault]:
    """冲点 (004:11-13, 004:21-23; 002:46-50)."""
    seat = ev.seat
    s = ref.s
    if s.chongdian_needs_revolution and seat not in ref.revolts:
        return [Fault("gouji.chongdian_needs_revolution", {"seat": seat})]
    if any(c.seat == seat for c in ref.chong.declared):
        return [Fault("gouji.chongdian_twice", {"seat": seat})]
    hand = ref.hands[seat]
    if hand is not None:
        if _count(hand, TWO) or _count(hand, SJ) or _count(hand, BJ):
            return [Fault("gouji.chongdian_not_allowed", {"seat": seat, "why": "2/joker"})]
        if pure_sets(hand, ref.min_table) < 3:
            return [Fault("gouji.chongdian_not_allowed", {"seat": seat, "why": "3 sets"})]
    prev = ev.args.get("prev_rank")
    prev = prev if isinstance(prev, int) and not isinstance(prev, bool) else None
    ref.chong.declared.append(Chong(seat, prev))
    if not s.chongdian_needs_revolution and len(ref.chong.declared) >= s.void_at:
        ref.phase = Phase.VOID                               # 002:48: three 冲点 → redeal
    return []


# ---------------------------------------------------------------------- during play
def _burn(ref: GoujiDeal, i: int, ev: DeclareEvent) -> list[Fault]:
    """烧牌 declaration (004:25-27): on the current 够级 play, by a seat that may burn."""
    seat = ev.seat
    cur = ref.cur
    target = ev.args.get("target")
    if cur is None or not cur.restricted or cur.seat == seat or (target is not None and target != cur.seat):
        return [Fault("gouji.burn_nothing", {"seat": seat})]
    if seat == _opp(cur.seat):
        return [Fault("gouji.burn_opposite", {"seat": seat, "target": cur.seat})]
    hand = ref.hands[seat]
    holds_four = None if hand is None else _count(hand, FOUR) > 0
    found = burn_fault(ref.s, seat=seat, owner=cur.seat, luanchan=ref.progress.luanchan,
                       owner_active=cur.seat in ref.progress.active, passed=seat in ref.passed,
                       closed=ref.burning.closed, seat_wutou=ref.is_wutou(seat),
                       owner_wutou=ref.is_wutou(cur.seat), holds_four=holds_four)
    if found is not None:
        return [Fault(found[0], found[1])]
    if seat not in ref.burning.declared:
        ref.burning.declared.append(seat)
    return []


def _rangpai(ref: GoujiDeal, i: int, ev: DeclareEvent) -> list[Fault]:
    """让牌: on the 对门's non-够级 play, let the next two seats go first (004:25)."""
    seat = ev.seat
    cur = ref.cur
    if seat not in ref.progress.active and ref.slips and ref._asks(seat) and ref._presumed_out(seat):
        # D50: out only by a count after a slip (O3): the person at the table saw it hold cards
        ref._back_in_play(seat)
        return _rangpai(ref, i, ev) or [ref._question(seat, (), Fault("gouji.rangpai_bad", {"seat": seat}))]
    if (cur is None or cur.seat != _opp(seat) or cur.restricted or ref.progress.luanchan
            or seat not in ref.progress.active or seat in ref.passed):
        if (cur is not None and not ref.progress.luanchan and seat in ref.progress.active and ref.hands[seat] is None
                and ref.hands[_opp(seat)] is None):
            # flagged once; a play of the 对门 was not seen (D30): the next play answers it
            ref.rang = seat
            ref.readings.unseen = True
            if ref.camera:      # ... on a table the camera saw, that gap is the question (O10, D35)
                return [Fault("observe.missing_play", {"seat": _opp(seat), "by": seat})]
        return [Fault("gouji.rangpai_bad", {"seat": seat})]
    ref.rang = seat
    return []


def _rendian(ref: GoujiDeal, i: int, ev: DeclareEvent) -> list[Fault]:
    if ev.seat in ref.points.kaidian:
        return [Fault("gouji.rendian_after_kaidian", {"seat": ev.seat})]
    ref.points.rendian.add(ev.seat)
    return []


def _head(ref: GoujiDeal, i: int, ev: DeclareEvent) -> list[Fault]:
    """有头/无头/要头 of the 对门 of a 革命 or 冲点 seat (004:9; 002:49-50)."""
    seat = ev.seat
    opp = _opp(seat)
    chong = next((c for c in ref.chong.declared if c.seat == opp), None)
    if opp not in ref.revolts and chong is None:
        return [Fault("gouji.head_choice_not_allowed", {"seat": seat, "what": ev.what})]
    if ev.what == Declare.YAOTOU and chong is not None:
        return [Fault("gouji.head_choice_not_allowed", {"seat": seat, "what": ev.what})]
    ref.head[seat] = ev.what
    if ev.what == Declare.YAOTOU:
        ref.yaotou_left[seat] = ref.s.yaotou_dead
    return []


def _throw4(ref: GoujiDeal, i: int, ev: DeclareEvent) -> list[Fault]:
    """扔掉4: the 对门 of a failed 冲点 throws its 4s away (002:46); ``cards`` are the 4s."""
    seat = ev.seat
    state = ref.thrown.get(seat)
    missed = answer_missed(ref, seat) if state is None else None
    flags: list[Fault] = []
    if missed is not None and all(ORDER[c.rank] == FOUR for c in ev.cards):
        flags.append(fail_unseen(ref, missed))     # D40: the 对门's answer was not seen
        state = ref.thrown[seat]
    if state is None or any(ORDER[c.rank] != FOUR for c in ev.cards):
        return [Fault("gouji.throw4_bad", {"seat": seat})]
    kind, value = state
    if kind == "known":
        if value != len(ev.cards):
            return [Fault("gouji.throw4_bad", {"seat": seat})]
    elif value is not None:
        ref.counts[seat] = value - len(ev.cards)
    ref.thrown[seat] = ("known", len(ev.cards))
    return flags


def _kaidian(ref: GoujiDeal, i: int, ev: DeclareEvent) -> list[Fault]:
    """A spoken 开点 claim: confirmed when the plays earned it (004:9), a fault otherwise."""
    if ev.seat not in ref.points.kaidian:
        return [Fault("gouji.kaidian_not_earned", {"seat": ev.seat})]
    return []


def _out(ref: GoujiDeal, i: int, ev: DeclareEvent) -> list[Fault]:
    seat = ev.seat
    count = ref.counts[seat]
    if count is not None and count > 0:
        return [Fault("gouji.out_with_cards", {"seat": seat, "left": count})]
    if seat not in ref.progress.active:
        return []
    ref.finish(seat)
    return []


_HANDLERS: dict[str, Callable[[GoujiDeal, int, DeclareEvent], list[Fault]]] = {
    Declare.BUY3: _buy, Declare.BUY4: _buy, Declare.XUANDIAN: _xuandian, Declare.KANGONG: _kangong,
    Declare.TRIBUTE: _tribute, Declare.REVOLUTION: _revolution, Declare.CHONGDIAN: _chongdian,
    Declare.BURN: _burn, Declare.RANGPAI: _rangpai, Declare.RENDIAN: _rendian, Declare.KAIDIAN: _kaidian,
    Declare.THROW4: _throw4, Declare.YAOTOU: _head, Declare.YOUTOU: _head, Declare.WUTOU: _head, Declare.OUT: _out,
}
