"""The camera-slip readings of a 够级 deal (docs/rules/observation.md, O1-O5, O9; decision
D30 in docs/rules/gouji.md).

After a faulted play the referee keeps copies of the deal as it would be in the other
readings of that play: it stood (``_stood``), a card of it was read wrong (``_misread_alts``),
it answered a play on the table read wrong, or it was another seat's (``_other_seat``).  The
next events decide which reading the table followed.  :class:`SlipReadings` is mixed into the
referee (:mod:`.referee`; ``self`` is the referee) and keeps the readings' bookkeeping; the
rules of a play stay the referee's.
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Self

from ..cards import Card, parse_card
from ..events import AnyEvent, PlayEvent
from ..verdict import FAULT_OR_SLIP, OBSERVE_PREFIX, Fault
from .burning import Burn, BurnState
from .other_readings import OtherReadings
from .outs import Progress
from .shapes import ORDER, TWO, Shape, parse_shape
from .table import ASKED_CODES, BEAT_CODES, RESYNC_CODES, Phase

if TYPE_CHECKING:
    from .hands import Hand
    from .table import Current

#: plays a second reading of the deal is kept for once the first fits again (one slip at a time)
KEEP_PLAYS = 8
SMALL_JOKER, BIG_JOKER, A_TWO = parse_card("SJ"), parse_card("BJ"), parse_card("2S")


@dataclass
class Readings:
    """The bookkeeping of the readings of a deal."""

    #: the deal as it would be in other readings of the last faulted play: it stood
    #: (``_stood``), a card of it was read wrong (``_misread_alts``), it answered a play on
    #: the table read wrong (decision D30 in docs/rules/gouji.md)
    alts: list[Any] = field(default_factory=list)
    age: int = 0                        # plays judged by a reading since it was made
    misread: tuple[Card, ...] = ()      # a reading's card seen but not played (O5)
    doubt: bool = False                 # a stood play was tried and did not fit either
    #: the deal just after a faulted play, that play and the events since (``_other_seat``)
    pre: tuple | None = None
    #: a play was not seen just before this one: the next answer is not checked against the table
    unseen: bool = False
    unseen_burn: bool = False           # ... and it may take a 够级 on the table as a burn (004:11)
    #: the last play with a card seen more often than the decks hold (a card read wrong, O9)
    doubtful: int | None = None
    #: a reading kept for the rest of the deal, not only ``KEEP_PLAYS`` plays: the faulted play
    #: was another seat's, or a card of it was not seen (``_seat_alts``, ``_short_alts``).  Such a
    #: reading differs from the others in the card counts, which show only when a seat runs out
    durable: bool = False
    #: the deal just before play ``doubtful`` (its misreadings are tried on a declare after it)
    doubtful_before: Any = None
    #: the rule fault an earlier observation flag becomes should the table follow this reading
    #: (e.g. ``gouji.not_your_lead`` when a first lead taken for a gap was out of turn after all)
    proves: Fault | None = None
    #: the faulted camera play stood as it was seen (O10): the table follows this reading only
    #: when no reading of a camera slip fits the play that decides
    last_resort: bool = False
    #: a reading kept though nothing was flagged (O11, :mod:`.unseen_burn`): the first faulted
    #: play after it does not adopt it (that play is flagged as usual), later ones may
    waits: bool = False
    #: the play on the table (its index) in doubt: a camera play was faulted against it (the
    #: turn order or the table, ``RESYNC_CODES``), or a flagged camera slip left it on the
    #: table; the next such fault against it is a question (O12, D35)
    contested: int | None = None



class SlipReadings(OtherReadings):
    """The readings kept after a faulted play, and the cards the judge saw (a mixin)."""

    # provided by the referee
    rules: Any
    deal: Any
    s: Any
    min_table: tuple[int, ...]
    phase: Phase
    hands: list[Hand | None]
    counts: list[int | None]
    progress: Progress
    cur: Current | None
    burning: BurnState
    _returned: tuple[Card, ...]
    readings: Readings
    slips: int
    seen: Counter[Card]
    copies: int
    hands_known: bool

    if TYPE_CHECKING:
        def _feed_one(self, i: int, event: AnyEvent) -> list[Fault]: ...
        def _play(self, i: int, seat: int, cards: tuple[Card, ...]) -> list[Fault]: ...
        def _lead(self, i: int, seat: int, shape: Shape, cards: tuple[Card, ...], final: bool,
                  zhashao: bool) -> list[Fault]: ...
        def check_play(self, seat: int, cards: tuple[Card, ...]) -> Fault | None: ...
        def _precheck(self, seat: int, cards: tuple[Card, ...], shape: Shape) -> Fault | None: ...
        def _is_final(self, seat: int, shape: Shape) -> bool: ...
        def _classify(self, seat: int, shape: Shape, final: bool) -> tuple[str, Fault | None, bool, bool]: ...
        def _check_answer(self, seat: int, shape: Shape,
                          cur: Current) -> tuple[str, Fault | None, bool, bool]: ...

    def feed(self, i: int, event: AnyEvent) -> list[Fault]:
        """Judge one event (docs/rules/observation.md, O1-O2 for the readings kept after a
        faulted play: the play stood, it was read wrong, or it was another seat's)."""
        if not isinstance(event, PlayEvent):
            return self._feed_read(i, event)
        if self.hands_known:        # every hand is known: no card is read wrong
            return self._feed_read(i, event)
        seen, copies, over = self.seen, self.copies, False
        for card in event.cards:
            n = seen[card] + 1
            seen[card] = n
            if n > copies:
                over = True
        before = self._copy() if over and self.hands[event.seat] is None else None
        faults = self._feed_read(i, event)
        for card in self._returned:
            if seen[card] > 0:
                seen[card] -= 1
        if before is not None:
            self.readings.doubtful = i       # the judge flags a card seen too often (O9): read wrong?
            self.readings.doubtful_before = before
        return faults

    def _adopt(self, other: Self) -> None:
        """Go on with the reading ``other`` of the deal (the cards seen stay this referee's)."""
        seen, slips = self.seen, self.slips
        self.__dict__.update(other.__dict__)
        self.seen, self.slips = seen, slips

    def _answered(self, i: int, event: PlayEvent) -> Self | None:
        """The deal had the play on the table been read wrong, and this play answered it."""
        alt = self._copy()
        alt.readings.unseen = True
        if alt._feed(i, event):
            return None
        return alt

    def _feed_read(self, i: int, event: AnyEvent) -> list[Fault]:
        alts, self.readings.alts = self.readings.alts, []
        pre, self.readings.pre = self.readings.pre, None
        if not isinstance(event, PlayEvent):
            kept = _fitting(alts, i, event)     # D43: a slip's reading before the last resort
            faults = self._feed(i, event)
            if faults and not kept:
                kept = self._misread_table(i, event)
            durable = [alt for alt in kept if alt.readings.durable]
            if faults and kept and (self.hands[getattr(event, "seat", 0) or 0] is None or durable):
                # a pass or declare only a reading kept explains: the table followed it (with the
                # hand known, only a reading in which the faulted play was another seat's or
                # had a card not seen: the cards it holds do not make that one doubtful)
                chosen = kept[0] if self.hands[getattr(event, "seat", 0) or 0] is None else durable[0]
                self._adopt(chosen)
                self.readings.alts = [alt for alt in kept if alt is not chosen]
                self._returned = (*self._returned, *self.readings.misread)
                self.readings.misread = ()
                return self._proven(i)
            if faults:
                self.slips += 1
            if not self.readings.alts:
                self.readings.alts = kept          # a pass or declare a reading makes faulty drops it
            if pre is not None and self.readings.pre is None:
                pre[4].append((i, event))
                self.readings.pre = pre
            return faults
        faults = self._feed(i, event)
        if not faults:
            # the readings kept go on while they fit too, for a few plays: should this reading
            # fail later, one of them may still explain the table
            kept = [alt for alt in alts if (alt.readings.durable or alt.readings.age < KEEP_PLAYS)
                    and not alt._feed(i, event)]
            for alt in kept:
                alt.readings.age += 1
            self.readings.alts += kept
            return faults
        slips = self.slips = self.slips + 1
        for alt in self.readings.alts:
            alt.slips = slips               # the readings kept are after this slip too
        cur = self.cur
        if cur is not None and cur.i == self.readings.doubtful and cur.seat != event.seat:
            # the play on the table holds a card seen too often, flagged (O9): it was read
            # wrong, and this play answered what was played
            answered = self._answered(i, event)
            if answered is not None:
                self._adopt(answered)
                self._returned = (*self._returned, *cur.cards)
                return []
        # a play that fits only a reading kept shows the table followed it (another seat
        # answered the play that stood, the same seat leads again after all passed, or one
        # card was read wrong); the other readings that fit are kept beside it
        tried = alts
        fitting = _fitting(tried, i, event)
        waiting = [alt for alt in fitting if alt.readings.waits]    # O11: kept, not adopted, at a first fault
        fitting = [alt for alt in fitting if not alt.readings.waits]
        for alt in waiting:
            alt.readings.waits = False
        if fitting:
            self._adopt(fitting[0])
            self.readings.alts = fitting[1:] + waiting
            self._returned = (*self._returned, *self.readings.misread)   # the card seen was not played
            self.readings.misread = ()
            return self._proven(i, faults)
        if tried:
            self.readings.doubt = True          # none fits: no new guess until a play fits again
        self.readings.alts += self._nested(tried) + waiting
        if pre is not None and self._other_seat(pre, i, event):
            return []
        if pre is None and self.readings.pre is None:
            self.readings.pre = (self._copy(), i, event.seat, event.cards, [])
        return _contested(self, event, faults)

    def _other_seat(self, pre: tuple, i: int, event: PlayEvent) -> bool:
        """O2: the faulted play at ``j`` was this seat's (its seat misread or mistyped): replay it
        as this seat's, then the events between, then this play; adopt that reading if all fit.
        The faulted play's own verdict stays."""
        trial, j, seat, cards, between = pre
        if event.seat == seat:
            return False
        if trial._feed(j, PlayEvent(seat=event.seat, cards=cards)):
            return False
        for k, ev in between:
            if trial._feed(k, ev):
                return False
        if trial._feed(i, event):
            return False
        trial.readings.alts, trial.readings.pre = [], None
        self._adopt(trial)
        return True

    def _feed(self, i: int, event: AnyEvent) -> list[Fault]:
        faults = self._feed_one(i, event)
        if isinstance(event, PlayEvent) and not faults:
            self.readings.doubt = False
        return faults

    def _copy(self) -> Self:
        """A deep copy of this deal (rules and settings shared), with no readings of its own."""
        keep = {id(x): x for x in (self.rules, self.deal, self.s, self.min_table)}
        r = self.readings
        alts, pre, before = r.alts, r.pre, r.doubtful_before
        r.alts, r.pre, r.doubtful_before = [], None, None
        alt = copy.deepcopy(self, keep)
        r.alts, r.pre, r.doubtful_before = alts, pre, before
        alt.readings.age, alt.readings.misread, alt.readings.durable = 0, (), False
        alt.readings.proves, alt.readings.last_resort, alt.readings.waits = None, False, False
        return alt

    def _readings(self, seat: int, cards: tuple[Card, ...]) -> list[tuple[Card, Card, tuple[Card, ...], bool]]:
        """Readings of a play that is one play but for one card (O5): (the card seen, the card it
        is read as, the play so read, whether the table takes it without a fault and it is no
        诈烧).  Each card is tried as a card of another rank of the play, then as a joker, then
        as a 2.  Plays of one card are never misread."""
        if len(cards) < 2:
            return []
        ranks = sorted({c.rank for c in cards if not c.is_joker and ORDER[c.rank] != TWO},
                       key=lambda r: (-sum(c.rank == r for c in cards), ORDER[r]))
        subs = [next(c for c in cards if c.rank == r) for r in ranks] + [SMALL_JOKER, BIG_JOKER, A_TWO]
        out = []
        for new in subs:
            for at, odd in enumerate(cards):
                if odd.rank == new.rank:
                    continue
                fixed = cards[:at] + (new,) + cards[at + 1:]
                shape = parse_shape(fixed, self.min_table)
                if not isinstance(shape, Shape):
                    continue
                fits = self._precheck(seat, fixed, shape) is None
                if fits and self.phase == Phase.CHONGDIAN:      # 冲点 plays: tried on a copy
                    trial = self._copy()
                    trial.readings.doubt = True                      # that makes no readings of its own
                    fits = not trial._play(-1, seat, fixed)
                elif fits:
                    _, fault, _, zhashao = self._classify(seat, shape, self._is_final(seat, shape))
                    fits = fault is None and not zhashao
                out.append((odd, new, fixed, fits))
        return out

    def _misread_as(self, seat: int, cards: tuple[Card, ...]) -> tuple[Card, Card, tuple[Card, ...]] | None:
        """The reading of a one-card misread (O5) the table takes, else the first that is a play."""
        readings = self._readings(seat, cards)
        best = next((r for r in readings if r[3]), readings[0] if readings else None)
        return None if best is None else best[:3]

    def _misread_alts(self, i: int, seat: int, cards: tuple[Card, ...]) -> list[Self]:
        """The deal as it would be had play ``i`` been one of the distinct one-card misreadings
        (O5) the table takes, at most four.  Each remembers the card seen (``_misread``): when
        the table shows it followed that reading, the judge forgets that card."""
        out: list[Self] = []
        seen: list[Counter[Card]] = []
        for odd, _, fixed, fits in self._readings(seat, cards):
            if not fits or Counter(fixed) in seen or len(out) == 4:
                continue
            seen.append(Counter(fixed))
            alt = self._copy()
            alt._play(i, seat, fixed)
            alt.readings.misread = (odd,)
            out.append(alt)
        return out

    def _keep_readings(self, i: int, seat: int, shape: Shape, cards: tuple[Card, ...], final: bool, answer: bool,
                       burning: bool, code: str, before: Self | None) -> None:
        """Keep the readings of play ``i``, faulted with ``code`` against the turn order or the
        table, while the referee goes on as if it was taken back: it stood (O1, within a burn
        begun by an unseen play, 004:11), a card of it was read wrong (O5; on the deal
        ``before`` the play during 冲点, O4), or it answered a play on the table read wrong
        (D30).  One slip at a time: nothing new while no play fits (``_doubt``)."""
        if code not in RESYNC_CODES or self.readings.doubt:
            return
        # one slip at a time; a 3 the count says is not the last was read wrong
        left = self.hands[seat] is None and (self.counts[seat] or 0) > shape.n
        if self.hands[seat] is None:     # O5: one card was read wrong
            self.readings.alts += (before or self)._misread_alts(i, seat, cards)
            cur = self.cur
            if cur is not None and cur.seat != seat and answer:
                for as_burn in (False, True)[:1 + burning]:
                    alt = self._copy()       # ... of the play on the table
                    alt.readings.unseen, alt.readings.unseen_burn = True, as_burn
                    alt._play(i, seat, cards)
                    alt.readings.unseen = alt.readings.unseen_burn = False
                    alt.readings.misread = cur.cards
                    self.readings.alts.append(alt)
                if code == "gouji.does_not_beat":
                    # a card of the play on the table may have been read too high:
                    # its cards no longer count as shown (O9 stays for real doubles)
                    self._returned = cur.cards
        stood = self._stood(i, seat, shape, cards, final and not left)
        stood.readings.last_resort = not (code in BEAT_CODES and _one_beatable(self.cur, cards))
        self.readings.alts.append(stood)
        burn = self._unseen_burn(seat, shape)
        if burn is not None:
            self.readings.alts.append(self._stood(i, seat, shape, cards, final and not left, burn))
        if code == "gouji.count_mismatch" and answer:
            self.readings.alts += self._short_alts(i, seat, cards)
        if code in BEAT_CODES:
            self.readings.alts += self._answered_unseen(i, seat, shape, cards)
            self.readings.alts += self._owner_led_unseen(i, seat, shape, cards, final)
            self.readings.alts += self._burned_unseen(i, seat, shape, cards, final and not left)
        elif code == "gouji.passed_already":         # D44: the owner led again, not seen
            self.readings.alts += self._owner_led_unseen(i, seat, shape, cards, final)
        if code in ("gouji.passed_already", "gouji.not_your_lead"):
            self.readings.alts += self._answered_before_pass(i, seat, shape, cards)   # D44: the pass was a play
            self.readings.alts += self._table_play_led(i, seat, cards)    # D45: the table's play was a lead
            self.readings.alts += self._round_unseen(i, seat, shape, cards)    # D52: a first round not seen
        self.readings.alts += self._seat_alts(i, seat, cards)

    def _stood(self, i: int, seat: int, shape: Shape, cards: tuple[Card, ...], final: bool,
               burn: Burn | None = None) -> Self:
        """This deal as it would be had the faulted play stood on the table (docs/rules/
        observation.md, O1): a copy in which the play leads (within ``burn``, when an unseen play
        of the seat took the 够级 on the table).  The referee itself goes on as if the play was
        taken back; the next play decides which reading the table followed."""
        alt = self._copy()
        alt.burning.current = burn
        alt._lead(i, seat, shape, cards, final, False)
        return alt

    def _unseen_burn(self, seat: int, shape: Shape, joker: bool = True) -> Burn | None:
        """The burn ``seat`` would have started by taking the 够级 on the table with a play not
        seen (004:11): only where it may burn it, and (``joker``) this play carries a joker as a
        burn play must.  None otherwise."""
        cur = self.cur
        if cur is None or cur.seat == seat or (joker and not shape.jokers) or self.hands[seat] is not None:
            return None
        _, fault, burning, _ = self._check_answer(seat, shape, cur)
        if not burning or (fault is not None and fault.code not in BEAT_CODES):
            return None
        return Burn(seat, cur.seat, cur.i)


def _contested(ref: SlipReadings, event: PlayEvent, faults: list[Fault]) -> list[Fault]:
    """O12 (decision D35 in docs/rules/gouji.md): a camera play's fault against the turn order
    or the table (``RESYNC_CODES``) is a question (``observe.fault_or_slip``) when the table
    play it is judged against is already in doubt: an earlier camera play was faulted so
    against it, or was flagged as a slip (``observe.*``, or a shape fault a slip may explain)
    and left it on the table.  Seat after seat failing to answer one table play points at
    the table as the judge has it (a new lead the camera missed, a card of it misread), not
    at the players.  The first such fault against a table play no flag has touched stays as
    D30 and D33 make it."""
    cur = ref.cur
    if cur is None or not ref._asks(event.seat):
        return faults
    against = [f for f in faults if _table_fault(f)]
    if not against:
        if any(_flagged(f) for f in faults):
            ref.readings.contested = cur.i      # the table as it stands rests on a flagged slip
        return faults
    if ref.readings.contested != cur.i:
        ref.readings.contested = cur.i
        return faults
    return [ref._question(event.seat, event.cards, f) if f.code in RESYNC_CODES else f for f in faults]


def _flagged(fault: Fault) -> bool:
    """``fault`` flags the play as a camera's slip (``observe.*``) or as a shape a slip may
    explain (``ASKED_CODES``)."""
    return fault.code.startswith(OBSERVE_PREFIX) or fault.code in ASKED_CODES


def _table_fault(fault: Fault) -> bool:
    """``fault`` is a play's fault against the turn order or the table (``RESYNC_CODES``), or the
    question of one."""
    return fault.code in RESYNC_CODES or (fault.code == FAULT_OR_SLIP and fault.facts.get("fault") in RESYNC_CODES)


def _one_beatable(cur: Current | None, cards: tuple[Card, ...]) -> bool:
    """O10: a one-card answer to a one-card play that some card beats: the card may have been
    read wrong, and the play stood as one that beats it (no rank is more likely than another)."""
    return len(cards) == 1 and cur is not None and cur.shape.n == 1 and cur.cards[:1] != (BIG_JOKER,)


def _fitting(alts: list[Any], i: int, event: AnyEvent) -> list[Any]:
    """The readings ``alts`` that take event ``i`` without a fault (each is fed it), the one in
    which the faulted play stood as seen (O1: the last resort) after the slips' (D43)."""
    return sorted((alt for alt in alts if not alt._feed(i, event)), key=lambda alt: alt.readings.last_resort)
