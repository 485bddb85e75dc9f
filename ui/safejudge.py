"""Judging that never takes the screen down.

If a rules engine raises on some log (a bug, or a module caught half-edited), the
dashboard judges the log again with the generic checks only (card codes, seats, copies)
and says so in a banner, instead of showing a stack trace to the referee.
"""

from __future__ import annotations

from collections.abc import Iterable

from cardref.engine.decks import SeenCards
from cardref.engine.eventlog import LogLine
from cardref.engine.events import DealEvent
from cardref.engine.judge import DealRun, Judge, JudgeResult
from cardref.engine.messages import register
from cardref.engine.referee import UnjudgedDeal
from cardref.engine.verdict import Fault

register({"ui.engine_error": {
    "zh": "规则引擎出错（{error}）：本局只检查牌码、座位和牌数",
    "en": "the rules engine failed ({error}): this deal is checked only for card codes, seats and copies"}})


class GenericJudge(Judge):
    """The judge with every game's referee replaced by the generic checks."""

    error = ""

    def _start_deal(self, i: int, deal: DealEvent) -> Fault | None:
        rules, fault = self._open_deal(i, deal)
        if rules is None:
            return fault
        self.deals.append(DealRun(i, deal, UnjudgedDeal(deal, i, rules), False, SeenCards(rules.composition),
                                  SeenCards(rules.composition)))
        return Fault("ui.engine_error", {"error": self.error})


def judge(lines: Iterable[LogLine]) -> JudgeResult:
    """:meth:`Judge.judge`, falling back to :class:`GenericJudge`; the result then carries
    ``engine_error`` (a short description of what failed)."""
    lines = list(lines)
    try:
        return Judge.judge(lines)
    except Exception as exc:  # an engine bug must not take the referee's screen down
        error = f"{type(exc).__name__}: {exc}"[:200]

        class _Judge(GenericJudge):
            pass

        _Judge.error = error
        result = _Judge.judge(lines)
        result.engine_error = error  # type: ignore[attr-defined]
        return result
