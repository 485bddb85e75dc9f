"""``cardref simulate``: render a deal as a webcam video with its true event log."""

from __future__ import annotations

import argparse
import math
import sys
import time

from cardref.vision.resolution import DEFAULT_RESOLUTION, resolution_arg

HELP = "simulate a deal on a camera-watched table: DIR/video.mp4, DIR/truth.jsonl, DIR/calibration.json"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--game", required=True, help="game name (gouji-shandong, guafeng-zibo, chaodipi-anchao, …)")
    p.add_argument("--seed", type=int, default=0, help="deal and rendering seed (default 0)")
    p.add_argument("--out", required=True, metavar="DIR", help="output folder")
    p.add_argument("--illegal", type=int, default=0, metavar="K", help="inject K illegal plays (rules engine)")
    p.add_argument("--max-plays", type=int, metavar="P", help="stop after P plays (short clips)")
    p.add_argument("--fps", type=float, default=10.0, help="frames per second (default 10)")
    p.add_argument("--design", help="card design of the face library (default: chosen by seed)")
    p.add_argument("--designs", choices=("heldout", "train", "all"), default="all",
                   help="choose the design among the detector's held-out or training designs (default all)")
    p.add_argument("--noise", type=float, default=4.0, help="camera noise (sensor sigma, default 4)")
    p.add_argument("--resolution", type=resolution_arg, default=DEFAULT_RESOLUTION, metavar="WxH",
                   help="camera resolution (default 1280x720); the camera stays where it is, so 1920x1080 "
                        "sees every card 1.5 times as many pixels across")
    p.add_argument("--shake", type=float, default=0.8, help="camera shake in pixels (default 0.8)")
    p.add_argument("--bump-at", type=float, metavar="SEC", help="knock the camera at this second (recalibration test)")
    p.add_argument("--pile", action="store_true",
                   help="every play goes onto the shared centre pile (够级 style) instead of the seat's zone")
    p.add_argument("--no-video", action="store_true", help="write the logs and oracle truth only")
    p.add_argument("--layout", action="store_true",
                   help="also write DIR/layout.png: one deck of the deal's design laid out in suit rows on the same "
                        "table and camera, for cardref enrol-deck")
    p.add_argument("--progress", type=float, default=3.0, metavar="SEC",
                   help="print the frames drawn so far to stderr every SEC seconds (default 3; 0: never)")
    p.add_argument("--fallback-deal", action="store_true",
                   help="use the simulator's stand-in deal instead of the rules engine's")


class _ProgressLine:
    """Prints ``[progress] frame N/M (P %), F frames/s`` to stderr at most every ``every_s``."""

    def __init__(self, every_s: float) -> None:
        self.every_s = every_s
        self.start = self.last = time.monotonic()

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self.last < self.every_s and done < total:
            return
        self.last = now
        rate = done / max(now - self.start, 1e-9)
        print(f"[progress] frame {done}/{total} ({100 * done / max(total, 1):.0f} %), {rate:.1f} frames/s",
              file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:
    from cardref.engine.events import GAME_SEATS
    from cardref.vision.simulate import CameraStyle, simulate_to_dir

    if args.game not in GAME_SEATS:
        print(f"cardref simulate: unknown game {args.game!r}; known: {', '.join(sorted(GAME_SEATS))}", file=sys.stderr)
        return 2
    if not math.isfinite(args.progress) or args.progress < 0:
        print("cardref simulate: --progress must be a number of seconds >= 0", file=sys.stderr)
        return 2
    if args.fps <= 0 or (args.max_plays is not None and args.max_plays <= 0) or args.illegal < 0:
        print("cardref simulate: --fps and --max-plays must be positive, --illegal >= 0", file=sys.stderr)
        return 2
    style = CameraStyle(size=args.resolution, noise=args.noise, shake_px=args.shake, bump_at=args.bump_at)
    progress = _ProgressLine(args.progress) if args.progress > 0 else None
    try:
        result = simulate_to_dir(args.game, args.seed, args.out, illegal=args.illegal, max_plays=args.max_plays,
                                 fps=args.fps, design=args.design, style=style, use_engine=not args.fallback_deal,
                                 video=not args.no_video, pile=args.pile,
                                 split=None if args.designs == "all" else args.designs, progress=progress)
    except (ValueError, OSError) as exc:
        print(f"cardref simulate: {exc}", file=sys.stderr)
        return 2
    print(f"{result.out_dir}: {result.plays} plays, {result.frames} frames at {result.fps:g} fps "
          f"({result.frames / result.fps:.1f}s), deal from {result.deal_source}, cards {result.design}")
    if args.layout:
        import cv2

        from cardref.vision.simulate.layout import render_layout

        frame, _truth, _design = render_layout(GAME_SEATS[args.game], args.seed, design=result.design, style=style)
        path = f"{result.out_dir}/layout.png"
        if not cv2.imwrite(path, frame):
            print(f"cardref simulate: could not write {path}", file=sys.stderr)
            return 1
        print(f"{path}: the deck laid out for cardref enrol-deck")
    return 0
