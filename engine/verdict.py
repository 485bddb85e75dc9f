"""Typed outcomes of judging one event.

A game's referee never builds sentences: it returns :class:`Fault` objects holding a
stable dotted ``code`` and the facts behind it.  :mod:`engine.messages` turns those into
Chinese or English at the boundary.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .messages import render


@dataclass(frozen=True)
class Fault:
    """A broken rule.  ``i`` is the index of the faulty event; ``proven_at`` is set when a
    later event (that index) is what proves it."""

    code: str
    facts: dict[str, Any] = field(default_factory=dict)
    i: int | None = None
    proven_at: int | None = None

    def at(self, i: int, proven_at: int | None = None) -> Fault:
        return Fault(self.code, self.facts, i, proven_at)


@dataclass(frozen=True)
class Verdict:
    """The judgement of one log line."""

    i: int
    fault: Fault | None = None

    @property
    def ok(self) -> bool:
        return self.fault is None

    def to_json(self, lang: str = "zh") -> dict[str, Any]:
        if self.fault is None:
            return {"i": self.i, "ok": True}
        out: dict[str, Any] = {
            "i": self.i,
            "ok": False,
            "code": self.fault.code,
            "message": render(self.fault.code, self.fault.facts, lang),
        }
        if self.fault.proven_at is not None:
            out["proven_at"] = self.fault.proven_at
        return out
