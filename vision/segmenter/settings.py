"""The play segmenter's settings: every tuning value by name (times in s, distances in table mm).

:class:`SegmenterSettings` holds today's values as defaults; ``disabled_rules`` switches
rules of the rule table (:data:`cardref.vision.segmenter.rules.RULES`) off by name, for
ablations without editing code.  :func:`tuned` applies ``KEY=VALUE`` overrides (the CLI's
``--tune``), :func:`for_game` the game's deck count.  The decisions the settings serve are
numbered in ``docs/vision.md``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

#: A reported card seen within this many seconds is in sight; one unseen longer is hidden
#: (under a hand, pushed away, collected).  The default of :attr:`SegmenterSettings.sight_s`.
SIGHT_S = 0.3


@dataclass(frozen=True)
class SegmenterSettings:
    """Tuning of the play segmenter (times in seconds, distances in table mm).

    Raises ValueError when ``disabled_rules`` names a rule that is not in the rule table.
    """

    settle_s: float = 0.5  # new cards at rest this long make a play
    min_hit_ratio: float = 0.6  # … and seen in at least this share of frames meanwhile
    min_hits: int = 3
    match_mm: float = 16.0  # a corner within this of a known corner is the same card
    track_mm: float = 45.0  # candidates may move this far between frames (sliding in)
    move_mm: float = 10.0  # a candidate that moves more than this is not at rest (detector jitter stays below)
    code_penalty_mm: float = 30.0  # matching prefers the same code by this much
    misread_mm: float = 7.0  # another code this close to a reported card is a misread of it
    suit_misread_mm: float = 14.0  # … and so is a card of its rank whose indices all lie this close to its
    #   (under a fan step, 15 mm and more; V1)
    twice_mm: float = 9.0  # a new card of a reported card's code with its indices this close to that card's is it seen twice
    drop_s: float = 0.5  # a candidate unseen this long is forgotten
    clear_s: float = 0.7  # committed cards all unseen this long: the trick was collected
    restore_s: float = 2.5  # cleared cards seen again this soon are restored, not replayed
    late_s: float = 1.2  # cards settling this soon after their zone's play belong to it
    joker_margin_mm: float = 3.0  # a joker's piece lies within this of the box of the joker's marks
    twin_s: float = 3.5  # a joker settling this soon after a play of the same joker in its zone …
    twin_mm: float = 35.0  # … with a mark this close to one of its (a fan step: two jokers read as one while fanned)
    revise_s: float = 2.5  # a reported play is read again over this long …
    revise_min_frames: int = 10  # … and its cards are revised when this many frames
    revise_share: float = 0.75  # … agree this strongly on another code
    confirm_below: float = 0.55  # plays less sure than this are flagged for confirmation
    sure_min_frames: int = 4  # a card is read surely on at least this many frames that read it surely (V22)
    zone_tolerance_mm: float = 40.0
    nudge_mm: float = 90.0  # reported cards found again this far away were pushed, not played
    copies: int = 0  # most copies of one card the game's decks hold (0: no limit; see for_game)
    # --- the values that were inline literals (same values)
    sight_s: float = SIGHT_S  # a reported card seen within this is in sight
    sliding_s: float = 0.15  # a candidate that moved within this of its last sighting is still sliding (wide gate)
    candidate_cost_mm: float = 0.5  # matching cost added for a candidate: reported cards win ties
    quad_share: float = 0.5  # a one-index detection whose box holds a card's index is this share of match_mm from it
    same_index_share: float = 0.6  # indices within this share of match_mm are one index (absorb, duplicates)
    shed_mm: float = 32.0  # a lone index of a card's code this near the card's own index is a fanned twin (V20)
    max_points: int = 4  # most indices (marks) a track keeps
    candidate_drift: float = 0.3  # how fast a candidate's index follows its detections
    reported_drift: float = 0.05  # … and a reported card's (it stays where it was put)
    hopeless_settles: float = 3.0  # a candidate judged over this many settle times …
    hopeless_ratio: float = 0.3  # … and seen in fewer than this share of frames is noise
    trail_s: float = 3.0  # lost candidates are remembered this long (cards on their way into the pile)
    came_before_s: float = 1.0  # a pile card's trail is looked for this long before it showed up …
    came_after_s: float = 0.3  # … and this long after
    arrival_gap_s: float = 0.5  # cards showing up this long after a zone's other new cards came to rest are another play (V24)
    same_seat_s: float = 1.5  # a pile play resting this soon after the same seat's pile play was reported is its late part (V25)
    same_seat_cards: int = 2  # … when it is at most this many cards (a block of more landing together is a play of its own)
    # --- pile plays not seen coming through a seat's zone (V23)
    pile_move_mm: float = 60.0  # pile cards that moved less than this gave no direction (put straight down)
    index_diagonal_deg: float = 53.0  # a card facing its player lies with the line through its two indices this far off the table's x axis
    lie_tolerance_deg: float = 45.0  # … give or take this
    lie_min_mm: float = 60.0  # two indices of a card nearer than this are one side of a four-index card, not its diagonal
    pushed_slack_s: float = 0.05  # cards vanished this long before new ones showed up may be them pushed
    pushed_share: float = 0.7  # cards pushed into the pile are at least this share of what vanished
    inward_cos: float = 0.5  # a lone mark lies inward of a card within acos(this) of its diagonal
    frame_history: int = 400  # frame times kept per zone (halved when full)
    sighting_history: int = 200  # sighting times kept per track (halved when full)
    disabled_rules: frozenset[str] = field(default_factory=frozenset)  # rule-table names switched off

    def __post_init__(self) -> None:
        from .rules import RULE_NAMES

        names = self.disabled_rules
        if isinstance(names, str):
            names = frozenset(n.strip() for n in names.split(",") if n.strip())
        names = frozenset(names)
        unknown = sorted(names - RULE_NAMES)
        if unknown:
            raise ValueError(f"unknown segmenter rule(s) {', '.join(unknown)} in disabled_rules; "
                             f"rules are: {', '.join(sorted(RULE_NAMES))}")
        object.__setattr__(self, "disabled_rules", names)

    def enabled(self, rule: str) -> bool:
        """Is the rule-table entry ``rule`` switched on?"""
        return rule not in self.disabled_rules


def for_game(settings: SegmenterSettings, game: str | None) -> SegmenterSettings:
    """``settings`` with ``copies`` set from the game's decks (the engine's composition: two
    decks for the 升级 family, four for 够级); unchanged for an unknown game."""
    from cardref.engine import registry

    rules = registry.get(game) if game else None
    return settings if rules is None else dataclasses.replace(settings, copies=rules.composition.decks)


def tuned(settings: SegmenterSettings, pairs: list[str]) -> SegmenterSettings:
    """``settings`` with ``KEY=VALUE`` overrides (e.g. ``min_hits=2``, or
    ``disabled_rules=seen_twice,same_place``); raises ValueError naming the bad pair."""
    fields = {f.name: f.type for f in dataclasses.fields(SegmenterSettings)}
    changes: dict[str, float | int | frozenset[str]] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or key not in fields:
            raise ValueError(f"bad setting {pair!r}; settings are: {', '.join(fields)}")
        if key == "disabled_rules":
            changes[key] = frozenset(n.strip() for n in value.split(",") if n.strip())
            continue
        try:
            changes[key] = int(value) if fields[key] in ("int", int) else float(value)
        except ValueError:
            raise ValueError(f"setting {key} needs a number, got {value!r}") from None
    return dataclasses.replace(settings, **changes)
