"""``cardref bench verdicts --slips DROP MISREAD``: verdicts on whole camera logs with slips
at set rates, as ``cardref bench e2e --drop-rate --misread-rate --inject 1`` gives them but
without video, so that many full-length deals can be judged.

Each deal is a simulated legal deal logged as a camera logs it; one of its plays is made
illegal as the camera shows it (:func:`cardref.vision.bench_e2e.inject_illegal`); then every
play is left out with probability DROP, else has one card misread with probability MISREAD
(:func:`cardref.vision.bench_e2e.degrade`).  The verdicts on that log are compared with those
on the true log (:func:`cardref.engine.verdict_compare.compare`): false accusations (rule
faults on legal plays), the injected play caught (flagged at its play or proven later),
observation flags and confirmations asked.
``accused`` counts the injected plays the judge accused (a rule fault, not a question): with
``sure_marks`` (``--sure-marks RIGHT WRONG``) each play kept is marked as the live path marks
its plays, ``sure: true`` with probability RIGHT when read right and WRONG when misread, else
``sure: false``, and the judge asks rather than accuses on what rests on a play marked unsure
(docs/rules/observation.md C1, C2).  Without it no play carries a mark (every reading trusted).
"""

from __future__ import annotations

import dataclasses
import importlib
import random
from collections import Counter
from typing import Any, NamedTuple

from cardref.engine import registry
from cardref.engine.camera import camera_log
from cardref.engine.events import PlayEvent
from cardref.engine.verdict_compare import VerdictScore, compare

from .injection import FAMILIES


class SlipDeal(NamedTuple):
    """One deal of the benchmark: the true camera log (one play made illegal), the log as
    watched with slips (``origin`` maps each watched line to its true line), the true lines
    made illegal, and how many plays were dropped and misread."""

    true_log: list[Any]
    watched: list[Any]
    origin: list[int | None]
    bad: list[int]
    dropped: int
    misread: int


def slip_deal(game: str, n: int, seed: int, drop_rate: float, misread_rate: float,
              sure_marks: tuple[float, float] | None = None) -> SlipDeal:
    """Deal ``n`` of ``measure_slips(game, ..., seed, drop_rate, misread_rate, sure_marks)``."""
    from cardref.vision.bench_e2e import degrade, inject_illegal

    sim = importlib.import_module(FAMILIES[registry.get(game).family])
    events = sim.simulate_deal(game, random.Random(f"slips:{seed}:{game}:{n}"))
    true_log, _ = camera_log(events)
    watched, origin = list(true_log), list(range(len(true_log)))
    true_log, watched, bad = inject_illegal(true_log, watched, origin, 1, random.Random(f"inject:{seed}:{game}:{n}"))
    watched, origin, d, m = degrade(watched, origin, drop_rate, misread_rate,
                                    random.Random(f"degrade:{seed}:{game}:{n}"))
    if sure_marks is not None:
        watched = marked(watched, origin, true_log, sure_marks, random.Random(f"sure:{seed}:{game}:{n}"))
    return SlipDeal(true_log, watched, origin, bad, d, m)


def marked(watched: list[Any], origin: list[int | None], true_log: list[Any], sure_marks: tuple[float, float],
           rng: random.Random) -> list[Any]:
    """``watched`` with every play marked ``sure`` as the live path would: true with
    probability ``sure_marks[0]`` when its cards are the true play's, ``sure_marks[1]`` when not."""
    right, wrong = sure_marks
    out = []
    for ev, o in zip(watched, origin, strict=True):
        if isinstance(ev, PlayEvent):
            read_right = o is not None and ev.cards == true_log[o].cards
            ev = dataclasses.replace(ev, sure=rng.random() < (right if read_right else wrong))
        out.append(ev)
    return out


def measure_slips(game: str, deals: int, seed: int, drop_rate: float, misread_rate: float,
                  sure_marks: tuple[float, float] | None = None) -> dict:
    from cardref.vision.bench_e2e import judge_events

    total = VerdictScore()
    dropped = misread = plays = 0
    codes: Counter[str] = Counter()     # the rules the false accusations named
    for n in range(deals):
        deal = slip_deal(game, n, seed, drop_rate, misread_rate, sure_marks)
        dropped, misread = dropped + deal.dropped, misread + deal.misread
        plays += sum(e.type == "play" for e in deal.true_log)
        verdicts = judge_events(deal.watched)
        score = compare(verdicts, judge_events(deal.true_log), deal.origin, deal.bad)
        codes.update(f.code for f in (verdicts[j].fault for j in score.false_at) if f is not None)
        total.add(score)
    return {"game": game, "deals": deals, "plays": plays, "dropped": dropped, "misread": misread,
            "false_accusations_per_deal": round(total.false_accusations / deals, 3),
            "caught": total.caught, "injected": total.injected,
            "caught_pct": round(100 * total.caught / total.injected, 1) if total.injected else None,
            "accused": total.accused, "sure_marks": list(sure_marks) if sure_marks is not None else None,
            "observation_flags_per_deal": round(total.observation_flags / deals, 3),
            "confirmations_per_deal": round(total.confirmations / deals, 3),
            "false_accusations_by_code": dict(codes.most_common())}


def format_row(row: dict) -> str:
    return (f"{row['game']:18s} {row['deals']:4d} deals, {row['plays']} plays ({row['dropped']} dropped, "
            f"{row['misread']} misread)  false acc./deal={row['false_accusations_per_deal']}  "
            f"caught={row['caught']}/{row['injected']} ({row['caught_pct']}%, accused {row['accused']})  "
            f"obs./deal={row['observation_flags_per_deal']}  confirm/deal={row['confirmations_per_deal']}"
            + (f"\n{'':18s} false accusations by rule: "
               + ", ".join(f"{code} {n}" for code, n in row["false_accusations_by_code"].items())
               if row.get("false_accusations_by_code") else ""))
