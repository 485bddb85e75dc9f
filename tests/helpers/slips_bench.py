"""One deal of ``cardref bench verdicts --slips DROP MISREAD --seed SEED``, for tests that pin
a case the benchmark found (the 够级 and 升级 slip-cascade tests)."""

from __future__ import annotations


def slips_deal(game: str, n: int, drop: float, mis: float, seed: int = 1):  # noqa: ANN201
    """Deal ``n`` of ``cardref bench verdicts --slips DROP MISREAD --seed SEED``
    (:func:`cardref.benchmarks.slip_rates.slip_deal`): the verdicts on its watched log and the
    benchmark's false accusations (their line indices)."""
    from cardref.benchmarks.slip_rates import slip_deal
    from cardref.engine.verdict_compare import compare
    from cardref.vision.bench_e2e import judge_events

    deal = slip_deal(game, n, seed, drop, mis)
    verdicts = judge_events(deal.watched)
    return verdicts, compare(verdicts, judge_events(deal.true_log), deal.origin, deal.bad).false_at
