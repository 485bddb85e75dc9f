"""``cardref gen-data``: render a synthetic card-table data set (Ultralytics YOLO format)."""

from __future__ import annotations

import argparse
import sys

HELP = "render synthetic card-table scenes with corner-index labels (YOLO format + data.yaml)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", required=True, help="output folder (images/, labels/, meta/, data.yaml)")
    p.add_argument("--n", type=int, required=True, help="number of images to render")
    p.add_argument("--seed", type=int, default=0, help="random seed (same seed -> same images)")
    p.add_argument("--split", choices=("train", "val"), default="train",
                   help="train: training designs; val: held-out designs never trained on")
    p.add_argument("--start", type=int, default=0, help="index of the first image (to extend a data set)")
    p.add_argument("--size", type=int, nargs=2, default=(320, 320), metavar=("W", "H"), help="image size")
    p.add_argument("--large-share", type=float, default=0.25, help="share of scenes with close-up cards")
    p.add_argument("--dark-deck-p", type=float, default=0.15,
                   help="share of decks recoloured as dark cards with light ink (default 0.15; v1 used 0)")
    p.add_argument("--two-tone-p", type=float, default=0.0,
                   help="share of the dark decks printed two-toned: silver spades and clubs, gold or red "
                        "hearts and diamonds (default 0, as the shipped models' data)")
    p.add_argument("--harsh-optics", action="store_true",
                   help="the stronger blur of the v1 data set (a third of the indices unreadable)")
    p.add_argument("--designs", nargs="+", default=(), metavar="GLOB",
                   help="only the split's designs matching one of these globs (e.g. 'drawn-*'); "
                        "default all of them")
    p.add_argument("--workers", type=int, default=1, help="worker processes (the machine has 2 cores)")
    p.add_argument("--no-progress", action="store_true", help="hide the progress bar")


def run(args: argparse.Namespace) -> int:
    from cardref.datasets.generate import generate
    from cardref.datasets.scenes import HARSH_OPTICS, SceneConfig

    if args.n < 0 or args.workers < 1 or min(args.size) < 64:
        print("cardref gen-data: --n >= 0, --workers >= 1 and --size >= 64 are required", file=sys.stderr)
        return 2
    for flag, value in (("--dark-deck-p", args.dark_deck_p), ("--two-tone-p", args.two_tone_p)):
        if not 0 <= value <= 1:
            print(f"cardref gen-data: {flag} must be between 0 and 1", file=sys.stderr)
            return 2
    cfg = SceneConfig(width=args.size[0], height=args.size[1], large_share=args.large_share,
                      dark_deck_p=args.dark_deck_p, two_tone_p=args.two_tone_p, **(HARSH_OPTICS if args.harsh_optics else {}))
    try:
        info = generate(args.out, args.n, args.seed, args.split, cfg, workers=args.workers,
                        start=args.start, progress=not args.no_progress,
                        designs=args.designs)
    except (RuntimeError, ValueError) as exc:
        print(f"cardref gen-data: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {info['images']} {info['split']} images, {info['labels']} labels, "
          f"{len(info['designs'])} designs -> {args.out}")
    return 0
