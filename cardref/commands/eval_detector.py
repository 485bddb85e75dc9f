"""``cardref eval-detector``: card-level F1, mAP50-95 and the joker / 6-9 / 10 confusions."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from cardref.commands.detect import rule_arg, scales_arg

HELP = "evaluate the card detector on held-out synthetic designs and on real photos; update the model card"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--weights", default="models/cards-yolo11n.pt", help="ultralytics .pt weights")
    p.add_argument("--data", action="append", default=[], metavar="DIR[@IMGSZ]",
                   help="synthetic data set folder with a val split (held-out designs); repeatable;"
                        " @IMGSZ overrides --imgsz for that set (e.g. whole 1280x720 frames @1280)")
    from cardref.datasets.evaluate import REAL_CARDS

    p.add_argument("--real", default=str(REAL_CARDS),
                   help="real photos in YOLO format with their own data.yaml ('' to skip)")
    p.add_argument("--imgsz", type=int, default=320, help="inference size for the synthetic set")
    p.add_argument("--real-imgsz", type=int, nargs="+", default=[320],
                   help="inference size(s) for the real photos (640x640 close-ups)")
    p.add_argument("--conf", type=float, default=None,
                   help="confidence threshold for F1 and the confusion table (default: the threshold of best"
                        " card F1 on the first synthetic set, then used for every other set)")
    p.add_argument("--namer", default="models/corner-namer.onnx",
                   help="corner namer that names the boxes (needed by a class-agnostic detector; '' for none)")
    p.add_argument("--suit-reader", default="models/suit-reader.onnx",
                   help="suit reader that reads again the suit of each card seen by two indices, from its face "
                        "('' for none; goes with --namer)")
    p.add_argument("--all-real", action="store_true",
                   help="score every real photo, also those the models were tuned on (default: held-out ones)")
    p.add_argument("--photo-scales", type=scales_arg, default=None, metavar="S[,S...]",
                   help="with --detect-path: the scales to look at each photo at (default: cardref detect's)")
    p.add_argument("--tuning-real", action="store_true",
                   help="with --detect-path: score the real tuning photos instead, to choose a setting without "
                        "looking at the held-out ones (not written to the card)")
    p.add_argument("--limit", type=int, help="evaluate only the first N images of each set")
    p.add_argument("--no-map", action="store_true", help="skip the Ultralytics val (mAP) pass")
    p.add_argument("--suit-probe", action="store_true",
                   help="also name each design's clean index renders at 12-22 px and print, per design and suit, the share"
                        " of indices named right (finds designs whose clubs read as spades)")
    p.add_argument("--suit-confusion", action="store_true",
                   help="also print which suit the namer reads for each true suit (clubs as spades, hearts as "
                        "diamonds...) at the true index boxes: the --data sets' held-out scenes, each held-out "
                        "design's clean renders, and the held-out real photos deck by deck")
    p.add_argument("--deck-probe", action="store_true",
                   help="also probe deck enrolment per held-out design on clean index renders (seconds): indices "
                        "named right by the namer alone, with the deck enrolled, and with a quarter of it left out")
    p.add_argument("--enrolled-real", action="store_true",
                   help="also score deck enrolment on the held-out real photos: per deck, every other photo "
                        "enrols it (labelled corners), the rest are named with and without the profile")
    p.add_argument("--adapt-steps", type=int, default=0, metavar="N",
                   help="with --enrolled-real: also adapt the corner namer to each deck for N steps, as "
                        "cardref enrol-deck does (default 0: the profile alone)")
    p.add_argument("--diagnose", action="store_true",
                   help="with --detect-path: also say, per deck, what became of every labelled index "
                        "(not found by the finder, named right, suit or rank read wrong, dropped) and "
                        "which suits were read as which")
    p.add_argument("--detect-path", action="store_true",
                   help="also score the held-out real photos through the product's own detector, as cardref "
                        "detect runs it (shipped finder export, fastest backend, each photo at the "
                        "photo scales, --namer and --suit-reader)")
    p.add_argument("--disable-rule", action="append", default=[], metavar="NAME", type=rule_arg,
                   help="with --detect-path: switch off one of the detector's hand-written rules (repeatable; "
                        "see cardref detect --disable-rule); a trial: printed, not carded")
    p.add_argument("--webcam-px", type=float, nargs="+", default=[], metavar="PX",
                   help="with --detect-path: also read the held-out real photos as a webcam far above the table "
                        "shows them: each shrunk so that its median index is PX px tall, JPEG-compressed as a "
                        "video stream (e.g. 12 15 25; photos already smaller are left out)")
    p.add_argument("--no-int8", action="store_true",
                   help="with --detect-path: run the float finder and namer, never their INT8 copies")
    p.add_argument("--write-card", action="store_true",
                   help="store the results in models/model-card.json and models/README.md")
    p.add_argument("--json", help="also write the results to this JSON file")


def run(args: argparse.Namespace) -> int:
    from cardref.datasets.evaluate import (
        REAL_CARDS,
        as_card_entry,
        evaluate_real,
        evaluate_synthetic,
        summarise,
    )

    weights = Path(args.weights)
    if not weights.is_file():
        print(f"cardref eval-detector: no weights at {weights}", file=sys.stderr)
        return 2
    if args.webcam_px and not args.detect_path:
        print("cardref eval-detector: --webcam-px goes with --detect-path", file=sys.stderr)
        return 2
    if any(px <= 0 for px in args.webcam_px):
        print("cardref eval-detector: --webcam-px takes index heights above 0 px", file=sys.stderr)
        return 2
    if args.diagnose and not (args.detect_path and args.namer):
        print("cardref eval-detector: --diagnose goes with --detect-path and a corner namer", file=sys.stderr)
        return 2
    namer = Path(args.namer) if args.namer else None
    if namer is not None and not namer.is_file():
        print(f"cardref eval-detector: no corner namer at {namer} (pass --namer '' to evaluate without)",
              file=sys.stderr)
        return 2
    suit_reader = Path(args.suit_reader) if args.suit_reader and namer is not None else None
    if suit_reader is not None and not suit_reader.is_file():
        print(f"cardref eval-detector: no suit reader at {suit_reader} (pass --suit-reader '' to evaluate without)",
              file=sys.stderr)
        return 2
    source = ""  # the real photos' name in the headings: the shared real-cards set, or your own folder
    if args.real:  # checked before the synthetic sets' minutes, not after
        problem = _real_photos_problem(Path(args.real))
        if problem:
            print(f"cardref eval-detector: {problem}", file=sys.stderr)
            return 2
        source = "real-cards" if Path(args.real).resolve() == Path(REAL_CARDS).resolve() else Path(args.real).name
    results: dict[str, dict] = {}
    for spec in args.data:
        folder, _, size = spec.partition("@")
        data = Path(folder)
        if not (data / "meta" / "val.jsonl").exists():
            print(f"cardref eval-detector: {data} has no val split (cardref gen-data --split val)", file=sys.stderr)
            return 2
        imgsz = int(size) if size else args.imgsz
        res = evaluate_synthetic(weights, data, imgsz=imgsz, conf=args.conf, limit=args.limit,
                                 with_map=not args.no_map, namer=namer, suit_reader=suit_reader)
        if args.conf is None:
            args.conf = res["conf"]  # chosen on held-out synthetic designs, then fixed
        name = f"held-out synthetic designs ({data.name}, imgsz {imgsz})"
        results[name] = res
        print(summarise(name, res), flush=True)
    if args.real:
        real = Path(args.real)
        for size in args.real_imgsz:
            res = evaluate_real(weights, imgsz=size, conf=args.conf, src=real, limit=args.limit,
                                with_map=not args.no_map, namer=namer, held_out_only=not args.all_real,
                                suit_reader=suit_reader)
            name = f"real photos ({source}{'' if args.all_real else ', held out'}, imgsz {size})"
            results[name] = res
            print(summarise(name, res), flush=True)
    if args.detect_path and args.real:
        from cardref.datasets.evaluate import evaluate_real_detect, format_breakdown

        which = ", tuning photos" if args.tuning_real else "" if args.all_real else ", held out"
        trial = args.tuning_real or args.photo_scales is not None or bool(args.disable_rule)  # printed, not carded
        off = f", rules off: {','.join(args.disable_rule)}" if args.disable_rule else ""
        for webcam_px in [None, *args.webcam_px]:
            res = evaluate_real_detect(namer, suit_reader, src=Path(args.real), limit=args.limit,
                                       held_out_only=not args.all_real, scales=args.photo_scales,
                                       tuning=args.tuning_real, diagnose=args.diagnose,
                                       disabled=tuple(args.disable_rule), int8=not args.no_int8, webcam_px=webcam_px)
            scales = f", scales {','.join(map(str, res['scales']))}" if trial else ""
            webcam = f", shrunk to a webcam's {webcam_px:g} px index" if webcam_px else ""
            name = f"real photos ({source}{which}, through cardref detect{scales}{off}{webcam})"
            if not trial:
                results[name] = res
            f1 = res["card_f1"]
            decks = ", ".join(f"{d} {v:.4f}" for d, v in res["card_f1_by_deck"].items())
            print(f"== {name}\ncard F1 {f1['f1']:.4f} (P {f1['precision']:.4f} R {f1['recall']:.4f})"
                  + (f"; by deck: {decks}" if decks else "")
                  + (f"; {res['images']} photos, {res['images_left_out']} left out" if webcam_px else ""), flush=True)
            if "indices_by_deck" in res:
                print("what became of each labelled index:\n" + format_breakdown(res["indices_by_deck"]), flush=True)
    enrolled = None
    if args.enrolled_real and namer is not None and args.real:
        from cardref.datasets.evaluate import evaluate_real_enrolled

        enrolled = evaluate_real_enrolled(weights, namer, imgsz=args.real_imgsz[0], conf=args.conf, src=Path(args.real),
                                          adapt_steps=args.adapt_steps)
        print("== deck enrolment on the held-out real photos (every other photo enrols the deck)")
        for deck, r in enrolled.items():
            print(f"{deck}: {r['enrol_photos']} photos enrol ({r['enrolled_codes']} codes), {r['test_photos']} scored: "
                  f"card F1 {r['card_f1_alone']:.4f} -> {r['card_f1_enrolled']:.4f} with the profile; named right "
                  f"when found {r['named_right_when_found_alone']:.4f} -> {r['named_right_when_found_enrolled']:.4f}",
                  flush=True)
    deck = None
    if args.deck_probe and namer is not None:
        from cardref.datasets.evaluate import deck_probe

        deck = deck_probe(namer)
        print("== deck enrolment on clean index renders (12-22 px, the other corner than the enrolled one)")
        for design, row in deck.items():
            print(f"{design:34s} " + "  ".join(f"{k} {v:.3f}" for k, v in row.items()), flush=True)
    probe = None
    if args.suit_probe and namer is not None:
        from cardref.datasets.evaluate import format_suit_probe, suit_probe
        from cardref.datasets.faces import list_designs

        probe = suit_probe(namer)
        print("== suits named right on clean index renders (12, 16, 22 px)")
        print(format_suit_probe(probe, set(list_designs("heldout"))), flush=True)
    confusion = None
    if args.suit_confusion and namer is not None:
        confusion = _suit_confusion(namer, [Path(spec.partition("@")[0]) for spec in args.data],
                                    Path(args.real) if args.real else None, args.limit)
    if args.json:
        Path(args.json).write_text(json.dumps({k: as_card_entry(v) for k, v in results.items()}, indent=1))
    if args.write_card:
        from cardref.datasets.train import MODELS_DIR, write_readme

        card_path = MODELS_DIR / "model-card.json"
        card = json.loads(card_path.read_text()) if card_path.exists() else {}
        card.setdefault("evaluation", {}).update({k: as_card_entry(v) for k, v in results.items()})
        if probe is not None:
            card["suit_probe"] = probe
        if enrolled is not None:
            card["deck_enrolment_real"] = enrolled
        if deck is not None:
            card["deck_probe"] = deck
        if confusion is not None:
            card["suit_confusion"] = confusion
        card_path.write_text(json.dumps(card, indent=1, ensure_ascii=False) + "\n")
        write_readme(card, MODELS_DIR / "README.md")
        print(f"updated {card_path}")
    return 0


def _suit_confusion(namer: Path, data: list[Path], real: Path | None, limit: int | None) -> dict[str, dict]:
    """Print and return the namer's suit confusions (:mod:`cardref.datasets.suit_confusion`)."""
    from cardref.datasets.faces import list_designs
    from cardref.datasets.suit_confusion import (
        design_confusion,
        format_suit_confusion,
        real_confusion,
        scene_confusion,
    )

    rows = {f"held-out scenes ({d.name} val)": scene_confusion(namer, d, limit) for d in data}
    rows |= {f"clean renders: {k}": v for k, v in design_confusion(namer, list_designs("heldout")).items()}
    if real is not None:
        rows |= {f"real photos: {k}": v for k, v in real_confusion(namer, real, limit).items()}
    print("== suit read for each true suit, namer alone at the true index boxes (share of the true suit)")
    print(format_suit_confusion(rows), flush=True)
    return rows


def _real_photos_problem(real: Path) -> str | None:
    """What keeps the photos in ``real`` from being scored (a missing data.yaml, a class name
    that is no card code, no photos, a photo that is no image), or ``None``."""
    import cv2
    import yaml

    from cardref.vision.classes import foreign_class_map

    if not (real / "data.yaml").exists():
        return f"no data.yaml in {real}"
    if not (real / "images").is_dir() or not any((real / "images").iterdir()):
        return f"no photos in {real / 'images'}"
    try:  # the class names, as the evaluation maps them (datasets/evaluate.py mapped_real_cards)
        foreign_class_map(yaml.safe_load((real / "data.yaml").read_text())["names"])
    except (ValueError, KeyError, TypeError, yaml.YAMLError) as exc:
        return f"{real / 'data.yaml'}: {exc}"
    except OSError as exc:
        return f"cannot read {real / 'data.yaml'}: {exc}"
    unreadable = [img for img in sorted((real / "images").iterdir()) if cv2.imread(str(img)) is None]
    if unreadable:
        names = ", ".join(str(p) for p in unreadable[:3]) + (f" and {len(unreadable) - 3} more" if len(unreadable) > 3 else "")
        return f"cannot read {len(unreadable)} photo(s) as images: {names} (fix or remove them; the set is scored whole)"
    return None
