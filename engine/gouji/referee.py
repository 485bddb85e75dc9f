"""The 够级 referee of one deal: a state machine fed one event at a time.

Events (spec ``shared/spec/event-log.md``): ``hand`` (optional, the seat's cards when the
event appears; declares that move cards move them), ``play``, ``pass``, ``declare``.
``bottom`` has no meaning in 够级 and is a fault.  Without hands the referee judges what the
plays prove and flags earlier faults when a later play proves them (``proven_at``).

Declares (``what``; see ``docs/rules/gouji.md``): ``buy3``/``buy4`` (``from`` seller seat,
``cards`` the payment: one 2, one joker or nothing), ``xuandian`` (``target`` = the 对门,
default), ``kangong``, ``tribute`` (``target``, ``kind`` dian|shao|men|luo|chuan, ``cards``),
``revolution`` (禹城), ``chongdian`` (optional ``prev_rank``), ``yaotou`` (禹城), ``youtou``
(山东), ``wutou``, ``rangpai`` (禹城), ``burn`` (烧牌 declaration, optional ``target``),
``rendian`` (认点), ``kaidian`` (a spoken 开点, confirmed only if the plays earned it), ``throw4`` (山东: the 对门 of a failed 冲点 throws its 4s, ``cards``),
``out`` (the seat went out, for logs without hands).

:meth:`GoujiReferee.state` keys (JSON-able, for the dashboard):
``game``, ``phase`` (prep | chongdian | play | over | void), ``luanchan`` (四户乱缠 on),
``to_play`` (seat expected to act next or null), ``to_lead`` (who leads once the current
play stands), ``current_play`` ({seat, cards, gouji, pure, restricted} or null),
``gouji_owner`` (seat whose 够级 play only the 对门 may answer, or null), ``may_answer``
(seats that may answer normally), ``passed``, ``burning`` ({seat, target, plays} or null),
``burn_declared``, ``rangpai`` (seat that yielded or null), ``finished`` (走科 order),
``order`` (six slots 头科..大落, null where undecided), ``place_names``, ``men``
([{seat, by}]), ``zhashao``, ``revolution``, ``chongdian`` ([{seat, sets, done}]),
``kaidian``, ``rendian``, ``xuandian``, ``kangong`` ({seat: self|team}), ``wutou``,
``tributes`` (as in the summary, running), ``played`` (cards played per seat),
``remaining`` (cards left per seat, null where unknown), ``burns`` ([{seat, target}]).

The referee applies plays (``_play``, ``_lead``, ``_answer``); the rest is mixed in:
:mod:`.opening` (leader, hands, start of play), :mod:`.slips` (camera-slip readings),
:mod:`.checks` (the faults a play would have), :mod:`.turns` (leads, passes, 无头, 开点),
:mod:`.outs` (seats leaving, the deal's end) and :mod:`.view` (results and ``state``).  Its
state is grouped in :class:`~.outs.Progress`, :class:`~.burning.BurnState`,
:class:`~.points.Points` and :class:`~.chongdian_state.ChongdianState`; :mod:`.declares` and
:mod:`.chongdian` receive it as a :class:`~.deal.GoujiDeal`.
"""

from __future__ import annotations

from collections import Counter

from ..cards import Card
from ..events import AnyEvent, BottomEvent, DealEvent, DeclareEvent, HandEvent, PassEvent, PlayEvent
from ..referee import DealReferee, GameRules
from ..verdict import Fault
from . import chongdian, declares
from .burning import Burn, BurnState
from .checks import PlayChecks
from .chongdian_state import ChongdianState
from .declare_names import Declare
from .hands import Hand
from .opening import DealOpening
from .outs import Progress, SeatsOut
from .points import Points
from .settings import GoujiSettings
from .shapes import (
    ATTACHED,
    FOUR,
    THREE,
    Shape,
    ShapeError,
    attached_one_off,
    make_min_table,
    one_card_off,
    one_odd,
    parse_shape,
)
from .slips import Readings, SlipReadings
from .table import SEATS, Current, Phase
from .table import opp as _opp
from .turns import TurnOrder
from .unseen_burn import UnseenBurns
from .view import DealView


class GoujiReferee(DealOpening, UnseenBurns, SlipReadings, PlayChecks, TurnOrder, SeatsOut, DealView, DealReferee):
    """One 够级 deal.  Variant rules come from ``rules.settings`` (a :class:`GoujiSettings`)."""

    def __init__(self, deal: DealEvent, index: int, rules: GameRules) -> None:
        super().__init__(deal, index, rules)
        s: GoujiSettings = rules.settings
        self.s = s
        self.min_table = make_min_table(s.min_count())
        leader = deal.options.get("leader")
        ok = isinstance(leader, int) and not isinstance(leader, bool) and 0 <= leader < SEATS
        self.leader: int | None = leader if ok else None
        #: the previous deal's 大落 when it leads this deal (004:17, see ``opening_faults``)
        self.daluo: int | None = None
        self.hands: list[Hand | None] = [None] * SEATS
        self.eaten: list[list[Card]] = [[] for _ in range(SEATS)]
        sizes = deal.hand_sizes if deal.hand_sizes and len(deal.hand_sizes) == SEATS else None
        self.sizes: tuple[int, ...] | None = tuple(sizes) if sizes else None
        self.counts: list[int | None] = list(sizes) if sizes else [None] * SEATS
        self.played = [0] * SEATS
        self._returned: tuple[Card, ...] = ()
        self.phase: Phase = Phase.PREP
        self.progress = Progress()
        self.revolts: list[int] = []
        self.chong = ChongdianState()
        self.points = Points()
        self.head: dict[int, str] = {}
        self.yaotou_left: dict[int, int] = {}
        self.no_fours: set[int] = set()
        self.thrown: dict[int, tuple[str, int | None]] = {}
        self.burning = BurnState()
        self.prep_stage = -1
        self.tribute_stage = -1
        self.cur: Current | None = None
        self.passed: set[int] = set()
        self.said_pass: set[int] = set()    # of ``passed``, those who passed in the log (not presumed)
        self.cur_passes: set[int] = set()
        self.last_actor: int | None = None
        self.rang: int | None = None
        #: observation faults found while judging the current event (docs/rules/observation.md)
        self.pending_observe: list[Fault] = []
        #: the other readings of the last faulted play (docs/rules/observation.md; D30)
        self.readings = Readings()
        #: observation slips flagged so far: card counts are not trusted after one (O3)
        self.slips = 0
        #: the cards shown so far, as the judge counts them (O9)
        self.seen: Counter[Card] = Counter()
        self.copies = rules.composition.decks
        self.hands_known = False    # set when play starts with every seat's hand known
        self.camera = False         # the play being judged is a camera's (``source: "camera"``, O10)
        self.three_cards: dict[int, tuple[Card, ...]] = {}    # the last play of each seat in three_i

    # ------------------------------------------------------------------ feed
    def returned_cards(self) -> list[Card]:
        """A rejected play is taken back into the hand, so its cards no longer count as shown."""
        return list(self._returned)

    def _feed_one(self, i: int, event: AnyEvent) -> list[Fault]:
        self._returned = ()
        if isinstance(event, PlayEvent):
            self.camera = event.source == "camera"
            before = sum(self.played)
            faults = self._play(i, event.seat, event.cards)
            self.readings.unseen = False
            if sum(self.played) == before:
                self._returned = (*self._returned, *event.cards)   # rejected: back to the hand
            if self.pending_observe:
                faults = [*self.pending_observe, *faults]
                self.pending_observe = []
            return faults
        if isinstance(event, PassEvent):
            return self._pass(i, event.seat)
        if isinstance(event, DeclareEvent):
            return declares.judge(self, i, event)
        if isinstance(event, HandEvent):
            return self._hand(event)
        if isinstance(event, BottomEvent):
            return [Fault("gouji.no_bottom", {})]
        return []

    # ------------------------------------------------------------------ plays
    def _play(self, i: int, seat: int, cards: tuple[Card, ...]) -> list[Fault]:
        faults: list[Fault] = []
        j = self.progress.three_i.pop(seat, None)
        if j is not None and seat in self.progress.finished:         # a 3 that was not the last play
            last = self._question(seat, self.three_cards.get(seat, ()),     # O10: the 3 misread?
                                  Fault("gouji.three_not_last", {"seat": seat}))
            faults.append(last.at(j, i))
            self.progress.finished.remove(seat)
            self.progress.active.add(seat)
            if self.phase == Phase.OVER:
                self.phase = Phase.PLAY
            self.progress.luanchan = len(self.progress.active) <= self.s.luanchan_at      # undo what that 3 started
            self.progress.chuan = False
            self._progress()
        if self.phase == Phase.VOID:
            return [*faults, Fault("gouji.deal_void", {"seat": seat})]
        if (self.phase == Phase.OVER and (seat in self.progress.active or self._presumed_out(seat))
                and self._reopen(seat)):
            pass        # the deal ended on a seat presumed out, and play goes on (D30)
        elif self.phase == Phase.OVER:
            return [*faults, Fault("gouji.deal_over", {"seat": seat})]
        if seat not in self.progress.active:
            # O2: the cards may be a seat's in play, the seat read wrong (decision D31)
            others = [] if self.readings.doubt else self._seat_alts(i, seat, cards)
            if any(m == seat for m, _ in self.progress.men):
                code = "gouji.men_out"
            elif seat in self.revolts:
                self.readings.alts += others
                return [*faults, Fault("gouji.revolution_out", {"seat": seat})]
            else:
                code = "play.after_out"
            if not self._presumed_out(seat):
                kept = len(self.readings.alts)
                self.readings.alts += others
                return [*faults, self._asked(i, seat, cards, Fault(code, {"seat": seat}), kept)]
            # the seat was presumed out (诈烧 read off a burn play without a joker; 闷 or a last 3
            # while the count says it holds cards) and plays on: flagged once, then the table is
            # followed and the seat is in play again (decision D30)
            self._back_in_play(seat)
            out = [*faults, self._question(seat, cards, Fault(code, {"seat": seat})), *self._play(i, seat, cards)]
            self.readings.alts += others
            return out
        shape = parse_shape(cards, self.min_table)
        if isinstance(shape, ShapeError):
            read = (self._misread_as(seat, cards)
                    if self.hands[seat] is None and shape.code == "gouji.mixed_ranks" else None)
            if read is None or not one_odd(cards):
                kept = len(self.readings.alts)
                if not self.readings.doubt:      # O1: keep each reading as one play; durable, as
                    self.readings.alts += self._durable(self._misread_alts(i, seat, cards))   # counts show late
                misfit = Fault(shape.code, {"seat": seat, **shape.facts})
                asked = self._asked(i, seat, cards, misfit, kept)
                if asked is misfit and (shape.code == "gouji.mixed_ranks" and one_card_off(cards)
                                        or shape.code in ATTACHED and attached_one_off(cards)):
                    asked = self._question(seat, cards, misfit)  # D38, D39: one card read wrong explains it
                return [*faults, asked]
            odd, new, fixed = read     # one card cannot lie with the others: read wrong (O5)
            self._play(i, seat, fixed)
            self._returned = (odd,)    # the card seen is not on the table: the judge forgets it
            return [*faults, Fault("observe.card_unplausible", {"seat": seat, "card": odd,
                                                               "cards": list(cards), "as": new})]
        fault = self._precheck(seat, cards, shape)
        if fault is not None:
            holder = self._holder(seat, cards) if fault.code == "play.not_in_hand" else None
            if holder is not None:      # O2: the cards are one other seat's, which may play them now
                self._play(i, holder, cards)
            elif not self.readings.doubt:       # O2: another seat's (several hold them, or the count)
                self.readings.alts += self._seat_alts(i, seat, cards)
            if fault.code == "gouji.more_than_held" and self._asks(seat):
                return [*faults, *self._short_count(i, seat, cards, fault)]
            return [*faults, fault]
        count = self.counts[seat]
        if shape.base == THREE and self.hands[seat] is None and count is not None and count > shape.n \
                and not self.slips:
            # the count says cards are left, but no hand shows them: a 3 is the last play
            # (004:27), so a play of this seat was not seen (observation.md, O3).  Should the
            # seat play again, the 3 was 憋3 after all and that fault replaces this flag.  After
            # an earlier slip was flagged the counts are not trusted: that flag stands for it.
            faults.append(Fault("observe.missing_play", {"seat": seat, "left": count - shape.n}))
            if not self.readings.doubt:     # ... or the 3 was another seat's, the seat read wrong (O2)
                self.readings.alts += self._seat_alts(i, seat, cards)
        start: list[Fault] = []
        if self.phase == Phase.PREP:
            start = self._start_play()
        before: GoujiReferee | None = None
        if self.phase == Phase.CHONGDIAN:
            # without the hand a misread card may have closed the 冲点 (O4): its readings are
            # tried on the deal as it was before this play
            before = self._copy() if self.hands[seat] is None else None
            result = chongdian.chong_play(self, i, seat, cards, shape)
            if result is not None:
                return faults + result + start
        final = self._is_final(seat, shape)
        kind, fault, burning, zhashao = self._classify(seat, shape, final)
        if fault is not None:
            presumed = self._presume_men(seat, shape, final)
            gap = None if presumed is not None else self._unseen_lead(i, seat, shape, cards, final, fault)
            if gap is not None:
                return [*faults, *gap, *start]
            if presumed is None:
                kept = len(self.readings.alts)
                self._keep_readings(i, seat, shape, cards, final, kind == "answer", burning, fault.code, before)
                return [*faults, self._asked(i, seat, cards, fault, kept), *start]
            kind, burning, zhashao = presumed
        if kind == "lead" and shape.base == THREE and seat in self.progress.beaten:
            by_i, by = self.progress.beaten.pop(seat)               # 闷, proven by this 3 (004:5-7, 002:16)
            self._place_men(seat, by)
            return [*faults, self._men_proven(seat, cards, by), *start]
        if kind == "lead":
            faults += self._lead(i, seat, shape, cards, final, zhashao)
        else:
            faults += self._answer(i, seat, shape, cards, final, burning)
        return faults + start

    def _lead(self, i: int, seat: int, shape: Shape, cards: tuple[Card, ...], final: bool,
              zhashao: bool) -> list[Fault]:
        cur = self.cur
        burn = self.burning.current
        if burn is not None and burn.seat == seat:
            burn.plays += 1
        elif burn is not None:
            self.burning.current = None
        if shape.base == FOUR and cur is not None and cur.seat == seat and cur.shape.pure \
                and self._kaidian_open(seat):
            self.points.kaidian.add(seat)                      # 开点 (004:9, 004:23-25)
        self._new_round()
        self.burning.declared = []
        self.burning.closed = False
        self.last_actor = seat
        self._set_cur(i, seat, shape, cards)
        faults = self._after_play(i, seat, shape, cards, final)
        if zhashao and seat in self.progress.active:
            self.progress.zhashao.append(seat)                   # 诈烧 (002:13, 002:18)
            self.progress.active.discard(seat)
            self.burning.current = None
            self._progress()
        return faults

    def _answer(self, i: int, seat: int, shape: Shape, cards: tuple[Card, ...], final: bool,
                burning: bool) -> list[Fault]:
        cur = self.cur
        assert cur is not None
        owner = cur.seat
        faults: list[Fault] = []
        if not cur.restricted:
            self._imply_passes(seat, True)
        burn = self.burning.current
        if burn is not None and burn.seat == owner:
            if burning and not self.s.any_interrupt_is_jieshao and seat != _opp(owner):
                self.burning.current = Burn(seat, owner, i)       # 反烧 (002:11)
            else:
                self.burning.current = None                      # 解烧 (004:11, 004:27; 002:12)
                if self.s.no_burn_after_jieshao:
                    self.burning.closed = True
        elif burning:
            self.burning.current = Burn(seat, owner, i, on_one_card=self._one_card_gouji(owner, cur.shape),
                                        after_unseen=self._take_after_unseen(seat, owner))
            if (self.s.burn_needs_four_out and self.hands[seat] is None and seat not in self.burning.fours_played):
                self.burning.pending_four.append((seat, i, self.burning.current.on_one_card))
        if owner in self.progress.active:
            hand = self.hands[owner]
            if hand is not None:
                men = hand.only(THREE)
            else:
                men = self.counts[owner] == 1          # the one card left is its 3 (decision D13)
            if men:
                self._place_men(owner, seat)           # 闷 (004:5-7, 004:27; 002:16)
            else:
                self.progress.beaten[owner] = (i, seat)
        self.last_actor = seat
        self.burning.declared = []
        self._set_cur(i, seat, shape, cards)
        faults += self._after_play(i, seat, shape, cards, final)
        return faults

    def _set_cur(self, i: int, seat: int, shape: Shape, cards: tuple[Card, ...]) -> None:
        self.cur = Current(seat, shape, cards, i, self._restricted(seat, shape))
        self.cur_passes = set()
        if shape.gouji and self.head.get(seat) == Declare.YAOTOU:
            self.yaotou_left[seat] = self.yaotou_left.get(seat, 0) - 1

    def take(self, seat: int, cards: tuple[Card, ...], shape: Shape) -> None:
        """Take the cards ``seat`` put down out of its hand and counts (a play in turn, or within a 冲点)."""
        hand = self.hands[seat]
        if hand is not None:
            hand.remove(cards)
        if self.counts[seat] is not None:
            self.counts[seat] -= shape.n  # type: ignore[operator]
        self.played[seat] += shape.n
        if shape.base == FOUR:
            self.burning.fours_played.add(seat)

    def _after_play(self, i: int, seat: int, shape: Shape, cards: tuple[Card, ...], final: bool) -> list[Fault]:
        faults: list[Fault] = []
        self.take(seat, cards, shape)
        self.progress.beaten.pop(seat, None)
        if shape.base == FOUR:
            keep = []
            for s, j, asked in self.burning.pending_four:
                if s == seat:
                    faults.append(self._four_proven(seat, cards, j, i, asked))
                else:
                    keep.append((s, j, asked))
            self.burning.pending_four = keep
            if seat not in self.points.kaidian and self._kaidian_open(seat):
                self.points.rendian.add(seat)                 # 认点 (004:9)
        if final:
            if self.burning.current is not None and self.burning.current.seat == seat:
                self.burning.done.append((seat, self.burning.current.target))   # 烧牌成功 (004:25-27, 002:11)
                self.burning.current = None
            self.progress.active.discard(seat)
            self.progress.finished.append(seat)
            left = self.counts[seat]
            if self.hands[seat] is None and shape.base == THREE and (left is None or left > 0):
                self.progress.three_i[seat] = i
                self.three_cards[seat] = cards
            self._progress()
        return faults
