"""``cardref enrol-deck``: teach the detector the deck a table plays with.

Lay one deck face up in rows, one suit per row (by default spades, hearts, clubs, diamonds
from the top as the camera sees it), ace to king from left to right, the small and the big
joker in a last row under the ace and the two; every card upright, apart from the others.
Then::

    cardref enrol-deck layout.jpg --label "Yaoji 2024" --out decks/yaoji.npz
    cardref enrol-deck --camera 0 --out decks/yaoji.npz      # one frame from the webcam

and play with ``cardref watch ... --deck decks/yaoji.npz`` (or ``cardref detect --deck``).
The preview image (``--preview``, by default beside the profile) shows the code each card
was enrolled as: red where the detector alone read it otherwise.  The corner namer is also
adapted to the deck (fine-tuned on its enrolled indices, about a minute on two cores;
``--adapt-steps 0``: the profile alone), and the adapted copy is saved in the profile.  A deck can also be
enrolled from photos with YOLO corner labels (``--labelled DIR``, class names = card codes).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from cardref.vision.resolution import DEFAULT_RESOLUTION, resolution_arg

HELP = "enrol the table's deck from one frame of it laid out in rows (or labelled photos): a deck profile"


def add_arguments(p: argparse.ArgumentParser) -> None:
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("image", nargs="?", metavar="IMAGE", help="a photo or camera frame of the laid-out deck")
    src.add_argument("--camera", type=int, metavar="N", help="take the frame from this camera")
    src.add_argument("--video", metavar="FILE", help="take the frame from this video (see --at)")
    p.add_argument("--resolution", type=resolution_arg, default=DEFAULT_RESOLUTION, metavar="WxH",
                   help="--camera: the resolution to ask the camera for (default 1280x720; use the one watch uses)")
    src.add_argument("--labelled", metavar="DIR",
                     help="photos with YOLO corner labels instead of a layout: DIR/images, DIR/labels and "
                          "DIR/data.yaml whose class names are card codes")
    p.add_argument("--out", required=True, type=Path, metavar="DECK.npz", help="the deck profile to write")
    p.add_argument("--label", help="the deck's name, shown with its readings (default: the file name)")
    p.add_argument("--rows", default="SHCD", help="suit of each row, top to bottom (default SHCD)")
    p.add_argument("--no-jokers", action="store_true", help="the layout has no joker row")
    p.add_argument("--at", type=float, default=0.0, help="--video: the time of the frame, seconds (default 0)")
    p.add_argument("--preview", type=Path, metavar="PNG",
                   help="where to draw the enrolled codes on the frame (default: DECK.png beside the profile)")
    p.add_argument("--backend", default="auto", help="detector backend: auto, openvino, onnx, torch")
    p.add_argument("--model", metavar="PATH", help="detector model file (default: the shipped one)")
    p.add_argument("--force", action="store_true", help="overwrite an existing profile")
    p.add_argument("--adapt-steps", type=int, default=None, metavar="N",
                   help="steps of adapting the corner namer to the deck (default 200, about a minute on two "
                        "cores; 0: the profile alone, as before)")


def _err(msg: str) -> int:
    print(f"cardref enrol-deck: {msg}", file=sys.stderr)
    return 2


def _grab(args: argparse.Namespace):  # noqa: ANN202 - a BGR frame or an error message
    import cv2

    if args.image:
        frame = cv2.imread(args.image, cv2.IMREAD_COLOR)
        return frame if frame is not None else f"{args.image}: not a readable image (missing, corrupt or unsupported)"
    from cardref.vision.capture import SourceError, open_source

    try:
        source = open_source(camera=args.camera, video=args.video, resolution=args.resolution)
    except SourceError as exc:
        return str(exc)
    try:
        last = None
        deadline = time.monotonic() + 10.0
        for frame in source.frames():
            last = frame.image
            if args.video is None or frame.t >= args.at:
                # a camera: let exposure settle over a few frames
                if args.camera is None or frame.index >= 5 or time.monotonic() > deadline:
                    break
        return last if last is not None else "no frame could be read from the source"
    finally:
        source.close()


def _labelled_items(folder: Path):  # noqa: ANN202 - (frame, box, code) triples or an error message
    import cv2
    import yaml

    from cardref.vision.classes import CLASS_NAMES

    try:
        names = yaml.safe_load((folder / "data.yaml").read_text(encoding="utf-8"))["names"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return f"{folder / 'data.yaml'}: cannot read its class names ({exc.__class__.__name__})"
    names = dict(enumerate(names)) if isinstance(names, list) else {int(k): str(v) for k, v in names.items()}
    items, groups, skipped = [], [], 0
    images = sorted(p for p in (folder / "images").rglob("*") if p.suffix.lower() in {".jpg", ".jpeg", ".png"})
    for image in images:
        label = folder / "labels" / image.relative_to(folder / "images").with_suffix(".txt")
        frame = cv2.imread(str(image), cv2.IMREAD_COLOR)
        if frame is None or not label.is_file():
            skipped += 1
            continue
        h, w = frame.shape[:2]
        for line in label.read_text(encoding="utf-8").splitlines():
            parts = line.split()
            if len(parts) != 5:
                continue
            code = names.get(int(float(parts[0])))
            if code not in CLASS_NAMES:
                continue  # card backs and other labels
            cx, cy, bw, bh = (float(v) for v in parts[1:])
            items.append((frame, ((cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w, (cy + bh / 2) * h), code))
            groups.append(str(image))
    if not items:
        return f"{folder}: no labelled card corners found under images/ and labels/"
    return items, groups, len(images), skipped


def run(args: argparse.Namespace) -> int:
    import cv2

    from cardref.vision.detector import DetectorError, load_detector
    from cardref.vision.detector.deck import (
        DeckProfileError,
        LayoutError,
        draw_layout,
        enrol_layout,
        profile_from_corners,
    )
    from cardref.vision.detector.deck_adapt import ADAPT_STEPS

    steps = ADAPT_STEPS if args.adapt_steps is None else args.adapt_steps
    if steps < 0:
        return _err("--adapt-steps is 0 or more")

    def progress(step: int, total: int) -> None:
        print(f"\r  adapting the corner namer to the deck: step {step}/{total}", end="" if step < total else "\n",
              flush=True)

    out: Path = args.out if args.out.suffix == ".npz" else args.out.with_suffix(".npz")
    if out.exists() and not args.force:
        return _err(f"{out} exists (use --force to replace it)")
    label = args.label or out.stem
    try:
        detector = load_detector(args.backend, args.model)
    except DetectorError as exc:
        return _err(str(exc))
    if detector.namer is None:
        return _err("deck enrolment needs the class-agnostic detector and its corner namer")
    try:
        if args.labelled:
            got = _labelled_items(Path(args.labelled))
            if isinstance(got, str):
                return _err(got)
            items, groups, n_images, skipped = got
            profile = profile_from_corners(detector.namer, items, label, source=f"labelled photos {args.labelled}",
                                           groups=groups, adapt_steps=steps, progress=progress)
            codes = sorted(set(profile.codes))
            print(f"enrolled {label!r} from {len(items)} labelled corners of {n_images - skipped} photos "
                  f"({len(codes)} card codes)" + (f"; {skipped} photos without labels skipped" if skipped else ""))
        else:
            frame = _grab(args)
            if isinstance(frame, str):
                return _err(frame)
            source = args.image or (f"camera {args.camera}" if args.camera is not None else f"{args.video} at {args.at} s")
            try:
                enrolled = enrol_layout(detector, frame, label, rows=args.rows.upper(), jokers=not args.no_jokers,
                                        source=source, adapt_steps=steps, progress=progress)
            except LayoutError as exc:
                preview = args.preview or out.with_suffix(".png")
                preview.parent.mkdir(parents=True, exist_ok=True)
                cv2.imwrite(str(preview), draw_layout(frame, exc.cards))
                return _err(f"{exc} (what was found: {preview})")
            profile = enrolled.profile
            preview = args.preview or out.with_suffix(".png")
            preview.parent.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(preview), draw_layout(frame, enrolled.cards))
            print(f"enrolled {label!r}: {len(enrolled.cards)} cards, {len(profile.codes)} index cuts; preview {preview}")
            if enrolled.missing:
                print(f"  not found (not enrolled): {' '.join(enrolled.missing)}")
            if enrolled.disagreements:
                print("  read otherwise by the detector alone (the profile corrects these; check the preview "
                      "that the cards lie where the rows say): "
                      + ", ".join(f"{code} (read {read})" for code, read in enrolled.disagreements))
    except (DeckProfileError, DetectorError) as exc:
        return _err(str(exc))
    scores = profile.calibration.get("named_right_by_sharpness", {})
    if profile.namer_onnx:
        print(f"  the corner namer adapted to the deck in {steps} steps names "
              f"{profile.calibration.get('cuts_named_right_adapted', 0):.1%} of its enrolled index cuts right")
    elif scores:
        print(f"  its own corners, each read against the rest: {scores.get('0.0', 0):.1%} named right by the "
              f"detector alone, {max(scores.values()):.1%} with the profile (sharpness {profile.sharpness:g}"
              + ("; the profile does not help here and is kept off" if profile.sharpness == 0 else "") + ")")
    try:
        path = profile.save(out)
    except OSError as exc:
        return _err(f"{out}: cannot write the profile ({exc.strerror})")
    print(f"wrote {path}: use it with `cardref watch ... --deck {path}`")
    return 0
