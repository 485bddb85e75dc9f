"""Compare the verdicts on a watched (camera) log with the verdicts on the true log.

:func:`compare` takes both judged logs and the map from watched events to true events, and
counts false accusations (rule faults on watched plays whose true play was legal), injected
faults caught (true faults whose watched event, or a later one proving it, is flagged) and
of them accused (flagged as a rule fault, not a question),
observation flags and confirmations asked.  ``cardref bench verdicts`` and ``bench e2e`` use it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .verdict import Verdict


@dataclass
class VerdictScore:
    false_accusations: int = 0
    injected: int = 0
    caught: int = 0
    accused: int = 0  # injected faults caught as a rule fault (an accusation, not a question)
    observation_flags: int = 0
    confirmations: int = 0
    flags: int = 0
    false_at: list[int] = field(default_factory=list)  # watched-log indices of the false accusations

    def add(self, other: VerdictScore) -> None:
        for key in vars(self):
            setattr(self, key, getattr(self, key) + getattr(other, key))


def compare(watched: Sequence[Verdict], true: Sequence[Verdict], origin: Sequence[int | None],
            injected: Sequence[int] = ()) -> VerdictScore:
    """``origin[j]`` is the index in the true log of watched event ``j`` (``None``: no such
    event, e.g. a phantom); ``injected`` are true-log indices of illegal plays."""
    score = VerdictScore(injected=len(injected))
    bad = set(injected)
    flagged_true: set[int] = set()
    accused_true: set[int] = set()
    for j, v in enumerate(watched):
        if v.ok:
            continue
        score.flags += 1
        k = origin[j] if j < len(origin) else None
        if k is not None:
            flagged_true.add(k)
            if v.accusation:
                accused_true.add(k)
        if k in bad:
            continue                    # an injected fault: counted as caught below
        if v.confirm:
            score.confirmations += 1
        elif v.observation:
            score.observation_flags += 1
        elif k is None or true[k].ok:
            score.false_accusations += 1
            score.false_at.append(j)
    score.caught = sum(1 for k in injected if k in flagged_true)
    score.accused = sum(1 for k in injected if k in accused_true)
    return score
