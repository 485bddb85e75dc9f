"""``cardref train-suit-reader``: train the suit reader (reads a card's suit from its face)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HELP = "train the suit reader (40x40 card-face patch classifier, 4 suits) and export it to ONNX"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data", action="append", required=True,
                   help="synthetic scene folder from cardref gen-data (its train split; the first one's val split "
                        "validates); repeat to add more")
    p.add_argument("--budget-min", type=float, required=True, help="wall-clock budget in minutes")
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--device", default="cpu", help="where the training steps run: cpu (default), or a torch "
                   "device such as cuda or cuda:0 on a GPU machine")
    p.add_argument("--lr", type=float, default=3e-3, help="peak learning rate (cosine over the budget)")
    p.add_argument("--name", default="suits", help="run name (checkpoint in runs/suit-reader/NAME/last.pt)")
    p.add_argument("--resume", action="store_true", help="carry on the run NAME from its last checkpoint")
    p.add_argument("--init", help="start from these weights (e.g. the shipped models/suit-reader.pt)")
    p.add_argument("--no-real", action="store_true", help="do not add the real-cards tuning photos")
    p.add_argument("--out", default=None, help="models folder to write suit-reader.onnx and the card to")


def run(args: argparse.Namespace) -> int:
    from cardref.datasets.body_train import MODELS_DIR, train_suit_reader

    if args.budget_min <= 0:
        print("cardref train-suit-reader: --budget-min must be > 0", file=sys.stderr)
        return 2
    from cardref.datasets.patch_training import device_problem

    problem = device_problem(args.device)
    if problem:
        print(f"cardref train-suit-reader: {problem}", file=sys.stderr)
        return 2
    scenes = [Path(d) for d in args.data]
    missing = [d for d in scenes if not (d / "meta" / "train.jsonl").is_file()]
    if missing or not (scenes[0] / "meta" / "val.jsonl").is_file():
        print(f"cardref train-suit-reader: no meta/train.jsonl (and meta/val.jsonl) under "
              f"{missing[0] if missing else scenes[0]} (make the scenes with cardref gen-data)", file=sys.stderr)
        return 2
    try:
        card = train_suit_reader(scenes, args.budget_min, batch=args.batch, lr=args.lr, threads=args.threads,
                                 models_dir=Path(args.out) if args.out else MODELS_DIR, name=args.name,
                                 resume=args.resume, with_real=not args.no_real, init=args.init,
                                 device=args.device)
    except (FileNotFoundError, ValueError) as exc:
        print(f"cardref train-suit-reader: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(card["held_out"], indent=1))
    return 0
