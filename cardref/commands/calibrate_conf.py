"""``cardref calibrate-conf``: fit the detector's confidence calibration and ``sure`` threshold
on the real validation photos, for the model files the detector runs on this machine:
``models/confidence.json`` for the float files, ``models/confidence-int8.json`` where INT8
copies run (CPUs without bf16 units; ``--no-int8`` fits the float files there too)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HELP = ("fit the card confidence calibration (conf = probability the card is right) and the 'sure' "
        "threshold on the real held-out photos, cross-validated by deck")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--records", type=Path, help="scored cards: read them from this file if it exists, else "
                   "score the photos and write them there (re-fitting then takes seconds)")
    p.add_argument("--limit", type=int, default=None, help="score only the first N photos (a quick look)")
    p.add_argument("--out", type=Path, default=None,
                   help="models folder to write confidence.json to (default: the shipped models/); with "
                        "--dry-run nothing is written")
    p.add_argument("--dry-run", action="store_true", help="print the figures, write no calibration")
    p.add_argument("--webcam-px", type=float, nargs="*", default=None, metavar="PX",
                   help="also read each photo shrunk so that its median index is PX px tall, as a webcam above the "
                        "table shows it (default: 15 20; none: the photos as they are only)")
    p.add_argument("--no-int8", action="store_true",
                   help="fit the float files' calibration even where INT8 copies would run here")


def run(args: argparse.Namespace) -> int:
    from cardref.datasets import conf_calibration as cc
    from cardref.vision.detector import models_dir
    from cardref.vision.detector.confidence import INT8_CONFIDENCE_FILE, calibration_file
    from cardref.vision.detector.cpu import cpu_name, isa_line
    from cardref.vision.detector.digest import file_digest

    folder = args.out or models_dir()
    names = ("cards-yolo11n.onnx", "corner-namer.onnx", "suit-reader.onnx")
    missing = [n for n in names if not (models_dir() / n).is_file()]
    if missing:
        print(f"cardref calibrate-conf: {models_dir() / missing[0]}: model file not found", file=sys.stderr)
        return 2
    try:
        if args.records is not None and args.records.is_file():
            cards, true_cards = cc.load_records(args.records)
            # records of an older run say nothing of their files: they were the float files
            models = cc.records_models(args.records) or {n: file_digest(models_dir() / n) for n in names}
        else:
            webcam = cc.WEBCAM_PX if args.webcam_px is None else tuple(args.webcam_px)
            if any(px <= 0 for px in webcam):
                print("cardref calibrate-conf: --webcam-px takes index heights above 0 px", file=sys.stderr)
                return 2
            cards, true_cards, files = cc.score_photos(args.limit, int8=not args.no_int8, webcam_px=webcam)
            models = {p.name: file_digest(p) for p in files}
            if args.records is not None:
                cc.save_records(cards, true_cards, args.records, models)
    except (FileNotFoundError, OSError, ValueError, KeyError) as exc:
        print(f"cardref calibrate-conf: {exc}", file=sys.stderr)
        return 2
    target = calibration_file([Path(n) for n in models])
    if not cards:
        print("cardref calibrate-conf: the detector reported no card on the photos", file=sys.stderr)
        return 2
    views = sorted({c.view for c in cards} - {cc.PHOTO})
    cal = cc.fit(cards, "the real-cards photos held out from tuning, both decks"
                 + (f", as they are and as a webcam shows them ({', '.join(views)})" if views else ""), models)
    figures = {"shipped": {"sure_at": cal.sure_at, **cc.report(cal, cards, sum(true_cards.values()))},
               "by_view": cc.by_view(cal, cards, true_cards),
               "cross_validated": cc.cross_validate(cards, true_cards, models),
               "tables": {k: t.to_json() for k, t in cal.tables.items()}}
    print(json.dumps(figures, indent=1, ensure_ascii=False))
    if not args.dry_run:
        cal.save(folder / target)
        card_path = folder / "model-card.json"
        if card_path.is_file():  # the model card holds the reliability table and the figures
            card = json.loads(card_path.read_text(encoding="utf-8"))
            key = "confidence_int8" if target == INT8_CONFIDENCE_FILE else "confidence"
            card[key] = {"file": target, "machine": f"{cpu_name()}, {isa_line()}", **figures}
            card_path.write_text(json.dumps(card, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {folder / target}", file=sys.stderr)
    return 0
