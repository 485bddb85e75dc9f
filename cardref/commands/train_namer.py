"""``cardref train-namer``: train the corner namer (names each corner box the detector finds)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HELP = "train the corner namer (32x32 patch classifier, 54 cards + 'not a corner') and export it to ONNX"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data", required=True, help="synthetic data set folder from cardref gen-data (train + val splits)")
    p.add_argument("--extra", action="append", default=[], help="another generated set whose train split is added")
    p.add_argument("--budget-min", type=float, default=0.0, help="wall-clock budget in minutes (required to train)")
    p.add_argument("--no-real", action="store_true", help="do not add the real-cards tuning split")
    p.add_argument("--real-repeat", type=int, default=4,
                   help="how many times the real-cards tuning patches are listed (they are few beside the scenes')")
    p.add_argument("--glyph-indices", type=int, default=0, metavar="N",
                   help="add N indices printed from the installed fonts' suit and rank glyphs, 2 patches "
                   "each (datasets/glyph_indices.py: more suit shapes than the decks hold)")
    p.add_argument("--real-fold", choices=("standard", "black-and-gold"), default="standard",
                   help="which real deck tunes: standard (its first 70 %%; validated on its later photos and the "
                   "black-and-gold deck; the shipped split) or black-and-gold (validated on every standard-deck "
                   "photo: the reverse fold, honest only from scratch, without --init from a namer that saw them)")
    p.add_argument("--photo-flaws", type=float, default=None, metavar="P",
                   help="share of training patches given each phone-photo flaw: perspective, glare, "
                        "salt-and-pepper dots (default: datasets/namer_train.py PHOTO_FLAWS)")
    p.add_argument("--grey-share", type=float, default=None, metavar="P",
                   help="share of training patches turned grey (default: datasets/namer_train.py GREY_SHARE)")
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--device", default="cpu", help="where the training steps run: cpu (default), or a torch "
                   "device such as cuda or cuda:0 on a GPU machine")
    p.add_argument("--lr", type=float, default=3e-3, help="peak learning rate (cosine over the budget)")
    p.add_argument("--name", default="namer", help="run name (checkpoint in runs/namer/NAME/last.pt)")
    p.add_argument("--resume", action="store_true", help="carry on the run NAME from its last checkpoint")
    p.add_argument("--export-only", action="store_true",
                   help="with --resume: export the run's best weights so far to ONNX and the card, no training")
    p.add_argument("--init", help="start from these weights (a run's last.pt or the shipped models/corner-namer.pt)")
    p.add_argument("--out", default=None, help="models folder to write corner-namer.onnx and the card to")


def run(args: argparse.Namespace) -> int:
    from cardref.datasets.glyph_indices import GlyphFontError
    from cardref.datasets.namer_train import MODELS_DIR, train_namer

    data = Path(args.data)
    if args.export_only and not args.resume:
        print("cardref train-namer: --export-only goes with --resume (it exports that run's checkpoint)",
              file=sys.stderr)
        return 2
    if args.real_repeat < 1:
        print("cardref train-namer: --real-repeat must be >= 1 (--no-real leaves the photos out)", file=sys.stderr)
        return 2
    if args.glyph_indices < 0:
        print("cardref train-namer: --glyph-indices must be >= 0", file=sys.stderr)
        return 2
    for flag, share in (("--photo-flaws", args.photo_flaws), ("--grey-share", args.grey_share)):
        if share is not None and not 0.0 <= share <= 1.0:
            print(f"cardref train-namer: {flag} is a share of the patches, 0 to 1", file=sys.stderr)
            return 2
    if args.budget_min <= 0 and not args.export_only:
        print("cardref train-namer: --budget-min must be > 0", file=sys.stderr)
        return 2
    if args.real_fold != "standard" and args.init and not args.no_real:
        print(f"cardref train-namer: note: --init {args.init} may have seen the standard deck; the "
              f"{args.real_fold} fold's figures on it are honest only from scratch", file=sys.stderr)
    from cardref.datasets.patch_training import device_problem

    problem = device_problem(args.device)
    if problem:
        print(f"cardref train-namer: {problem}", file=sys.stderr)
        return 2
    missing = [d for d in [data, *map(Path, args.extra)] if not (d / "images" / "train").is_dir()]
    if missing or not (data / "images" / "val").is_dir():
        print(f"cardref train-namer: no images/train (and images/val) under {missing[0] if missing else data}"
              " (make one with cardref gen-data)", file=sys.stderr)
        return 2
    try:
        card = train_namer(data, args.budget_min, with_real=not args.no_real, real_repeat=args.real_repeat,
                           batch=args.batch, lr=args.lr, threads=args.threads,
                           models_dir=Path(args.out) if args.out else MODELS_DIR,
                           extra_sets=[Path(e) for e in args.extra], name=args.name, resume=args.resume,
                           init=args.init, export_only=args.export_only, device=args.device,
                           glyph_indices=args.glyph_indices, real_fold=args.real_fold,
                           **({"photo_flaws": args.photo_flaws} if args.photo_flaws is not None else {}),
                           **({"grey": args.grey_share} if args.grey_share is not None else {}))
    except (FileNotFoundError, GlyphFontError) as exc:
        print(f"cardref train-namer: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(card["held_out"], indent=1))
    return 0
