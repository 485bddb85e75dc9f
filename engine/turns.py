"""Turn order within a round of a climbing game, with implied passes.

Players at a real table rarely say "pass" and a camera cannot see one, so a play by a
seat later in turn order implies that the active seats skipped in between passed
(spec: "Turn order").  A seat that has passed may not play again in the same round
unless the game's rules allow it (够级's 烧牌), which the game decides.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .seats import next_seat


@dataclass
class RoundTurns:
    """Who has played and who has passed in the current round."""

    seats: int
    active: set[int] = field(default_factory=set)
    leader: int | None = None
    last_player: int | None = None
    last_actor: int | None = None
    passed: set[int] = field(default_factory=set)

    def start(self, leader: int, active: set[int] | None = None) -> None:
        """A new round that ``leader`` opens; ``active`` are the seats still holding cards."""
        self.active = set(range(self.seats)) if active is None else set(active)
        self.leader = leader
        self.last_player = None
        self.last_actor = None
        self.passed = set()

    def skipped_by(self, seat: int) -> list[int]:
        """Active, not-yet-passed seats strictly between the last actor and ``seat``."""
        if self.last_actor is None:
            start = self.leader if self.leader is not None else seat
            if start == seat:
                return []
            out = [start] if start in self.active and start not in self.passed else []
            s = next_seat(start, self.seats)
        else:
            out = []
            s = next_seat(self.last_actor, self.seats)
        guard = 0
        while s != seat and guard <= self.seats:
            if s in self.active and s not in self.passed:
                out.append(s)
            s = next_seat(s, self.seats)
            guard += 1
        return out

    def play(self, seat: int) -> list[int]:
        """Record a play; returns the seats whose passes it implies."""
        implied = [s for s in self.skipped_by(seat) if s != self.last_player]
        self.passed.update(implied)
        self.last_player = seat
        self.last_actor = seat
        return implied

    def pass_(self, seat: int) -> None:
        self.passed.add(seat)
        self.last_actor = seat

    def has_passed(self, seat: int) -> bool:
        return seat in self.passed

    def to_play(self) -> int | None:
        """The next seat expected to act, or ``None`` when nobody is left to answer."""
        start = self.last_actor if self.last_actor is not None else None
        if start is None:
            return self.leader
        s = next_seat(start, self.seats)
        for _ in range(self.seats):
            if s == self.last_player:
                return s if self.everyone_else_passed() else None
            if s in self.active and s not in self.passed:
                return s
            s = next_seat(s, self.seats)
        return None

    def everyone_else_passed(self) -> bool:
        """True when every other active seat has passed on the last play."""
        return self.last_player is not None and all(
            s in self.passed for s in self.active if s != self.last_player)
