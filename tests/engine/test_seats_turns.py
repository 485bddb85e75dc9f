"""Seats, teams and implied passes (spec: "Seats and teams", "Turn order")."""

import pytest

from cardref.engine.seats import opposite, play_order, same_team, seats_between, team_of, teammates
from cardref.engine.turns import RoundTurns


@pytest.mark.parametrize(("seat", "seats", "expected"), [
    (0, 6, 3), (1, 6, 4), (2, 6, 5), (3, 6, 0), (5, 6, 2),  # spec: (s+3)%6 with six seats
    (0, 4, 2), (1, 4, 3), (3, 4, 1),
])
def test_opposite(seat, seats, expected) -> None:
    assert opposite(seat, seats) == expected


@pytest.mark.parametrize(("seat", "seats", "mates"), [
    (0, 6, (2, 4)), (3, 6, (1, 5)), (0, 4, (2,)), (1, 4, (3,)),  # spec: {0,2,4} {1,3,5}; {0,2} {1,3}
])
def test_teams(seat, seats, mates) -> None:
    assert teammates(seat, seats) == mates
    assert all(team_of(m, seats) == team_of(seat, seats) for m in mates)
    assert not same_team(seat, (seat + 1) % seats)


def test_seats_between_and_order() -> None:
    assert seats_between(4, 1, 6) == [5, 0]
    assert seats_between(1, 2, 6) == []
    assert play_order(4, 6) == [4, 5, 0, 1, 2, 3]


def test_a_later_play_implies_the_skipped_seats_passed() -> None:
    turns = RoundTurns(6)
    turns.start(leader=0)
    assert turns.play(0) == []
    assert turns.play(3) == [1, 2]
    assert turns.has_passed(1) and turns.has_passed(2)
    assert turns.to_play() == 4


def test_skipped_seats_only_count_once_and_finished_seats_are_ignored() -> None:
    turns = RoundTurns(6)
    turns.start(leader=0, active={0, 1, 3, 4, 5})  # seat 2 has gone out
    turns.play(0)
    assert turns.play(4) == [1, 3]
    turns.pass_(5)
    assert turns.to_play() == 0
    assert turns.play(0) == []


def test_round_ends_when_all_others_passed() -> None:
    turns = RoundTurns(4)
    turns.start(leader=2)
    turns.play(2)
    for s in (3, 0, 1):
        turns.pass_(s)
    assert turns.everyone_else_passed()
    assert turns.to_play() == 2


def test_leader_skipped_counts_as_pass() -> None:
    turns = RoundTurns(4)
    turns.start(leader=1)
    assert turns.play(3) == [1, 2]
