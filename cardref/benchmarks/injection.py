"""What the verdict benchmarks share (``cardref bench verdicts``, its ``--slips`` mode and
``cardref bench e2e``): each game family's simulator, judging a list of events as a log, and
one play of a camera log made illegal as the camera shows it."""

from __future__ import annotations

import dataclasses
import random

from cardref.engine.camera import play_indices
from cardref.engine.eventlog import dump_event, read_lines
from cardref.engine.judge import Judge, JudgeResult

FAMILIES = {"gouji": "cardref.engine.gouji.simulate", "shengji": "cardref.engine.shengji.simulate"}


def judge_log(events: list) -> JudgeResult:
    """The judge's result on ``events`` written out as a log (as ``cardref judge`` reads it)."""
    return Judge.judge(list(read_lines(dump_event(e) for e in events)))


def inject_on_camera_log(cam: list, rng: random.Random, tries: int = 40) -> tuple[list, int | None]:
    """One play of the camera log made illegal as the camera shows it: played by another seat,
    or with a card left out, such that the judge of the log up to it faults it."""
    plays = play_indices(cam)
    for _ in range(tries):
        k = rng.choice(plays)
        ev = cam[k]
        options = [dataclasses.replace(ev, seat=s) for s in range(cam[0].seats) if s != ev.seat]
        if len(ev.cards) > 1:
            options.append(dataclasses.replace(ev, cards=ev.cards[1:]))
        rng.shuffle(options)
        for bad in options[:3]:
            seats = cam[0].seats
            if bad.seat >= seats:
                continue
            if not judge_log([*cam[:k], bad]).verdicts[k].ok:
                return [*cam[:k], bad, *cam[k + 1:]], k
    return cam, None
