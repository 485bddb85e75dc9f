"""The referee of one 升级-family deal (刮风, 炒地皮): feed events, get faults and the state.

``state()`` returns a JSON-able dict with these keys:

``game``, ``dealer`` (seat), ``dealer_team`` / ``attackers`` (seat lists), ``level`` (rank code or
``null`` in 扛旗), ``trump`` (suit letter or ``null`` for 无主), ``leader`` (seat leading the trick
in progress), ``to_play`` (seat expected next, ``null`` when the deal is over), ``trick``
(``[{"seat", "cards"}]`` so far), ``tricks`` (history: ``[{"leader", "plays", "winner", "points"}]``),
``attacker_points`` (from tricks), ``points`` (``{"attackers", "dealer_side"}``: trick points
each side took), ``winning`` (seat winning the trick so far), ``penalty_points`` (甩错, ±10 a
card), ``bonus_points`` (逼红5/保红5, 暗炒 炒底失败), ``cards_left`` (per seat), ``hands_known`` (seats with a ``hand``
event), ``complete``, ``bottom`` / ``bottom_points`` / ``bottom_multiplier`` once scored,
``final_points``, ``level_change``, ``team_levels`` (``{"0": "7", "1": "A"}``: each team's level
(rank code) going into this deal, ``null`` where unknown).

Declarations arrive as ``declare`` events; the accepted ``what`` values and their keys are listed
in :mod:`.declares` (liangzhu, chongzhu, xupai, zhanpai, zhan_return, exchange, bury/kou_di,
menpai, fanzhu, chaodi, huitouwang, out).  Deal options besides ``level``/``trump``/``dealer``:
``menpai`` (刮风 闷牌), ``flag`` (炒地皮·扛旗 deal), ``fandi`` (炒地皮 翻底), ``round`` (the 圈).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from ..cards import Card
from ..events import AnyEvent, BottomEvent, DealEvent, DeclareEvent, HandEvent, PassEvent, PlayEvent
from ..referee import DealReferee, GameRules
from ..verdict import Fault, is_observation
from . import messages as _messages  # noqa: F401  (registers the fault sentences)
from .bottom import DealBottom
from .combos import Kind, classify
from .declared import burier_hand_faults, declared_trump_faults
from .declares import DeclareState, expected_burier, judge_declare
from .deferred import DeferredFaults
from .failures import FailedThrows
from .follow import is_imperfect
from .lead_misreads import LeadMisreads
from .match import MatchState
from .options import read_options
from .order import trump_order
from .plays import follow_check, held_faults, lead_combo
from .points import BottomResult
from .proofs import Proofs
from .readings import Choice, lead_unchecked
from .red_fives import forced_red_fives
from .results import DealResults
from .settings import ShengjiSettings
from .slips import SlipReadings, faults_at, winner_proofs_said
from .tricks import Played, Tricks


class ShengjiReferee(FailedThrows, SlipReadings, LeadMisreads, DeferredFaults, DealBottom, DealResults,
                     DealReferee):
    def __init__(self, deal: DealEvent, index: int, rules: GameRules) -> None:
        super().__init__(deal, index, rules)
        s: ShengjiSettings = rules.settings
        self.settings = s
        options, self.option_faults = read_options(deal.options, s)
        self.flag, self.dealer, self.level, self.trump = options.flag, options.dealer, options.level, options.trump
        self.order = trump_order(s, self.level, self.trump)
        self.dealer_team = tuple(sorted((self.dealer, (self.dealer + 2) % 4)))
        self.attackers = tuple(sorted(((self.dealer + 1) % 4, (self.dealer + 3) % 4)))
        default = s.hand_size + (s.bottom_size // 4 if self.flag else 0)
        self.bottom_size = 0 if self.flag else s.bottom_size
        self.sizes = tuple(deal.hand_sizes) if deal.hand_sizes else (default,) * 4
        self.left = list(self.sizes)
        self.hands: dict[int, Counter[Card]] = {}
        self.played_by: dict[int, list[Card]] = {seat: [] for seat in range(4)}
        #: copies of each card seen played (less those given back by failed throws)
        self.seen: Counter[Card] = Counter()
        self.tricks = Tricks(self.order, self.attackers, self.dealer)
        self.penalty_points = 0
        self.red_five_points = 0
        self.proofs = Proofs(self.order)
        self.bottom: tuple[Card, ...] | None = None
        self.bottom_result: BottomResult | None = None
        self.declares = DeclareState()
        self.started = False
        self.match_before: MatchState | None = None
        self._returned: list[Card] = []
        self.menpai = options.menpai
        self.first_deal = True
        #: 炒地皮 翻底 (003:18): nobody declared, the bottom's first level card names the trump
        self.fandi = options.fandi
        #: cards per seat taken as played in plays the camera missed (``_close_incomplete``)
        self.assumed = [0, 0, 0, 0]
        #: a slip was flagged in this deal (O15: the cards each seat holds are not known then)
        self.slipped = False
        #: the second readings still open after a play that did not fit (:mod:`.readings`)
        self._choice: Choice | None = None
        #: O8, O16: revokes proven by the lead and by the play winning the trick in progress, by
        #: the proving play: they wait (:meth:`.slips.SlipReadings._hold_proofs`)
        self.held_proofs: dict[int, list[Fault]] = {}
        #: O8: revokes proven by the last trick's winning play, said unless the next lead is unexpected
        self.winner_proofs: list[Fault] = []
        #: O13: the 混合 lead of the trick in progress (camera log), said once its follows are seen
        self.mixed_lead: Fault | None = None
        #: O17: the failed throw of the trick in progress (camera log, two cards) and its cards,
        #: said once its follows are seen
        self.held_throw: tuple[Fault, tuple[Card, ...]] | None = None
        #: O18: lines of unexpected leads (O8) a card of the trick before, seen once too often
        #: later, explains: that card's deck flag is the slip's one flag
        self.explained_leads: set[int] = set()
        #: O16: the plays of a trick whose lead may be misread, by that lead's card
        self.doubted_plays: dict[int, tuple[int, Card]] = {}
        #: O16: revokes resting on such a trick, said at the deal's end unless its lead's card is
        #: seen once too often first (the lead was misread)
        self.waiting: dict[Card, list[Fault]] = {}
        #: O20: revokes of camera plays, said at the deal's end unless a card they rest on is
        #: seen more often than the decks hold
        self.deferred: list[Fault] = []
        #: per camera play line: its cards and the line of its trick's lead (O20's evidence)
        self.cards_at: dict[int, tuple[Card, ...]] = {}
        self.lead_at: dict[int, int] = {}
        #: O25: camera plays judged, after a flagged trick (O23), in a trick whose lead is in
        #: doubt itself: the lead they were counted and turned against may be a follow
        self.out_of_phase: set[int] = set()
        self.camera = False

    # -- match ---------------------------------------------------------------------------
    def feed(self, i: int, event: AnyEvent) -> list[Fault]:
        if isinstance(event, PlayEvent):
            self.camera = event.source == "camera"
            faults = self._read_play(i, event)
            if not self.camera or self.hands or not faults:
                return faults
            return self._defer_revokes(self._asked_out_of_phase(faults_at(i, faults)))
        if self._choice is not None:
            return [*self._settle(), *self._feed_other(i, event)]
        return self._feed_other(i, event)

    def _feed_other(self, i: int, event: AnyEvent) -> list[Fault]:
        if isinstance(event, HandEvent):
            return self._hand(event)
        if isinstance(event, BottomEvent):
            return self._bottom(event)
        if isinstance(event, DeclareEvent):
            if self.started and event.what.lower() != "out":
                return [Fault("shengji.declare_after_play", {"what": event.what})]
            if self.fandi and event.what.lower() in ("liangzhu", "fanzhu", "chaodi", "huitouwang"):
                return [Fault("chaodipi.fandi_no_chaodi", {"what": event.what})]
            fault = judge_declare(i, event, self.declares, self.order, self.dealer, self.attackers)
            if event.what.lower() == "menpai" and fault is None:
                return self.menpai_faults(i)
            return [fault] if fault else []
        if isinstance(event, PassEvent):
            return [Fault("shengji.pass_not_allowed", {"seat": event.seat})]
        return []

    @property
    def complete(self) -> bool:
        return not any(self.left) and not self.tricks.trick

    def to_play(self) -> int | None:
        """The first seat from the leader on that has not played in this trick."""
        if self.complete:
            return None
        return self.tricks.next_seat()

    def _hand(self, ev: HandEvent) -> list[Fault]:
        faults: list[Fault] = []
        if ev.seat in self.hands:
            return [Fault("shengji.hand_twice", {"seat": ev.seat})]
        held = Counter(ev.cards)
        played = Counter(self.played_by[ev.seat])
        if played - held:
            faults.append(Fault("shengji.hand_after_play", {"seat": ev.seat, "cards": list((played - held).elements())}))
        if len(ev.cards) != self.sizes[ev.seat]:
            faults.append(Fault("hand.wrong_size", {"seat": ev.seat, "got": len(ev.cards),
                                                    "expected": self.sizes[ev.seat]}))
        held.subtract(played)
        self.hands[ev.seat] = +held
        if ev.seat == expected_burier(self.declares, self.dealer):
            faults.extend(burier_hand_faults(ev.seat, ev.cards, self.settings, self.declares))
        return faults

    # -- plays ---------------------------------------------------------------------------
    def check_play(self, seat: int, cards: tuple[Card, ...]) -> Fault | None:
        """The fault a play of ``cards`` by ``seat`` would have now, without playing it (for
        simulators and UIs); ``None`` for a legal play.  The same checks as a ``play`` event, in
        the same order: after the deal's end, out of turn (the seat due is :meth:`to_play`),
        cards not held or too many, 刮风's unburied jokers, then the lead (混合, 甩牌 not allowed,
        a throw the known hands beat) or the follow (count, following rules on a known hand).
        Not covered: observation flags (plays the camera missed) and faults of earlier events a
        play would prove (a follow or throw proven wrong, the declared trump at the first play)."""
        back = self._assumed_back(seat, cards)
        if self.complete and not back:
            return Fault("shengji.play_after_end", {"seat": seat})
        expected = self.tricks.next_seat()
        if seat != expected:
            return Fault("shengji.out_of_turn", {"expected": expected, "seat": seat})
        hand = self.hands.get(seat)
        held = held_faults(seat, cards, hand, self.left[seat] + back, self.settings, self.declares, self.dealer)
        if held:
            return held[0]
        if not self.tricks.trick:
            return lead_combo(seat, cards, self.order, self.settings, self.hands)[1]
        return follow_check(seat, cards, self.tricks.trick[0].combo, hand, self.order)

    def _assumed_back(self, seat: int, cards: tuple[Card, ...]) -> int:
        """Cards taken as played in missed plays (``assumed``) that this play shows the seat still held."""
        if self.left[seat] < len(cards) and self.assumed[seat] and not self.tricks.has(seat):
            return min(self.assumed[seat], len(cards) - self.left[seat])
        return 0

    def _play(self, i: int, ev: PlayEvent) -> list[Fault]:
        seat, cards = ev.seat, ev.cards
        faults: list[Fault] = []
        back = self._assumed_back(seat, cards)
        self.assumed[seat] -= back          # a play assumed missed was not: the seat still held it
        self.left[seat] += back
        if self.slipped and not self.hands and self.left[seat] < len(cards):
            self.left[seat] = len(cards)    # O15: after a slip the counts are not known
        if self.complete:
            return [Fault("shengji.play_after_end", {"seat": seat})]
        if not self.started:
            self.started = True
            faults.extend(declared_trump_faults(i, self.declares, self.trump, self.dealer, self.first_deal))
            faults.extend(self.menpai_missing(i))
        over = self._over_deck(cards)
        due = self._winner_proofs_due()
        turn = self._turn(i, seat)
        faults.extend(turn)
        faults.extend(winner_proofs_said(due, turn))
        slip = bool(faults) and any(is_observation(f.code) for f in faults)
        self.slipped = self.slipped or slip or bool(over)
        hand = self.hands.get(seat)
        faults.extend(held_faults(seat, cards, hand, self.left[seat], self.settings, self.declares, self.dealer))
        if not self.tricks.trick:
            faults.extend(self._lead(i, seat, cards))
        else:
            faults.extend(self._follow(i, seat, cards, hand))
        # bookkeeping: the seat no longer holds these cards
        self.played_by[seat].extend(cards)
        self.seen.update(cards)
        self.left[seat] = max(0, self.left[seat] - len(cards))
        if hand is not None:
            for c in cards:
                n = hand.get(c, 0)
                if n > 1:
                    hand[c] = n - 1
                elif n:
                    del hand[c]
        lead = self.tricks.trick[0]
        if self.camera:
            self.cards_at[i], self.lead_at[i] = cards, lead.i
            t = self.tricks
            if not self.hands and t.after_flagged and (t.trick_flagged or t.lead_doubted or t.lead_free or t.phantom
                                                       or self.mixed_lead is not None):
                self.out_of_phase.add(i)
        if lead.i == i and lead.cards != cards:  # a failed throw: only the forced unit stays on the table
            self._give_back(seat, cards, lead.cards)
        if over:
            self._doubt_card(over)
        if not slip:        # O15: a play flagged as a slip may be another seat's: it proves nothing
            unchecked = lead_unchecked(self, i, ev)      # O32, O36: its seat may be another's
            proven = self._prove(i, seat, tuple(c for c in cards if c not in over) if over else cards, unchecked)
            faults.extend(self._hold_proofs(i, self._wait_doubted(proven)))
        if len(self.tricks.trick) == 4:
            if not any(self.left):      # O31: the final play's own proofs wait for the bottom too
                faults = self._last_trick_deferred(faults)
            faults.extend(self._finish_trick())
        return faults

    def _turn(self, i: int, seat: int) -> list[Fault]:
        """The turn order of a play (:meth:`.tricks.Tricks.turn`).  A seat that already played in
        this trick starts the next one: the trick closes with the plays seen, and the seats
        missing from it are one ``observe.missing_play`` (docs/rules/observation.md, O6)."""
        out: list[Fault] = []
        if self.tricks.has(seat):
            out.extend(self._close_incomplete(i))
        out.extend(self.tricks.turn(i, seat))
        if any(f.code == "observe.unexpected_lead" for f in out) and self.tricks.history:
            for p in self.tricks.history[-1]["plays"]:   # O8: that trick was not what was seen
                self.proofs.drop_follow(p["seat"], p["i"])
            for played in self.tricks.last_trick:        # ... and its cards prove nothing later
                self.proofs.forget(played.seat, played.cards)
            self._forget_doubted(self.tricks.last_trick)
        return out

    def _close_incomplete(self, i: int) -> list[Fault]:
        """Close the trick in progress with the plays seen; the seats missing are one flag."""
        missing, size, flag = self.tricks.close_incomplete(i)
        for s in missing:
            taken = min(self.left[s], size)
            self.left[s] -= taken
            self.assumed[s] += taken        # given back should the seat play more than it holds
        return [*flag, *self._finish_trick()]

    def _lead(self, i: int, seat: int, cards: tuple[Card, ...]) -> list[Fault]:
        combo, fault = lead_combo(seat, cards, self.order, self.settings, self.hands)
        if fault is not None and fault.code == "shengji.lead_mixed" and not self.hands:
            self.mixed_lead = fault.at(i)   # O13: said as the trick closes: its follows may show it misread
            self.tricks.lead(Played(seat, combo.cards, combo, i))
            return []
        if fault is not None and fault.code == "shengji.failed_throw":
            self._throw_penalty(seat, len(cards))
        elif fault is None and combo.kind == Kind.THROW and not self.tricks.suspect:
            # (a "throw" leading a trick after a gap may be a follow of a missed lead: no proof)
            unknown = [s for s in range(4) if s != seat and s not in self.hands]
            if unknown:  # the hands not known yet may still prove the throw wrong (``_prove``)
                self.proofs.open_throw(i, seat, combo, unknown)
        self.tricks.lead(Played(seat, combo.cards, combo, i))
        return [fault] if fault is not None else []

    def returned_cards(self) -> list[Card]:
        out, self._returned = self._returned, []
        return out

    def _follow(self, i: int, seat: int, cards: tuple[Card, ...], held: Counter[Card] | None) -> list[Fault]:
        faults: list[Fault] = []
        lead = self.tricks.trick[0].combo
        if len(cards) != lead.size and lead.kind == Kind.THROW:
            thrown = self.tricks.trick[0].cards
            proof = self._rebase_failed_throw(i, seat, cards)
            if proof is not None:
                faults.extend(self._hold_failed_throw(proof, thrown))
                lead = self.tricks.trick[0].combo
        fault = follow_check(seat, cards, lead, held, self.order)
        if fault is not None:
            # a follow's count is judged against the lead as read (C2: a lead in doubt, a question)
            faults.append(replace(fault, rests_on=(self.tricks.trick[0].i,)) if fault.code == "shengji.wrong_count"
                          else fault)
        elif held is None and len(cards) == lead.size and not self.tricks.suspect and is_imperfect(
                lead, cards, self.order):
            self.proofs.open_follow(i, seat, lead, cards)  # later cards may prove it
        self.tricks.follow(Played(seat, cards, classify(cards, self.order), i))
        return faults

    def _finish_trick(self) -> list[Fault]:
        """Close the trick; returns the proofs its lead's cards made, unless its follows show the
        lead misread (O13, O16: they prove nothing then)."""
        misread = self._lead_misread()
        held = self._mixed_lead_said(misread)
        thrown, paired = self._failed_throw_said()
        misread = misread or paired
        held.extend([*thrown, *self._held_proofs_said(misread)])
        winner = self.tricks.finish()
        if misread:
            self.tricks.any_leader = True       # whoever leads next won it (O8, unflagged)
        self.red_five_points += forced_red_fives(self.tricks.last_trick, winner, self.attackers,
                                                 self.settings.red_five_bonus)
        if not any(self.left):
            self._deal_over()
            held.extend(self.winner_proofs)
            self.winner_proofs = []
            held = self._last_trick_deferred(held)
            if self.bottom is not None or not self.bottom_size:
                held.extend(self._said_at_end(self.bottom or ()))
        return held


def make_referee(deal: DealEvent, index: int, rules: GameRules) -> ShengjiReferee:
    return ShengjiReferee(deal, index, rules)
