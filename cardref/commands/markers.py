"""``cardref markers``: the printable sheet of the four table-corner markers (PNG and PDF)."""

from __future__ import annotations

import argparse
import sys

HELP = "write the printable sheet of table markers (ArUco 4x4_50 ids 0-3) as PNG and PDF"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", default="table-markers", help="output file stem (writes STEM.png and STEM.pdf)")
    p.add_argument("--size-mm", type=float, default=60.0, help="printed side of each marker in mm (20-90, default 60)")
    p.add_argument("--dpi", type=int, default=300, help="resolution of the sheet (default 300)")


def run(args: argparse.Namespace) -> int:
    from cardref.vision.markers import write_sheet

    if not 72 <= args.dpi <= 1200:
        print("cardref markers: --dpi must be 72-1200", file=sys.stderr)
        return 2
    try:
        paths = write_sheet(args.out, args.size_mm, args.dpi)
    except (ValueError, OSError) as exc:
        print(f"cardref markers: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {', '.join(str(p) for p in paths)}: four {args.size_mm:g} mm markers on A4; print at 100% scale "
          "and lay ids 0-3 at the table corners top-left, top-right, bottom-right, bottom-left (camera view)")
    return 0
