"""Whether a 够级 play may be made now, and how it meets the table (004:9-11, 004:23-27;
002:11-14, 002:46): the cards held, the turn order, the play on the table and the burning
rules.  :class:`PlayChecks` is mixed into the referee (:mod:`.referee`; ``self`` is the
referee) and only reads its state; the referee applies what a play does.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..cards import Card
from ..verdict import Fault
from .burning import BurnState, burn_fault, priority
from .outs import Progress
from .shapes import FOUR, THREE, Shape, ShapeError, beats, parse_shape
from .table import BEAT_CODES, Current, Phase, opp

if TYPE_CHECKING:
    from .hands import Hand
    from .settings import GoujiSettings
    from .slips import Readings


class PlayChecks:
    """The faults a play would have, without playing it (a mixin; ``self`` is the referee)."""

    # provided by the referee
    s: GoujiSettings
    min_table: tuple[int, ...]
    phase: Phase
    hands: list[Hand | None]
    counts: list[int | None]
    progress: Progress
    passed: set[int]
    rang: int | None
    no_fours: set[int]
    cur: Current | None
    burning: BurnState
    daluo: int | None
    readings: Readings
    camera: bool

    if TYPE_CHECKING:
        def to_lead(self) -> int | None: ...
        def is_wutou(self, seat: int) -> bool: ...
        def _all_passed(self) -> bool: ...

    def check_play(self, seat: int, cards: tuple[Card, ...]) -> Fault | None:
        """The fault a play would have now, without playing it (for simulators and UIs).
        Covers normal play (not the 冲点 phase nor proofs by later events)."""
        if self.phase in (Phase.OVER, Phase.VOID) or seat not in self.progress.active:
            return Fault("play.after_out", {"seat": seat})
        shape = parse_shape(cards, self.min_table)
        if isinstance(shape, ShapeError):
            return Fault(shape.code, {"seat": seat, **shape.facts})
        fault = self._precheck(seat, cards, shape)
        if fault is not None:
            return fault
        _, fault, _, _ = self._classify(seat, shape, self._is_final(seat, shape))
        return fault

    def _is_final(self, seat: int, shape: Shape) -> bool:
        count = self.counts[seat]
        if count is not None and count - shape.n <= 0:
            return True
        if count is not None and self.hands[seat] is not None:
            return False
        return shape.base == THREE      # 3s are the last play (004:27); a later play proves otherwise

    def _precheck(self, seat: int, cards: tuple[Card, ...], shape: Shape) -> Fault | None:
        """Faults a play has whatever the table: cards not held, too many, 憋3, thrown 4s."""
        hand = self.hands[seat]
        if hand is not None:
            missing = hand.missing(cards)
            if missing:
                return Fault("play.not_in_hand", {"seat": seat, "cards": missing})
        count = self.counts[seat]
        if count is not None and shape.n > count:
            return Fault("gouji.more_than_held", {"seat": seat, "n": shape.n, "held": count})
        if shape.base == THREE and count is not None and count > shape.n and hand is not None:
            return Fault("gouji.three_not_last", {"seat": seat})    # 憋3, 004:27
        if shape.base == FOUR and seat in self.no_fours:
            return Fault("gouji.four_discarded", {"seat": seat})    # 002:46
        return None

    def _classify(self, seat: int, shape: Shape, final: bool) -> tuple[str, Fault | None, bool, bool]:
        """(lead|answer, fault, burning, zhashao) of a play by ``seat``: pure, no state change."""
        cur = self.cur
        if cur is None:
            lead = self.to_lead()
            if lead is not None and seat != lead:
                return "lead", Fault("gouji.not_your_lead", self._lead_facts(seat, lead)), False, False
            return self._check_lead(seat, shape, final)
        owner = cur.seat
        if seat == owner:
            return self._check_lead(seat, shape, final)
        if self.readings.unseen:                              # it answers a play that was not seen (D30)
            if self.rang is not None and seat == opp(self.rang):
                # 让牌 was declared on this seat's play not seen (004:25): all passed, it leads again
                return self._check_lead(seat, shape, final)
            if not self.readings.unseen_burn:
                return "answer", None, False, False
            _, fault, burning, _ = self._check_answer(seat, shape, cur)
            ok = fault is None or fault.code in BEAT_CODES or fault.code == "gouji.burn_after_pass"
            return "answer", None, burning and ok, False     # a pass presumed may not have been
        if self._all_passed():
            lead = self.to_lead()
            if seat != lead:
                return "lead", Fault("gouji.not_your_lead", {"seat": seat, "leader": lead}), False, False
        if owner not in self.progress.active and seat == self.to_lead():
            kind, fault, burning, _ = self._check_answer(seat, shape, cur)
            if fault is None:
                return kind, None, burning, False
            return self._check_lead(seat, shape, final)
        return self._check_answer(seat, shape, cur)

    def _check_lead(self, seat: int, shape: Shape, final: bool) -> tuple[str, Fault | None, bool, bool]:
        burn = self.burning.current
        if burn is not None and burn.seat == seat and not shape.jokers and not final:
            if self.s.zhashao_places_last:
                return "lead", None, False, True          # 诈烧 → 拉客 (002:13)
            # 004:11/004:25 cond. 3: every burn play but the first and the last carries a joker
            return "lead", Fault("gouji.burn_needs_joker", {"seat": seat}), False, False
        return "lead", None, False, False

    def _check_answer(self, seat: int, shape: Shape, cur: Current) -> tuple[str, Fault | None, bool, bool]:
        owner = cur.seat
        facts: dict[str, Any] = {"seat": seat, "owner": owner}
        burning = False
        if not cur.restricted:
            if seat in self.passed:
                return "answer", Fault("gouji.passed_already", facts), False, False   # 004:23 过牌
        elif seat == opp(owner) and seat in self.progress.active:
            if self.burning.declared:                                  # 004:23 烧牌优先
                return "answer", Fault("gouji.burn_first", {**facts, "burner": self.burning.declared[0]}), False, False
        elif self.is_wutou(seat):                   # 无头 may beat any 够级 (004:9; 002:49)
            if seat in self.passed:
                return "answer", Fault("gouji.passed_already", facts), False, False
        else:
            burning = True
            hand = self.hands[seat]
            holds_four: bool | None = None
            if hand is not None:
                holds_four = hand.count(FOUR) > 0
            found = burn_fault(self.s, seat=seat, owner=owner, luanchan=self.progress.luanchan,
                               owner_active=owner in self.progress.active, passed=seat in self.passed,
                               closed=self.burning.closed, seat_wutou=self.is_wutou(seat),
                               owner_wutou=self.is_wutou(owner), holds_four=holds_four)
            if found is not None:
                code, f = found
                if code == "gouji.burn_finished" or code == "gouji.burn_in_luanchan":
                    code, f = "gouji.gouji_only_opposite", {**f, "owner": owner}
                if self.camera and hand is None:   # D37: a camera play that could not burn it is no burn
                    misfit = self._misfit(facts, shape, cur)
                    if misfit is not None:
                        return "answer", misfit, True, False
                return "answer", Fault(code, f), True, False
            if self.burning.declared:
                first = priority(self.burning.declared, owner)[0]
                if first != seat:
                    return "answer", Fault("gouji.burn_priority", {**facts, "first": first}), True, False
        misfit = self._misfit(facts, shape, cur)
        return "answer", misfit, burning, False

    def _misfit(self, facts: dict[str, Any], shape: Shape, cur: Current) -> Fault | None:
        """The answer's own fault against the play on the table: too many or too few cards,
        or cards that do not beat it; ``None`` when it beats it."""
        # judged against the table play as read (C2: that play read in doubt, a question)
        if shape.n != cur.shape.n:
            return Fault("gouji.count_mismatch", {**facts, "n": shape.n, "needed": cur.shape.n}, rests_on=(cur.i,))
        if not beats(shape, cur.shape, self.s.two_big_kill_one_big):
            return Fault("gouji.does_not_beat", {**facts, "cards": list(cur.cards)}, rests_on=(cur.i,))
        return None

    def _lead_facts(self, seat: int, lead: int) -> dict[str, Any]:
        """Facts of ``gouji.not_your_lead``; the first lead of a later deal names the 大落."""
        facts: dict[str, Any] = {"seat": seat, "leader": lead}
        if self.daluo is not None and self.cur is None and lead == self.daluo:
            facts["daluo"] = self.daluo
        return facts
