"""The leads a trick's followers show misread, on a camera log (docs/rules/chaodipi.md O13,
O16, O17).

:class:`LeadMisreads` is mixed into the deal referee (:mod:`.referee`; ``self`` is the
referee).  As a trick closes its follows may show one card of its lead read wrong: a 混合 lead
whose followers played one of its groups (O13, ``_lead_misread``, ``_mixed_lead_said``), a
single-card lead three followers answered off its suit in one other group (O16,
``_lead_off_suit``: what rests on it waits in :attr:`waiting`), a failed throw of two cards two
followers answered with a pair of its group (O17, ``_failed_throw_said``).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from ..cards import Card
from ..verdict import Fault, fault_or_slip
from .combos import Kind
from .order import TRUMP

if TYPE_CHECKING:
    from .order import TrumpOrder
    from .proofs import Proofs
    from .tricks import Tricks


#: O13: followers answering a 混合 lead with a pair of one of its groups that show it a misread pair
MIXED_PAIR_FOLLOWERS = 2
#: O16: followers of a single-card lead off its suit in one other group that show it misread
OFF_SUIT_FOLLOWERS = 2


class LeadMisreads:
    """A trick's lead its follows show misread (a mixin; ``self`` is the referee)."""

    # provided by the referee
    order: TrumpOrder
    hands: dict[int, Counter[Card]]
    tricks: Tricks
    proofs: Proofs
    mixed_lead: Fault | None
    held_throw: tuple[Fault, tuple[Card, ...]] | None
    doubted_plays: dict[int, tuple[int, Card]]
    waiting: dict[Card, list[Fault]]
    deferred: list[Fault]
    cards_at: dict[int, tuple[Card, ...]]

    if TYPE_CHECKING:
        def _question(self, f: Fault) -> Fault:
            """A camera play's fault as a question (:class:`.slips.SlipReadings`'s)."""

        def _throw_penalty(self, seat: int, cards: int) -> int:
            """Score a failed throw's penalty (:class:`.failures.FailedThrows`'s)."""

    def _lead_off_suit(self, lead_proofs: list[Fault]) -> bool:
        """O16: on a camera log, a single-card lead two of whose followers both played one other
        side suit (all three, for trumps) may be misread (its genuine suit theirs) as much as it
        may show two revokes.  The revokes resting on that trick (its followers' follows, and the
        lead's own proofs when all three followers played that group) wait until the deal's end
        (:meth:`.deferred.DeferredFaults._said_at_end`); should the lead's card be seen once too
        often first, the lead was the misread and they prove nothing
        (:meth:`.slips.SlipReadings._doubt_card`).  Returns whether the lead's proofs wait."""
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

