"""Seats, teams and turn order.  Seats are numbered in the order of play (逆时针)."""

from __future__ import annotations


def next_seat(seat: int, seats: int) -> int:
    return (seat + 1) % seats


def opposite(seat: int, seats: int) -> int:
    """对门/对头: the seat across the table, (s+3)%6 with six seats, (s+2)%4 with four."""
    return (seat + seats // 2) % seats


def team_of(seat: int, seats: int) -> int:
    """Partners sit alternately: team 0 holds the even seats, team 1 the odd ones."""
    return seat % 2


def team_seats(team: int, seats: int) -> tuple[int, ...]:
    return tuple(s for s in range(seats) if s % 2 == team)


def teammates(seat: int, seats: int) -> tuple[int, ...]:
    """The other seats of ``seat``'s team."""
    return tuple(s for s in team_seats(team_of(seat, seats), seats) if s != seat)


def same_team(a: int, b: int) -> bool:
    return a % 2 == b % 2


def seats_between(after: int, before: int, seats: int) -> list[int]:
    """Seats strictly after ``after`` and strictly before ``before`` in play order."""
    out = []
    s = next_seat(after, seats)
    while s != before:
        out.append(s)
        s = next_seat(s, seats)
        if len(out) > seats:
            break
    return out


def play_order(start: int, seats: int) -> list[int]:
    """All seats in play order beginning with ``start``."""
    return [(start + k) % seats for k in range(seats)]
