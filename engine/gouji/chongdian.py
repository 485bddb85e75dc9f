"""The 冲点 phase (004:11-13, 004:21-23; 002:46-50): the 冲点 seat leads three 纯够级 plays,
its 对门 answers each or lets it stand, then the outcome places the seat and grants 开点."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import Card
from ..verdict import Fault
from .chongdian_state import Chong
from .shapes import FOUR, ORDER, TWO, Shape, beats, parse_shape
from .table import Phase

if TYPE_CHECKING:
    from .deal import GoujiDeal


def _opp(seat: int) -> int:
    return (seat + 3) % 6


def _current_chong(ref: GoujiDeal) -> Chong | None:
    while ref.chong.at < len(ref.chong.declared):
        c = ref.chong.declared[ref.chong.at]
        if not c.done:
            return c
        ref.chong.at += 1
    return None


def chong_play(ref: GoujiDeal, i: int, seat: int, cards: tuple[Card, ...], shape: Shape) -> list[Fault] | None:
    """Judge a play during 冲点; ``None`` when 冲点 is over and the play is a normal one."""
    c = _current_chong(ref)
    if c is None:
        ref.phase = Phase.PLAY
        return None
    cseat, opp = c.seat, _opp(c.seat)
    sets = c.sets
    if seat == cseat:
        if c.awaiting:
            c.awaiting = False                           # the 对门 let it stand
        if len(sets) >= 3:
            return [Fault("gouji.chongdian_over", {"seat": seat})]
        if not shape.pure:
            read = _pure_reading(ref, seat, cards)
            if read is not None and not ref.readings.doubt:
                # the reading in which one attached card was read wrong is kept: the next
                # plays may show the table took the play as a 冲点 set (D30)
                odd, fixed, pure = read
                alt = ref._copy()
                chong_play(alt, i, seat, fixed, pure)
                alt.readings.misread = (odd,)
                ref.readings.alts.append(alt)
            fault = Fault("gouji.chongdian_not_pure", {"seat": seat, "cards": list(cards)})
            if shape.gouji and shape.base < TWO and len(shape.jokers) + shape.twos == 1:
                return [ref._question(seat, cards, fault)]  # D41: its one 2 or joker may be read wrong
            return [fault]
        sets.append([False, False])
        c.last = (shape, cards)
        c.last_i = i
        c.awaiting = True
        ref.take(seat, cards, shape)
        return []
    if seat == opp and c.awaiting:
        assert c.last is not None                           # set with awaiting
        last_shape, last_cards = c.last
        fits = shape.n == last_shape.n and beats(shape, last_shape, ref.s.two_big_kill_one_big)
        if not fits and len(sets) >= 3:
            # the 对门 let the third play stand (an unseen pass, spec "Turn order") and now
            # plays in normal play, e.g. as the deal's leader
            return _close_chong(ref, c, seat)
        # the answer is judged against the 冲点 play: a fault rests on its reading (C2)
        against = () if c.last_i is None else (c.last_i,)
        if shape.n != last_shape.n:
            fault = Fault("gouji.count_mismatch", {"seat": seat, "owner": cseat, "n": shape.n,
                                                   "needed": last_shape.n}, rests_on=against)
            return [_asked_unseen_set(ref, c, seat, cards, shape, fault)]
        if not beats(shape, last_shape, ref.s.two_big_kill_one_big):
            fault = Fault("gouji.does_not_beat", {"seat": seat, "owner": cseat, "cards": list(last_cards)},
                          rests_on=against)
            return [_asked_unseen_set(ref, c, seat, cards, shape, fault)]
        sets[-1] = [True, shape.pure]
        c.awaiting = False
        ref.take(seat, cards, shape)
        if len(sets) >= 3:
            _finish_chong(ref, c)
        return []
    if seat == opp and len(sets) < 3 and ref.hands[cseat] is None and ref.hands[opp] is None:
        # the 对门 answers again with no 冲点 play between: that play was not seen.  Say so once;
        # it counts as a 冲点 set this play beat (observation.md, O4; docs/rules/gouji.md D30)
        fault = Fault("observe.missing_play", {"seat": cseat, "what": "冲点", "seen": len(sets),
                                               "needed": 3, "by": seat})
        _keep_seat_readings(ref, i, (cseat,), cards)
        _keep_normal_reading(ref, i, seat, cards)
        _beat_unseen_set(ref, c, seat, cards, shape)
        return [fault]
    if len(sets) < 3:
        if ref.hands[cseat] is None:
            # another seat plays while the 冲点 has had fewer than three plays and no hand
            # shows the 冲点 seat's cards: a 冲点 play was not seen.  Say so once, close the
            # 冲点 with the plays seen and judge this play as normal play (observation.md, O4)
            fault = Fault("observe.missing_play", {"seat": cseat, "what": "冲点", "seen": len(sets),
                                                   "needed": 3, "by": seat})
            _keep_seat_readings(ref, i, (cseat, opp), cards)
            _close_unseen(ref, c)
            ref.pending_observe.append(fault)
            return None
        return [Fault("gouji.chongdian_unfinished", {"seat": seat, "chong": cseat})]
    return _close_chong(ref, c, seat)


def _beat_unseen_set(ref: GoujiDeal, c: Chong, seat: int, cards: tuple[Card, ...], shape: Shape) -> None:
    """The 对门's play ``cards`` beat a 冲点 play of ``c`` the camera did not see (O4, D30, D48):
    one more set, beaten; the 冲点 is over after its third, and normal play begins after the last."""
    c.sets.append([True, shape.pure])
    ref.take(seat, cards, shape)
    if len(c.sets) >= 3:
        _finish_chong(ref, c)
        if _current_chong(ref) is None:
            ref.phase = Phase.PLAY


def _asked_unseen_set(ref: GoujiDeal, c: Chong, seat: int, cards: tuple[Card, ...], shape: Shape,
                      fault: Fault) -> Fault:
    """D48, O1 within 冲点: the 对门's answer does not fit the 冲点 play seen last (``fault``: its
    count or its rank), but it would answer the 冲点 seat's next play, which the camera did not
    see: the 对门 let the last play stand and beat the next (004:11 「对家…可以不要」).  With
    neither hand known and a 冲点 play still to come, that reading is kept to the deal's end
    (durable: it charges the 冲点 seat's count) and ``fault`` is asked, not charged."""
    if (len(c.sets) >= 3 or ref.readings.doubt or ref.hands[c.seat] is not None
            or not ref._asks(seat) or not _beats_some_set(ref, shape)):
        return fault
    alt = ref._copy()
    chong = _current_chong(alt)
    assert chong is not None
    chong.awaiting = False                              # the last play seen stood
    chong.last_i = None
    alt._charge_unseen(chong.seat, shape.n)             # the 冲点 play not seen, which this play beat
    _beat_unseen_set(alt, chong, seat, cards, shape)
    alt.readings.alts = []
    alt.readings.durable = True
    ref.readings.alts.append(alt)
    return ref._question(seat, cards, fault)


def _beats_some_set(ref: GoujiDeal, shape: Shape) -> bool:
    """Whether ``shape`` beats some 冲点 play of as many cards: a 纯够级 (004:11), a face rank
    reaching its 够级 count with nothing attached."""
    sets = (Shape(shape.n, base, (), 0, True, True) for base in range(TWO) if shape.n >= ref.min_table[base])
    return any(beats(shape, s, ref.s.two_big_kill_one_big) for s in sets)


def _close_unseen(ref: GoujiDeal, c: Chong) -> None:
    """Close the 冲点 ``c`` (and any declared after it) with the plays seen, a play of it not
    seen (O4): normal play begins.  One play not seen, and not the 对门's answer (that would have
    shown three 冲点 plays): the sets not seen stood unbeaten."""
    c.awaiting = False
    c.sets += [[False, False] for _ in range(3 - len(c.sets))]
    _finish_chong(ref, c)
    while _current_chong(ref) is not None:
        _finish_chong(ref, _current_chong(ref))  # type: ignore[arg-type]
    ref.phase = Phase.PLAY


def _keep_normal_reading(ref: GoujiDeal, i: int, seat: int, cards: tuple[Card, ...]) -> None:
    """O4: the 对门 plays again with no 冲点 play between; besides the answer to a 冲点 play not
    seen, the reading in which the 冲点 ended with a play not seen and this play is normal play
    (e.g. the deal's first lead) is kept for the next plays."""
    if ref.readings.doubt:
        return
    alt = ref._copy()
    c = _current_chong(alt)
    assert c is not None
    _close_unseen(alt, c)
    alt.readings.doubt = True                 # the reading makes no readings of its own
    faults = alt._play(i, seat, cards)
    alt.readings.doubt = False
    alt.readings.alts = []
    if not faults:
        ref.readings.alts.append(alt)


def _keep_seat_readings(ref: GoujiDeal, i: int, seats: tuple[int, ...], cards: tuple[Card, ...]) -> None:
    """O2 within 冲点: the play seen as another seat's may have been the 冲点 seat's set or its
    对门's answer, the seat read wrong; those readings are kept for the rest of the deal
    (decision D31), as the counts they charge show only when a seat runs out."""
    if ref.readings.doubt:
        return
    for s in seats:
        alt = ref._durable_copy(i, s, cards)
        if alt is not None:
            ref.readings.alts.append(alt)


def _pure_reading(ref: GoujiDeal, seat: int, cards: tuple[Card, ...]) -> tuple[Card, tuple[Card, ...], Shape] | None:
    """Without the 冲点 seat's hand, a 冲点 play that is 纯够级 but for one 2 or joker: that
    card read as one of the others (the card seen, the play so read, its shape), or None."""
    if ref.hands[seat] is not None:
        return None
    plain = [x for x in cards if not x.is_joker and ORDER[x.rank] != TWO]
    odd = [x for x in cards if x.is_joker or ORDER[x.rank] == TWO]
    if len(odd) != 1 or not plain:
        return None
    fixed = tuple(plain[0] if x is odd[0] else x for x in cards)
    shape = parse_shape(fixed, ref.min_table)
    if not isinstance(shape, Shape) or not shape.pure:
        return None
    return odd[0], fixed, shape


def _close_chong(ref: GoujiDeal, c: Chong, seat: int) -> list[Fault] | None:
    """Close the 冲点 ``c`` with the plays seen; a 冲点 still open after it makes ``seat``'s
    play a fault, else normal play resumes (``None``: judge the play as normal play)."""
    c.awaiting = False
    _finish_chong(ref, c)
    if _current_chong(ref) is not None:
        return [Fault("gouji.chongdian_unfinished", {"seat": seat, "chong": ref.chong.declared[ref.chong.at].seat})]
    ref.phase = Phase.PLAY
    return None


def chong_pass(ref: GoujiDeal, i: int, seat: int) -> None:
    c = _current_chong(ref)
    if c is None or seat != _opp(c.seat) or not c.awaiting:
        return
    c.awaiting = False
    if len(c.sets) >= 3:
        _finish_chong(ref, c)
        if _current_chong(ref) is None:
            ref.phase = Phase.PLAY




def _finish_chong(ref: GoujiDeal, c: Chong) -> None:
    """The outcomes: 004:11-13 (four cases) or 002:46-47."""
    cseat, opp = c.seat, _opp(c.seat)
    sets = c.sets
    c.done = True
    all_beaten = all(b for b, _ in sets)
    pure_beat = any(b and p for b, p in sets)
    if ref.s.chongdian_rules == "yucheng":
        ref.progress.fixed[cseat] = 5 if all_beaten else 3
        if not all_beaten:
            ref.points.kaidian.add(cseat)
        if pure_beat:
            ref.points.kaidian.add(opp)
        c.success = not all_beaten
    else:
        success = not all_beaten
        c.success = success
        if success:
            ref.points.kaidian.add(cseat)
        else:
            ref.points.kaidian.add(opp)
            ref.no_fours.add(opp)                           # 扔掉4继续游戏 (002:46)
            hand = ref.hands[opp]
            if hand is not None:
                fours = [c for c in hand.cards() if ORDER[c.rank] == FOUR]
                hand.remove(fours)
                if ref.counts[opp] is not None:
                    ref.counts[opp] -= len(fours)  # type: ignore[operator]
                ref.thrown[opp] = ("known", len(fours))
            else:
                # how many 4s went is unknown until a ``throw4`` declare shows them
                ref.thrown[opp] = ("pending", ref.counts[opp])
                ref.counts[opp] = None
        done = [x for x in ref.chong.declared if x.done and x is not c]
        if not done:
            ref.progress.fixed[cseat] = 3
        else:
            other = done[0]
            better = success and not other.success
            if success == other.success and c.prev is not None and other.prev is not None:
                better = c.prev < other.prev
            if better:
                ref.progress.fixed[cseat], ref.progress.fixed[other.seat] = 3, 4    # 002:47 小拉
            else:
                ref.progress.fixed[cseat] = 4
    ref.progress.active.discard(cseat)
    ref.chong.out.add(cseat)
    if ref.hands[cseat] is not None:
        ref.counts[cseat] = 0


def answer_missed(ref: GoujiDeal, seat: int) -> Chong | None:
    """D40: the 冲点 whose 对门 ``seat`` throws its 4s (002:46: only after all three 冲点 plays
    were beaten) though the judge saw one stand: with neither hand known, the 对门's answer to
    it was not seen.  The only 冲点 of the deal, over and taken as a success, under the 山东
    rules (``throw4``), its plays a camera's; ``None`` otherwise."""
    if ref.s.chongdian_rules == "yucheng" or len(ref.chong.declared) != 1 or not ref.camera:
        return None
    c = ref.chong.declared[0]
    if (_opp(c.seat) != seat or not c.done or not c.success or ref.hands[c.seat] is not None
            or ref.hands[seat] is not None or all(b for b, _ in c.sets)):
        return None
    return c


def fail_unseen(ref: GoujiDeal, c: Chong) -> Fault:
    """D40: the 冲点 ``c`` failed after all: the sets seen to stand were beaten unseen (how, not
    known: not with a 纯够级).  Its outcome is settled again (002:46) and the 对门's answer not
    seen is the one flag."""
    c.sets = [[True, p] if b else [True, False] for b, p in c.sets]
    ref.points.kaidian.discard(c.seat)
    _finish_chong(ref, c)
    ref.thrown[_opp(c.seat)] = ("pending", None)    # its count is not known: that answer was not seen
    return Fault("observe.missing_play", {"seat": _opp(c.seat), "what": "冲点"})
