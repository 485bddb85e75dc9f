"""The segmenter's rule table, one parametrised table per rule (decisions in docs/vision.md).

Each pair rule's test is called as the zone calls it: ``rule.test(context, new card, other)``
(``echo.*``: the other is a reported card; ``split.*``: a likelier candidate of the same
play; ``echo-all``: all reported cards).  Positions are table mm; a card's second index
lies about (50, 75) from its first, a fan step is 17 mm.
"""

from __future__ import annotations

import pytest

from cardref.vision.segmenter import rules
from cardref.vision.segmenter.association import gate
from cardref.vision.segmenter.settings import SegmenterSettings
from cardref.vision.segmenter.tracks import Track, TrackState
from cardref.vision.zones import TableCard

S = SegmenterSettings()
T = 10.0
_ids = iter(range(1, 10_000))


def trk(code, *points, reported=True, seen=T, first=T - 1.0, still=T - 1.0, play=None):
    """A track of ``code`` at ``points``: reported (with its code fixed) or a candidate."""
    tr = Track(next(_ids), list(points), points[0], first, seen, still, points[0])
    tr.votes[code] += 1.0
    tr.counts[code] += 1
    if reported:
        tr.state = TrackState.REPORTED
        tr.code = code
        tr.play = play
    return tr


def ctx(seat=True, reported_at=None, t=T):
    """A seat zone's context (a lone mark within suit_misread_mm counts), or the pile's (misread_mm)."""
    mark = S.suit_misread_mm if seat else S.misread_mm
    return rules.Context(S, t, mark, S.late_s if seat else 0.0, reported_at or {})


CARD = ((0.0, 0.0), (50.0, 75.0))  # a card's two indices
NEAR = ((2.0, 1.0), (51.0, 76.0))  # the same place, within 3 mm
STALE = T - 1.0  # a reported card last seen this long ago is out of sight (sight_s 0.3)


def check(name, c, tr, other, want):
    rule = rules.BY_NAME[name]
    assert rule.test is not None
    assert rule.test(c, tr, other) is want


# --- echo.suit_misread (V3): a card of the rank lying whole on a reported card ---------
@pytest.mark.parametrize("new, old, want", [
    (trk("3S", *NEAR, reported=False), trk("3C", *CARD), True),  # 3C read as 3S where it lies
    (trk("4S", *NEAR, reported=False), trk("3C", *CARD), False),  # another rank: a new card over it
    (trk("3S", NEAR[0], reported=False), trk("3C", *CARD), False),  # one index: V5's case
    (trk("3S", (15.0, 1.0), (65.0, 76.0), reported=False), trk("3C", *CARD), False),  # a fan step off
    (trk("3C", *NEAR, reported=False), trk("3C", *CARD), False),  # the same code: V4's case
])
def test_echo_suit_misread(new, old, want):
    check("echo.suit_misread", ctx(), new, old, want)


# --- echo.seen_twice (V4): the same code index on index --------------------------------
JOKER4 = ((0.0, 0.0), (40.0, 0.0), (0.0, 60.0), (40.0, 60.0))


@pytest.mark.parametrize("new, old, want", [
    (trk("7C", *NEAR, reported=False), trk("7C", *CARD), True),  # paired twice over
    (trk("7C", (1.0, 1.0), reported=False), trk("7C", *CARD), True),  # one index given alone
    (trk("7D", *NEAR, reported=False), trk("7C", *CARD), False),  # another code
    (trk("7C", (1.0, 1.0), reported=False), trk("7C", (0.0, 0.0)), False),  # the old one known by one index
    (trk("7C", (1.0, 1.0), (30.0, 40.0), reported=False), trk("7C", *CARD), False),  # an index of its own
    # a joker's other set of marks, long after it came to rest (spread): two on, one within its span
    (trk("BJ", (1.0, 1.0), (41.0, 1.0), (20.0, 30.0), reported=False, first=T),
     trk("BJ", *JOKER4, still=T - 5.0), True),
    # … but not soon after: two fanned jokers share marks (V13)
    (trk("BJ", (1.0, 1.0), (41.0, 1.0), (20.0, 30.0), reported=False, first=T),
     trk("BJ", *JOKER4, still=T - 1.0), False),
])
def test_echo_seen_twice(new, old, want):
    check("echo.seen_twice", ctx(), new, old, want)


# --- echo.index_on_index (V5): one index of the rank right on a card's index ------------
@pytest.mark.parametrize("new, old, want", [
    (trk("9S", (3.0, 2.0), reported=False), trk("9C", *CARD), True),
    (trk("9S", (3.0, 2.0), reported=False), trk("9C", (0.0, 0.0)), True),  # a fan's lower card shows one
    (trk("9S", (9.0, 0.0), reported=False), trk("9C", *CARD), False),  # beyond misread_mm
    (trk("8S", (3.0, 2.0), reported=False), trk("9C", *CARD), False),  # another rank
    (trk("9S", *NEAR, reported=False), trk("9C", *CARD), False),  # two indices
    (trk("BJ", (3.0, 2.0), reported=False), trk("SJ", *CARD), False),  # two different jokers
])
def test_echo_index_on_index(new, old, want):
    check("echo.index_on_index", ctx(), new, old, want)


# --- echo.lone_mark (V6): one mark beside a reported card's index while it is in sight --
@pytest.mark.parametrize("new, old, seat, want", [
    (trk("KC", (10.0, 0.0), reported=False), trk("QC", *CARD), True, True),  # a picture read as an index
    (trk("KC", (10.0, 0.0), reported=False), trk("QC", *CARD, seen=STALE), True, False),  # out of sight
    (trk("KC", (10.0, 0.0), reported=False), trk("QC", (0.0, 0.0)), True, False),  # the card shows one index
    (trk("KC", (20.0, 0.0), reported=False), trk("QC", *CARD), True, False),  # a fan step off
    (trk("KC", (10.0, 0.0), reported=False), trk("QC", *CARD), False, False),  # on the pile: index on index only
    (trk("KC", (5.0, 0.0), reported=False), trk("QC", *CARD), False, True),
])
def test_echo_lone_mark(new, old, seat, want):
    check("echo.lone_mark", ctx(seat), new, old, want)


# --- echo.same_place (V7): any code on both indices of a card in sight ------------------
@pytest.mark.parametrize("new, old, want", [
    (trk("6D", *NEAR, reported=False), trk("4D", *CARD), True),
    (trk("6D", *NEAR, reported=False), trk("4D", *CARD, seen=STALE), False),  # hidden: maybe covered anew
    (trk("6D", NEAR[0], reported=False), trk("4D", *CARD), False),  # one index
    (trk("6D", (9.0, 0.0), (59.0, 75.0), reported=False), trk("4D", *CARD), False),
])
def test_echo_same_place(new, old, want):
    check("echo.same_place", ctx(), new, old, want)


# --- echo.paired_across (V9): indices of two reported cards of the rank paired ----------
UPPER = ((17.0, 0.0), (67.0, 75.0))


@pytest.mark.parametrize("new, down, want", [
    (trk("2S", (0.0, 0.0), (67.0, 75.0), reported=False), [trk("2S", *CARD), trk("2S", *UPPER)], True),
    (trk("2S", *NEAR, reported=False), [trk("2S", *CARD), trk("2S", *UPPER)], False),  # one card's
    (trk("2S", (0.0, 0.0), (67.0, 75.0), reported=False), [trk("2S", *CARD), trk("3S", *UPPER)], False),
    (trk("BJ", (0.0, 0.0), (67.0, 75.0), reported=False), [trk("BJ", *CARD), trk("BJ", *UPPER)], False),
])
def test_echo_paired_across(new, down, want):
    check("echo.paired_across", ctx(), new, down, want)


# --- echo.jokers_again (V8): a joker made of a reported play's joker marks ---------------
@pytest.mark.parametrize("first, reported_at, code, want", [
    (T - 0.5, T - 3.0, "SJ", True),  # seen again seconds after its play
    (T - 2.5, T - 3.0, "SJ", False),  # showed up with its play (within late_s): its second joker
    (T - 0.5, T - 3.0, "BJ", False),  # the other joker
])
def test_echo_jokers_again(first, reported_at, code, want):
    down = [trk("SJ", *JOKER4, play=5)]
    new = trk(code, (1.0, 1.0), (41.0, 1.0), (20.0, 30.0), reported=False, first=first)
    check("echo.jokers_again", ctx(reported_at={5: reported_at}), new, down, want)


# --- split.* : a new card against a likelier candidate of the same play -----------------
@pytest.mark.parametrize("name, new, other, want", [
    ("split.suit_misread", trk("3S", *NEAR, reported=False), trk("3C", *CARD, reported=False), True),
    ("split.suit_misread", trk("4S", *NEAR, reported=False), trk("3C", *CARD, reported=False), False),
    ("split.seen_twice", trk("2S", (1.0, 1.0), reported=False), trk("2S", *CARD, reported=False), True),
    ("split.seen_twice", trk("2S", (20.0, 1.0), reported=False), trk("2S", *CARD, reported=False), False),
    ("split.index_on_index", trk("AS", (2.0, 2.0), reported=False), trk("AC", *CARD, reported=False), True),
    ("split.index_on_index", trk("KS", (2.0, 2.0), reported=False), trk("AC", *CARD, reported=False), False),
    # a JC's picture read KC, paired with the JC's far index
    ("split.lone_mark_paired", trk("KC", (10.0, 0.0), (50.0, 75.0), reported=False),
     trk("JC", *CARD, reported=False), True),
    ("split.lone_mark_paired", trk("KC", (10.0, 0.0), reported=False), trk("JC", *CARD, reported=False), False),
    ("split.lone_mark_paired", trk("KC", (10.0, 0.0), (90.0, 75.0), reported=False),
     trk("JC", *CARD, reported=False), False),  # its other mark is no index of the JC's
    # a lone mark inward of the card's index (towards its far index) …
    ("split.lone_mark_inward", trk("KC", (6.0, 9.0), reported=False), trk("JC", *CARD, reported=False), True),
    # … not outward (a fan's lower card), nor for jokers
    ("split.lone_mark_inward", trk("2D", (-6.0, -9.0), reported=False), trk("2C", *CARD, reported=False), False),
    ("split.lone_mark_inward", trk("SJ", (6.0, 9.0), reported=False), trk("BJ", *CARD, reported=False), False),
    ("split.inside_joker", trk("SJ", (20.0, 30.0), reported=False), trk("SJ", *JOKER4, reported=False), True),
    ("split.inside_joker", trk("SJ", (20.0, 70.0), reported=False), trk("SJ", *JOKER4, reported=False), False),
    ("split.inside_joker", trk("SJ", (20.0, 30.0), reported=False),
     trk("SJ", *JOKER4[:2], reported=False), False),  # no outline: two marks
    ("split.same_place", trk("6D", *NEAR, reported=False), trk("4D", *CARD, reported=False), True),
    ("split.same_place", trk("6D", NEAR[0], reported=False), trk("4D", *CARD, reported=False), False),
])
def test_split_rules(name, new, other, want):
    check(name, ctx(), new, other, want)


# --- match.suit_misread_gate (V3): how far a detection of the rank may lie on a reported card
@pytest.mark.parametrize("det, disabled, want", [
    (TableCard("3S", 0.9, ((12.0, 0.0), (62.0, 75.0))), frozenset(), S.suit_misread_mm),
    (TableCard("3S", 0.9, ((12.0, 0.0), (62.0, 75.0))), frozenset({"match.suit_misread_gate"}), S.misread_mm),
    (TableCard("4S", 0.9, ((12.0, 0.0), (62.0, 75.0))), frozenset(), S.misread_mm),
    (TableCard("3C", 0.9, ((12.0, 0.0), (62.0, 75.0))), frozenset(), S.match_mm),
])
def test_match_suit_misread_gate(det, disabled, want):
    assert gate(det, trk("3C", *CARD), SegmenterSettings(disabled_rules=disabled)) == want


def test_the_first_rule_that_fires_names_the_echo():
    new = trk("7C", *NEAR, reported=False)
    old = trk("7C", *CARD)
    rule, other = rules.echo_of(ctx(), new, [old])
    assert (rule.name, other) == ("echo.seen_twice", old)
    off = SegmenterSettings(disabled_rules=frozenset({"echo.seen_twice"}))
    rule, _ = rules.echo_of(rules.Context(off, T, off.suit_misread_mm, off.late_s, {}), new, [old])
    assert rule.name == "echo.same_place"  # the next rule that holds
    none = SegmenterSettings(disabled_rules=frozenset(r.name for r in rules.ECHO_PAIR + rules.ECHO_ALL))
    assert rules.echo_of(rules.Context(none, T, none.suit_misread_mm, none.late_s, {}), new, [old]) is None
