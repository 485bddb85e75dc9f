"""The segmenter's trace: which rule dropped, joined or moved which card, and a per-rule summary.

Records are made only when a rule's decision is applied (a few per play), so the trace
costs nothing on frames where no rule decides.
"""

from __future__ import annotations

from dataclasses import dataclass

from .rules import BY_NAME, RULES


@dataclass(frozen=True)
class TraceRecord:
    """Rule ``rule`` decided about the card ``card`` (track ``track``) of zone ``zone`` at
    frame time ``t``; ``other`` is the card it was found to be (if any), ``play`` the play
    that step reported or changed (``None``: no play came of it, e.g. every new card was dropped)."""

    rule: str
    zone: str
    t: float
    card: str
    track: int
    other: str | None = None
    play: int | None = None


@dataclass(frozen=True)
class RuleSummary:
    """``fired``: cards the rule decided about; ``plays``: distinct plays (or phantom plays
    prevented, one per zone and frame) its decisions changed."""

    rule: str
    decision: str
    doc: str
    fired: int
    plays: int
    traced: bool = True  # False: the rule is not recorded (it decides for every frame's pairs)


def summarise(*traces: list[TraceRecord]) -> list[RuleSummary]:
    """One row per rule of the table (table order, rules that never fired included), over
    one or more segmenters' traces (plays are counted per trace: each has its own ids)."""
    fired: dict[str, int] = {r.name: 0 for r in RULES}
    plays: dict[str, int] = dict(fired)
    for trace in traces:
        by_rule: dict[str, list[TraceRecord]] = {}
        for rec in trace:
            by_rule.setdefault(rec.rule, []).append(rec)
        for name, recs in by_rule.items():
            fired[name] = fired.get(name, 0) + len(recs)
            changed = {("play", r.play) if r.play is not None else ("step", r.zone, r.t) for r in recs}
            plays[name] = plays.get(name, 0) + len(changed)
    out = []
    for name in fired:
        rule = BY_NAME.get(name)
        out.append(RuleSummary(name, rule.decision.value if rule else "?", rule.doc if rule else "?",
                               fired[name], plays[name], rule.traced if rule else True))
    return out


def format_summary(rows: list[RuleSummary]) -> list[str]:
    """The summary as text lines (``bench e2e --verbose``)."""
    lines = [f"{'rule':26s} {'decision':15s} {'doc':4s} {'fired':>6s} {'plays':>6s}"]
    lines += [f"{r.rule:26s} {r.decision:15s} {r.doc:4s} {r.fired:6d} {r.plays:6d}" if r.traced
              else f"{r.rule:26s} {r.decision:15s} {r.doc:4s} {'-':>6s} {'-':>6s}  (not traced)" for r in rows]
    return lines
