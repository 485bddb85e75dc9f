"""``cardref train``: train the card-corner detector from scratch within a wall-clock budget."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = "train the YOLO card-corner detector from yolo11n.yaml (no pretrained weights), resumable"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data", required=True, help="data set folder (with data.yaml) from cardref gen-data")
    p.add_argument("--budget-min", type=float, required=True, help="wall-clock budget in minutes")
    p.add_argument("--imgsz", type=int, default=320, help="training image size (default 320)")
    p.add_argument("--epochs", type=int, default=30, help="upper bound; the budget re-plans it")
    p.add_argument("--batch", type=int, default=16, help="batch size (one optimiser step per batch)")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--name", default="cards", help="run name under runs/detect")
    p.add_argument("--device", default="cpu", help="cpu (default) or a CUDA device such as 0")
    p.add_argument("--init", help="start a new run from these weights (our own .pt) instead of yolo11n.yaml")
    p.add_argument("--single-cls", action="store_true",
                   help="train a class-agnostic corner finder (the corner namer names the boxes)")
    p.add_argument("--with-real", action="store_true",
                   help="add the real-cards tuning split (datasets/evaluate.py REAL_TUNE_SHARE) to training")
    p.add_argument("--real-webcam", type=int, default=0, metavar="N",
                   help="with --with-real: also N composites of the real tuning photos shrunk to a webcam's index "
                        "heights (9-30 px) on table textures (datasets/real_webcam.py)")
    p.add_argument("--resume", action="store_true",
                   help="continue an interrupted run from runs/detect/NAME/weights/last.pt")
    p.add_argument("--out", default=None, metavar="DIR",
                   help="write the weights and the model card into DIR instead of models/ (a trial run)")


def run(args: argparse.Namespace) -> int:
    from cardref.datasets.train import train

    if args.budget_min <= 0:
        print("cardref train: --budget-min must be > 0", file=sys.stderr)
        return 2
    if args.real_webcam and not args.with_real:
        print("cardref train: --real-webcam goes with --with-real", file=sys.stderr)
        return 2
    if args.real_webcam < 0:
        print("cardref train: --real-webcam must be 0 or more", file=sys.stderr)
        return 2
    data = args.data
    try:
        if args.with_real:
            from cardref.datasets.evaluate import mixed_data_yaml

            dst = Path(args.data).parent / f"{Path(args.data).name}-with-real"
            extra = []
            if args.real_webcam:
                from cardref.datasets.real_webcam import training_composites

                extra = training_composites(dst, args.real_webcam)
            data = mixed_data_yaml(Path(args.data), dst, extra=extra)
        card = train(data, args.budget_min, imgsz=args.imgsz, epochs=args.epochs, batch=args.batch,
                     workers=args.workers, name=args.name, resume=args.resume,
                     device=args.device, init=args.init, single_cls=args.single_cls,
                     **({"models_dir": Path(args.out)} if args.out else {}))
    except FileNotFoundError as exc:
        print(f"cardref train: {exc}", file=sys.stderr)
        return 2
    print(f"trained {card['epochs_completed']} epochs; weights {card['weights']}; "
          f"held-out metrics {card.get('val_last_epoch')}")
    return 0
