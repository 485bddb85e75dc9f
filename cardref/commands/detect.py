"""``cardref detect PATH...``: find the cards in images (one entry per physical card)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HELP = "find the cards in images or folders of images (table, or JSON lines with --json)"

IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff"})


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="+", metavar="PATH", help="image files or folders of images")
    p.add_argument("--json", action="store_true",
                   help='one JSON object per image: {"image", "cards": [{"card", "conf", "sure", "box"}]}; conf is the '
                        'probability that the card is right and sure marks the cards to trust (models/confidence.json; '
                        'without a calibration for the model, conf is its raw score and sure is left out)')
    p.add_argument("--save", metavar="DIR", type=Path, help="write annotated copies of the images here")
    p.add_argument("--backend", default="auto", choices=["auto", "openvino", "onnx", "torch"],
                   help="inference runtime (default: the fastest one whose model file exists)")
    p.add_argument("--no-int8", action="store_true",
                   help="run the float finder and namer even where their INT8 copies are the fast ones (CPUs "
                        "without bf16: about 1.5x slower, about one point of card F1 better on real photos)")
    p.add_argument("--model", type=Path, help="model file (.pt, .onnx, OpenVINO .xml or folder); "
                                              "default: the shipped models/cards-yolo11n.*")
    p.add_argument("--conf", type=float, default=None, help="minimum corner confidence, box x name (default 0.1)")
    p.add_argument("--iou", type=float, default=None, help="NMS overlap threshold (default 0.7)")
    p.add_argument("--imgsz", type=int, default=None,
                   help="network input long side, PyTorch backend only (default: the input of the ONNX "
                        "export beside the weights, else 1280)")
    p.add_argument("--namer", type=Path, default=None,
                   help="corner namer model (.onnx) that names each box (default: the shipped "
                        "models/corner-namer.onnx when the detector is class-agnostic)")
    p.add_argument("--scales", type=scales_arg, default=None, metavar="S[,S...]",
                   help="frame scales to look at, pooled (default 1,0.4: the image as it is and, unless "
                        "its indices are already at a webcam's scale, shrunk to 0.4, for close-up photos; "
                        "'--scales 1 --enlarge 1': the first look only, as cardref watch does)")
    p.add_argument("--enlarge", type=float, default=None, metavar="X",
                   help="when the indices found are small for the finder (a webcam far above the table), "
                        "look again at the image enlarged X times (default 2; '--enlarge 1': never, as "
                        "cardref watch does; rule enlarged-look)")
    p.add_argument("--deck", type=Path, metavar="DECK.npz",
                   help="a deck enrolled with cardref enrol-deck: readings are weighed against it")
    p.add_argument("--corners", action="store_true", help="also list each card's corner boxes")
    p.add_argument("--disable-rule", action="append", default=[], metavar="NAME", type=rule_arg,
                   help="switch off one of the detector's hand-written rules (repeatable; names: "
                        "cardref.vision.detector.rules.RULE_NAMES, e.g. specks, four-index-sides)")
    p.add_argument("--trace-rules", action="store_true",
                   help="also say, per image, what each detector rule changed")
    p.add_argument("--recursive", "-r", action="store_true", help="look into sub-folders too")


def rule_arg(text: str) -> str:
    """A detector rule's name (:data:`cardref.vision.detector.rules.RULE_NAMES`)."""
    from cardref.vision.detector.rules import RULE_NAMES

    if text not in RULE_NAMES:
        raise argparse.ArgumentTypeError(f"no detector rule {text!r} (known: {', '.join(RULE_NAMES)})")
    return text


def scales_arg(text: str) -> tuple[float, ...]:
    try:
        return tuple(float(v) for v in text.split(","))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"comma-separated numbers, not {text!r}") from exc


def _err(msg: str) -> None:
    print(f"cardref detect: {msg}", file=sys.stderr)


def collect_images(paths: list[str], recursive: bool = False) -> tuple[list[Path], list[str]]:
    """The image files named or inside the named folders, in order, and the problems met."""
    images: list[Path] = []
    problems: list[str] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found = sorted(p for p in (path.rglob("*") if recursive else path.iterdir())
                           if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)
            if not found:
                problems.append(f"{path}: folder has no images ({', '.join(sorted(IMAGE_SUFFIXES))})")
            images.extend(found)
        elif path.is_file():
            images.append(path)
        else:
            problems.append(f"{path}: no such file or folder")
    return images, problems


def _save_path(folder: Path, image: Path, used: set[Path]) -> Path:
    """Where the annotated copy goes: the image's name, never over the image itself or an
    earlier copy of this run."""
    out = folder / image.name
    n = 1
    while out.resolve() in used or out.resolve() == image.resolve():
        out = folder / f"{image.stem}-detected{'-' + str(n) if n > 1 else ''}{image.suffix}"
        n += 1
    used.add(out.resolve())
    return out


def _table(image: Path, cards: list, ms: float, corners: bool) -> str:
    lines = [f"{image}  ({len(cards)} card{'s' if len(cards) != 1 else ''}, {ms:.0f} ms)"]
    if cards:
        lines.append(f"  {'card':<5} {'conf':>5} {'sure':<4}  {'box x1,y1 - x2,y2 (px)':<26}  corners")
    for c in cards:
        x1, y1, x2, y2 = c.box
        sure = {True: "yes", False: "no", None: "-"}[c.sure]
        row = (f"  {c.card:<5} {c.conf:5.2f} {sure:<4}  {f'{x1:.0f},{y1:.0f} - {x2:.0f},{y2:.0f}':<26}  "
               f"{len(c.corners)}")
        if corners:
            row += "  " + "  ".join(f"[{k.conf:.2f} {k.box[0]:.0f},{k.box[1]:.0f}-{k.box[2]:.0f},{k.box[3]:.0f}]"
                                   for k in c.corners)
        lines.append(row)
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    import cv2

    from cardref.vision.detector import (
        PHOTO_ENLARGE,
        PHOTO_SCALES,
        DetectorError,
        DetectorRules,
        RuleTrace,
        load_detector,
    )
    from cardref.vision.detector.draw import annotate

    images, problems = collect_images(args.paths, args.recursive)
    for p in problems:
        _err(p)
    if not images:
        _err("no images to process")
        return 2
    kwargs = {k: v for k, v in (("conf", args.conf), ("iou", args.iou)) if v is not None}
    try:
        detector = load_detector(args.backend, args.model, imgsz=args.imgsz,
                                 namer=args.namer if args.namer is not None else True,
                                 scales=args.scales or PHOTO_SCALES, int8=not args.no_int8,
                                 enlarge=PHOTO_ENLARGE if args.enlarge is None else args.enlarge,
                                 rules=DetectorRules.without(args.disable_rule), **kwargs)
        if args.deck is not None:
            from cardref.vision.detector.deck import DeckProfile

            detector.use_deck(DeckProfile.load(args.deck))
    except DetectorError as exc:
        _err(str(exc))
        return 2
    except ModuleNotFoundError as exc:  # the models/ folder (package cardref.models) itself is gone
        if exc.name != "cardref.models":
            raise
        _err(f"the shipped models folder is missing: there is no package cardref.models (in a checkout it is "
             f"{Path(__file__).resolve().parents[2] / 'models'}); restore that folder or reinstall cardref")
        return 2
    if not args.json:
        print(f"detector: {detector.name} on {detector.model_path}"
              + (f", named by {detector.namer.model_path}" if detector.namer else ""))
    if args.save:
        try:
            args.save.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            _err(f"{args.save}: cannot create the output folder ({exc.strerror})")
            return 2
    done = failed = total_cards = 0
    used: set[Path] = set()
    for image in images:
        frame = cv2.imread(str(image), cv2.IMREAD_COLOR)
        if frame is None:
            _err(f"{image}: not a readable image (missing, corrupt or unsupported format)")
            failed += 1
            continue
        t0 = time.perf_counter()
        trace = RuleTrace() if args.trace_rules else None
        try:
            cards = detector.detect(frame, trace)
        except DetectorError as exc:
            _err(f"{image}: {exc}")
            failed += 1
            continue
        ms = (time.perf_counter() - t0) * 1000
        done += 1
        total_cards += len(cards)
        if args.json:
            obj = {"image": str(image), "cards": [c.to_json() for c in cards]}
            if trace is not None:
                obj["rules"] = [{"rule": name, "changed": what} for name, what in trace.changes]
            if args.corners:
                for entry, c in zip(obj["cards"], cards, strict=True):
                    entry["corners"] = [{"conf": round(k.conf, 4), "box": [round(v, 1) for v in k.box]}
                                        for k in c.corners]
            print(json.dumps(obj, ensure_ascii=False), flush=True)
        else:
            print(_table(image, cards, ms, args.corners), flush=True)
            if trace is not None:
                print("\n".join(f"  rule {line}" for line in trace.lines()) or "  rules: changed nothing", flush=True)
        if args.save:
            out = _save_path(args.save, image, used)
            if not cv2.imwrite(str(out), annotate(frame, cards)):
                _err(f"{out}: could not write the annotated image")
    if not args.json:
        print(f"{done} image{'s' if done != 1 else ''}, {total_cards} card{'s' if total_cards != 1 else ''}"
              + (f", {failed} unreadable" if failed else ""))
    return 0 if done else 1
