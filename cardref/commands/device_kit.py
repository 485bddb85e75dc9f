"""``cardref device-kit``: the kit that carries the detector's training to a lent GPU machine."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = ("pack the faces, backgrounds and Ultralytics wheels a lent GPU machine needs to train the "
        "detector (.devkit/), or unpack them there (tools/device_train.sh)")

#: The device call that runs the training, as docs/vision-detector.md gives it.
RUN_CALL = ("run(command='bash tools/device_train.sh', carry=['.devkit'], timeout_s=600)")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", choices=("pack", "unpack"),
                   help="pack: here, into --kit; unpack: on the GPU machine, from --kit into the caches")
    p.add_argument("--kit", default=None, help="the kit folder (default .devkit in the checkout)")
    p.add_argument("--wheels", default=None, metavar="DIR",
                   help="pack: copy the wheels from DIR instead of downloading them")
    p.add_argument("--no-wheels", action="store_true", help="pack: no wheels (the machine has Ultralytics)")


def run(args: argparse.Namespace) -> int:
    from cardref.datasets.device_kit import KIT_DIR, KitError, pack, unpack

    kit = Path(args.kit) if args.kit else KIT_DIR
    try:
        if args.action == "unpack":
            designs, n_bg = unpack(kit)
            print(f"unpacked {designs} designs and {n_bg} backgrounds from {kit} into the caches")
            return 0
        report = pack(kit, wheels_from=Path(args.wheels) if args.wheels else None, download=not args.no_wheels)
    except KitError as exc:
        print(f"cardref device-kit: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {kit}: {report.summary()}")
    if not report.fits:
        print("cardref device-kit: the checkout and the kit exceed what one device call carries", file=sys.stderr)
        return 1
    print(f"then, with the device tool: {RUN_CALL}")
    return 0
