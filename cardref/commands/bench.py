"""``cardref bench TARGET``: print performance figures (never a test: machines are noisy).

Targets: ``judge`` (events per second of the rules engine), ``verdicts`` (flags on camera logs), ``detect`` (frames per second
of each detector backend), ``e2e`` (camera-to-log accuracy and latency on simulated deals),
``store`` (event-store ingest), ``ui`` (dashboard overhead on the pipeline).
"""

from __future__ import annotations

import argparse
import importlib

HELP = "run a benchmark and print its figures (judge, detect, e2e, store, ui)"

TARGETS = {
    "judge": "cardref.benchmarks.judge",
    "verdicts": "cardref.benchmarks.verdicts",
    "detect": "cardref.vision.bench_detect",
    "e2e": "cardref.vision.bench_e2e",
    "store": "cardref.recorder.bench",
    "ui": "cardref.ui.bench",
}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("target", choices=sorted(TARGETS), help="what to measure")
    p.add_argument("rest", nargs=argparse.REMAINDER, help="options of that benchmark (see TARGET --help)")


def run(args: argparse.Namespace) -> int:
    try:
        module = importlib.import_module(TARGETS[args.target])
    except ModuleNotFoundError as exc:
        print(f"cardref bench {args.target}: not available ({exc})")
        return 2
    return int(module.main(list(args.rest)) or 0)
