"""``cardref export-detector``: export the PyTorch detector to ONNX (used by ONNX Runtime and OpenVINO)."""

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
                   help="fixed network input (default 736 1280: a 1280x720 frame)")
    p.add_argument("--int8", action="store_true",
                   help="also write an INT8 copy (<name>-int8.onnx, calibrated on rendered table frames) "
                        "and compare it with the float export")
    p.add_argument("--int8-only", action="store_true", help="quantise an existing ONNX export (--out) only")
    p.add_argument("--no-check", action="store_true",
                   help="skip comparing the export with the PyTorch model on a synthetic frame")


def run(args: argparse.Namespace) -> int:
    from cardref.vision.detector import DetectorError, default_model_paths
    from cardref.vision.detector.backends import OnnxBackend
    from cardref.vision.detector.export import (
        DEFAULT_EXPORT_SHAPE,
        compare_backends,
        compare_corners,
        export_int8,
        export_onnx,
    )
    from cardref.vision.detector.frames import table_frames

    weights = args.weights or default_model_paths()["torch"][0]
    out = args.out or weights.with_suffix(".onnx")
    shape = tuple(args.imgsz) if args.imgsz else DEFAULT_EXPORT_SHAPE
    status = 0
    try:
        if not args.int8_only:
            path = export_onnx(weights, out, imgsz=shape)
            print(f"wrote {path} ({path.stat().st_size / 1e6:.1f} MB, input {shape[0]}x{shape[1]})")
            if not args.no_check:
                # a 16:9 frame that fills the export's width (1280x720 for 736x1280)
                report = compare_backends(weights, path, frame_shape=(shape[1] * 9 // 16, shape[1]))
                print(report.summary())
                status = 0 if report.agree else 1
        if args.int8 or args.int8_only:
            int8 = out.with_name(out.stem + "-int8.onnx")
            path = export_int8(out, int8)
            print(f"wrote {path} ({path.stat().st_size / 1e6:.1f} MB, INT8)")
            if not args.no_check:
                frames = table_frames(4, width=shape[1], height=shape[1] * 9 // 16, seed=500)
                low = {"conf": 0.05}  # compare weak boxes too
                print(compare_corners(OnnxBackend(out, **low), OnnxBackend(path, **low), frames).summary())
    except DetectorError as exc:
        print(f"cardref export-detector: {exc}", file=sys.stderr)
        return 2
    return status
