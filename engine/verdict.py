"""Typed outcomes of judging one event.

A game's referee never builds sentences: it returns :class:`Fault` objects holding a
stable dotted ``code`` and the facts behind it.  :mod:`engine.messages` turns those into
Chinese or English at the boundary.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .messages import render


@dataclass(frozen=True)
class Fault:
    """A broken rule.  ``i`` is the index of the faulty event; ``proven_at`` is set when a
    later event (that index) is what proves it; ``rests_on`` names other events whose reading
    the fault takes as true (the lead a follow's count is judged against): with any of them
    read in doubt the fault is a question (docs/rules/observation.md C2)."""

    code: str
    facts: dict[str, Any] = field(default_factory=dict)
    i: int | None = None
    proven_at: int | None = None
    rests_on: tuple[int, ...] = field(default=(), compare=False)

    def at(self, i: int, proven_at: int | None = None) -> Fault:
        return Fault(self.code, self.facts, i, proven_at, self.rests_on)


#: Codes of observation faults: what was observed does not add up (a play or a card not
#: seen, or not seen right), as opposed to a player breaking a rule (docs/rules/observation.md).
#: ``deck.*`` (a card seen more often than the decks hold) is one too.
OBSERVE_PREFIX = "observe."
OBSERVATION_PREFIXES = (OBSERVE_PREFIX, "deck.")


def is_observation(code: str) -> bool:
    return code.startswith(OBSERVATION_PREFIXES)


#: The question naming the rule fault a camera play would be, were it not that a camera slip
#: may explain it (docs/rules/observation.md O10, O12, O13a).
FAULT_OR_SLIP = OBSERVE_PREFIX + "fault_or_slip"


def fault_or_slip(seat: int, cards: Sequence[Any], fault: Fault) -> Fault:
    """``fault`` of ``seat``'s camera play ``cards`` as the question :data:`FAULT_OR_SLIP`."""
    return Fault(FAULT_OR_SLIP, {"seat": seat, "cards": list(cards), "fault": fault.code,
                                 "fault_facts": dict(fault.facts)})


@dataclass(frozen=True)
class Verdict:
    """The judgement of one log line.

    ``confirm`` is True when the verdict is a question to the referee ("please confirm"),
    listed apart from accusations: the fault rests on an uncertain camera reading (``conf``
    under the flag threshold, or ``sure: false``), or it is an observation gap (``observe.*``,
    spec "Judge output").  A ``correct`` event settles it.
    """

    i: int
    fault: Fault | None = None
    confirm: bool = False

    @property
    def ok(self) -> bool:
        return self.fault is None

    @property
    def observation(self) -> bool:
        """An observation fault (``observe.*``, ``deck.*``), not a rule fault."""
        return self.fault is not None and is_observation(self.fault.code)

    @property
    def accusation(self) -> bool:
        """A rule fault a player is accused of: not an observation, not a question."""
        return self.fault is not None and not self.confirm and not self.observation

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
        if self.confirm:
            out["confirm"] = True
        return out
