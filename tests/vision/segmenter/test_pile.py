"""Pile plays at a slow frame rate (docs/vision.md V23, V24, V25): the seat a play that was not
seen coming in is given, two seats' plays that settle close together, and the straggler of
one seat's play seen only after that play was reported.

The scenarios are synthetic detection streams in table mm on the 6-seat layout (seats 0-1
along the bottom, 2 on the right, 3-4 along the top, 5 on the left, the pile between).
"""

from __future__ import annotations

import math

import pytest

from cardref.vision.segmenter import PlaySegmenter, SegmenterSettings, tuned
from cardref.vision.segmenter.geometry import card_lie
from cardref.vision.zones import TableCard, default_layout

LAYOUT6 = default_layout(6)
SETTINGS = SegmenterSettings()
DIAG = SETTINGS.index_diagonal_deg


def lying(code, x, y, facing, zone="pile", spread=78.0):
    """A card whose first index is at (x, y), lying as a seat facing ``facing`` puts it down:
    its second index ``spread`` mm along the line at ``index_diagonal_deg + facing``."""
    a = math.radians(DIAG + facing)
    return TableCard(code, 0.9, ((x, y), (x + spread * math.cos(a), y + spread * math.sin(a))), zone)


def one_index(code, x, y, zone="pile"):
    return TableCard(code, 0.9, ((x, y),), zone)


def run(frames, times=None, settings=None):
    """The plays as (seat, sorted cards), and the segmenter; frames at 10 a second unless
    ``times`` are given."""
    seg = PlaySegmenter(LAYOUT6, settings or SETTINGS)
    out = []
    for i, cards in enumerate(frames):
        t = times[i] if times else i / 10
        out.extend((o.seat, tuple(sorted(o.cards))) for o in seg.update(t, cards)[0])
    return out, seg


def fired(seg, rule):
    return [r for r in seg.trace if r.rule == rule]


# --- how a card lies ---------------------------------------------------------------

def test_a_card_lies_along_the_line_through_its_two_indices_modulo_180():
    assert card_lie([(0, 0), (50, 75)], 60) == pytest.approx(math.degrees(math.atan2(75, 50)))
    assert card_lie([(50, 75), (0, 0)], 60) == pytest.approx(math.degrees(math.atan2(75, 50)))
    assert card_lie([(0, 0), (-62, 47)], 60) == pytest.approx(180 - math.degrees(math.atan2(47, 62)))


@pytest.mark.parametrize("points", [[(0, 0)], [(0, 0), (50, 0)], [(0, 0), (50, 75), (0, 75), (50, 0)]],
                         ids=["one index", "two indices one side apart", "four indices"])
def test_a_card_whose_diagonal_is_not_known_gives_no_lie(points):
    assert card_lie(points, 60) is None


def test_the_seats_a_card_lies_as_if_put_down_by():
    up = (DIAG + 0) % 180  # seats facing 0 or 180: along the bottom and the top
    side = (DIAG + 90) % 180  # seats facing 90 or 270: the ends
    assert LAYOUT6.seats_lying_as([up], DIAG, 45) == [0, 1, 3, 4]
    assert LAYOUT6.seats_lying_as([side + 20], DIAG, 45) == [2, 5]
    assert LAYOUT6.seats_lying_as([up, side, side], DIAG, 45) == [2, 5]  # most cards decide
    assert LAYOUT6.seats_lying_as([], DIAG, 45) == [0, 1, 2, 3, 4, 5]
    assert LAYOUT6.seats_lying_as([up, side], DIAG, 45) == [0, 1, 2, 3, 4, 5]  # no majority: every seat


def test_the_seat_in_front_of_which_a_pile_card_lies():
    cx, cy = LAYOUT6.pile.center
    assert LAYOUT6.seat_in_front((cx + 115, cy)) == 2
    # the right seat's part of the pile is nearer to seat 1's zone centre than to its own
    assert LAYOUT6.nearest_seat((cx + 115, cy)) == 1
    assert LAYOUT6.seat_in_front((cx - 115, cy)) == 5
    assert LAYOUT6.seat_in_front((cx + 60, cy - 50)) == 3
    assert LAYOUT6.seat_in_front((cx + 60, cy - 50), seats=[2, 5]) == 2
    assert LAYOUT6.seat_in_front((cx + 2, cy + 3)) == LAYOUT6.nearest_seat((cx + 2, cy + 3))  # on the centre


def test_a_long_move_still_says_where_the_cards_came_from():
    cx, cy = LAYOUT6.pile.center
    # slid 150 mm in from the right: seat 2, whatever lies nearer
    assert LAYOUT6.seat_towards((cx + 60, cy + 60), (cx + 210, cy + 60), 60) == 2
    # under min_move the movement says nothing
    assert LAYOUT6.seat_towards((cx + 115, cy), (cx + 115, cy + 40), 60, in_front=True) == 2
    assert LAYOUT6.seat_towards((cx + 115, cy), (cx + 115, cy + 40), 6) == 1


# --- the segmenter's rules ---------------------------------------------------------

def _dropped_lying_sideways():
    """A card of the right seat (seat 2, facing 270) put straight down on the pile's upper
    right, where the direction from the centre points nearer to the top seat 3's zone."""
    cx, cy = LAYOUT6.pile.center
    return [[]] * 3 + [[lying("7C", cx + 60, cy - 50, 270)]] * 12


def _dropped_one_index_showing():
    """A card of seat 2 put straight down in the right part of the pile, one index showing."""
    cx, cy = LAYOUT6.pile.center
    return [[]] * 3 + [[one_index("7C", cx + 115, cy)]] * 12


@pytest.mark.parametrize("rule, scenario, on, off", [
    ("pile.lie", _dropped_lying_sideways, 2, 3),
    ("pile.in_front", _dropped_one_index_showing, 2, 1),
], ids=["pile.lie", "pile.in_front"])
def test_a_pile_play_not_seen_coming_in_goes_to_the_seat_it_lies_as(rule, scenario, on, off):
    plays, seg = run(scenario())
    assert plays == [(on, ("7C",))]
    assert [(r.rule, r.other) for r in seg.trace] == [(rule, f"seat {on}")]
    plays, seg = run(scenario(), settings=tuned(SETTINGS, [f"disabled_rules={rule}"]))
    assert plays == [(off, ("7C",))] and not fired(seg, rule)


def test_a_pile_play_seen_crossing_a_seat_zone_goes_by_the_trail_whatever_it_lies_as():
    """V19 first: a card seen in seat 3's zone on its way in is seat 3's, even lying sideways."""
    sx, sy = LAYOUT6.seat_zone(3).center
    cx, cy = LAYOUT6.pile.center
    frames = [[]] * 2 + [[lying("7C", sx, sy, 270, zone="seat3")]] + [[lying("7C", cx + 60, cy - 50, 270)]] * 12
    plays, seg = run(frames)
    assert plays == [(3, ("7C",))] and not fired(seg, "pile.lie")


def _two_seats_settling_close_together(zone):
    """At 3 frames a second (a slow CPU): seat 3's card rests from t=0; seat 0's shows up
    0.7 s later, in the frame where seat 3's has just settled."""
    cx, cy = LAYOUT6.pile.center
    if zone == "pile":
        first, second = lying("4H", cx + 40, cy - 80, 180), lying("KC", cx - 40, cy + 40, 0)
    else:
        x, y = LAYOUT6.seat_zone(0).center
        first, second = lying("4H", x - 80, y - 40, 0, zone), lying("KC", x + 20, y - 40, 0, zone)
    times = [0.0, 0.35, 0.7, 1.05, 1.4, 1.75, 2.1, 2.45]
    return [[first], [first]] + [[first, second]] * 6, times


def test_a_second_play_arriving_as_the_first_settles_on_the_pile_is_its_own():
    """V24 (play.arrived_later): without it the two seats' cards wait for each other and come
    out as one play of one seat."""
    frames, times = _two_seats_settling_close_together("pile")
    plays, seg = run(frames, times)
    assert plays == [(3, ("4H",)), (0, ("KC",))]
    assert [(r.rule, r.card) for r in fired(seg, "play.arrived_later")] == [("play.arrived_later", "KC")]
    plays, seg = run(frames, times, tuned(SETTINGS, ["disabled_rules=play.arrived_later"]))
    assert [cards for _, cards in plays] == [("4H", "KC")]


def test_cards_arriving_late_in_a_seat_zone_stay_one_play():
    """Only the pile holds several seats' plays: in a seat's own zone the later card is the
    same play's, as before."""
    frames, times = _two_seats_settling_close_together("seat0")
    plays, seg = run(frames, times)
    assert plays == [(0, ("4H", "KC"))] and not fired(seg, "play.arrived_later")


# --- V25: a straggler of the same seat's pile play ---------------------------------------

def run_revised(frames, times, settings=None):
    """The plays as (seat, sorted cards) once the revisions reported with them are applied."""
    seg = PlaySegmenter(LAYOUT6, settings or SETTINGS)
    plays = {}
    for t, cards in zip(times, frames, strict=True):
        for o in seg.update(t, cards)[0]:
            plays[o.play] = (o.seat, tuple(sorted(o.cards)))
        for r in seg.pop_revisions():
            plays[r.play] = (plays[r.play][0], tuple(sorted(r.cards)))
    return list(plays.values()), seg


def _after_the_report(late, start):
    """At 3 frames a second: seat 3's 4H rests from t=0 and is reported on its own; ``late``
    (cards) show up from ``start`` and rest there."""
    cx, cy = LAYOUT6.pile.center
    first = lying("4H", cx + 40, cy - 80, 180)
    times = [round(0.35 * k, 2) for k in range(int((start + 2.5) / 0.35))]
    return [[first] + (late if t >= start else []) for t in times], times


def _seat3(*codes):
    cx, cy = LAYOUT6.pile.center
    return [lying(code, cx + 75 - 12 * k, cy - 95, 180) for k, code in enumerate(codes)]


def test_the_second_card_of_a_play_seen_after_it_was_reported_joins_it():
    """V25 (pile.same_seat): the KH lands 0.35 s after the 4H's play was reported, lying as
    seat 3's: the same play, corrected, not a second play of seat 3."""
    frames, times = _after_the_report(_seat3("KH"), 1.4)
    plays, seg = run_revised(frames, times)
    assert plays == [(3, ("4H", "KH"))]
    assert [(r.rule, r.card) for r in fired(seg, "pile.same_seat")] == [("pile.same_seat", "KH")]
    plays, seg = run_revised(frames, times, tuned(SETTINGS, ["disabled_rules=pile.same_seat"]))
    assert plays == [(3, ("4H",)), (3, ("KH",))]


@pytest.mark.parametrize("late, start, why", [
    (_seat3("KH", "KS", "KD"), 1.4, "three cards landing together are a play of their own"),
    (_seat3("KH"), 4.2, "seconds later: the seat's next play"),
])
def test_a_block_of_cards_or_a_later_play_of_the_same_seat_stays_its_own(late, start, why):
    frames, times = _after_the_report(late, start)
    plays, seg = run_revised(frames, times)
    assert plays == [(3, ("4H",)), (3, tuple(sorted(c.card for c in late)))], why
    assert not fired(seg, "pile.same_seat")


def test_another_seats_card_in_that_moment_stays_its_own():
    cx, cy = LAYOUT6.pile.center
    frames, times = _after_the_report([lying("KC", cx - 40, cy + 40, 0)], 1.4)
    plays, seg = run_revised(frames, times)
    assert plays == [(3, ("4H",)), (0, ("KC",))] and not fired(seg, "pile.same_seat")
