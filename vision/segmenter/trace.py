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


def summarise(trace: list[TraceRecord]) -> list[RuleSummary]:
    """One row per rule of the table (table order, rules that never fired included)."""
    by_rule: dict[str, list[TraceRecord]] = {r.name: [] for r in RULES}
    for rec in trace:
        by_rule.setdefault(rec.rule, []).append(rec)
    out = []
    for name, recs in by_rule.items():
        plays = {("play", r.play) if r.play is not None else ("step", r.zone, r.t) for r in recs}
        rule = BY_NAME.get(name)
        out.append(RuleSummary(name, rule.decision.value if rule else "?", rule.doc if rule else "?",
                               len(recs), len(plays)))
    return out


def format_summary(rows: list[RuleSummary]) -> list[str]:
    """The summary as text lines (``bench e2e --verbose``)."""
    lines = [f"{'rule':26s} {'decision':15s} {'doc':4s} {'fired':>6s} {'plays':>6s}"]
    lines += [f"{r.rule:26s} {r.decision:15s} {r.doc:4s} {r.fired:6d} {r.plays:6d}" for r in rows]
    return lines
