"""One deal of ``cardref bench verdicts --slips DROP MISREAD --seed SEED``, for tests that pin
a case the benchmark found (the 够级 and 升级 slip-cascade tests)."""

from __future__ import annotations

import importlib
import random


def slips_deal(game: str, n: int, drop: float, mis: float, seed: int = 1):  # noqa: ANN201
    """Deal ``n`` of ``cardref bench verdicts --slips DROP MISREAD --seed SEED``: a simulated
    deal logged as a camera logs it, one play made illegal, then every play dropped with
    probability ``drop``, else one card misread with probability ``mis``.  Returns the
    verdicts on that log and the benchmark's false accusations (their line indices)."""
    from cardref.benchmarks.injection import FAMILIES
    from cardref.engine import registry
    from cardref.engine.camera import camera_log
    from cardref.engine.verdict_compare import compare
    from cardref.vision.bench_e2e import degrade, inject_illegal, judge_events

    sim = importlib.import_module(FAMILIES[registry.get(game).family])
    true_log, _ = camera_log(sim.simulate_deal(game, random.Random(f"slips:{seed}:{game}:{n}")))
    watched, origin = list(true_log), list(range(len(true_log)))
    true_log, watched, bad = inject_illegal(true_log, watched, origin, 1, random.Random(f"inject:{seed}:{game}:{n}"))
    watched, origin, _, _ = degrade(watched, origin, drop, mis, random.Random(f"degrade:{seed}:{game}:{n}"))
    verdicts = judge_events(watched)
    return verdicts, compare(verdicts, judge_events(true_log), origin, bad).false_at
