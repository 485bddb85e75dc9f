"""Readings of a faulted 够级 camera play in which a play before it was not seen
(docs/rules/observation.md O1, O3; decisions D30-D32, D43-D44 in docs/rules/gouji.md).

A dropped play leaves the table a step ahead of the judge: a lead it never saw (the deal's
first, or the one after all passed), an answer it never saw (so the seat looked passed, or the
seat that played it led next), or a burn (004:11) begun by a play not seen.  Each reading here
is a copy of the deal as it would be after that play, with the faulted play judged in it.  They
charge the counts with the play not seen, so they are durable: kept for the rest of the deal, as
a count shows only when a seat runs out.  :class:`UnseenPlays` is mixed into
:class:`~.other_readings.OtherReadings` (``self`` is the referee).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Self

from ..cards import Card, parse_card
from ..verdict import Fault
from .outs import Progress
from .shapes import Shape, beats, parse_shape
from .table import Current, Phase, opp

if TYPE_CHECKING:
    from .hands import Hand

A_FOUR = parse_card("4S")


class UnseenPlays:
    """The readings of a faulted play after a play not seen (a mixin; ``self`` is the referee)."""

    # provided by the referee
    phase: Phase
    min_table: tuple[int, ...]
    played: list[int]
    passed: set[int]
    said_pass: set[int]
    s: Any
    counts: list[int | None]
    hands: list[Hand | None]
    progress: Progress
    cur: Current | None
    last_actor: int | None
    burning: Any
    readings: Any

    if TYPE_CHECKING:
        def _copy(self) -> Self: ...
        def to_lead(self) -> int | None: ...
        def _is_final(self, seat: int, shape: Shape) -> bool: ...
        def _unseen_burn(self, seat: int, shape: Shape, joker: bool = True) -> Any: ...
        def _lead(self, i: int, seat: int, shape: Shape, cards: tuple[Card, ...], final: bool,
                  zhashao: bool) -> list[Fault]: ...
        def _answer(self, i: int, seat: int, shape: Shape, cards: tuple[Card, ...], final: bool,
                    burning: bool) -> list[Fault]: ...
        def _stood(self, i: int, seat: int, shape: Shape, cards: tuple[Card, ...], final: bool) -> Self: ...
        def _new_round(self) -> None: ...
        def _asks(self, seat: int) -> bool: ...
        def _seat_alts(self, i: int, seat: int, cards: tuple[Card, ...]) -> list[Self]: ...
        def _durable_copy(self, i: int, seat: int, cards: tuple[Card, ...],
                          alt: Self | None = None) -> Self | None: ...

    def _charge_unseen(self, seat: int, n: int) -> None:
        """Charge ``seat`` with a play of ``n`` cards not seen: its count (where known) and the
        cards it has played."""
        count = self.counts[seat]
        if count is not None:
            self.counts[seat] = count - n
        self.played[seat] += n

    def _unseen_lead(self, i: int, seat: int, shape: Shape, cards: tuple[Card, ...], final: bool,
                     fault: Fault) -> list[Fault] | None:
        """The first play of the deal is another seat's than the leader's, and it could be the
        answer to a lead of the leader not seen (the turn rule 004:23 「由上班的人出牌」, then
        「上牌：出一手大过玩家上一手的牌」): a gap, flagged once as ``observe.missing_play``
        (observation.md O1-O5; decision D32), and the play is taken as that answer.  The
        readings in which it was out of turn (taken back, or it stood) are kept: should the table
        follow one, ``fault`` replaces the flag.  None where no gap explains the play (a hand is
        known, a play no lead could be beaten by, another slip being resolved)."""
        lead = self.to_lead()
        if (fault.code != "gouji.not_your_lead" or self.cur is not None or any(self.played) or self.phase != Phase.PLAY
                or lead is None or lead == seat or self.hands[lead] is not None or self.hands[seat] is not None
                or self.readings.doubt or not _answers_some_lead(shape, cards, self.min_table)):
            return None
        out_of_turn = [self._copy(), self._stood(i, seat, shape, cards, final)]
        for alt in out_of_turn:
            alt.readings.proves = fault.at(i)
        others = self._seat_alts(i, seat, cards)         # the leader's own lead, its seat read wrong
        lowest = parse_shape([A_FOUR] * len(cards), self.min_table)
        assert isinstance(lowest, Shape)
        burned = self._burned_lead(i, lead, seat, shape, cards, final, lowest)
        self.cur = Current(lead, lowest, (), i, False)   # the lead not seen
        faults = self._answer(i, seat, shape, cards, final, False)
        self.readings.alts += [*out_of_turn, *burned, *others]
        return [Fault("observe.missing_play", {"seat": lead, "by": seat}), *faults]

    def _burned_lead(self, i: int, lead: int, seat: int, shape: Shape, cards: tuple[Card, ...], final: bool,
                     lowest: Shape) -> list[Self]:
        """D32: the lead not seen was a 够级 and this play, not the 对门's, burned it (004:11):
        the reading in which the burn goes on (and a play without a joker is 诈烧, 002:13)."""
        if seat == opp(lead) or not shape.gouji:
            return []
        alt = self._copy()
        alt.cur = Current(lead, lowest._replace(gouji=True), (), i, True)
        return alt._durable_if_answers(i, seat, shape, cards, final, True)

    def _durable_if_answers(self, i: int, seat: int, shape: Shape, cards: tuple[Card, ...], final: bool,
                            burn: bool) -> list[Self]:
        """This reading, kept to the deal's end (D31), if play ``i`` answers the table in it
        (tried without readings of its own); else none."""
        self.readings.doubt = True
        faults = self._answer(i, seat, shape, cards, final, burn)
        self.readings.doubt = False
        if faults:
            return []
        self.readings.durable = True
        return [self]

    def _answered_unseen(self, i: int, seat: int, shape: Shape, cards: tuple[Card, ...]) -> list[Self]:
        """O1 after a play not seen: this seat's answer to the play on the table was not seen,
        all passed, and this play is its lead (004:23 「上牌」, then the one whose play stood
        leads).  As the reading in which it stood, with the seat's count charged with that answer
        too: durable, as the count shows only when the seat runs out."""
        cur, count = self.cur, self.counts[seat]
        if (cur is None or cur.seat == seat or self.phase != Phase.PLAY or self.hands[seat] is not None
                or count is None or count - cur.shape.n < shape.n or len(self.readings.alts) >= 24):
            return []
        alt = self._copy()
        alt._charge_unseen(seat, cur.shape.n)
        alt._lead(i, seat, shape, cards, alt._is_final(seat, shape), False)
        alt.readings.durable = True
        return [alt]

    def _answered_before_pass(self, i: int, seat: int, shape: Shape, cards: tuple[Card, ...]) -> list[Self]:
        """D44, O1 after a play not seen: ``seat`` was presumed to pass (过牌, 004:23) because a
        later seat answered, but its own answer before that was not seen; this play answers the
        play on the table.  Only for a pass the log did not hold.  The seat's count is charged
        with that answer (as many cards as the play on the table): durable, as the count shows
        only when the seat runs out."""
        cur, count = self.cur, self.counts[seat]
        if (cur is None or cur.seat == seat or cur.restricted or self.phase != Phase.PLAY
                or self.hands[seat] is not None or seat not in self.passed or seat in self.said_pass
                or (count is not None and count - cur.shape.n < shape.n)):
            return []
        alt = self._copy()
        alt.passed.discard(seat)
        alt._charge_unseen(seat, cur.shape.n)
        found = self._durable_copy(i, seat, cards, alt)
        return [] if found is None else [found]

    def _table_play_led(self, i: int, seat: int, cards: tuple[Card, ...]) -> list[Self]:
        """D45, O1 after a play not seen: the play on the table was its owner's lead, not an
        answer.  The owner's answer before it was not seen, all passed (004:23) and the owner
        led; the passes presumed when its lead was taken for an answer go, and this play answers
        that lead.  Only where ``seat`` was presumed to pass (not a pass in the log).  The owner's
        count is charged with the answer not seen, as many cards as its lead (answers match the
        play they beat, and the lead was taken for one).  Durable (counts)."""
        cur = self.cur
        if (cur is None or cur.seat == seat or cur.restricted or self.phase != Phase.PLAY
                or self.hands[seat] is not None or self.hands[cur.seat] is not None
                or seat not in self.passed or seat in self.said_pass):
            return []
        count = self.counts[cur.seat]
        if count is not None and count < cur.shape.n:
            return []
        alt = self._copy()
        alt._charge_unseen(cur.seat, cur.shape.n)
        alt._new_round()
        alt.last_actor = cur.seat
        found = self._durable_copy(i, seat, cards, alt)
        return [] if found is None else [found]

    def _round_unseen(self, i: int, seat: int, shape: Shape, cards: tuple[Card, ...]) -> list[Self]:
        """D52, O1 after two plays not seen: the deal's first play is a camera play of 4s by
        another seat than the leader, which no lead could be answered with (D32): the leader's
        lead and this seat's answer to it were not seen, all passed (004:23) and this is the
        seat's lead.  The two plays' sizes were not seen: both seats' counts are unknown from
        then on.  Durable; no hand known."""
        lead = self.to_lead()
        if (self.cur is not None or any(self.played) or self.phase != Phase.PLAY or lead is None or lead == seat
                or not self._asks(seat) or self.hands[lead] is not None
                or _answers_some_lead(shape, cards, self.min_table)):
            return []
        alt = self._copy()
        alt.counts[lead] = alt.counts[seat] = None
        alt._lead(i, seat, shape, cards, alt._is_final(seat, shape), False)
        alt.readings.durable = True
        return [alt]

    def _take_after_unseen(self, seat: int, owner: int) -> bool:
        """D46: ``seat``'s camera play (no hand known) takes ``owner``'s 够级 (no hand known), and
        one play not seen between them would make it a plain answer, no burn (004:11, 004:23):
        the owner, holding cards still, led again after all passed; or the taker's 对门 took the
        够级 first and the take answers its partner."""
        if not self._asks(seat) or self.hands[owner] is not None:
            return False
        partner = opp(seat)
        return ((owner in self.progress.active and self.counts[owner] != 0)
                or (partner != owner and partner in self.progress.active))

    def _owner_led_unseen(self, i: int, seat: int, shape: Shape, cards: tuple[Card, ...], final: bool) -> list[Self]:
        """O1 after a play not seen: all passed on the play on the table, its player led again
        (004:23) and this play answered that lead.  Its count is charged with a lead of as many
        cards, so a 3 left alone in its hand is 闷 (004:5-7, D13).  Durable (counts)."""
        cur = self.cur
        owner = None if cur is None else cur.seat
        if (cur is None or owner == seat or owner not in self.progress.active or self.phase != Phase.PLAY
                or self.hands[seat] is not None or self.hands[cur.seat] is not None):
            return []
        count = self.counts[cur.seat]
        if count is None or count <= shape.n:
            return []
        lead = parse_shape([A_FOUR] * shape.n, self.min_table)
        if not isinstance(lead, Shape) or lead.gouji:
            return []
        alt = self._copy()
        alt._charge_unseen(cur.seat, shape.n)
        alt._new_round()
        alt.last_actor = cur.seat
        alt.cur = Current(cur.seat, lead, (), i, False)          # the lead not seen
        return alt._durable_if_answers(i, seat, shape, cards, final, False)

    def _burned_unseen(self, i: int, seat: int, shape: Shape, cards: tuple[Card, ...], final: bool) -> list[Self]:
        """004:11 then 002:13: a play of this seat not seen took the 够级 on the table (a burn),
        and this play, with no joker and not its last, is 诈烧: the seat is out (拉客).  Durable:
        the seat out shows only when 四户乱缠 (004:9-11) starts earlier than the others say."""
        if shape.jokers or final or not self.s.zhashao_places_last or self.phase != Phase.PLAY:
            return []
        burn = self._unseen_burn(seat, shape, joker=False)
        if burn is None:
            return []
        alt = self._copy()
        alt.burning.current = burn
        alt._lead(i, seat, shape, cards, final, True)
        alt.readings.durable = True
        return [alt]


def _answers_some_lead(shape: Shape, cards: tuple[Card, ...], min_table: tuple[int, ...]) -> bool:
    """Whether the play beats a lead of as many 4s (the lowest lead but a last 3, 004:27)."""
    lowest = parse_shape([A_FOUR] * len(cards), min_table)
    return isinstance(lowest, Shape) and beats(shape, lowest)
