"""Compatibility module: the play segmenter lives in :mod:`cardref.vision.segmenter`.

The names below are re-exported so that ``from cardref.vision.plays import …`` keeps working.
"""

from __future__ import annotations

from .segmenter import (
    RULE_NAMES,
    RULES,
    SIGHT_S,
    Decision,
    PlayObservation,
    PlayRevision,
    PlaySegmenter,
    Rule,
    RuleSummary,
    SegmenterSettings,
    TraceRecord,
    Track,
    TrackState,
    ZoneCleared,
    ZoneTracker,
    for_game,
    format_summary,
    summarise,
    tuned,
)

__all__ = [
    "RULES", "RULE_NAMES", "SIGHT_S", "Decision", "PlayObservation", "PlayRevision", "PlaySegmenter", "Rule",
    "RuleSummary", "SegmenterSettings", "TraceRecord", "Track", "TrackState", "ZoneCleared", "ZoneTracker",
    "for_game", "format_summary", "summarise", "tuned",
]
