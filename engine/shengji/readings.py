"""Second readings of a 升级-family camera log: one slip costs one flag, then the judge re-synchronises.

A camera misses plays.  When a play does not fit the deal as read so far — a lead by another
seat than the one due, a play with another count than the lead, a seat skipped in the trick
playing late — the play may be a player's rule fault, or the camera may have missed a play
just before it (docs/rules/chaodipi.md, "Camera slips", O10-O12, after observation.md O6-O8).
Each explanation is a *reading*: a copy of the referee that took it.  The plays that follow are
fed to every reading; a reading that needs more flags than another is dropped.  Once the log
as read is dropped, the first slip left is adopted; the log as read is kept when it is the
only one left, after :data:`WINDOW` plays, or at the deal's end.  A play that every reading
faults (a second slip, or a fault) settles the choice on the first reading as it was before
that play, and is read anew.

* "close and lead" (O10): the seats missing from the trick in progress were missed, and this
  play leads the next trick (one ``observe.missing_play``);
* "missed lead" (O11): the seat due to lead led unseen, and this play follows it (one
  ``observe.missing_play``; the trick's winner is then unknown: its next lead is not flagged);
* "the last play led" (O12): the last play of the trick before was the lead of this one, its
  follow there missed (one ``observe.missing_play`` on that play);
* "seat misread" (O19): the lead was the seat due's (its cards then prove only questions, O36);
* "two missed" (O37, the deal's first play, by the seat two after the dealer, on a camera log):
  the dealer's lead and the next follow were both missed; a long shot, adopted only when the log
  as read needs a rule fault more.

While a choice is open the faults wait; when every reading flags the play that opened it, its
first observation flag is said at once, so the table sees the slip when it happens.  The faults
of the reading adopted are then returned with their own lines (``proven_at`` the play that
decided).  Readings are tried only on camera logs (no ``hand`` known): with a hand the judge
trusts what it sees.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, fields, replace
from typing import Any

from ..events import PlayEvent
from ..verdict import Fault, is_observation
from .combos import Kind, classify
from .points import points
from .tied import gap_throw
from .tricks import Played

#: plays fed to every reading before the first one (the log as read) is kept
WINDOW = 8
UNEXPECTED_LEAD = "observe.unexpected_lead"
#: O37: the fact marking the flag of a reading that needs two plays missed in a row
TWO_MISSED = "two_missed"


@dataclass
class Reading:
    """One explanation of the play that opened the choice: the referee that took it and its faults since."""

    referee: Any
    faults: list[Fault] = field(default_factory=list)
    #: the reading of the log as it is (no slip presumed)
    as_read: bool = False

    @property
    def two_slips(self) -> bool:
        """O37: the reading needs two plays missed in a row (one flag, never tied with the log as read)."""
        return any(f.facts.get(TWO_MISSED) for f in self.faults)

    @property
    def flags(self) -> int:
        """Lines flagged since the choice opened, and one for a seat skipped in the trick that has
        not played yet (O7: its play was missed, or the play before it was out of turn)."""
        return len({f.i for f in self.kept}) + (self.referee.tricks.skipped is not None)

    @property
    def kept(self) -> list[Fault]:
        """The faults, less the unexpected leads a card seen once too often since explains (O18:
        its deck flag is that slip's one flag)."""
        explained = self.referee.explained_leads
        if not explained:
            return self.faults
        return [f for f in self.faults if not (f.code == UNEXPECTED_LEAD and f.i in explained)]


@dataclass
class Choice:
    """The readings still open (``readings[0]``: the log as read), since play ``start``."""

    start: int
    readings: list[Reading]
    said: set[tuple[int | None, str]] = field(default_factory=set)
    plays: int = 0
    #: O34: a slip reading was dropped only for a seat skipped after the choice opened (the log
    #: as read is then fed alone until it needs a flag too, or the window closes)
    skip_dropped: bool = False
    #: O34: ... and the log as read then needed a flag too: tied
    skip_tied: bool = False
    #: O37: a reading of two plays missed in a row was among the readings
    two_slips: bool = False

    def first_flag(self) -> list[Fault]:
        """The flag said at once, when every reading flags the opening play: its first observation
        fault (a rule fault of the reading adopted later replaces it).  Otherwise nothing yet."""
        if not all(any(f.i == self.start for f in r.faults) for r in self.readings):
            return []
        for reading in self.readings:
            for f in reading.faults:
                if f.i == self.start and is_observation(f.code):
                    self.said.add((f.i, f.code))
                    return [f]
        return []

    def say_all(self) -> list[Fault]:
        """The faults of the log as read, said at once (the readings only re-synchronise the deal)."""
        faults = self.readings[0].faults
        self.said.update((f.i, f.code) for f in faults)
        return list(faults)

    def feed(self, play: Any) -> bool:
        """``play(referee)`` returns the faults of the next play as that reading reads it.  Returns
        False, keeping nothing of it, when every reading faults it: no reading explains it (a
        second slip, or a fault): the caller settles on the state before it and reads it anew.
        O34: so, tied, when the log as read fed alone after a skip's drop needs a flag for it."""
        self.plays += 1
        got = [play(reading.referee) for reading in self.readings]
        if (len(self.readings) > 1 or self.skip_dropped) and all(got):
            self.skip_tied = len(self.readings) == 1
            return False
        for reading, faults in zip(self.readings, got, strict=True):
            reading.faults.extend(faults)
        self.prune()
        return True

    def prune(self) -> None:
        """Drop the readings that need more flags than another.  O34: a slip reading dropped only
        for a seat that a play after the choice opened skipped, and that has not played yet, is
        recorded (:attr:`skip_dropped`)."""
        self.two_slips = self.two_slips or any(r.two_slips for r in self.readings)
        flags = [self.flags(r) for r in self.readings]
        least = min(flags)
        self.skip_dropped = self.skip_dropped or any(n > least and n - _skipped_later(r, self.start) == least
                                                     for r, n in zip(self.readings, flags, strict=True))
        self.readings = [r for r, n in zip(self.readings, flags, strict=True) if n == least]

    def tied(self) -> bool:
        """Whether the log as read, kept, is tied with a slip reading: another reading is left, or
        (O34) one was dropped only for a seat skipped later and the log as read needed a flag too."""
        return any(not r.two_slips for r in self.readings[1:]) or self.skip_tied

    def flags(self, reading: Reading) -> int:
        """O33: the lines ``reading`` flags, less the rule faults proven before the choice opened
        (revokes a trick's lead or winner proved, held until the next lead, O8): the same in every
        reading but one whose next lead is unexpected, which drops them; not a flag of the reading."""
        counted = {f.i for f in reading.kept
                   if f.proven_at is None or f.proven_at >= self.start or is_observation(f.code)}
        if reading.as_read and any(r.two_slips for r in self.readings):
            # O37: against two plays missed, only the log as read's rule faults count (its slips
            # explain a seat's play given to another as well)
            return len({f.i for f in reading.kept if f.i in counted and not is_observation(f.code)})
        return len(counted) + (reading.referee.tricks.skipped is not None)

    def decided(self, over: bool) -> bool:
        """Whether to adopt now: one reading left (O34: not the log as read left alone after a slip
        reading was dropped for a later skip: it is fed on until it needs a flag), the log as read
        out (every reading left is a slip of one flag: the first is taken), the deal over, or
        :data:`WINDOW` plays fed."""
        alone = len(self.readings) == 1 and not self.skip_dropped
        return alone or not self.readings[0].as_read or over or self.plays >= WINDOW

    def adopt(self) -> Reading:
        """The reading kept: the one left, else the log as read (a player's fault stays one)."""
        return self.readings[0]

    def settled_at_close(self) -> bool:
        """Whether the choice, still open when the log ends or the next deal starts, is settled
        then (on the log as read): O34's, and O37's (the log as read's fault is said, as before)."""
        return self.skip_dropped or self.two_slips

    def unsaid(self, reading: Reading) -> list[Fault]:
        """The faults of ``reading`` not said yet.  O37: the log as read, kept against two plays
        missed, keeps the opening play's own faults as they were without that reading: proven at
        that play, not at the play that dropped the long shot."""
        faults = [f for f in reading.kept if (f.i, f.code) not in self.said]
        if not (self.two_slips and reading.as_read):
            return faults
        return [f.at(f.i, f.i) if f.i == self.start and f.proven_at is None else f for f in faults]


def _skipped_later(reading: Reading, start: int) -> int:
    """O34: 1 when ``reading`` (a slip reading) has one seat skipped by a play after ``start``
    that has not played yet: what one play missed looks like (two seats skipped need two)."""
    skipped = reading.referee.tricks.skipped
    return int(not reading.as_read and skipped is not None and skipped[0] > start and len(skipped[1]) == 1)


# -- the readings of a slip ----------------------------------------------------------------
def slip_readings(before: Any, slip: str, i: int, ev: PlayEvent) -> Iterator[tuple[Any, list[Fault], PlayEvent]]:
    """The referees (copies of ``before``, the referee before play ``i``) that read play ``i`` as a
    slip, each with the flag of that slip and the play as that reading takes it: for ``"close"``
    (O10) the trick in progress closed with the plays seen; for ``"lead"`` the due seat's lead
    missed (O11), the last play of the trick before read as this trick's lead (O12), and the
    lead read as the seat due's, its seat misread (O19)."""
    before.slipped = True               # O15: in a slip reading the counts are not known
    if slip == "close":
        gap_throw(before)           # O38: the gap may lie one play before the throw
        yield before, before._close_incomplete(i), ev
        return
    retro = before._clone() if _last_was_lead(before, ev.seat) else None
    # the first lead is the dealer's (000:115): one by another seat stays out of turn (O8)
    moved = before._clone() if before.tricks.history else None
    if ev.seat == (before.tricks.leader + 1) % 4:
        yield before, _missed_lead(before, i, ev), ev
    elif ev.seat == (before.tricks.leader + 2) % 4 and not before.tricks.history and ev.source == "camera":
        yield before, _two_missed(before, i, ev), ev        # O37: the deal's first two plays missed
    if retro is not None:
        yield retro, _last_play_led(retro, i), ev
    if moved is not None:
        yield moved, *_seat_misread(moved, i, ev)


@dataclass(frozen=True, kw_only=True)
class SeatMisread(PlayEvent):
    """O19's play: a lead seen by ``seen``, read as the seat due's.  O36: its cards may be
    ``seen``'s after all, so they prove only questions (O32's doubtful cards)."""

    seen: int


def _seat_misread(ref: Any, i: int, ev: PlayEvent) -> tuple[list[Fault], PlayEvent]:
    """O19: the lead seen by another seat than the one due was the seat due's, its seat misread:
    the unexpected lead (O8) is its one flag, and the play is that seat's."""
    due = ref.tricks.leader
    flag = Fault("observe.unexpected_lead", {"seat": ev.seat, "expected": due}, i)
    kept = {f.name: getattr(ev, f.name) for f in fields(ev) if f.name != "seat"}
    return [flag], SeatMisread(**kept, seat=due, seen=ev.seat)


def lead_unchecked(ref: Any, i: int, ev: PlayEvent) -> bool:
    """Whether play ``i`` (``ev``) is a camera lead, no hand known, whose cards may be another
    seat's, so that they prove only questions: O32, a lead whose seat the turn order did not
    check (:attr:`.tricks.Tricks.lead_unchecked`); O36, a lead O19 gave to the seat due."""
    t = ref.tricks
    moved = isinstance(ev, SeatMisread)
    return (t.lead_unchecked or moved) and t.trick[0].i == i and ref.camera and not ref.hands


def _take_missed(ref: Any, seat: int, n: int) -> None:
    """A play of ``n`` cards by ``seat`` missed: its cards are taken as played (given back should it show more)."""
    taken = min(ref.left[seat], n)
    ref.left[seat] -= taken
    ref.assumed[seat] += taken


def _missed_lead(ref: Any, i: int, ev: PlayEvent) -> list[Fault]:
    """O11: the seat due to lead led unseen, with as many cards as play ``i``, which follows it."""
    missed = ref.tricks.leader
    n = len(ev.cards)
    _take_missed(ref, missed, n)
    ref.tricks.lead_missed(missed, classify(ev.cards, ref.order), i)
    return [Fault("observe.missing_play", {"seats": [missed], "seat": missed, "n": n}, i)]


def _two_missed(ref: Any, i: int, ev: PlayEvent) -> list[Fault]:
    """O37: the deal's first lead (the dealer's) and its first follow were both missed, and play
    ``i``, by the seat after them, follows that lead: one ``observe.missing_play`` naming both
    seats, its facts marked :data:`TWO_MISSED` (two slips: kept only when the log as read needs
    more flags, never tied with it, :attr:`Reading.two_slips`)."""
    missed = _missed_lead(ref, i, ev)[0]
    follow = (missed.facts["seat"] + 1) % 4
    n = len(ev.cards)
    _take_missed(ref, follow, n)
    ref.tricks.follow(Played(follow, (), ref.tricks.trick[0].combo, i))
    seats = [missed.facts["seat"], follow]
    return [replace(missed, facts={**missed.facts, "seats": seats, TWO_MISSED: True})]


def _last_was_lead(ref: Any, seat: int) -> bool:
    """Whether the last play of the trick before, by the seat before ``seat``, may have been a lead."""
    last = ref.tricks.last_trick
    if len(last) != 4 or not last[-1].cards or last[-1].seat != (seat - 1) % 4:
        return False
    return classify(last[-1].cards, ref.order).kind != Kind.MIXED


def _last_play_led(ref: Any, i: int) -> list[Fault]:
    """O12: the last seat of the trick before followed it unseen, won it, and its play seen there
    leads this trick (play ``i`` follows it).  That trick goes to that seat, without those cards."""
    t = ref.tricks
    last = t.last_trick
    moved = last[-1]
    seat, n = moved.seat, last[0].combo.size
    entry = t.history[-1]
    kept = points(moved.cards)
    if entry["winner"] in t.attackers:
        t.attacker_points -= entry["points"]
    else:
        t.dealer_side_points -= entry["points"]
    entry["points"] -= kept
    entry["plays"] = entry["plays"][:-1]
    entry["winner"] = seat
    if seat in t.attackers:
        t.attacker_points += entry["points"]
    else:
        t.dealer_side_points += entry["points"]
    t.last_trick = last[:-1]
    t.last_winner = seat
    ref.proofs.drop_follow(seat, moved.i)
    _take_missed(ref, seat, n)
    t.leader = seat
    t.gap_flagged = False
    lead = classify(moved.cards, ref.order)
    t.lead(Played(seat, lead.cards, lead, moved.i))
    t.trick_flagged = True
    return [Fault("observe.missing_play", {"seats": [seat], "seat": seat, "n": n}, moved.i, i)]
