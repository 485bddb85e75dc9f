"""``cardref export-detector``: export the PyTorch detector to ONNX (used by ONNX Runtime and OpenVINO).

The float export stores its weights as float16 (:mod:`cardref.datasets.onnx_weights`;
it still computes in float32).  ``--int8`` also writes the INT8 copies of the finder and of
the corner namer that OpenVINO runs on CPUs without bf16 units once they pass the load-time
check (:mod:`cardref.vision.detector.int8_check`), and compares them with the float files on
that check's frames, on this CPU; ``--check-frames`` renders those frames again.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = "export the card detector (.pt) to ONNX for the ONNX Runtime and OpenVINO backends"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--weights", type=Path, default=None,
                   help="ultralytics .pt to export (default: the shipped models/cards-yolo11n.pt)")
    p.add_argument("--out", type=Path, default=None, help="ONNX file to write (default: beside the weights)")
    p.add_argument("--imgsz", type=int, nargs=2, metavar=("HEIGHT", "WIDTH"), default=None,
                   help="default network input (default 736 1280: a 1280x720 frame); the only one with --static")
    p.add_argument("--static", action="store_true",
                   help="fix the input to --imgsz (the default export leaves height and width free, so that a "
                        "video stream can look again at the tiles of the table that changed)")
    p.add_argument("--int8", action="store_true",
                   help="also write INT8 copies of the finder and the corner namer (<name>-int8.onnx, calibrated "
                        "on rendered table frames) and compare them with the float files")
    p.add_argument("--int8-only", action="store_true", help="quantise an existing ONNX export (--out) only")
    p.add_argument("--namer", type=Path, default=None,
                   help="corner namer whose INT8 copy --int8 writes (default: models/corner-namer.onnx; "
                        "'none' to skip it)")
    p.add_argument("--check-frames", action="store_true",
                   help="render the INT8 check frames again (models/int8-check/: a deck layout and two table "
                        "scenes with their corner boxes) before quantising")
    p.add_argument("--no-check", action="store_true",
                   help="skip comparing the export with the PyTorch model on a synthetic frame")


def run(args: argparse.Namespace) -> int:
    from cardref.datasets.export import (
        compare_backends,
        compare_corners,
        compare_namers,
        export_int8,
        export_namer_int8,
        export_onnx,
        write_check_frames,
    )
    from cardref.datasets.frames import table_frames
    from cardref.datasets.onnx_weights import store_weights_half
    from cardref.vision.detector import DetectorError, default_model_paths, models_dir
    from cardref.vision.detector.backends import OnnxBackend
    from cardref.vision.detector.cpu import isa_line
    from cardref.vision.detector.int8 import int8_sibling
    from cardref.vision.detector.int8_check import (
        check_dir,
        finder_comparison,
        load_check_frames,
        namer_comparison,
    )
    from cardref.vision.detector.namer import NAMER_STEM
    from cardref.vision.detector.scale import DEFAULT_EXPORT_SHAPE

    weights = args.weights or default_model_paths()["torch"][0]
    out = args.out or weights.with_suffix(".onnx")
    shape = tuple(args.imgsz) if args.imgsz else DEFAULT_EXPORT_SHAPE
    status = 0
    try:
        if not args.int8_only:
            path = export_onnx(weights, out, imgsz=shape, dynamic=not args.static)
            store_weights_half(path)
            print(f"wrote {path} ({path.stat().st_size / 1e6:.1f} MB, input {shape[0]}x{shape[1]}"
                  f"{'' if args.static else ' by default, height and width free'}, "
                  "weights stored as float16)")
            if not args.no_check:
                # a 16:9 frame that fills the export's width (1280x720 for 736x1280)
                report = compare_backends(weights, path, frame_shape=(shape[1] * 9 // 16, shape[1]))
                print(report.summary())
                status = 0 if report.agree else 1
        if args.int8 or args.int8_only:
            frames = None if args.no_check else table_frames(4, width=shape[1], height=shape[1] * 9 // 16, seed=500)
            if args.check_frames:
                print(f"wrote the INT8 check frames to {write_check_frames(check_dir())}")
            path = export_int8(out, int8_sibling(out))
            print(f"wrote {path} ({path.stat().st_size / 1e6:.1f} MB, INT8)")
            namer = args.namer or models_dir() / f"{NAMER_STEM}.onnx"
            if frames is not None:
                low = {"conf": 0.05}  # compare weak boxes too
                print(compare_corners(OnnxBackend(out, **low), OnnxBackend(path, **low), frames).summary())
                named_by = namer if str(namer) != "none" else None
                print(f"load-time check on this CPU ({isa_line()}), finder: "
                      + finder_comparison(out, path, load_check_frames(), named_by).verdict().reason)
            if str(namer) != "none":
                path = export_namer_int8(namer, int8_sibling(namer), out)
                print(f"wrote {path} ({path.stat().st_size / 1e6:.2f} MB, INT8)")
                if frames is not None:
                    print(compare_namers(namer, path, out, frames))
                    print(f"load-time check on this CPU ({isa_line()}), namer: "
                          + namer_comparison(namer, path, load_check_frames()).verdict().reason)
    except DetectorError as exc:
        print(f"cardref export-detector: {exc}", file=sys.stderr)
        return 2
    return status
