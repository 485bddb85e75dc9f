"""``cardref bench verdicts``: verdicts on logs as a camera gives them, per game.

For each game, ``--deals`` simulated legal deals are logged as a camera logs them (no
``pass``, no ``hand`` events: :mod:`cardref.engine.camera`) and judged:

* ``faults``: flags on the legal camera log (target 0);
* ``drop``: one play left out anywhere: flags per deal (median, max; target <= 1);
* ``misread``: one card of one play read as another: flags per deal (median, max);
* ``accused``: of those flags, the rule faults (accusations, not observation flags nor
  questions) per deal, after the drop and after the misread (target 0: a slip is no fault);
* ``caught``: one illegal play injected: share flagged at its play or proven later (target
  >= 99 %), and false accusations (rule faults on legal plays) per deal.  In the full log the
  simulators' mutations; in the pass-less log a play made illegal as the camera shows it (a
  mutation that passes made illegal may be legal once they are gone); ``accused`` is the share
  of those flagged as a rule fault (not an observation flag).

``--slips DROP MISREAD`` measures whole camera logs with slips at set rates instead
(:mod:`cardref.benchmarks.slip_rates`).
"""

from __future__ import annotations

import argparse
import importlib
import json
import random
import statistics

from cardref.engine import registry
from cardref.engine.camera import camera_log, drop_event, misread, play_indices
from cardref.engine.verdict_compare import VerdictScore, compare

from .injection import FAMILIES, inject_on_camera_log, judge_log

__all__ = ["FAMILIES", "inject_on_camera_log", "judge_log", "main", "measure"]


def measure(game: str, deals: int, seed: int) -> dict:
    rules = registry.get(game)
    sim = importlib.import_module(FAMILIES[rules.family])
    drop, mis = [], []
    accused_after = {"drop": 0, "misread": 0}   # accusations after one slip of each kind
    base = 0
    caught = {"camera": VerdictScore(), "full": VerdictScore()}
    for n in range(deals):
        rng = random.Random(seed * 100_003 + n)
        events = sim.simulate_deal(game, rng)
        cam, _ = camera_log(events)
        base += len(judge_log(cam).faults())
        plays = play_indices(cam)
        for slip, flags, log in (("drop", drop, drop_event(cam, rng.choice(plays))),
                                 ("misread", mis, misread(cam, rng.choice(plays), rng))):
            verdicts = judge_log(log).verdicts
            flags.append(sum(not v.ok for v in verdicts))
            accused_after[slip] += sum(v.accusation for v in verdicts)
        bad_events, bad = sim.simulate_deal_with_faults(game, random.Random(seed * 100_003 + n), illegal=1)
        truth = judge_log(events).verdicts
        full = judge_log(bad_events).verdicts
        caught["full"].add(compare(full, truth, list(range(len(full))), bad))
        cam_bad, k = inject_on_camera_log(cam, rng)
        if k is not None:
            cam_v = judge_log(cam_bad).verdicts
            caught["camera"].add(compare(cam_v, judge_log(cam).verdicts, list(range(len(cam_v))), [k]))
    out = {"game": game, "deals": deals, "faults": base,
           "drop_median": statistics.median(drop), "drop_max": max(drop),
           "misread_median": statistics.median(mis), "misread_max": max(mis),
           **{f"{slip}_accused": round(n / deals, 3) for slip, n in accused_after.items()}}
    cam = caught["camera"]
    out["accused_camera"] = round(100 * cam.accused / cam.injected, 2) if cam.injected else None
    for name, sc in caught.items():
        out[f"caught_{name}"] = round(100 * sc.caught / sc.injected, 2) if sc.injected else None
        out[f"false_accusations_{name}"] = round(sc.false_accusations / deals, 3)
    return out


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="cardref bench verdicts", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--deals", type=int, default=200, help="simulated deals per game (default 200)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--games", nargs="*", default=None, help="game names (default: all implemented)")
    p.add_argument("--json", action="store_true", help="one JSON object per game")
    p.add_argument("--slips", nargs=2, type=float, metavar=("DROP", "MISREAD"), default=None,
                   help="instead: whole camera logs with every play dropped with probability DROP, else one "
                        "card misread with probability MISREAD, and one illegal play injected "
                        "(cardref.benchmarks.slip_rates): false accusations and injected plays caught")
    p.add_argument("--sure-marks", nargs=2, type=float, metavar=("RIGHT", "WRONG"), default=None,
                   help="with --slips: mark each play sure with probability RIGHT when read right, WRONG when "
                        "misread, as the live path does (its figures: docs/vision.md V21, V22)")
    args = p.parse_args(argv)
    for flag, rates in (("--slips", args.slips), ("--sure-marks", args.sure_marks)):
        if rates is not None and not all(0 <= r <= 1 for r in rates):
            print(f"cardref bench verdicts: {flag} rates must lie in [0, 1]")
            return 2
    if args.sure_marks is not None and args.slips is None:
        print("cardref bench verdicts: --sure-marks needs --slips")
        return 2
    games = args.games or sorted(g.name for g in registry.games().values() if g.referee is not None)
    for game in games:
        if registry.get(game) is None:
            print(f"cardref bench verdicts: unknown game {game!r} (known: {', '.join(registry.names())})")
            return 2
        if args.slips is not None:
            from .slip_rates import format_row, measure_slips

            row = measure_slips(game, args.deals, args.seed, *args.slips,
                                sure_marks=tuple(args.sure_marks) if args.sure_marks else None)
            print(json.dumps(row, ensure_ascii=False) if args.json else format_row(row))
            continue
        row = measure(game, args.deals, args.seed)
        print(json.dumps(row, ensure_ascii=False) if args.json else
              f"{game:18s} {row['deals']:4d} deals  faults={row['faults']}  drop med/max={row['drop_median']}/"
              f"{row['drop_max']}  misread med/max={row['misread_median']}/{row['misread_max']}  accused/deal drop/misread="
              f"{row['drop_accused']}/{row['misread_accused']}  caught camera/full="
              f"{row['caught_camera']}%/{row['caught_full']}%  false acc./deal camera/full="
              f"{row['false_accusations_camera']}/{row['false_accusations_full']}  accused camera={row['accused_camera']}%")
    return 0
