"""The segmenter's rule table: every echo, misread and join heuristic by name.

Each :class:`Rule` names what it compares, its test and its decision, and the decision
number in ``docs/vision.md``.  ``SegmenterSettings.disabled_rules`` switches rules off by
name; the zones ask :meth:`SegmenterSettings.enabled` before applying one.  The pair rules
(``echo.*`` against each reported card, ``split.*`` against a likelier candidate of the
same play) are evaluated here in table order; the first that fires names the decision in
the trace (:mod:`.trace`).  The play-level rules (``play.*``, ``track.*``, ``match.*``) are
procedures of the zone or the table, named here so they switch off and trace the same way.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import predicates as P
from .tracks import Track

if TYPE_CHECKING:
    from .settings import SegmenterSettings


class Decision(enum.Enum):
    DROP = "drop"  # the candidate is forgotten (a second reading of a known card)
    JOIN = "join"  # the candidates join an earlier play (revised to hold them)
    MOVED = "treat-as-moved"  # the candidates are reported cards moved: no play
    RESTORE = "restore"  # the candidates are a cleared trick seen again: no play
    MERGE = "merge"  # two candidate tracks are one card
    KEEP_APART = "keep-apart"  # two candidate tracks stay two cards
    GATE = "gate"  # a detection may match a reported card of another code
    REVISE = "revise"  # a reported play's cards are read again
    UNSURE = "mark-unsure"  # the play is reported with "sure": false (the referee confirms it)
    HOLD = "hold-back"  # the candidates wait to be a play of their own
    ATTRIBUTE = "attribute"  # a pile play is given to another seat than the rule's absence would


@dataclass(frozen=True)
class Context:
    """What a pair rule may read besides the two tracks: the zone at frame time ``t``."""

    s: SegmenterSettings
    t: float
    mark_mm: float  # how near a reported index a lone mark is a piece of it (V6)
    late_s: float  # cards showing up this soon after a play of the zone are its own (0 on the pile)
    reported_at: Mapping[int, float]  # recent plays of the zone: play id -> when reported


@dataclass(frozen=True)
class Rule:
    name: str
    stage: str  # echo (candidate vs each reported card), echo-all (vs all of them), split, play, track, match
    compares: str
    decision: Decision
    doc: str  # decision number in docs/vision.md
    where: str  # module:function of the code
    test: Callable[..., bool] | None = None  # pair rules: (ctx, track, other) -> bool
    traced: bool = True  # False: evaluated for every frame's pairs, so not recorded in the trace


def _echo_seen_twice(c: Context, tr: Track, o: Track) -> bool:
    return P.seen_twice(tr, o, c.s.twice_mm, spread=tr.first_seen - o.still_since > c.s.twin_s)


def _jokers_again(c: Context, tr: Track, down: Sequence[Track]) -> bool:
    """V8 over the zone's reported plays: the marks of each play's jokers of ``tr``'s code in
    sight, not for a joker that showed up with its play (within ``late_s``: the second of
    two stacked jokers joins its play, V12)."""
    marks: dict[int, list[Any]] = {}
    for o in down:
        if o.code == tr.best and o.play is not None and o.last_seen >= c.t - c.s.sight_s:
            reported = c.reported_at.get(o.play, -math.inf)
            if tr.first_seen >= reported + c.late_s:
                marks.setdefault(o.play, []).extend(o.points)
    return any(P.jokers_again(tr, known, c.s.twice_mm) for known in marks.values())


_CANDIDATE = "a new card"
RULES: tuple[Rule, ...] = (
    # --- a new card against each reported card of its zone (drop: it is that card read again)
    Rule("echo.suit_misread", "echo", f"{_CANDIDATE} vs a reported card of its rank", Decision.DROP, "V3",
         "predicates:suit_misread",
         lambda c, tr, o: P.suit_misread(tr.best, tr.points, o, c.s.suit_misread_mm)),
    Rule("echo.seen_twice", "echo", f"{_CANDIDATE} vs a reported card of its code", Decision.DROP, "V4",
         "predicates:seen_twice", _echo_seen_twice),
    Rule("echo.index_on_index", "echo", f"{_CANDIDATE} (one index) vs a reported card of its rank",
         Decision.DROP, "V5", "predicates:index_on_index",
         lambda c, tr, o: P.index_on_index(tr, o, c.s.misread_mm)),
    Rule("echo.lone_mark", "echo", f"{_CANDIDATE} (one mark of its own) vs a reported card in sight",
         Decision.DROP, "V6", "predicates:lone_mark_on",
         lambda c, tr, o: P.lone_mark_on(tr, o, c.mark_mm, c.t, c.s.sight_s)),
    Rule("echo.same_place", "echo", f"{_CANDIDATE} (any code) vs a reported card in sight", Decision.DROP, "V7",
         "predicates:same_place",
         lambda c, tr, o: o.last_seen >= c.t - c.s.sight_s and P.same_place(tr, o, c.s.misread_mm)),
    # --- a new card against all reported cards of its zone
    Rule("echo.paired_across", "echo-all", f"{_CANDIDATE} vs the reported cards of its rank", Decision.DROP,
         "V9", "predicates:paired_across", lambda c, tr, down: P.paired_across(tr, down, c.s.twice_mm)),
    Rule("echo.jokers_again", "echo-all", "a new joker vs the jokers of a reported play in sight", Decision.DROP,
         "V8", "rules:_jokers_again", _jokers_again),
    # --- a new card against a likelier new card of the same play
    Rule("split.suit_misread", "split", f"{_CANDIDATE} vs a likelier one of its rank", Decision.DROP, "V3",
         "predicates:suit_misread",
         lambda c, tr, o: P.suit_misread(tr.best, tr.points, o, c.s.suit_misread_mm)),
    Rule("split.seen_twice", "split", f"{_CANDIDATE} vs a likelier one of its code", Decision.DROP, "V4",
         "predicates:seen_twice", lambda c, tr, o: P.seen_twice(tr, o, c.s.twice_mm)),
    Rule("split.index_on_index", "split", f"{_CANDIDATE} (one index) vs a likelier one of its rank",
         Decision.DROP, "V5", "predicates:index_on_index",
         lambda c, tr, o: P.index_on_index(tr, o, c.s.misread_mm)),
    Rule("split.lone_mark_paired", "split", f"{_CANDIDATE} (a mark of its own paired with the other's) "
         "vs a likelier one", Decision.DROP, "V6", "predicates:lone_mark_on",
         lambda c, tr, o: len(tr.points) > 1 and P.lone_mark_on(tr, o, c.mark_mm, c.t, c.s.sight_s, c.s.misread_mm)),
    Rule("split.lone_mark_inward", "split", f"{_CANDIDATE} (one mark, no joker) inward of a likelier one",
         Decision.DROP, "V11", "predicates:lone_mark_inward",
         lambda c, tr, o: P.lone_mark_inward(tr, o, c.mark_mm, c.t, c.s.sight_s, c.s.inward_cos)),
    Rule("split.inside_joker", "split", "a new joker vs a likelier one of its code outlining it", Decision.DROP,
         "V10", "predicates:inside_joker", lambda c, tr, o: P.inside_joker(tr, o, c.s.joker_margin_mm)),
    Rule("split.same_place", "split", f"{_CANDIDATE} (any code) vs a likelier one at both indices",
         Decision.DROP, "V7", "predicates:same_place", lambda c, tr, o: P.same_place(tr, o, c.s.misread_mm)),
    # --- procedures of the zone and the table
    Rule("play.beyond_decks", "play", "the new cards of a code vs the copies the decks hold, less those in sight",
         Decision.DROP, "V15", "zone:ZoneTracker._beyond_decks"),
    Rule("play.restore", "play", "the new cards vs a trick of the zone cleared within restore_s", Decision.RESTORE,
         "V17", "zone:ZoneTracker._restore"),
    Rule("play.moved_within", "play", "the new cards vs hidden reported cards of the zone within nudge_mm",
         Decision.MOVED, "V14", "zone:ZoneTracker._moved_within"),
    Rule("play.moved_into_pile", "play", "the pile's new cards vs the vanished cards of another zone",
         Decision.MOVED, "V14", "table:PlaySegmenter.moved_into_pile"),
    Rule("play.arrived_later", "play", "the pile's new cards not yet settled vs its settled new cards (when "
         "they showed up)", Decision.HOLD, "V24", "zone:ZoneTracker._arrived_later"),
    Rule("play.late_part", "play", "the new cards vs the zone's play reported just before", Decision.JOIN, "V12",
         "playbook:PlayBook.late_part"),
    Rule("play.twin_joker", "play", "new jokers vs a play of the same joker within twin_s and twin_mm",
         Decision.JOIN, "V13", "playbook:PlayBook.twin_joker"),
    Rule("play.join_beyond_decks", "play", "cards joining a play vs the copies the decks hold", Decision.DROP,
         "V15", "playbook:PlayBook.join"),
    Rule("play.revise", "play", "a reported card vs the codes read there over revise_s", Decision.REVISE, "V18",
         "playbook:PlayBook.revise"),
    Rule("track.absorb", "track", "a candidate vs a detection spanning another candidate of its code",
         Decision.MERGE, "V16", "tracking:ZoneTracks._absorb"),
    Rule("track.duplicates", "track", "two candidates of one code sharing an index", Decision.MERGE, "V16",
         "tracking:ZoneTracks._merge_duplicates"),
    Rule("track.shed_claimed", "track", "a card's learnt index vs a lone index of its code a fan step "
         "from the card's own", Decision.KEEP_APART, "V20", "tracking:ZoneTracks._shed_claimed"),
    Rule("track.fanned_pair", "track", "two candidates of one code, each with an index of its own",
         Decision.KEEP_APART, "V16", "predicates:fanned_pair", traced=False),
    Rule("sure.merged_joker", "play", "a joker reported vs the candidates of its code it took in before",
         Decision.UNSURE, "V21", "zone:ZoneTracker._report"),
    Rule("sure.few_frames", "play", "a card reported vs the frames that read its code surely (sure_min_frames)",
         Decision.UNSURE, "V22", "zone:ZoneTracker._report"),
    Rule("pile.lie", "play", "a pile play's cards (the line through each card's two indices) vs each seat's facing",
         Decision.ATTRIBUTE, "V23", "table:PlaySegmenter._came_from"),
    Rule("pile.in_front", "play", "a pile play that moved less than pile_move_mm vs the seats' directions from "
         "the pile's centre", Decision.ATTRIBUTE, "V23", "table:PlaySegmenter._came_from"),
    Rule("pile.same_seat", "play", "a pile play vs the pile play reported just before it (its seat, same_seat_s)",
         Decision.JOIN, "V25", "table:PlaySegmenter._same_seat"),
    Rule("track.hopeless", "track", "a candidate vs the frames of the last hopeless_settles settle times",
         Decision.DROP, "V2", "tracking:ZoneTracks._hopeless"),
    Rule("match.suit_misread_gate", "match", "a detection of another code vs a reported card of its rank",
         Decision.GATE, "V3", "association:gate", traced=False),
)

RULE_NAMES: frozenset[str] = frozenset(r.name for r in RULES)
BY_NAME: dict[str, Rule] = {r.name: r for r in RULES}
ECHO_PAIR = tuple(r for r in RULES if r.stage == "echo")
ECHO_ALL = tuple(r for r in RULES if r.stage == "echo-all")
SPLIT = tuple(r for r in RULES if r.stage == "split")


def echo_of(c: Context, tr: Track, down: Sequence[Track]) -> tuple[Rule, Track | None] | None:
    """The first enabled echo rule (and the reported card) by which the candidate ``tr`` is
    a reported card read again; ``None`` when it is a new card."""
    s = c.s
    for o in down:
        for rule in ECHO_PAIR:
            if s.enabled(rule.name) and rule.test is not None and rule.test(c, tr, o):
                return rule, o
    for rule in ECHO_ALL:
        if s.enabled(rule.name) and rule.test is not None and rule.test(c, tr, down):
            return rule, None
    return None


def split_of(c: Context, tr: Track, other: Track) -> Rule | None:
    """The first enabled split rule by which ``tr`` is ``other`` (a likelier candidate of the
    same play) read a second time; ``None`` when they are two cards."""
    for rule in SPLIT:
        if c.s.enabled(rule.name) and rule.test is not None and rule.test(c, tr, other):
            return rule
    return None
