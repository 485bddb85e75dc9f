"""The detector's hand-written rules: one declared table, each rule named and switchable.

The finder finds index boxes and the namer names them; a few rules then change what the
detector reports.  Each is an entry of :data:`RULES` (name, the stage it acts at, what it
does, whether it is on by default).  :class:`DetectorRules` says which are off
(``cardref detect --disable-rule NAME``, ``cardref eval-detector --disable-rule NAME``),
and :class:`RuleTrace` records, when asked, what each rule changed in one frame.  The
measured effect of each rule is in the model card (``models/README.md``, "Detector rules");
the decisions behind them are in ``docs/vision-detector.md``.

The merge's own geometry (which two indices can be one card) is not a rule here: without it
there are no cards.  Its exceptions are: ``same-place``, ``joint-reading``,
``frame-ratio``, ``four-index``, ``four-index-sides`` and ``jumbo-diagonal``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from .errors import DetectorError
from .merge import MergeSettings


@dataclass(frozen=True)
class Rule:
    """One entry of the table: ``name`` (what the switch is called), ``stage`` (``"finder"``:
    which boxes are kept; ``"namer"``: how they are read; ``"merge"``: how they become cards),
    ``does`` (one sentence) and ``default`` (on unless switched off)."""

    name: str
    stage: str
    does: str
    default: bool = True


#: Every rule, in the order they act on a frame.
RULES: tuple[Rule, ...] = (
    Rule("second-look", "finder",
         "look again at the frame shrunk to 0.4 (Detector.scales, PHOTO_SCALES) and pool the boxes: "
         "a close-up's large indices come near the size the finder was trained at"),
    Rule("camera-scale", "finder",
         "skip the second look when the first found indices at a webcam's scale (at_camera_scale)"),
    Rule("enlarged-look", "finder",
         "when the indices found are small for the finder or none is confident, look again at the frame "
         "enlarged (Detector.enlarge, PHOTO_ENLARGE; enlarge.indices_small) and pool the boxes"),
    Rule("specks", "finder",
         "in a close-up, drop boxes under SPECK_SHARE of the median confident index size (drop_specks)"),
    Rule("inverted-ink", "namer",
         "also read each patch of light ink inverted and keep the likelier reading (namer.INVERTED)"),
    Rule("joker-ink", "namer",
         "name each joker big or small by the redness of its ink (joker_ink.settle_jokers)"),
    Rule("same-place", "merge",
         "indices of any codes at one spot (MergeSettings.same_place_ratio) are one index, read as the "
         "more confident"),
    Rule("joint-reading", "merge",
         "two lone indices read as different codes that fit one card are one card when the namer's "
         "readings agree (MergeSettings.joint_min)"),
    Rule("frame-ratio", "merge",
         "with enough pairs in a frame, use the frame's own median pair distance (MergeSettings.adapt_after)"),
    Rule("four-index", "merge",
         "indices at three or four corners of one card-sized rectangle are one card (MergeSettings.four_index)"),
    Rule("four-index-sides", "merge",
         "in a frame that shows a four-index card, two indices one card side apart are one card "
         "(MergeSettings.four_index_sides)"),
    Rule("jumbo-diagonal", "merge",
         "two like-sized indices closer than a standard card's, on a card's diagonal, are one jumbo-index "
         "card (MergeSettings.jumbo)"),
)
RULE_NAMES: tuple[str, ...] = tuple(r.name for r in RULES)
_BY_NAME = {r.name: r for r in RULES}


def rule(name: str) -> Rule:
    """The table's entry called ``name``; :class:`DetectorError` naming the known ones if none is."""
    try:
        return _BY_NAME[name]
    except KeyError:
        raise DetectorError(f"no detector rule {name!r} (known: {', '.join(RULE_NAMES)})") from None


@dataclass(frozen=True)
class DetectorRules:
    """Which rules of :data:`RULES` are on: each one's default, less ``disabled``, plus ``enabled``."""

    disabled: frozenset[str] = frozenset()
    enabled: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        for name in (*self.disabled, *self.enabled):
            rule(name)  # raises for an unknown name
        if self.disabled & self.enabled:
            raise DetectorError(f"detector rules both on and off: {', '.join(sorted(self.disabled & self.enabled))}")

    @classmethod
    def without(cls, names: Iterable[str]) -> DetectorRules:
        """The defaults with ``names`` switched off (unknown names raise :class:`DetectorError`)."""
        return cls(disabled=frozenset(names))

    def on(self, name: str) -> bool:
        if name in self.disabled:
            return False
        return name in self.enabled or rule(name).default

    def off(self, name: str) -> DetectorRules:
        """These rules with ``name`` switched off too."""
        return replace(self, disabled=self.disabled | {name}, enabled=self.enabled - {name})

    def merge_settings(self, base: MergeSettings) -> MergeSettings:
        """``base`` with the merge rules that are off turned off."""
        changes: dict[str, Any] = {}
        if not self.on("same-place"):
            changes["same_place_ratio"] = 0.0
        if not self.on("joint-reading"):
            changes["joint_min"] = 0.0
        if not self.on("frame-ratio"):
            changes["adapt_after"] = 0
        if not self.on("four-index"):
            changes["four_index"] = False
        if not self.on("four-index-sides"):
            changes["four_index_sides"] = False
        if not self.on("jumbo-diagonal"):
            changes["jumbo"] = False
        return replace(base, **changes) if changes else base


DEFAULT_RULES = DetectorRules()


@dataclass
class RuleTrace:
    """What the rules changed in one frame: ``(rule, what)`` in the order they acted.  A rule
    that ran and changed nothing is not listed."""

    changes: list[tuple[str, str]] = field(default_factory=list)

    def note(self, name: str, what: str) -> None:
        rule(name)
        self.changes.append((name, what))

    def lines(self) -> list[str]:
        return [f"{name}: {what}" for name, what in self.changes]


def card_difference(with_rule: Iterable[str], without_rule: Iterable[str]) -> str:
    """The cards a rule added and removed, as ``"+AS -AS -AS"`` ('' when none): the multiset
    difference of the card codes found with the rule and without it."""
    from collections import Counter

    a, b = Counter(with_rule), Counter(without_rule)
    added = sorted((a - b).elements())
    removed = sorted((b - a).elements())
    return " ".join([f"+{c}" for c in added] + [f"-{c}" for c in removed])


MERGE_RULES: tuple[str, ...] = tuple(r.name for r in RULES if r.stage == "merge")


def trace_merge(corners, settings: MergeSettings, rules: DetectorRules, trace: RuleTrace) -> None:  # noqa: ANN001
    """Note in ``trace`` the cards each merge rule that is on changed: the merge of ``corners``
    under ``settings`` (the rules' own) against the merge with that rule off as well."""
    from .merge import merge_corners

    corners = list(corners)
    found = [c.card for c in merge_corners(corners, settings)]
    for name in MERGE_RULES:
        if not rules.on(name):
            continue
        without = [c.card for c in merge_corners(corners, rules.off(name).merge_settings(settings))]
        diff = card_difference(found, without)
        if diff:
            trace.note(name, diff)


def trace_renamed(name: str, before, after, trace: RuleTrace) -> None:  # noqa: ANN001
    """Note in ``trace`` the corners rule ``name`` read differently: ``before`` and ``after``
    are the corners without and with it, the same boxes in the same order where both kept
    them."""
    was = {c.box: c.card for c in before}
    now = {c.box: c.card for c in after}
    changed = [f"{was.get(box, '-')}->{now.get(box, '-')}" for box in sorted(set(was) | set(now))
               if was.get(box) != now.get(box)]
    if changed:
        trace.note(name, " ".join(changed))
