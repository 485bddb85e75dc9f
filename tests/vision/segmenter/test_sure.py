"""A camera play is ``sure`` when every card was read surely by most of its frames; a fault
on a play that is not sure is a question for the referee (issue 33 item 5, issue 34 item 2)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from cardref.engine.eventlog import dump_event, read_lines
from cardref.engine.judge import Judge
from cardref.vision.segmenter import PlaySegmenter, SegmenterSettings
from cardref.vision.segmenter.records import all_sure
from cardref.vision.segmenter.tracks import Track
from cardref.vision.watch import play_event
from cardref.vision.zones import TableCard, default_layout

LAYOUT = default_layout(4)


@pytest.mark.parametrize(("frames", "want"), [
    ([True, True, False], True),       # most frames sure
    ([True, False, False], False),
    ([True, False], False),            # a tie is not sure
    ([None, None], None),              # the detector never said
    ([None, True], True),
])
def test_a_card_is_sure_when_most_of_its_frames_were(frames, want):
    tr = Track(1, [(0.0, 0.0)], (0.0, 0.0), 0.0, 0.0, 0.0, (0.0, 0.0))
    for sure in frames:
        tr.vote("9H", 0.9, sure)
    tr.vote("9D", 0.2, True)  # another code's frames do not count for 9H
    assert tr.read_surely("9H") is want


def test_votes_taken_from_a_duplicate_track_keep_their_sureness():
    a = Track(1, [(0.0, 0.0)], (0.0, 0.0), 0.0, 0.0, 0.0, (0.0, 0.0))
    b = Track(2, [(0.0, 0.0)], (0.0, 0.0), 0.0, 0.0, 0.0, (0.0, 0.0))
    a.vote("KS", 0.9, True)
    for _ in range(3):
        b.vote("KS", 0.4, False)
    a.take_votes(b)
    assert a.counts["KS"] == 4 and a.read_surely("KS") is False
    a.forget_votes()
    assert a.read_surely("KS") is None and not a.votes


@pytest.mark.parametrize(("cards", "want"), [
    ([True, True], True), ([True, False], False), ([True, None], None), ([None, False], False), ([], None)])
def test_a_play_is_sure_when_all_its_cards_are(cards, want):
    assert all_sure(cards) is want


def _frames(sure: bool | None) -> list[list[TableCard]]:
    cx, cy = LAYOUT.seat_zone(0).center
    cards = [TableCard(code, 0.9, ((cx - 60 + 20 * i, cy - 40), (cx - 10 + 20 * i, cy + 35)), "seat0", (), sure)
             for i, code in enumerate(("5C", "5D"))]
    return [cards] * 15


@pytest.mark.parametrize("sure", [True, False, None])
def test_the_segmenter_reports_how_surely_a_play_was_read(sure):
    seg = PlaySegmenter(LAYOUT, SegmenterSettings())
    plays = []
    for i, cards in enumerate(_frames(sure)):
        plays += seg.update(i / 10, cards)[0]
    assert [p.cards for p in plays] == [("5C", "5D")]
    assert plays[0].sure is sure
    event = play_event(plays[0])
    assert event.sure is sure
    assert ('"sure"' in dump_event(event)) is (sure is not None)


HEADER = '{"type":"deal","game":"guafeng-zibo","seats":4,"dealer":0,"leader":0,"level":"2","trump":"S"}'


@pytest.fixture(scope="module")
def seat2_play():
    """A single card put down in seat 2's zone (seat 0 is to lead)."""
    seg = PlaySegmenter(LAYOUT, SegmenterSettings())
    cx, cy = LAYOUT.seat_zone(2).center
    cards = [TableCard("9H", 0.9, ((cx - 30, cy - 40), (cx + 20, cy + 35)), "seat2", (), True)]
    plays = []
    for i in range(15):
        plays += seg.update(i / 10, cards)[0]
    (play,) = plays
    assert play.seat == 2 and play.sure is True
    return play


@pytest.mark.parametrize(("sure", "confirm"), [(True, False), (False, True)])
def test_a_fault_on_a_play_not_read_surely_is_a_question(seat2_play, sure, confirm):
    lines = [HEADER, dump_event(play_event(replace(seat2_play, sure=sure)))]
    verdict = Judge.judge(list(read_lines(lines))).verdicts[1]
    assert not verdict.ok
    assert bool(verdict.confirm) is confirm
