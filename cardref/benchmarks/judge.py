"""``cardref bench judge``: judged events per second over simulated deals, per game.

Each game family provides ``simulate_deal(game, rng)``; the deals are generated first
(not timed), then each deal is judged as its own log with the same :class:`~cardref.engine.judge.Judge` that
``cardref judge`` uses, one game at a time, on one core.
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import time

from cardref.engine import registry
from cardref.engine.eventlog import dump_event, read_lines
from cardref.engine.judge import Judge

FAMILIES = {"gouji": "cardref.engine.gouji.simulate", "shengji": "cardref.engine.shengji.simulate"}


def _simulator(family: str):
    try:
        return importlib.import_module(FAMILIES[family]).simulate_deal
    except (KeyError, ModuleNotFoundError, AttributeError):
        return None


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="cardref bench judge", description=__doc__)
    p.add_argument("--deals", type=int, default=10_000, help="simulated deals per game (default 10000)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--games", nargs="*", default=None, help="game names (default: every implemented game)")
    p.add_argument("--json", action="store_true", help="print one JSON object per game")
    args = p.parse_args(argv)
    games = args.games or [g.name for g in registry.games().values() if g.referee is not None]
    if not games:
        print("no game rules are implemented yet: nothing to measure")
        return 1
    total_events = total_time = 0.0
    for name in sorted(games):
        rules = registry.get(name)
        simulate = _simulator(rules.family) if rules else None
        if simulate is None:
            print(f"{name}: no simulator, skipped")
            continue
        rng = random.Random(args.seed)
        deals = [list(read_lines(dump_event(e) for e in simulate(name, rng))) for _ in range(args.deals)]
        events = sum(len(d) for d in deals)
        start = time.perf_counter()
        faults = sum(len(Judge.judge(deal).faults()) for deal in deals)
        elapsed = time.perf_counter() - start
        rate = events / elapsed if elapsed else float("inf")
        total_events += events
        total_time += elapsed
        row = {"game": name, "deals": args.deals, "events": events, "seconds": round(elapsed, 3),
               "events_per_s": round(rate), "faults": faults}
        print(json.dumps(row) if args.json else
              f"{name:20s} {args.deals:6d} deals {events:8d} events {elapsed:7.2f} s "
              f"{rate:10,.0f} events/s  faults={faults}")
    if total_time:
        print(f"{'all':20s} {total_events:22,.0f} events {total_time:7.2f} s {total_events / total_time:10,.0f} events/s")
    return 0
