"""Train the corner-index detector from scratch (no pretrained weights), within a time budget.

``train(...)`` runs Ultralytics YOLO from a model YAML (``yolo11n.yaml``) on a data set
written by :mod:`cardref.datasets.generate`, on the CPU, stopping at a wall-clock budget
(Ultralytics' ``time`` argument, in hours, re-plans the epochs and the learning-rate
schedule after each epoch so the schedule ends with the budget).  ``resume=True`` carries
on from the run's ``last.pt``.  At the end the best weights are copied to
``models/cards-yolo11n.pt`` and a model card is written (``models/model-card.json`` and
``models/README.md``).

Augmentation choices: no left-right or up-down flips (a mirrored index is not a card
index: flipping would teach the model mirror-image glyphs); no Ultralytics rotation (the
scenes already turn cards every way, and rotating axis-aligned boxes inflates them);
mild scale jitter; mosaic on half the batches (it mixes four crops at the same pixel
scale, so it keeps the tiny indices tiny) and off for the last epochs.
"""

from __future__ import annotations

import csv
import json
import os
import platform
import shutil
import time
from pathlib import Path

MODELS_DIR = Path(__file__).resolve().parent.parent / "models"
WEIGHTS_NAME = "cards-yolo11n.pt"
RUNS_DIR = Path(__file__).resolve().parent.parent / "runs" / "detect"

HYPER = dict(
    fliplr=0.0, flipud=0.0, degrees=0.0, shear=0.0, perspective=0.0,
    scale=0.25, translate=0.1, mosaic=0.5, mixup=0.0, copy_paste=0.0,
    hsv_h=0.015, hsv_s=0.5, hsv_v=0.35,
    optimizer="AdamW", lr0=0.002, lrf=0.05, warmup_epochs=0.5, weight_decay=0.0005,
    close_mosaic=2, amp=False, device="cpu", plots=False, patience=1000, nbs=16,
)


def _offline() -> None:
    os.environ["YOLO_OFFLINE"] = "1"
    os.environ.setdefault("YOLO_VERBOSE", "True")


def read_results_csv(path: Path) -> dict[str, list]:
    """A run's ``results.csv`` as ``{column: [values]}`` (numbers as floats), the form
    Ultralytics stores in each checkpoint; ``{}`` when it cannot be read."""
    try:
        with Path(path).open(newline="") as fh:
            rows = list(csv.reader(fh))
    except OSError:
        return {}
    if not rows:
        return {}
    header = [h.strip() for h in rows[0]]

    def value(text: str) -> float | str:
        try:
            return float(text)
        except ValueError:
            return text.strip()

    return {h: [value(r[i]) for r in rows[1:] if i < len(r)] for i, h in enumerate(header)}


def _results_without_polars() -> None:
    """Ultralytics reads ``results.csv`` with polars each time it saves a checkpoint.  Polars
    does not travel to the lent GPU machine (40 MB of the 64 MiB a call carries,
    :mod:`.device_kit`), so where it is missing the trainer reads the file with
    :func:`read_results_csv` instead."""
    try:
        import polars  # noqa: F401
    except ImportError:
        from ultralytics.engine.trainer import BaseTrainer

        BaseTrainer.read_results_csv = lambda self: read_results_csv(self.csv)  # type: ignore[method-assign]


def data_yaml(data: str | Path) -> Path:
    p = Path(data)
    if p.is_dir():
        p = p / "data.yaml"
    if not p.exists():
        raise FileNotFoundError(f"no data.yaml at {p} (make one with cardref gen-data)")
    return p


def train(data: str | Path, budget_min: float, imgsz: int = 320, epochs: int = 30, batch: int = 16,
          workers: int = 2, name: str = "cards", resume: bool = False, model_yaml: str = "yolo11n.yaml",
          models_dir: Path = MODELS_DIR, device: str = "cpu", init: str | Path | None = None,
          single_cls: bool = False) -> dict:
    """Train (or resume) and publish the best weights and a model card; returns the card.

    The budget is enforced twice: Ultralytics' ``time`` re-plans the epochs (and the
    learning-rate schedule) to fit it, and a batch-end callback stops the epoch once the
    wall clock passes it (then the epoch is validated and saved as usual).  On resume,
    Ultralytics counts ``time`` from the restart but plans epochs from zero, so the time
    already spent (results.csv) is added to the planning budget.

    ``resume`` continues an interrupted run (its ``last.pt`` still holds the optimiser);
    a run that ended normally is finished for Ultralytics, so to train further start a new
    run from its weights with ``init`` (e.g. ``models/cards-yolo11n.pt``): our own
    weights, nothing downloaded.

    ``single_cls`` trains a class-agnostic corner finder (every index is one class,
    ``corner``); the corner namer (:mod:`cardref.vision.detector.namer`) then names each box.
    """
    yaml_path = data_yaml(data)
    _offline()
    from ultralytics import YOLO

    _results_without_polars()
    run_dir = RUNS_DIR / name
    last = run_dir / "weights" / "last.pt"
    t0 = time.time()
    deadline = t0 + budget_min * 60.0

    def guard(trainer) -> None:  # noqa: ANN001 - ultralytics passes its trainer
        if time.time() > deadline:
            trainer.stop = True

    if resume:
        if not last.exists():
            raise FileNotFoundError(f"cannot resume: {last} does not exist")
        done_s = max((float(r.get("time", 0) or 0) for r in _results(run_dir)), default=0.0)
        model = YOLO(str(last))
        model.add_callback("on_train_batch_end", guard)
        model.train(resume=True, time=(budget_min * 60.0 + done_s) / 3600.0, workers=workers, device=device)
    else:
        if init is not None and not Path(init).is_file():
            raise FileNotFoundError(f"no weights to start from at {init}")
        model = YOLO(str(init) if init is not None else model_yaml)
        model.add_callback("on_train_batch_end", guard)
        hyper = {**HYPER, "device": device}
        model.train(data=str(yaml_path), epochs=epochs, time=budget_min / 60.0, imgsz=imgsz, batch=batch,
                    workers=workers, project=str(RUNS_DIR), name=name, exist_ok=True, cache="ram",
                    seed=0, deterministic=False, single_cls=single_cls, **hyper)
    wall = time.time() - t0
    extra = {"single_cls": single_cls,
             "task": "find rank-and-suit corner indices, one class; the corner namer names them" if single_cls
             else "detect rank-and-suit corner indices; 54 classes (vision/classes.py)"}
    repeat = _data_meta(yaml_path).get("real_repeat")
    if repeat:  # a mixed set (mixed_data_yaml): say what real photos it holds
        extra["real_tune"] = f"the real-cards tuning split (datasets/evaluate.py real_cards_split), listed {repeat} times"
        webcam = _data_meta(yaml_path).get("real_webcam")
        if webcam:
            extra["real_tune"] += (f", and {webcam} composites of those photos shrunk to a webcam's index heights"
                                   " (datasets/real_webcam.py)")
    return publish(run_dir, yaml_path, imgsz=imgsz, wall_s=wall, models_dir=models_dir, extra=extra)


def _results(run_dir: Path) -> list[dict]:
    p = run_dir / "results.csv"
    if not p.exists():
        return []
    with p.open() as fh:
        return [{k.strip(): v.strip() for k, v in row.items()} for row in csv.DictReader(fh)]


def _data_meta(yaml_path: Path) -> dict:
    import yaml

    return yaml.safe_load(yaml_path.read_text()) or {}


def _dataset_counts(yaml_path: Path) -> dict:
    root = Path(_data_meta(yaml_path).get("synthetic") or yaml_path.parent)
    out: dict = {}
    for split in ("train", "val"):
        labels = list((root / "labels" / split).glob("*.txt"))
        out[split] = {"images": len(labels), "labels": sum(len(p.read_text().splitlines()) for p in labels)}
        info = root / "meta" / f"{split}_info.json"
        if info.exists():
            meta = json.loads(info.read_text())
            out[split]["designs"] = meta.get("designs", [])
            out[split]["seed"] = meta.get("seed")
            if meta.get("config"):
                out[split]["config"] = meta["config"]
    return out


def publish(run_dir: Path, yaml_path: Path, imgsz: int, wall_s: float | None = None,
            models_dir: Path = MODELS_DIR, extra: dict | None = None) -> dict:
    """Copy the run's best weights into ``models/`` and (re)write the model card."""
    weights = run_dir / "weights"
    best = weights / "best.pt" if (weights / "best.pt").exists() else weights / "last.pt"
    if not best.exists():
        raise FileNotFoundError(f"no weights in {weights}")
    models_dir.mkdir(parents=True, exist_ok=True)
    _offline()
    from ultralytics.utils.torch_utils import strip_optimizer

    # a checkpoint taken mid-run still holds the optimiser state (~26 MB): keep the weights only
    tmp = models_dir / (WEIGHTS_NAME + ".tmp")
    shutil.copyfile(best, tmp)
    strip_optimizer(tmp)
    tmp.replace(models_dir / WEIGHTS_NAME)
    rows = _results(run_dir)
    last_row = rows[-1] if rows else {}
    card_path = models_dir / "model-card.json"
    card = json.loads(card_path.read_text()) if card_path.exists() else {}
    # results.csv 'time' is cumulative within one session and restarts on resume
    times = [float(r.get("time", 0) or 0) for r in rows]
    train_time = sum(t for t, nxt in zip(times, [*times[1:], -1.0], strict=True) if nxt < t)
    card.update({
        "model": "YOLO11n (Ultralytics), trained from scratch from yolo11n.yaml, no pretrained weights",
        "weights": f"models/{WEIGHTS_NAME}",
        "weights_bytes": (models_dir / WEIGHTS_NAME).stat().st_size,
        "task": "detect rank-and-suit corner indices; 54 classes (vision/classes.py)",
        "imgsz_train": imgsz,
        "epochs_completed": len(rows),
        "train_time_s": round(train_time, 1) if train_time else None,
        "wall_time_s": round(wall_s, 1) if wall_s else card.get("wall_time_s"),
        "data": _dataset_counts(yaml_path),
        "hyperparameters": HYPER,
        "val_last_epoch": {k: float(v) for k, v in last_row.items() if k.startswith("metrics/") and v},
        "run_dir": str(run_dir),
        "machine": f"{platform.machine()} CPU, {os.cpu_count()} cores (shared)",
    })
    if extra:
        card.update(extra)
    card_path.write_text(json.dumps(card, indent=1, ensure_ascii=False) + "\n")
    write_readme(card, models_dir / "README.md")
    return card


def _training_lines(entry: dict, data: str, held_out_what: str) -> list[str]:
    """A patch classifier's training and held-out lines (:mod:`.patch_training` runs)."""
    return [f"- Trained {entry.get('epochs')} epochs ({entry.get('steps')} steps of {entry.get('batch')}) in"
            f" {entry.get('train_time_s')} s on {entry.get('train_patches')} {data}"
            + (f" + {entry['real_tune_images']} real tuning photos x{entry.get('real_repeat')}"
               if entry.get("real_tune_images") else "")
            + (f" + {entry['glyph_patches']} patches of {entry.get('glyph_indices')} font-printed indices"
               f" ({entry.get('glyph_suit_fonts')} suit fonts, {entry.get('glyph_rank_fonts')} rank fonts)"
               if entry.get("glyph_patches") else ""),
            f"- {held_out_what}: "
            + "; ".join(f"{k}: {json.dumps(v)}" for k, v in entry.get("held_out", {}).items()), ""]


def _namer_lines(namer: dict | None) -> list[str]:
    if not namer:
        return []
    return ["## Corner namer", "",
            f"- Model: {namer.get('model')}; `{namer.get('weights')}` ({namer.get('weights_bytes', 0) / 1e6:.2f} MB),"
            f" {namer.get('classes')} classes (54 cards + 'none'); PyTorch weights `models/corner-namer.pt`"
            " (a further run starts from them: `cardref train-namer --init models/corner-namer.pt`)",
            *_training_lines(namer, f"patches from {namer.get('synthetic_train_images')} synthetic scenes",
                             "Patch accuracy on held-out sets (true boxes)")]


def _suit_reader_lines(reader: dict | None) -> list[str]:
    if not reader:
        return []
    return ["## Suit reader", "",
            f"- Model: {reader.get('model')}; `{reader.get('weights')}` ({reader.get('weights_bytes', 0) / 1e6:.2f} MB),"
            f" suits {' '.join(reader.get('suits', []))}; its PyTorch weights are not shipped (the 20 MB budget):"
            " training writes them beside the ONNX (`--out`), and `--init` continues from them",
            "- Reads the suit again from the face of every pip card (ace to ten) seen by two indices"
            " (`vision/detector/body.py`): the patch between the two index centres, turned along them; the card's"
            " suit is chosen among the suits its indices found plausible, weighed by the face's reading",
            *_training_lines(reader, f"face patches from the scenes of {', '.join(reader.get('scenes', []))}",
                             "Suit accuracy on held-out sets (true index centres; 'sure': the reader's best suit"
                             " >= 0.9)")]


def _confidence_lines(conf: dict | None, int8: bool = False) -> list[str]:
    """The confidence calibration (``cardref calibrate-conf``): its figures and reliability
    tables; ``int8``: the one of the INT8 copies, fitted on what they read."""
    if not conf:
        return []
    shipped = conf.get("shipped", {})
    heading = ["## Confidence and 'sure' where the INT8 copies run", "",
               "- The INT8 copies (wherever the load-time check lets them run) read a few cards otherwise than the"
               " float files, so they have a calibration of their own, fitted on what they read and tied to the"
               " files that ran (their digests): where the files that run are not those (the finder's copy runs"
               " too, or a file is stale) they take the float files' one"] if int8 else ["## Confidence and 'sure'", ""]
    lines = [*heading,
             f"- `models/{conf.get('file')}`: a card's `conf` is the probability that it is right, read from a"
             " reliability table of its naming evidence (1 - prod(1 - p) over the namer's probability p of its"
             " code at each index; `vision/detector/confidence.py`), one table for a card seen by one index and"
             " one for two or more, each also for a card whose indices are under 24 px (`small`: a webcam's"
             " scale) where fitted; a card is `sure` from "
             f"{shipped.get('sure_at')} on (the lowest probability whose cards were >= 99 % right, over the photos and their webcam views together)",
             f"- Fitted on {shipped.get('cards_reported')} cards reported on the real photos held out from tuning"
             f" ({conf.get('machine')}): sure precision {shipped.get('sure_precision')}, true cards marked sure"
             f" {shipped.get('true_cards_marked_sure')}, calibration error (ECE) {shipped.get('ece')}"]
    views = conf.get("by_view", {})
    if views:
        lines.append("- By view (the photos as they are, and shrunk as a webcam shows them: `cardref calibrate-conf"
                     " --webcam-px`):")
        lines += [f"  - {view}: {res.get('cards_reported')} cards reported, sure precision {res.get('sure_precision')},"
                  f" true cards marked sure {res.get('true_cards_marked_sure')}, ECE {res.get('ece')}"
                  for view, res in views.items()]
    lines.append("- Cross-validated by deck (fitted on one, scored on the other):")
    for name, res in conf.get("cross_validated", {}).items():
        lines.append(f"  - {name}: sure from {res.get('sure_at')}, sure precision {res.get('sure_precision')},"
                     f" true cards marked sure {res.get('true_cards_marked_sure')}, ECE {res.get('ece')}")
    lines += ["", "| sighting | evidence bins | cards | right | probability |", "|---|---|---|---|---|"]
    for kind, t in conf.get("tables", {}).items():
        edges = t.get("edges", [])
        for i, n in enumerate(t.get("n", [])):
            if n:
                lines.append(f"| {kind} | {edges[i]:.3f}-{min(edges[i + 1], 1.0):.3f} | {n} | {t['right'][i]} |"
                             f" {t['p'][i]:.3f} |")
    return [*lines, ""]


def _scene_settings(cfg: dict) -> str:
    keys = ("card_px", "large_share", "max_tilt_deg", "dark_deck_p", "two_tone_p", "defocus", "motion", "soften", "jpeg")
    return ", ".join(f"{k} {cfg[k]}" for k in keys if k in cfg)


def _deck_lines(card: dict) -> list[str]:
    """The deck enrolment figures of the card (``cardref eval-detector --deck-probe --enrolled-real``)."""
    probe, real = card.get("deck_probe"), card.get("deck_enrolment_real")
    if not probe and not real:
        return []
    lines = ["", "## Deck enrolment", "",
             "`cardref enrol-deck` (docs/deck-enrolment.md): the namer's readings weighed against the table's own deck."]
    if probe:
        lines += ["", "Clean index renders of each held-out design (`--deck-probe`): share of the other corner's "
                  "indices (12-22 px, blurred, noisy) named right by the namer alone, with the deck enrolled from "
                  "its top-left indices, and with a quarter of the codes left out of the enrolment:", "",
                  "| design | " + " | ".join(next(iter(probe.values()))) + " |",
                  "|---|" + "---|" * len(next(iter(probe.values())))]
        lines += [f"| {d} | " + " | ".join(f"{v:.3f}" for v in row.values()) + " |" for d, row in probe.items()]
    if real:
        lines += ["", "Held-out real photos (`--enrolled-real`): every other photo of a deck enrols it from its labelled "
                  "corners, the others are scored:", ""]
        lines += [f"- {d}: card F1 {r['card_f1_alone']:.4f} alone, {r['card_f1_enrolled']:.4f} enrolled ({r['enrol_photos']} "
                  f"photos enrol {r['enrolled_codes']} codes, {r['test_photos']} scored, sharpness {r.get('sharpness', '?')})"
                  for d, r in real.items()]
    return lines


# Sections of models/README.md written by hand, not from the card: a regenerated README
# carries them over from the one it replaces, placed before "Limitations".
KEPT_SECTIONS = ("Detector rules",)


def kept_sections(text: str) -> list[str]:
    """The lines of each ``KEPT_SECTIONS`` section of an existing README, heading included."""
    out: list[str] = []
    keep = False
    for line in text.splitlines():
        if line.startswith("## "):
            keep = line[3:].strip() in KEPT_SECTIONS
        if keep:
            out.append(line)
    return out


def write_readme(card: dict, path: Path) -> None:
    """A human-readable model card next to the weights; hand-written sections are kept."""
    kept = kept_sections(path.read_text(encoding="utf-8")) if path.exists() else []
    data = card.get("data", {})
    tr, va = data.get("train", {}), data.get("val", {})
    lines = [
        "# Card corner-index detector",
        "",
        *([f"**Status: {card['status']}**", ""] if card.get("status") else []),
        f"- Model: {card.get('model')}",
        f"- Weights: `{card.get('weights')}` ({card.get('weights_bytes', 0) / 1e6:.1f} MB)"
        + (f"; ONNX `{card['onnx']}`" if card.get("onnx") else ""),
        *(["- Classes: one (`corner`): the detector finds rank-and-suit indices whatever their card;"
            " the corner namer below names each one"] if card.get("single_cls") else
          ["- Classes: 54 card codes, order in `vision/classes.py` (AS..KS, AH..KH, AD..KD, AC..KC, SJ, BJ)"]),
        f"- Trained at {card.get('imgsz_train')} px on crops at a 720p webcam's pixel scale"
        " (card 50-95 px tall, 25% close-ups); infer on whole frames.",
        f"- Epochs: {card.get('epochs_completed')}; training time {card.get('train_time_s')} s on a shared"
        f" 2-core CPU ({card.get('machine')})",
        f"- Training data: {tr.get('images')} synthetic images, {tr.get('labels')} corner labels,"
        f" {len(tr.get('designs', []))} designs: {', '.join(tr.get('designs', []))}",
        f"- Held-out validation: {va.get('images')} images, {va.get('labels')} labels, designs never trained on:"
        f" {', '.join(va.get('designs', []))}",
        *([f"- Real photos in training: {card['real_tune']}"] if card.get("real_tune") else []),
        *([f"- Scene settings (`datasets/scenes.py` SceneConfig): {_scene_settings(tr['config'])}"]
          if tr.get("config") else []),
        "",
        *_namer_lines(card.get("namer")),
        *_suit_reader_lines(card.get("suit_reader")),
        *_confidence_lines(card.get("confidence")),
        *_confidence_lines(card.get("confidence_int8"), int8=True),
        "## Metrics",
        "",
    ]
    ev = card.get("evaluation", {})
    if ev:
        for name, res in ev.items():
            lines.append(f"### {name}")
            lines.append("")
            for k, v in res.items():
                if k in ("confusion", "confusion_counts"):
                    continue
                lines.append(f"- {k}: {json.dumps(v) if isinstance(v, dict) else v}")
            if "confusion" in res:
                lines.append("")
                lines.append("Confusion among the easily confused classes (rows truth, columns prediction):")
                lines.append("")
                lines.append("```")
                lines.append(res["confusion"])
                lines.append("```")
            lines.append("")
    else:
        vl = card.get("val_last_epoch", {})
        for k, v in vl.items():
            lines.append(f"- {k} (held-out synthetic, last epoch): {v:.4f}")
    lines += _deck_lines(card)
    if card.get("inference"):
        lines += ["", "## Inference", ""] + [f"- {k}: {v}" for k, v in card["inference"].items()]
    if kept:
        lines += ["", *kept]
        while lines[-1] == "":
            lines.pop()
    if card.get("limitations"):
        lines += ["", "## Limitations", ""] + [f"- {x}" for x in card["limitations"]]
    lines += [
        "",
        "## Reproduce",
        "",
        "```",
        *card.get("commands", []),
        "```",
        "",
        "Real-photo figures use the shared real-cards set (Roboflow Universe \"Card Detection\" by",
        "cadyzedevelopmenthub, CC BY 4.0). Its tuning split (the first 70 % of the standard-deck",
        "photos, `datasets/evaluate.py` `real_cards_split`) is used in training when a card says so;",
        "the real-photo figures are on the other photos only (the later standard-deck photos and the",
        "whole black-and-gold deck, a design never trained on).",
    ]
    path.write_text("\n".join(lines) + "\n")
