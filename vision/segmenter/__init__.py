"""From card detections on the table to plays: the play segmenter (decisions V1-V19 in
``docs/vision.md``).

One observation type flows in: :class:`~cardref.vision.zones.TableCard` (a detected card
in table millimetres, with the zone it lies in), a list per frame.  Out come
:class:`PlayObservation` (a seat put these cards down), :class:`PlayRevision` (a play read
again) and :class:`ZoneCleared` (a trick was collected).

The package is split by job: :mod:`.tracks` (a card followed over frames, with its state),
:mod:`.geometry`, :mod:`.association` (detections to tracks), :mod:`.tracking` (one zone's
tracks over frames), :mod:`.predicates` and :mod:`.rules` (the named echo/misread rules,
switchable by ``SegmenterSettings.disabled_rules``), :mod:`.playbook` (reported plays read
again and joined), :mod:`.zone` (one zone's play decisions), :mod:`.table` (all zones,
and what crosses them) and :mod:`.trace` (which rule decided what).
"""

from .records import PlayObservation, PlayRevision, ZoneCleared
from .rules import RULE_NAMES, RULES, Decision, Rule
from .settings import SIGHT_S, SegmenterSettings, for_game, tuned
from .table import PlaySegmenter
from .trace import RuleSummary, TraceRecord, format_summary, summarise
from .tracks import Track, TrackState
from .zone import ZoneTracker

__all__ = [
    "RULES", "RULE_NAMES", "SIGHT_S", "Decision", "PlayObservation", "PlayRevision", "PlaySegmenter", "Rule",
    "RuleSummary", "SegmenterSettings", "TraceRecord", "Track", "TrackState", "ZoneCleared", "ZoneTracker",
    "for_game", "format_summary", "summarise", "tuned",
]
