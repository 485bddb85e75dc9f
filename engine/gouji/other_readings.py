"""Readings of a faulted 够级 play in which the cards were another seat's, or a card of it
was not seen (docs/rules/observation.md O2, O5; decision D31 in docs/rules/gouji.md).

The readings in which a play before it was not seen are in :mod:`.unseen_plays`.

A play charged to the wrong seat, or one short of a card, differs from what the table did
only in the card counts, and a count shows it only when the seat runs out, long after.  So
these readings are *durable*: kept for the rest of the deal beside the referee's, where the
other readings are kept for ``KEEP_PLAYS`` plays (:mod:`.slips`).  :class:`OtherReadings` is
mixed into :class:`~.slips.SlipReadings` (``self`` is the referee).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Self

from ..cards import Card, parse_card
from ..events import AnyEvent
from ..verdict import FAULT_OR_SLIP, Fault, fault_or_slip
from .shapes import ORDER, TWO, Shape, gouji_on_one_card
from .table import ASKED_CODES, SEATS, Phase
from .unseen_plays import UnseenPlays

if TYPE_CHECKING:
    from .hands import Hand

#: at most this many durable readings are kept beside the deal
MAX_DURABLE = 64
#: D49: the faults of a camera play a count alone shows (cards held, a seat run out, 闷 by its
#: one card left, D13; not 闷 proven by a 3 led, D14: D49a): asked, as the counts rest on
#: readings of the slips before it
COUNT_CODES = frozenset({"gouji.more_than_held", "play.after_out", "gouji.men_out"})
SMALL_JOKER, BIG_JOKER, A_TWO = parse_card("SJ"), parse_card("BJ"), parse_card("2S")
#: one card of each rank 5..A, lowest first: the base a play of 2s seen may have had
BASES = [parse_card(code) for code in ("5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS")]


class OtherReadings(UnseenPlays):
    """The durable readings of a faulted play (a mixin; ``self`` is the referee).  What the
    referee provides is declared in :class:`~.unseen_plays.UnseenPlays`, and here the rest."""

    camera: bool
    slips: int

    if TYPE_CHECKING:
        def _play(self, i: int, seat: int, cards: tuple[Card, ...]) -> list[Any]: ...
        def check_play(self, seat: int, cards: tuple[Card, ...]) -> Any: ...
        def _feed(self, i: int, event: AnyEvent) -> list[Fault]: ...
        def _back_in_play(self, seat: int) -> None: ...

    def _proven(self, i: int, failed: list[Fault] | None = None) -> list[Fault]:
        """The rule fault the reading just adopted proves (at ``i``) on an earlier play flagged
        as an observation, or nothing.  Nothing either (D49) where the reading followed until
        then ``failed`` play ``i`` only on a count (``COUNT_CODES``, asked): the count rests on
        a guess of what the camera missed, not on the play."""
        proof, self.readings.proves = self.readings.proves, None
        if proof is None or (failed and all(_on_count(f) for f in failed)):
            return []
        return [Fault(proof.code, proof.facts, proof.i, i)]

    def _asked(self, i: int, seat: int, cards: tuple[Card, ...], fault: Fault, kept: int) -> Fault:
        """O10: ``fault`` of a camera play (no hand known), when one of the readings kept for
        it from index ``kept`` on is a camera slip (a play not seen, a card read wrong, the
        seat read wrong) in which the play is legal, is a question: ``observe.fault_or_slip``
        naming the fault it would be.  The reading in which the play stood as seen proves the
        fault (``proven_at``) if the table follows it and no slip's reading fits."""
        if fault.code not in ASKED_CODES or not self._asks(seat):
            return fault
        made = self.readings.alts[kept:]
        burn = self.burning.current
        # D42, D46: the burn rests on one card read, or on no play between 够级 and take missed
        in_doubt = (fault.code == "gouji.burn_needs_joker" and burn is not None
                    and (burn.on_one_card or burn.after_unseen))
        if not any(not alt.readings.last_resort for alt in made):
            return self._question(seat, cards, fault) if in_doubt else fault
        for alt in made:
            if alt.readings.last_resort and not in_doubt:
                alt.readings.proves = fault.at(i)       # the play stood as seen proves the fault
        return self._question(seat, cards, fault)

    def _men_proven(self, seat: int, cards: tuple[Card, ...], by: int) -> Fault:
        """闷 (004:5-7, 002:16) proven by ``seat``'s 3 led after ``by`` beat its play: the rule
        fault; a question (D47) on a camera 3, no hand known, once a slip was flagged: the proof
        is that the seat played nothing between, which the counts no longer show (O3)."""
        fault = Fault("gouji.men_out", {"seat": seat, "by": by})
        if self.slips:
            return self._question(seat, cards, fault)
        return fault

    def _four_proven(self, seat: int, cards: tuple[Card, ...], j: int, i: int, asked: bool) -> Fault:
        """``gouji.burn_before_four`` (004:25 cond. 4) of ``seat``'s burn at ``j``, proven by its
        4s at ``i``; a question (D51) where the 够级 it burned was one only by one card a camera
        read (``asked``): read right, the take was a plain answer and no burn."""
        fault = Fault("gouji.burn_before_four", {"seat": seat, "target": None})
        return (self._question(seat, cards, fault) if asked else fault).at(j, i)

    def _one_card_gouji(self, owner: int, shape: Shape) -> bool:
        """D42: the play taken, ``owner``'s, is a camera's 够级 only by one card it read."""
        return self._asks(owner) and gouji_on_one_card(shape, self.min_table)

    def _asks(self, seat: int) -> bool:
        """O10: the play being judged is a camera's and ``seat``'s hand is not known."""
        return self.camera and self.hands[seat] is None

    def _short_count(self, i: int, seat: int, cards: tuple[Card, ...], fault: Fault) -> list[Fault]:
        """D36: a camera play of more cards than the judge counts in the seat's hand (no hand
        known).  No seat plays cards it does not hold: the count is short (a play charged to
        this seat was another's, or read with cards too many).  One question; the seat's count
        is not known from then on (as for a seat whose hand the judge never counted) and the
        play is taken as seen (the caller keeps the readings in which it was another seat's, O2)."""
        self.counts[seat] = None
        return [self._question(seat, cards, fault), *self._play(i, seat, cards)]

    def _question(self, seat: int, cards: tuple[Any, ...], fault: Fault) -> Fault:
        """O10: ``fault`` as the question ``observe.fault_or_slip`` where :meth:`_asks` (else
        ``fault`` itself)."""
        if not self._asks(seat):
            return fault
        return fault_or_slip(seat, cards, fault)

    def _misread_table(self, i: int, event: AnyEvent) -> list[Self]:
        """O9 then O5: a declare right after a play with a card seen more often than the decks
        hold has a fault (e.g. 让牌 on a play read as a 挂花 够级, 004:25): the readings of that
        play with that card read wrong (each as ``_misread_alts`` makes them) that take the
        declare without a fault."""
        before, cur = self.readings.doubtful_before, self.cur
        if before is None or cur is None or cur.i != self.readings.doubtful or i != cur.i + 1:
            return []
        return [alt for alt in before._misread_alts(cur.i, cur.seat, cur.cards) if not alt._feed(i, event)]

    def _durable_room(self) -> int:
        return MAX_DURABLE - sum(alt.readings.durable for alt in self.readings.alts)

    def _turn_from(self) -> list[int]:
        """The seats in turn order (逆时针, 004:23) from the one after the last to act."""
        start = self.last_actor if self.last_actor is not None else self.to_lead()
        start = (start if start is not None else 0)
        first = start if self.cur is None else start + 1
        return [(first + k) % SEATS for k in range(SEATS)]

    def _nested(self, tried: list[Self]) -> list[Self]:
        """A second slip in the deal (D31): the durable readings of the first that did not take
        this faulted play each made readings of it; those are kept too (durable, as room
        allows), so a reading of both slips can still be followed."""
        out: list[Self] = []
        room = self._durable_room()
        for alt in tried:
            if alt.readings.durable:
                out += alt.readings.alts[:max(0, room - len(out))]
        for alt in out:
            alt.readings.durable = True
        return out

    def _durable(self, alts: list[Self]) -> list[Self]:
        """``alts`` kept for the rest of the deal (D31)."""
        for alt in alts:
            alt.readings.durable = True
        return alts

    def _durable_copy(self, i: int, seat: int, cards: tuple[Card, ...], alt: Self | None = None) -> Self | None:
        """A durable copy of the deal (``alt``, else a new one) in which ``seat`` played ``cards``
        at ``i``, or None where that play has a fault.  The copy makes no readings of its own."""
        alt = alt or self._copy()
        alt.readings.doubt = True
        faults = alt._play(i, seat, cards)
        alt.readings.doubt = False
        alt.readings.alts = []
        if faults:
            return None
        alt.readings.durable = True
        return alt

    def _holder(self, seat: int, cards: tuple[Card, ...]) -> int | None:
        """The one other seat whose known hand holds ``cards`` and may play them now, or None."""
        holders = [s for s, hand in enumerate(self.hands)
                   if s != seat and hand is not None and s in self.progress.active and not hand.missing(cards)]
        if len(holders) != 1 or self.check_play(holders[0], cards) is not None:
            return None
        return holders[0]

    def _seat_alts(self, i: int, seat: int, cards: tuple[Card, ...]) -> list[Self]:
        """O2: the deal as it would be had faulted play ``i`` been another seat's (the seat read
        wrong, or the cards charged to the wrong hand): one reading per other seat in play that
        may play these cards now, nearest in turn first.  They are durable: a play charged to
        the wrong seat shows only when a count runs out, long after."""
        if self.phase != Phase.PLAY:
            return []
        out: list[Self] = []
        room = self._durable_room()
        for other in self._turn_from():
            if len(out) >= room:
                break
            if other == seat or other not in self.progress.active or self.check_play(other, cards) is not None:
                continue
            alt = self._durable_copy(i, other, cards)
            if alt is not None:
                _not_last_three(alt, i, other)
                out.append(alt)
        return out

    def _short_alts(self, i: int, seat: int, cards: tuple[Card, ...]) -> list[Self]:
        """O5: the deal as it would be had answer ``i`` held as many cards as the play on the
        table, the ones missing not seen (a card hidden under another): the missing cards taken
        as cards of the play's rank, 2s or one joker, each a reading the table takes.  Durable,
        as the count it charges shows only when the seat runs out."""
        cur = self.cur
        need = 0 if cur is None else cur.shape.n - len(cards)
        if self.phase != Phase.PLAY or not 0 < need <= 2:
            return []
        hand = self.hands[seat]
        out: list[Self] = []
        tried: list[Counter[Card]] = []
        based = False                   # one base (the lowest the table takes) is enough
        for extra in self._extra_cards(cards, hand):
            fixed = (*cards, *[extra] * need)
            if Counter(fixed) in tried or len(out) >= self._durable_room() or (based and extra in BASES):
                continue
            tried.append(Counter(fixed))
            if self.check_play(seat, fixed) is not None:
                continue
            alt = self._durable_copy(i, seat, fixed)
            if alt is not None:
                out.append(alt)
                based = hand is None and extra in BASES
        return out

    @staticmethod
    def _extra_cards(cards: tuple[Card, ...], hand: Hand | None) -> list[Card]:
        """Cards a play may have had besides ``cards``: any card of ``hand`` when it is known;
        else its ranks, a 2, a joker, and where only 2s and jokers were seen the base they were
        attached to (2s played with another rank become that rank, 004:15-17), lowest first."""
        ranks = {c.rank for c in cards}
        if hand is not None:       # the ranks seen first, then 2s and jokers, then the bases
            held = sorted(dict.fromkeys(hand.cards()),
                          key=lambda c: (c.rank not in ranks, not (c.is_joker or ORDER[c.rank] == TWO)))
            return [c for k, c in enumerate(held)           # one card of each base rank
                    if c.rank in ranks or c.is_joker or all(d.rank != c.rank for d in held[:k])]
        firsts = [next(c for c in cards if c.rank == r) for r in sorted(ranks)]
        bases = [] if any(not c.is_joker and ORDER[c.rank] != TWO for c in cards) else BASES
        return [*firsts, A_TWO, SMALL_JOKER, BIG_JOKER, *bases]


def _on_count(fault: Fault) -> bool:
    """D49: ``fault`` is the question (O10) of a fault only a card count shows.  闷 proven by
    a 3 the seat led after its play was beaten (D14, D47: ``by`` named) is shown by the order
    of the plays, not by a count: it is not one (D49a)."""
    if fault.code != FAULT_OR_SLIP or fault.facts.get("fault") not in COUNT_CODES:
        return False
    return "by" not in (fault.facts.get("fault_facts") or {})


def _not_last_three(alt: OtherReadings, i: int, seat: int) -> None:
    """D53: in the reading in which play ``i``, a 3, was ``seat``'s, a 3 the count says is not
    the seat's last (004:27) was read wrong, as in the reading in which it stood (``_stood``):
    the seat stays in play."""
    count = alt.counts[seat]
    if alt.progress.three_i.get(seat) == i and count is not None and count > 0:
        alt._back_in_play(seat)
