"""The camera-slip readings of a 升级-family deal (docs/rules/chaodipi.md, "Camera slips",
O10-O12, after observation.md O6-O8; the readings themselves are :mod:`.readings`).

:class:`SlipReadings` is mixed into the deal referee (:mod:`.referee`; ``self`` is the
referee).  It decides whether a play on a camera log may be a slip, keeps the :class:`~.readings.Choice`
of readings open after it (``_choice``), copies the referee for each reading (``_clone``) and
adopts the reading the next plays settle on (``_settle``).  It also finds the cards a camera
misread: a card seen more often than the decks hold (O14, ``_over_deck``, ``_doubt_card``) and a
混合 lead its followers show misread (O13, ``_lead_misread``).  The rules of a play stay the
referee's (``_play``).
"""

from __future__ import annotations

import copy
from collections import Counter
from typing import TYPE_CHECKING, Any, Self

from ..cards import ALL_CARDS, Card
from ..events import PlayEvent
from ..verdict import Fault, fault_or_slip, is_observation
from .combos import Kind
from .order import TRUMP
from .readings import Choice, Reading, slip_readings
from .tied import FAILED_THROW, charged, tied_closed

if TYPE_CHECKING:
    from .match import MatchState
    from .order import TrumpOrder
    from .proofs import Proofs
    from .tricks import Tricks


#: O13: followers answering a 混合 lead with a pair of one of its groups that show it a misread pair
MIXED_PAIR_FOLLOWERS = 2
#: O20: the follow faults a later card proves
REVOKES = frozenset({"shengji.must_follow_suit", "shengji.must_follow_pairs", "shengji.must_follow_tractor",
                     "shengji.not_largest_first"})
#: O16: followers of a single-card lead off its suit in one other group that show it misread
OFF_SUIT_FOLLOWERS = 2
#: O24: 刮风's burier playing a joker it did not show: the joker may be a misread card
JOKERS_KEPT = "guafeng.jokers_not_buried"
#: O20, O24: the faults of camera plays that wait for the deal's end with the cards they rest on
DEFERRED = REVOKES | {JOKERS_KEPT}
#: O25: the faults of a play's count and turn, which a trick grouped out of phase also gives
OUT_OF_PHASE = frozenset({"shengji.wrong_count", "shengji.out_of_turn"})


class SlipReadings:
    """The second readings of a play that may be a camera slip (a mixin; ``self`` is the referee)."""

    # provided by the referee
    rules: Any
    settings: Any
    order: TrumpOrder
    deal: Any
    match_before: MatchState | None
    hands: dict[int, Counter[Card]]
    seen: Counter[Card]
    tricks: Tricks
    proofs: Proofs
    _returned: list[Card]
    _choice: Choice | None
    held_proofs: dict[int, list[Fault]]
    winner_proofs: list[Fault]
    mixed_lead: Fault | None
    held_throw: tuple[Fault, tuple[Card, ...]] | None
    explained_leads: set[int]
    doubted_plays: dict[int, tuple[int, Card]]
    waiting: dict[Card, list[Fault]]
    bottom: tuple[Card, ...] | None
    deferred: list[Fault]
    cards_at: dict[int, tuple[Card, ...]]
    lead_at: dict[int, int]
    out_of_phase: set[int]
    camera: bool
    sizes: tuple[int, ...]
    bottom_size: int

    if TYPE_CHECKING:
        @property
        def complete(self) -> bool:
            """Whether the deal is over (the referee's)."""

        def _play(self, i: int, ev: PlayEvent) -> list[Fault]:
            """The faults of play ``i`` as the log reads it (the referee's)."""

        def _throw_penalty(self, seat: int, cards: int) -> int:
            """Score a failed throw's penalty (:class:`.failures.FailedThrows`'s)."""

    def _read_play(self, i: int, ev: PlayEvent) -> list[Fault]:
        """A play, read as the log says and, where it does not fit a camera log, as a slip."""
        choice = self._choice
        if choice is not None:
            kept = [r.referee._clone() for r in choice.readings]
            if not choice.feed(lambda ref: faults_at(i, ref._play(i, ev))):
                choice.readings[0].referee = kept[0]     # none explains it: the first, before it
                return [*self._settle(), *self._read_play(i, ev)]
            if not choice.decided(any(r.referee.complete for r in choice.readings)):
                return []
            return self._settle()
        slip = self._slip_kind(ev)
        if slip is None:
            return self._play(i, ev)
        before = self._clone()
        faults = faults_at(i, self._play(i, ev))
        if not faults:
            return faults
        choice = Choice(i, [Reading(self, faults, as_read=True)])
        for alt, opened, read in slip_readings(before, slip, i, ev):
            choice.readings.append(Reading(alt, faults_at(i, [*opened, *alt._play(i, read)])))
        choice.prune()
        if choice.decided(False):
            self._choice = choice
            return self._settle()
        self._choice = choice
        return choice.first_flag()

    def _slip_kind(self, ev: PlayEvent) -> str | None:
        """Whether a play may be a camera slip worth a second reading: ``"lead"`` (a lead by
        another seat than the one due: its lead may have been missed, O11), ``"close"`` (a play
        of another count than the lead, or by a seat skipped in the trick: the trick's last plays
        may have been missed and this one leads, O10); ``None`` otherwise or with a hand known."""
        t = self.tricks
        if self.hands or self.complete:
            return None
        if not t.trick:
            return "lead" if ev.seat != t.leader and not (t.gap_flagged or t.any_leader) else None
        if t.has(ev.seat) or t.phantom:
            return None
        if len(ev.cards) != t.trick[0].combo.size or (t.skipped is not None and ev.seat in t.skipped[1]):
            return "close"
        return None

    def _clone(self) -> Self:
        keep = (self.rules, self.settings, self.order, self.deal, self.match_before)
        memo: dict[int, object] = {id(o): o for o in keep if o is not None}
        if self._choice is not None:
            memo[id(self._choice)] = None       # a copy holds no choice of its own
        return copy.deepcopy(self, memo)

    def _settle(self) -> list[Fault]:
        """Adopt the reading left (:meth:`.readings.Choice.adopt`) and return its faults not said yet."""
        choice, self._choice = self._choice, None
        assert choice is not None
        reading = choice.adopt()
        if reading.referee is not self:
            returned = self._returned
            self.__dict__.clear()
            self.__dict__.update(reading.referee.__dict__)
            self._returned = [*returned, *self._returned]
        faults = choice.unsaid(reading)
        if reading.as_read and choice.tied():
            tied_closed(self, choice.start, choice.readings[1:])      # O35, O39
            return [self._asked_tied(f) if choice.start in (f.i, f.proven_at) else f for f in faults]
        return faults

    def _asked_tied(self, f: Fault) -> Fault:
        """O28: a rule fault of the play that opened a choice, the log as read kept tied with a slip reading: asked."""
        if is_observation(f.code) or f.i is None or f.i not in self.cards_at or "seat" not in f.facts:
            return f
        return self._question(f)

    def _question(self, f: Fault) -> Fault:
        """The camera play's fault ``f`` (its line recorded in :attr:`cards_at`) as the question
        ``observe.fault_or_slip``, at its line and proof (O25-O28)."""
        assert f.i is not None
        return fault_or_slip(f.facts["seat"], self.cards_at[f.i], f).at(f.i, f.proven_at)

    # -- cards misread (O13, O14) ------------------------------------------------------
    def _over_deck(self, cards: tuple[Card, ...]) -> set[Card]:
        """O14: the cards of a play on a camera log that make more copies than the decks hold (the
        judge flags it, ``deck.too_many_copies``).  One sighting of such a card is a misread."""
        if self.hands:
            return set()
        return {c for c in set(cards) if not self._within_deck(c, cards.count(c))}

    def _within_deck(self, card: Card, more: int) -> bool:
        """Whether the copies of ``card`` seen played, and ``more``, fit in the decks (O14)."""
        return self.seen[card] + more <= self.rules.composition.copies(card)

    def _doubt_card(self, cards: set[Card]) -> None:
        """O14: a card seen once too often proves nothing; the follows that showed it may be the
        misread (they prove nothing later) and the trick in progress has an unknown winner.  A
        lead that showed it leads a trick whose follows prove nothing either (O16)."""
        t = self.tricks
        t.doubt_winner = True
        for seat, checks in self.proofs.follows.items():
            for check in [c for c in checks if cards & set(c.played)]:
                self.proofs.drop_follow(seat, check.i)
        for card in cards & self.waiting.keys():
            del self.waiting[card]           # O16: that card's lead was the misread
        if self.doubted_plays:
            for j, (seat, card) in list(self.doubted_plays.items()):
                if card in cards:
                    self.proofs.drop_follow(seat, j)
                    del self.doubted_plays[j]
        if t.trick_flagged and any(cards & set(p.cards) for p in t.last_trick):
            self.explained_leads.add(t.trick[0].i)      # O18: that card's misread moved the lead
        if len(t.trick) == 1 and cards & set(t.trick[0].cards):
            t.lead_doubted = True
            self.proofs.drop_throw(t.trick[0].i)

    def _hold_proofs(self, i: int, proven: list[Fault]) -> list[Fault]:
        """O8, O16: on a camera log, the revokes proven by the trick's lead and by the play winning
        it wait: a misread card there may be the proof, and the trick's follows (O16) or the next
        lead (O8) may show it.  A play once beaten, and any other play, says its proofs now."""
        if self.hands:
            return proven
        t = self.tricks
        keep = (t.trick[0].i, t.trick[t.best].i)
        now: list[Fault] = []
        for f in proven:
            if f.code == "shengji.failed_throw":
                now.extend(self._hold_failed_throw(f, t.trick[0].cards) if f.i == keep[0] else [f])
        wait = [f for f in proven if f.code != "shengji.failed_throw"]
        if wait and i in keep:
            self.held_proofs.setdefault(i, []).extend(wait)
        else:
            now.extend(wait)
        for j in [j for j in self.held_proofs if j not in keep]:
            now.extend(self.held_proofs.pop(j))
        return now

    def _held_proofs_said(self, misread: bool) -> list[Fault]:
        """As the trick closes: the lead's proofs and the winning play's wait for the next lead
        (:attr:`winner_proofs`), the lead's only if its follows do not show it misread (O13, O16)."""
        t = self.tricks
        lead_i, best_i = t.trick[0].i, t.trick[t.best].i
        lead = self.held_proofs.pop(lead_i, [])
        if self._lead_off_suit(lead) or misread:
            lead = []
        won = self.held_proofs.pop(best_i, [])
        said = [f for faults in self.held_proofs.values() for f in faults]
        self.held_proofs = {}
        self.winner_proofs = sorted([*lead, *won], key=lambda f: f.proven_at or 0)
        return said

    def _winner_proofs_due(self) -> list[Fault]:
        """O8: at a lead, the proofs of the last trick's winning play, that waited for it."""
        if self.tricks.trick or not self.winner_proofs:
            return []
        due, self.winner_proofs = self.winner_proofs, []
        return due

    def _lead_off_suit(self, lead_proofs: list[Fault]) -> bool:
        """O16: on a camera log, a single-card lead two of whose followers both played one other
        side suit (all three, for trumps) may be misread (its genuine suit theirs) as much as it
        may show two revokes.  The
        revokes resting on that trick (its followers' follows, and the lead's own proofs when all
        three followers played that group) wait until the deal's end (:meth:`_said_at_end`);
        should the lead's card be seen once too often first, the lead was the misread and they
        prove nothing (:meth:`_doubt_card`).  Returns whether the lead's proofs wait."""
        t = self.tricks
        if self.hands or t.phantom or len(t.trick) != 4 or len(t.trick[0].cards) != 1:
            return False
        group = self.order.group
        card = t.trick[0].cards[0]
        off = Counter(group[p.cards[0]] for p in t.trick[1:]
                      if len(p.cards) == 1 and group[p.cards[0]] != group[card])
        most, count = max(off.items(), key=lambda kv: kv[1], default=(None, 0))
        if count < (len(t.trick) - 1 if most == TRUMP else OFF_SUIT_FOLLOWERS):
            return False        # two seats void trumping a side lead is common: all three must
        for p in t.trick[1:]:
            self.doubted_plays[p.i] = (p.seat, card)
        if count < len(t.trick) - 1:
            return False        # a seat followed the lead or played a third group: the lead's proofs stand
        self.waiting.setdefault(card, []).extend(lead_proofs)
        return True

    def _forget_doubted(self, trick: list[Any]) -> None:
        """O8 after O16: an unexpected lead shows the trick before misread: what waited on its lead
        proves nothing."""
        if not self.waiting or len(trick) != 4:
            return
        card = trick[0].cards[0] if len(trick[0].cards) == 1 else None
        if card in self.waiting and all(self.doubted_plays.get(p.i, (0, None))[1] == card for p in trick[1:]):
            del self.waiting[card]
            for p in trick[1:]:
                del self.doubted_plays[p.i]
                self.proofs.drop_follow(p.seat, p.i)

    def _wait_doubted(self, proven: list[Fault]) -> list[Fault]:
        """O16: the revokes proven of a follow in a trick whose lead may be misread wait (the rest is said)."""
        if not self.doubted_plays or not proven:
            return proven
        now = []
        for f in proven:
            doubt = self.doubted_plays.get(f.i) if f.i is not None else None
            if doubt is None:
                now.append(f)
            else:
                self.waiting.setdefault(doubt[1], []).append(f)
        return now

    def close(self) -> list[Fault]:
        """The log ends or the next deal starts first: what waited on the next lead (O8), the deal's end (O16), O34."""
        said = self._settle() if self._choice is not None and self._choice.settled_at_close() else []
        held, self.winner_proofs = self.winner_proofs, []
        return sorted([*said, *held, *self._said_at_end(self.bottom or ())], key=lambda f: f.i or 0)

    def _asked_out_of_phase(self, faults: list[Fault]) -> list[Fault]:
        """O25: on a camera play, a wrong count or a play out of turn judged after a flagged trick
        (O23: the tricks may be grouped one play out of phase) in a trick whose lead is in doubt
        itself (a 混合 lead, a lead flagged, a card of it seen too often, a free lead) is a follow
        taken for the lead as much as a player's fault: asked, not charged."""
        if not self.out_of_phase:
            return faults
        return [self._question(f) if f.code in OUT_OF_PHASE and f.i in self.out_of_phase else f for f in faults]

    def _defer_revokes(self, faults: list[Fault]) -> list[Fault]:
        """O20: on a camera play (no hand known; the caller checks), a revoke proven by a later
        card waits for the deal's end with the cards it rests on (the follow, the proof, the
        trick's lead): one of them misread is seen once too often by then, every card being
        played (chaodipi.md O20).  O24: so does 刮风's burier playing a joker, with that joker;
        O29: so does a failed throw a later trick's card proved, with the throw and that card."""
        if self.complete:
            return faults
        return self._defer(faults)

    def _defer(self, faults: list[Fault]) -> list[Fault]:
        """Put the faults that wait for the deal's end (O20, O24, O29) into :attr:`deferred`;
        return the others."""
        now: list[Fault] = []
        for f in faults:
            (self.deferred if (f.code in DEFERRED or self._proven_later(f)) and self._rests_on(f) else now).append(f)
        return now

    def _last_trick_deferred(self, faults: list[Fault]) -> list[Fault]:
        """O20 at the last trick: the proofs said as the deal's last trick closes (the lead's and
        the winner's, O8, O16) wait with the others, so the bottom's cards count for them too."""
        if not self.camera or self.hands:
            return faults
        return self._defer(faults)

    def _proven_later(self, f: Fault) -> bool:
        """O29: a failed throw proven by a play of a later trick (not the throw's own follows)."""
        return f.code == FAILED_THROW and f.proven_at is not None and self.lead_at.get(f.proven_at) != f.i

    def _rests_on(self, f: Fault) -> set[Card]:
        """O20: the cards a revoke of camera plays rests on; O24: the jokers a camera play of
        the burier showed (none for other faults, or plays not recorded in :attr:`cards_at`)."""
        if f.code == JOKERS_KEPT:
            return set(f.facts["cards"]) if f.i in self.cards_at else set()
        if f.code == FAILED_THROW:      # O26: the throw's cards and the follow that beat it
            if f.i is None or f.i not in self.cards_at:
                return set()
            beaten_at = self.cards_at.get(f.proven_at, ()) if f.proven_at is not None else ()
            return {*self.cards_at[f.i], *beaten_at}
        if f.code not in REVOKES or f.i not in self.lead_at or f.proven_at not in self.cards_at:
            return set()
        return {*self.cards_at[f.i], *self.cards_at[f.proven_at], *self.cards_at[self.lead_at[f.i]]}

    def _fits_deck(self, f: Fault, bottom: tuple[Card, ...]) -> bool:
        """O20: no card ``f`` rests on was seen more often than the decks hold (with ``bottom``)."""
        return all(self._within_deck(c, bottom.count(c)) for c in self._rests_on(f))

    def _said_at_end(self, bottom: tuple[Card, ...]) -> list[Fault]:
        """O16: at the deal's end (once the ``bottom`` is seen, where there is one), the revokes
        that waited on a lead no card showed misread: the bottom's cards count too; O20: the
        revokes of camera plays none of whose cards was seen too often."""
        out = []
        for f in self.deferred:
            if self._fits_deck(f, bottom) and charged(f):
                out.append(f)
            elif f.code == FAILED_THROW and f.i is not None:
                self._throw_penalty(f.facts["seat"], -len(self.cards_at[f.i]))   # O26: a pair misread
        out += [f for card, faults in self.waiting.items() if self._within_deck(card, bottom.count(card))
                for f in faults if self._fits_deck(f, bottom)]
        self.waiting, self.deferred = {}, []
        self.doubted_plays = {}
        short = self._short_groups(bottom)
        out = [self._question(f) if short and self._unseen_fits(f, short) else f for f in out]
        return sorted(out, key=lambda f: f.i or 0)

    def _short_groups(self, bottom: tuple[Card, ...]) -> set[str]:
        """O27: the groups of the cards never seen by the deal's end (played or in the ``bottom``
        shown), when every card is accounted for: the whole deck dealt and the bottom, where there
        is one, shown.  Such a card is one the camera missed or misread."""
        if self.hands or (self.bottom is None and self.bottom_size) or \
                sum(self.sizes) + self.bottom_size != self.rules.composition.size:
            return set()
        group = self.order.group
        return {group[c] for c in ALL_CARDS if self.seen[c] + bottom.count(c) < self.rules.composition.copies(c)}

    def _unseen_fits(self, f: Fault, short: set[str]) -> bool:
        """O27: a revoke that fits the deck still rests on a misread when a card never seen could
        be the card misread: one of the led group for the follow (it followed suit), one of the
        follow's off-suit group for a single-card lead (the follow followed it)."""
        if f.code not in REVOKES or f.i not in self.lead_at or f.i not in self.cards_at:
            return False
        group = self.order.group
        lead = self.cards_at.get(self.lead_at[f.i], ())
        led = {group[c] for c in lead}
        off = {group[c] for c in self.cards_at[f.i]} - led
        return bool(led & short) or (len(lead) == 1 and bool(off & short))

    def _lead_misread(self) -> bool:
        """O13: on a camera log, a 混合 lead (``shengji.lead_mixed``) whose followers show one
        card of it misread (:func:`mixed_lead_group`): their follows prove nothing later, and
        whoever leads next won the trick.  (Three followers off a single-group lead in one other
        group is O16's.)"""
        t = self.tricks
        if self.hands or t.phantom or len(t.trick) != 4 or self.mixed_lead is None:
            return False
        if mixed_lead_group(t.trick, self.order) is None:
            return False
        for p in t.trick[1:]:
            self.proofs.drop_follow(p.seat, p.i)
        return True

    def _mixed_lead_said(self, misread: bool) -> list[Fault]:
        """O13: the 混合 lead's flag, said as its trick closes: a misread card
        (``observe.card_unplausible``, the one flag) when its follows show it, else the rule fault."""
        fault, self.mixed_lead = self.mixed_lead, None
        if fault is None:
            return []
        lead = self.tricks.trick[0]
        group = self.order.group
        if not misread:
            groups = Counter(group[c] for c in lead.cards)
            if lead.i in self.cards_at and len(groups) == 2 and min(groups.values()) == 1:
                # O13a: a camera lead one card off one group, its follows silent: one card read
                # wrong explains it as well as a player leading two suits; asked, not charged
                return [fault_or_slip(lead.seat, lead.cards, fault).at(lead.i)]
            return [fault]
        kept = mixed_lead_group(self.tricks.trick, self.order)
        odd = next(c for c in lead.cards if group[c] != kept)
        like = next(c for c in lead.cards if group[c] == kept)
        read = [like if c == odd else c for c in lead.cards]
        return [Fault("observe.card_unplausible", {"seat": lead.seat, "cards": list(lead.cards), "card": odd,
                                                   "as": read}, lead.i)]

    def _hold_failed_throw(self, proof: Fault, thrown: tuple[Card, ...]) -> list[Fault]:
        """O17: on a camera log a throw of two cards of one group, beaten at its first follow
        (``shengji.failed_throw``), may be a pair with one card misread: said as its trick closes."""
        if self.hands or len(thrown) != 2:
            return [proof]
        self.held_throw = (proof, thrown)
        return []

    def _failed_throw_said(self) -> tuple[list[Fault], bool]:
        """O17: the held failed throw as its trick closes: when two followers answered it with a
        pair of its group, it was a pair with one card misread (``observe.card_unplausible``, its
        penalty taken back, the follows prove nothing; returns True); else the failed throw."""
        held, self.held_throw = self.held_throw, None
        if held is None:
            return [], False
        proof, thrown = held
        t = self.tricks
        group = self.order.group
        pairs = sum(1 for p in t.trick[1:] if p.combo.kind == Kind.PAIR and group[p.cards[0]] == group[thrown[0]])
        if t.phantom or len(t.trick) != 4 or pairs < MIXED_PAIR_FOLLOWERS:
            if proof.i in self.cards_at:
                # O26: a camera pair with one card misread as much as a failed throw: asked now;
                # the failed throw waits for the deal's end, where a misread card is seen too often
                self.deferred.append(proof)
                return [self._question(proof)], False
            return [proof], False
        seat = proof.facts["seat"]
        self._throw_penalty(seat, -len(thrown))
        like = proof.facts["forced"][0]
        odd = next((c for c in thrown if c != like), like)
        for p in t.trick[1:]:
            self.proofs.drop_follow(p.seat, p.i)
        return [Fault("observe.card_unplausible", {"seat": seat, "cards": list(thrown), "card": odd,
                                                   "as": [like, like]}, t.trick[0].i)], True


def winner_proofs_said(due: list[Fault], turn: list[Fault]) -> list[Fault]:
    """O8: the last trick's winning play's proofs ``due``, unless this lead is unexpected (``turn``
    its turn faults): that trick was not what was seen, and the misread card may be their proof."""
    if due and any(f.code == "observe.unexpected_lead" for f in turn):
        return []
    return due


def mixed_lead_group(trick: list[Any], order: TrumpOrder) -> str | None:
    """O13: the group of a 混合 lead that its followers show it was of, one card misread: all three
    followers played that group, or two of them played a pair of it (a pair lead misread);
    ``None`` when they do not."""
    group = order.group
    led = {group[c] for c in trick[0].cards}
    of: list[str | None] = []
    for p in trick[1:]:
        gs = {group[c] for c in p.cards}
        of.append(next(iter(gs)) if len(gs) == 1 and gs <= led else None)
    if of[0] is not None and of.count(of[0]) == len(of):
        return of[0]
    pairs = Counter(g for g, p in zip(of, trick[1:], strict=True)
                    if g is not None and p.combo.kind in (Kind.PAIR, Kind.TRACTOR))
    best = pairs.most_common(1)
    return best[0][0] if best and best[0][1] >= MIXED_PAIR_FOLLOWERS else None


def faults_at(i: int, faults: list[Fault]) -> list[Fault]:
    """``faults`` of play ``i`` with their event set (a fault said later keeps its own line)."""
    return [f if f.i is not None else f.at(i) for f in faults]
