"""Evaluate the corner detector: card-level F1, mAP50-95 and the confusions that matter.

* **Card-level F1** per image: the multiset of card codes predicted (corners merged into
  cards by :func:`cardref.vision.detector.merge.merge_corners`) against the truth.
  Synthetic truth comes from the generator's per-card records (``meta/<split>.jsonl``);
  the real photos have corner labels only, so their truth cards are their labelled corners
  merged by the same function.  F1 is micro-averaged over all cards of all images; the
  share of images whose card multiset is exactly right is reported too.
* **mAP50 / mAP50-95** of the corner boxes via Ultralytics ``val``.
* **Confusion** among the classes that must never be confused: the jokers (SJ/BJ) and
  the ranks 6, 9 and 10 (any suit), over corners matched to a labelled corner (IoU >= 0.5).

The real photos (``/work/shared/data/real-cards``) use another class order and a BACK
class: their labels are rewritten to our order (BACK dropped) into a git-ignored folder.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import yaml

from cardref.vision.classes import CLASS_NAMES, foreign_class_map
from cardref.vision.types import CornerDetection, box_centre, box_iou

from .real_label_fixes import corrected

#: The shared real photos: beside the checkout (``../shared/data/real-cards``), or $CARDREF_REAL_CARDS.
REAL_CARDS = Path(os.environ.get("CARDREF_REAL_CARDS")
                  or Path(__file__).resolve().parents[2] / "shared" / "data" / "real-cards")
MAPPED_DIR = Path(__file__).resolve().parent / "out" / "real-cards-mapped"
CONFUSION_GROUPS = ("SJ", "BJ", "6", "9", "10")


def _group(code: str) -> str:
    if code in ("SJ", "BJ"):
        return code
    rank = code[:-1]
    return rank if rank in ("6", "9", "10") else "other"


# --------------------------------------------------------------------------- data


def read_yolo_labels(path: Path, w: int, h: int, class_map: dict[int, int | None] | None = None) -> list[CornerDetection]:
    """Corner labels of one image as detections with confidence 1 (frame pixels)."""
    out: list[CornerDetection] = []
    if not path.exists():
        return out
    for line in path.read_text().splitlines():
        parts = line.split()
        if len(parts) < 5:
            continue
        c = int(float(parts[0]))
        if class_map is not None:
            mapped = class_map.get(c)
            if mapped is None:
                continue
            c = mapped
        cx, cy, bw, bh = (float(v) for v in parts[1:5])
        out.append(CornerDetection(CLASS_NAMES[c], 1.0, ((cx - bw / 2) * w, (cy - bh / 2) * h,
                                                         (cx + bw / 2) * w, (cy + bh / 2) * h)))
    return out


def labelled_photos(paths: Iterable[Path], labels_dir: Path) -> Iterator[tuple[Path, Any, list[CornerDetection]]]:
    """Each readable photo of ``paths``, one at a time, with its BGR image and its labelled
    indices (YOLO labels in ``labels_dir``, our class order); unreadable photos are left out."""
    import cv2

    for path in paths:
        image = cv2.imread(str(path))
        if image is None:
            continue
        h, w = image.shape[:2]
        yield path, image, read_yolo_labels(labels_dir / (path.stem + ".txt"), w, h)


def mapped_dir_for(src: Path) -> Path:
    """Where the labels of the photos in ``src`` are kept in our class order: MAPPED_DIR for
    the shared real-cards set, a folder of its own for any other (your own labelled photos),
    so that two sets are never scored as one."""
    src = Path(src).resolve()
    if src == Path(REAL_CARDS).resolve():
        return MAPPED_DIR
    return MAPPED_DIR.parent / f"real-mapped-{hashlib.sha1(str(src).encode()).hexdigest()[:10]}"


def mapped_real_cards(src: Path = REAL_CARDS, dst: Path | None = None) -> Path:
    """The photos of ``src`` (the real-cards set, or any photos labelled in YOLO format with
    their data.yaml) with labels in our class order (BACK dropped), in ``dst`` (default
    :func:`mapped_dir_for`); photos no longer in ``src`` are dropped.  The shared real-cards
    set's known wrong labels are corrected (:mod:`.real_label_fixes`).  Returns its data.yaml."""
    src = Path(src)
    dst = Path(dst) if dst is not None else mapped_dir_for(src)
    meta = yaml.safe_load((src / "data.yaml").read_text())
    cmap = foreign_class_map(meta["names"])
    fixes = src.resolve() == Path(REAL_CARDS).resolve()  # the shared set's known wrong labels
    (dst / "images").mkdir(parents=True, exist_ok=True)
    (dst / "labels").mkdir(parents=True, exist_ok=True)
    present = {img.name for img in (src / "images").iterdir()}
    for stale in (dst / "images").iterdir():
        if stale.name not in present:
            stale.unlink()
            (dst / "labels" / (stale.stem + ".txt")).unlink(missing_ok=True)
    for img in sorted((src / "images").iterdir()):
        link = dst / "images" / img.name
        if not link.exists():
            os.symlink(img.resolve(), link)
        lab = src / "labels" / (img.stem + ".txt")
        lines = []
        if lab.exists():
            for line in lab.read_text().splitlines():
                parts = line.split()
                if len(parts) >= 5 and cmap.get(int(float(parts[0]))) is not None:
                    ours = cmap[int(float(parts[0]))]
                    if fixes:
                        ours = CLASS_NAMES.index(corrected(img.stem, CLASS_NAMES[ours]))
                    lines.append(" ".join([str(ours), *parts[1:5]]))
        (dst / "labels" / (img.stem + ".txt")).write_text("".join(x + "\n" for x in lines))
    return write_data_yaml(dst / "data.yaml", "images", "images")


def write_data_yaml(path: Path, train: str, val: str, **extra: object) -> Path:
    """An Ultralytics data.yaml in our class order, rooted at its own folder; ``extra`` keys
    (ours, ignored by Ultralytics) go in too."""
    names = "\n".join(f"  {i}: '{n}'" for i, n in enumerate(CLASS_NAMES))
    more = "".join(f"{k}: {v}\n" for k, v in extra.items())
    path.write_text(f"path: {path.parent.resolve()}\n{more}train: {train}\nval: {val}\n"
                    f"nc: {len(CLASS_NAMES)}\nnames:\n{names}\n")
    return path


#: Share of the standard-deck phone photos (``phone-android-*``, in name = time order) used to
#: fine-tune; the later ones and the whole black-and-gold deck (``phone-iphone-*``, a design
#: never trained on) stay held out for validation.
REAL_TUNE_SHARE = 0.7


def real_cards_split(mapped: Path = MAPPED_DIR) -> tuple[list[Path], list[Path]]:
    """The real-cards images (mapped copies) split into (tune, held_out); see REAL_TUNE_SHARE."""
    images = sorted((mapped / "images").glob("*.jpg"))
    android = [p for p in images if p.name.startswith("phone-android-")]
    n_tune = int(len(android) * REAL_TUNE_SHARE)
    tune = android[:n_tune]
    tuned = set(tune)
    return tune, [p for p in images if p not in tuned]


#: The real photos' folds by deck (issue #33, item 4): ``standard`` tunes on the first
#: REAL_TUNE_SHARE of the standard deck and validates on its later photos and on the whole
#: black-and-gold deck (the shipped models' split); ``black-and-gold`` tunes on that deck and
#: validates on every standard-deck photo (the reverse fold; honest only for a model that
#: never saw the standard deck, i.e. trained from scratch).
REAL_FOLDS = ("standard", "black-and-gold")


def real_cards_fold(fold: str, mapped: Path = MAPPED_DIR) -> tuple[list[Path], list[Path]]:
    """(tune, held_out) of the real photos for one of :data:`REAL_FOLDS`."""
    if fold == "standard":
        return real_cards_split(mapped)
    if fold != "black-and-gold":
        raise ValueError(f"unknown real-photo fold {fold!r} (one of {', '.join(REAL_FOLDS)})")
    images = sorted((mapped / "images").glob("*.jpg"))
    return ([p for p in images if p.name.startswith("phone-iphone-")],
            [p for p in images if p.name.startswith("phone-android-")])


def _real_images(root: Path, held_out_only: bool, limit: int | None, tuning: bool = False) -> list[Path]:
    """The mapped real photos to score: those held out from tuning, or all, or (``tuning``)
    the tuning ones; the first ``limit``."""
    if tuning or held_out_only:
        images = real_cards_split(root)[0 if tuning else 1]
    else:
        images = sorted((root / "images").iterdir())
    return images[:limit] if limit else images


def real_cards_split_if_present(fold: str = "standard") -> tuple[list[Path], list[Path]]:
    """:func:`real_cards_fold` of the shared real-cards set, or two empty lists without it."""
    try:
        mapped_real_cards()
        return real_cards_fold(fold)
    except (FileNotFoundError, OSError):
        return [], []


def mixed_data_yaml(synthetic: Path, dst: Path, real_repeat: int = 3, src: Path = REAL_CARDS,
                    mapped: Path | None = None, extra: Sequence[Path] = ()) -> Path:
    """A data.yaml training on a synthetic set plus the real-cards tuning split.

    The real photos are listed ``real_repeat`` times (they are few); validation stays on the
    synthetic held-out designs.  ``extra`` images (with YOLO labels beside them, e.g. the
    composites of :func:`.real_webcam.training_composites`) are listed once.  Image lists are
    written to ``dst``; nothing is copied.
    """
    synthetic = Path(synthetic)
    tune, _ = real_cards_split(mapped_real_cards(src, mapped).parent)
    dst.mkdir(parents=True, exist_ok=True)
    train = sorted((synthetic / "images" / "train").glob("*.*"))
    lines = [str(p.resolve()) for p in train] + [str(p.absolute()) for p in tune] * real_repeat
    lines += [str(Path(p).resolve()) for p in extra]
    (dst / "train.txt").write_text("\n".join(lines) + "\n")
    (dst / "val.txt").write_text("\n".join(str(p.resolve()) for p in sorted((synthetic / "images" / "val").glob("*.*"))) + "\n")
    return write_data_yaml(dst / "data.yaml", "train.txt", "val.txt", synthetic=synthetic.resolve(),
                           real_repeat=real_repeat, real_webcam=len(extra))


# --------------------------------------------------------------------------- metrics


def multiset_f1(pred: Sequence[Counter], truth: Sequence[Counter]) -> dict:
    tp = sum(sum((p & t).values()) for p, t in zip(pred, truth, strict=True))
    n_pred = sum(sum(p.values()) for p in pred)
    n_true = sum(sum(t.values()) for t in truth)
    prec = tp / n_pred if n_pred else 0.0
    rec = tp / n_true if n_true else 0.0
    f1 = 2 * prec * rec / (prec + rec) if prec + rec else 0.0
    exact = sum(1 for p, t in zip(pred, truth, strict=True) if p == t)
    return {"f1": round(f1, 4), "precision": round(prec, 4), "recall": round(rec, 4),
            "images_exact": round(exact / max(1, len(pred)), 4), "cards_true": n_true, "cards_pred": n_pred}


def match_corners(pred: list[CornerDetection], truth: list[CornerDetection], thr: float = 0.5) -> list[tuple[str, str | None]]:
    """(truth code, predicted code or None) for every labelled corner; greedy by confidence."""
    used: set[int] = set()
    pairs: dict[int, str] = {}
    for p in sorted(pred, key=lambda c: -c.conf):
        best, best_iou = -1, thr
        for i, t in enumerate(truth):
            if i in used:
                continue
            v = box_iou(p.box, t.box)
            if v >= best_iou:
                best, best_iou = i, v
        if best >= 0:
            used.add(best)
            pairs[best] = p.card
    return [(t.card, pairs.get(i)) for i, t in enumerate(truth)]


#: What became of a labelled index on the detect path (:func:`index_outcome`), in report order.
INDEX_OUTCOMES = ("named right", "named right, dropped", "suit wrong", "rank wrong", "both wrong", "not found")
#: A found box stands for a labelled index when either's centre lies in the other's box grown
#: by this share on each side (the real labels are looser boxes than the finder's).
OUTCOME_PAD = 0.25


def _centre_in(inner: Sequence[float], outer: Sequence[float], pad: float = OUTCOME_PAD) -> bool:
    cx, cy = box_centre(inner)
    w, h = outer[2] - outer[0], outer[3] - outer[1]
    return outer[0] - pad * w <= cx <= outer[2] + pad * w and outer[1] - pad * h <= cy <= outer[3] + pad * h


def index_outcome(truth: CornerDetection, named: Sequence[CornerDetection],
                  kept: Sequence[CornerDetection]) -> tuple[str, str | None]:
    """What the detector made of one labelled index: ``(outcome, code read)``.

    ``named``: every box the finder found, each with the namer's likeliest card code (the
    namer's ``keep_all``); ``kept``: those the namer kept.  The most confident found box over
    the index speaks for it; its outcome is one of :data:`INDEX_OUTCOMES`."""
    over = [c for c in named if _centre_in(c.box, truth.box) or _centre_in(truth.box, c.box)]
    if not over:
        return "not found", None
    best = max(over, key=lambda c: c.conf)
    code, want = best.card, truth.card
    if code == want:
        return ("named right" if any(k.box == best.box for k in kept) else "named right, dropped"), code
    rank_ok, suit_ok = code[:-1] == want[:-1], code[-1] == want[-1]
    jokers = "SJ" in (code, want) or "BJ" in (code, want)
    if rank_ok and not jokers:
        return "suit wrong", code
    if suit_ok and not jokers:
        return "rank wrong", code
    return "both wrong", code


def index_breakdown(outcomes: Sequence[tuple[str, str, str | None]]) -> dict:
    """Counts of :func:`index_outcome` over ``(truth code, outcome, code read)`` triples, and
    the suits read wrong as ``"C->S"`` counts (truth suit, suit read), commonest first."""
    counts = Counter(o for _, o, _ in outcomes)
    suits = Counter(f"{t[-1]}->{r[-1]}" for t, o, r in outcomes if o == "suit wrong" and r is not None)
    return {"indices": len(outcomes), **{o: counts.get(o, 0) for o in INDEX_OUTCOMES},
            "suits_read_wrong": dict(suits.most_common())}


def format_breakdown(by_deck: dict[str, dict]) -> str:
    """The per-deck :func:`index_breakdown` as a plain table (one row per outcome)."""
    decks = list(by_deck)
    rows = [("labelled indices", *(str(by_deck[d]["indices"]) for d in decks))]
    rows += [(o, *(str(by_deck[d][o]) for d in decks)) for o in INDEX_OUTCOMES]
    rows.append(("suits read wrong", *(", ".join(f"{k} {v}" for k, v in list(by_deck[d]["suits_read_wrong"].items())[:4])
                                       or "-" for d in decks)))
    widths = [max(len(r[i]) for r in [("", *decks), *rows]) for i in range(len(decks) + 1)]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip()
                     for r in [("", *decks), *rows])


def confusion(matches: list[tuple[str, str | None]]) -> dict:
    """Counts truth-group x predicted-group for the groups SJ, BJ, 6, 9, 10 (others lumped)."""
    cols = [*CONFUSION_GROUPS, "other", "missed"]
    table = {g: dict.fromkeys(cols, 0) for g in CONFUSION_GROUPS}
    suit_errors = 0
    for t, p in matches:
        gt = _group(t)
        if gt not in table:
            continue
        gp = "missed" if p is None else _group(p)
        table[gt][gp] += 1
        if p is not None and gp == gt and p != t:
            suit_errors += 1
    return {"table": table, "same_rank_wrong_suit": suit_errors}


def format_confusion(conf: dict) -> str:
    cols = [*CONFUSION_GROUPS, "other", "missed"]
    lines = ["truth\\pred " + " ".join(f"{c:>6}" for c in cols)]
    for g, row in conf["table"].items():
        lines.append(f"{g:>10} " + " ".join(f"{row[c]:>6}" for c in cols))
    lines.append(f"same rank, wrong suit (6/9/10): {conf['same_rank_wrong_suit']}")
    return "\n".join(lines)


# --------------------------------------------------------------------------- running the model


def load_namer(namer: Path | None):  # noqa: ANN201 - a CornerNamer or None
    """The corner namer at ``namer`` (``None``: none), set as the product sets it; its figures
    count only boxes it names."""
    if namer is None:
        return None
    from cardref.vision.detector.namer import CornerNamer

    return CornerNamer(namer)


def predict(model, images: list[Path], imgsz: int, conf: float, iou: float = 0.6,
            batch: int = 8, namer=None) -> list[list[CornerDetection]]:  # noqa: ANN001
    """Corners per image: the YOLO model's boxes, named by ``namer`` when given."""
    out: list[list[CornerDetection]] = []
    names = [model.names[i] for i in range(len(model.names))]
    for i in range(0, len(images), batch):
        res = model.predict([str(p) for p in images[i : i + batch]], imgsz=imgsz, conf=conf, iou=iou,
                            agnostic_nms=True, device="cpu", verbose=False, max_det=300)
        for r in res:
            b = r.boxes
            corners = [CornerDetection(names[int(c)], float(s), tuple(float(v) for v in xy))
                       for xy, s, c in zip(b.xyxy.numpy(), b.conf.numpy(), b.cls.numpy(), strict=True)]
            if namer is not None:
                corners = namer.name(r.orig_img, corners)  # the BGR image ultralytics read
            out.append(corners)
    return out


def load_suit_reader(path: Path | None):  # noqa: ANN201 - a SuitReader or None
    """The suit reader at ``path`` (``None``: none)."""
    if path is None:
        return None
    from cardref.vision.detector.body import SuitReader

    return SuitReader(path)


def _cards(corners: list[CornerDetection], frame=None, suits=None) -> Counter:  # noqa: ANN001
    """The merged cards' codes; with a suit reader and the image, suits read from the faces too."""
    from cardref.vision.detector.merge import merge_corners

    cards = merge_corners(corners)
    if suits is not None and frame is not None:
        cards = suits.reconsider(frame, cards)
    return Counter(c.card for c in cards)


def _evaluate_set(model, images: list[Path], truth_corners: list[list[CornerDetection]],
                  truth_cards: list[Counter], imgsz: int, conf: float | None, namer=None,  # noqa: ANN001
                  suits=None) -> dict:  # noqa: ANN001
    """``conf=None`` picks the threshold of best card F1 from the sweep (reported as such);
    ``suits``: a suit reader that reads again the suit of each card seen by two indices."""
    import cv2

    sweep = sorted({0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6} | ({conf} if conf is not None else set()))
    raw = predict(model, images, imgsz, min(sweep), namer=namer)
    frames = [cv2.imread(str(p)) for p in images] if suits is not None else [None] * len(images)
    f1_by_conf = {}
    for c in sweep:
        kept = [[d for d in p if d.conf >= c] for p in raw]
        f1_by_conf[str(c)] = multiset_f1([_cards(p, f, suits) for p, f in zip(kept, frames, strict=True)],
                                         truth_cards)["f1"]
    if conf is None:
        conf = float(max(f1_by_conf, key=lambda k: (f1_by_conf[k], float(k))))
    preds = [[d for d in p if d.conf >= conf] for p in raw]
    pred_cards = [_cards(p, f, suits) for p, f in zip(preds, frames, strict=True)]
    corner_pred = [Counter(c.card for c in p) for p in preds]
    corner_true = [Counter(c.card for c in t) for t in truth_corners]
    matches: list[tuple[str, str | None]] = []
    for p, t in zip(preds, truth_corners, strict=True):
        matches += match_corners(p, t)
    conf_m = confusion(matches)
    located = [m for m in matches if m[1] is not None]
    return {
        "images": len(images),
        "card_f1": multiset_f1(pred_cards, truth_cards),
        "corner_f1": multiset_f1(corner_pred, corner_true),
        "corner_recall_iou50": round(len(located) / max(1, len(matches)), 4),
        "corner_class_accuracy_when_found": round(sum(1 for t, p in located if t == p) / max(1, len(located)), 4),
        "confusion_table": conf_m,
        "confusion": format_confusion(conf_m),
        "imgsz": imgsz, "conf": conf,
        "card_f1_by_conf": f1_by_conf,
        "suit_reader": suits is not None,
    }


def _map(model, data_yaml: Path, imgsz: int) -> dict:
    """Ultralytics' box mAP; for a class-agnostic corner finder, of the boxes whatever their names."""
    agnostic = len(model.names) == 1
    m = model.val(data=str(data_yaml), split="val", imgsz=imgsz, batch=16, device="cpu", plots=False,
                  verbose=False, workers=0, single_cls=agnostic)
    return {"mAP50": round(float(m.box.map50), 4), "mAP50-95": round(float(m.box.map), 4),
            "map_boxes": "class-agnostic corner boxes" if agnostic else "named corner boxes"}


def evaluate_synthetic(weights: Path, data_dir: Path, imgsz: int = 320, conf: float | None = None,
                       limit: int | None = None, with_map: bool = True, namer: Path | None = None,
                       suit_reader: Path | None = None) -> dict:
    os.environ["YOLO_OFFLINE"] = "1"
    from ultralytics import YOLO

    model = YOLO(str(weights), task="detect")
    recs = [json.loads(x) for x in (data_dir / "meta" / "val.jsonl").read_text().splitlines() if x.strip()]
    recs = recs[:limit] if limit else recs
    images = [data_dir / "images" / "val" / r["image"] for r in recs]
    truth_corners = []
    for p in images:
        import cv2

        h, w = cv2.imread(str(p)).shape[:2]
        truth_corners.append(read_yolo_labels(data_dir / "labels" / "val" / (p.stem + ".txt"), w, h))
    truth_cards = [Counter(r["cards"]) for r in recs]
    res = _evaluate_set(model, images, truth_corners, truth_cards, imgsz, conf, load_namer(namer),
                        load_suit_reader(suit_reader))
    if with_map:
        res.update(_map(model, data_dir / "data.yaml", imgsz))
    return res


def evaluate_real(weights: Path, imgsz: int = 320, conf: float | None = None, src: Path = REAL_CARDS,
                  limit: int | None = None, with_map: bool = True, namer: Path | None = None,
                  held_out_only: bool = True, suit_reader: Path | None = None) -> dict:
    """Figures on the real photos: by default only those never used to tune (real_cards_split)."""
    os.environ["YOLO_OFFLINE"] = "1"
    import cv2
    from ultralytics import YOLO

    model = YOLO(str(weights), task="detect")
    y = mapped_real_cards(src)
    root = y.parent
    images = _real_images(root, held_out_only, limit)
    truth_corners = []
    for p in images:
        h, w = cv2.imread(str(p)).shape[:2]
        truth_corners.append(read_yolo_labels(root / "labels" / (p.stem + ".txt"), w, h))
    truth_cards = [_cards(t) for t in truth_corners]
    res = _evaluate_set(model, images, truth_corners, truth_cards, imgsz, conf, load_namer(namer),
                        load_suit_reader(suit_reader))
    if with_map:
        if held_out_only:
            y = _held_out_yaml(root, images)
        res.update(_map(model, y, imgsz))
    res["images_used"] = "held out from tuning (real_cards_split)" if held_out_only else "all"
    res["source"] = "real-cards (Roboflow Universe 'Card Detection' by cadyzedevelopmenthub, CC BY 4.0)"
    return res


#: The decks of the real photos, by file-name prefix.
REAL_DECKS = {"standard deck (phone-android, held-out part)": "phone-android-",
              "black-and-gold deck (phone-iphone)": "phone-iphone-"}


def real_photos_by_deck(photos: list[Path]) -> dict[str, list[Path]]:
    """``photos`` split by :data:`REAL_DECKS` (by file-name prefix), decks with none left out."""
    out = {}
    for deck, prefix in REAL_DECKS.items():
        mine = [p for p in photos if p.name.startswith(prefix)]
        if mine:
            out[deck] = mine
    return out


def evaluate_real_detect(namer: Path | None, suit_reader: Path | None, src: Path = REAL_CARDS,
                         limit: int | None = None, held_out_only: bool = True, backend: str = "auto",
                         mapped: Path | None = None, scales: tuple[float, ...] | None = None,
                         tuning: bool = False, diagnose: bool = False, disabled: tuple[str, ...] = (),
                         int8: bool = True, webcam_px: float | None = None) -> dict:
    """Card F1 on the real photos through the product's own detector, as ``cardref detect``
    runs it: the shipped finder export on the fastest backend, the photo scales (each photo
    as it is and shrunk, PHOTO_SCALES, or ``scales``; enlarged when its indices are small,
    PHOTO_ENLARGE), the namer at four turns, the merge and
    the suit reader.  ``tuning`` scores the tuning photos instead of the held-out ones (to
    choose a setting without looking at the photos it is reported on).  ``diagnose`` also
    says, per deck, what became of every labelled index (:func:`index_outcome`: not found by
    the finder, named right, suit or rank read wrong, ...): ``indices_by_deck``.
    ``disabled``: detector rules switched off (:mod:`cardref.vision.detector.rules`);
    ``int8=False``: the float finder and namer only.  ``webcam_px`` reads each photo as a
    webcam far above the table would show it, its median index that many pixels tall
    (:func:`.webcam_view.webcam_view`; photos whose indices are smaller are left out)."""
    from cardref.vision.detector import PHOTO_ENLARGE, PHOTO_SCALES, DetectorRules, load_detector

    from .webcam_view import webcam_view

    scales = tuple(scales or PHOTO_SCALES)
    det = load_detector(backend, namer=namer if namer is not None else False, scales=scales,
                        suit_reader=suit_reader if suit_reader is not None else False, int8=int8,
                        rules=DetectorRules.without(disabled), enlarge=PHOTO_ENLARGE)
    root = mapped_real_cards(src, mapped).parent
    images = _real_images(root, held_out_only, limit, tuning)
    if diagnose and getattr(det, "namer", None) is None:
        raise ValueError("diagnosing the indices needs the class-agnostic finder with its corner namer")
    pred: list[Counter] = []
    truth: list[Counter] = []
    outcomes: list[list[tuple[str, str, str | None]]] = []
    scored: list[Path] = []
    for p, frame, labelled in labelled_photos(images, root / "labels"):
        if webcam_px:
            view = webcam_view(frame, labelled, webcam_px)
            if view is None:
                continue
            frame, labelled = view
        scored.append(p)
        truth.append(_cards(labelled))
        if not diagnose:
            pred.append(Counter(c.card for c in det.detect(frame)))
            continue
        found = det.find_corners(frame)  # what det.detect does, step by step
        kept = det.namer.name(frame, found)
        named = det.namer.name(frame, found, keep_all=True)
        pred.append(Counter(c.card for c in det.merge_cards(kept, frame)))
        outcomes.append([(t.card, *index_outcome(t, named, kept)) for t in labelled])
    by_deck = {}
    indices_by_deck: dict[str, dict] = {}
    for deck, prefix in REAL_DECKS.items():
        idx = [i for i, p in enumerate(scored) if p.name.startswith(prefix)]
        if idx:
            label = deck.replace("held-out part", "tuning part") if tuning else deck
            by_deck[label] = multiset_f1([pred[i] for i in idx], [truth[i] for i in idx])["f1"]
            if diagnose:
                indices_by_deck[label] = index_breakdown([o for i in idx for o in outcomes[i]])
    if diagnose:  # and every photo together (your own photos belong to no deck named here)
        indices_by_deck["all photos"] = index_breakdown([o for per in outcomes for o in per])
    extra = {"indices_by_deck": indices_by_deck} if diagnose else {}
    webcam = {"webcam_index_px": webcam_px, "images_left_out": len(images) - len(scored)} if webcam_px else {}
    return {"images": len(scored), "card_f1": multiset_f1(pred, truth), "card_f1_by_deck": by_deck, **extra,
            **webcam, "backend": det.name, "scales": list(scales), "suit_reader": suit_reader is not None,
            "rules_off": list(disabled), "int8": int8,
            "images_used": ("the tuning photos (real_cards_split)" if tuning else
                            "held out from tuning (real_cards_split)" if held_out_only else "all")}


def evaluate_real_enrolled(weights: Path, namer: Path, imgsz: int = 320, conf: float | None = None,
                           src: Path = REAL_CARDS, mapped: Path | None = None, adapt_steps: int = 0) -> dict:
    """Deck enrolment on real photos: for each deck of the held-out photos, every other photo
    (in name order) enrols the deck from its labelled corners (``cardref enrol-deck --labelled``,
    the namer adapted to it for ``adapt_steps``) and the others are scored with the namer
    alone and with the deck profile."""
    os.environ["YOLO_OFFLINE"] = "1"
    import cv2
    from ultralytics import YOLO

    from cardref.vision.detector.deck import profile_from_corners

    model = YOLO(str(weights), task="detect")
    root = mapped_real_cards(src, mapped).parent
    held = real_cards_split(root)[1]
    out: dict = {}
    for deck, photos in real_photos_by_deck(held).items():
        enrol, test = photos[::2], photos[1::2]
        if not enrol or not test:
            continue
        items, groups = [], []
        for p in enrol:
            frame = cv2.imread(str(p))
            h, w = frame.shape[:2]
            labels = read_yolo_labels(root / "labels" / (p.stem + ".txt"), w, h)
            items += [(frame, c.box, c.card) for c in labels]
            groups += [p.name] * len(labels)
        the_namer = load_namer(namer)
        profile = profile_from_corners(the_namer, items, deck, source=f"{len(enrol)} labelled photos", groups=groups,
                                       adapt_steps=adapt_steps)
        truth_corners = []
        for p in test:
            h, w = cv2.imread(str(p)).shape[:2]
            truth_corners.append(read_yolo_labels(root / "labels" / (p.stem + ".txt"), w, h))
        truth_cards = [_cards(t) for t in truth_corners]
        alone = _evaluate_set(model, test, truth_corners, truth_cards, imgsz, conf, the_namer)
        the_namer.use_deck(profile)
        enrolled = _evaluate_set(model, test, truth_corners, truth_cards, imgsz, alone["conf"], the_namer)
        out[deck] = {"enrol_photos": len(enrol), "enrolled_corners": len(items), "enrolled_codes": len(profile.enrolled),
                     "test_photos": len(test), "imgsz": imgsz, "conf": alone["conf"],
                     "sharpness": profile.sharpness, "calibration": profile.calibration, "adapt_steps": adapt_steps,
                     "card_f1_alone": alone["card_f1"]["f1"], "card_f1_enrolled": enrolled["card_f1"]["f1"],
                     "named_right_when_found_alone": alone["corner_class_accuracy_when_found"],
                     "named_right_when_found_enrolled": enrolled["corner_class_accuracy_when_found"]}
    return out


def _held_out_yaml(root: Path, images: list[Path]) -> Path:
    """A data.yaml whose val split is the given real images (a list file beside the mapped set)."""
    (root / "held_out.txt").write_text("".join(str(p.absolute()) + "\n" for p in images))
    return write_data_yaml(root / "held_out.yaml", "held_out.txt", "held_out.txt")


def summarise(name: str, res: dict) -> str:
    cf = res["card_f1"]
    lines = [f"== {name}: {res['images']} images at imgsz {res['imgsz']}, conf {res['conf']}",
             f"card F1 {cf['f1']:.4f} (P {cf['precision']:.4f} R {cf['recall']:.4f}; exact images {cf['images_exact']:.3f})",
             f"corner F1 {res['corner_f1']['f1']:.4f}; corners found (IoU>=0.5) {res['corner_recall_iou50']:.4f};"
             f" class right when found {res['corner_class_accuracy_when_found']:.4f}"]
    lines.append("card F1 by confidence threshold: " + ", ".join(f"{k}: {v:.4f}" for k, v in res["card_f1_by_conf"].items()))
    if "mAP50-95" in res:
        lines.append(f"mAP50 {res['mAP50']:.4f}  mAP50-95 {res['mAP50-95']:.4f}")
    lines.append(res["confusion"])
    return "\n".join(lines)


def as_card_entry(res: dict) -> dict:
    """The part of a result that goes into the model card."""
    keep = {k: v for k, v in res.items() if k != "confusion_table"}
    if "confusion_table" in res:
        keep["confusion_counts"] = res["confusion_table"]["table"]
    return keep


# --------------------------------------------------------------------------- suit probe

PROBE_RANKS = ("A", "2", "5", "7", "10", "J", "K")
PROBE_SIZES = (12, 16, 22)


def suit_probe(namer_path: Path, designs: list[str] | None = None, sizes: tuple[int, ...] = PROBE_SIZES,
               ranks: tuple[str, ...] = PROBE_RANKS) -> dict[str, dict[str, float]]:
    """How often the namer reads each suit right, per design, on clean index renders.

    Each design's top-left index of ``ranks`` in every suit is drawn on a felt colour at an
    index height of ``sizes`` pixels (a webcam's range), cut as the product cuts it and named
    (four turns, as in the product).  A design whose clubs all read as spades shows here in
    seconds, where the scene figures blur it into an average.
    """
    from cardref.vision.detector.namer import NAMER_CLASSES, CornerNamer

    from .faces import get_faces, list_designs

    namer = CornerNamer(namer_path)
    out: dict[str, dict[str, float]] = {}
    for design in designs if designs is not None else list_designs():
        codes = [rank + suit for suit in "SHDC" for rank in ranks]
        patches, want = _index_patches(get_faces(design), codes, sizes, 0, None, noisy=False)
        got = [NAMER_CLASSES[int(k)] for k in namer.probabilities(patches).argmax(axis=1)]
        out[design] = {suit: round(sum(1 for w, g in zip(want, got, strict=True) if w[-1] == suit and g == w)
                                   / sum(1 for w in want if w[-1] == suit), 3) for suit in "SHDC"}
    return out


def format_suit_probe(probe: dict[str, dict[str, float]], heldout: set[str]) -> str:
    lines = [f"{'design':34s} {'':4s}  " + "  ".join(f"{s:>5s}" for s in "SHDC")]
    for design, row in probe.items():
        lines.append(f"{design:34s} {'held' if design in heldout else '':4s}  "
                     + "  ".join(f"{row[s]:5.2f}" for s in "SHDC"))
    return "\n".join(lines)


# --------------------------------------------------------------------------- deck probe

DECK_PROBE_ENROL_SIZES = (14, 18)
DECK_PROBE_TEST_SIZES = (12, 15, 19, 22)


def _index_patches(faces, codes: list[str], sizes: tuple[int, ...], corner: int, rng,  # noqa: ANN001
                   noisy: bool) -> tuple[list, list[str]]:
    """Patches of each code's top-left (``corner`` 0) or last index on felt at index heights
    ``sizes``; ``noisy`` adds blur, sensor noise and a jittered box as a webcam would (drawn
    from ``rng``)."""
    import cv2
    import numpy as np

    from cardref.vision.detector.namer import crop_corner

    felt = np.array([40, 110, 50], np.float32)
    patches, want = [], []
    for code in codes:
        img = faces.image(code).astype(np.float32)
        a = img[:, :, 3:] / 255.0
        rgb = (img[:, :, :3] * a + felt * (1 - a)).astype(np.uint8)
        boxes = sorted(faces.corner_boxes(code), key=lambda b: b[0] + b[1])
        x1, y1, x2, y2 = boxes[0] if corner == 0 else boxes[-1]
        for size in sizes:
            s = size / max(1, y2 - y1)
            bgr = cv2.cvtColor(cv2.resize(rgb, None, fx=s, fy=s, interpolation=cv2.INTER_AREA), cv2.COLOR_RGB2BGR)
            jitter = np.zeros(4)
            if noisy:
                if rng.random() < 0.5:
                    bgr = cv2.GaussianBlur(bgr, (3, 3), 0.8)
                bgr = np.clip(bgr + rng.normal(0, 6, bgr.shape), 0, 255).astype(np.uint8)
                jitter = rng.uniform(-0.08, 0.08, 4) * (y2 - y1) * s
            patches.append(crop_corner(bgr, (x1 * s + jitter[0], y1 * s + jitter[1], x2 * s + jitter[2], y2 * s + jitter[3])))
            want.append(code)
    return patches, want


def deck_probe(namer_path: Path, designs: list[str] | None = None, left_out: float = 0.25,
               seed: int = 0) -> dict[str, dict[str, float]]:
    """What deck enrolment does for each design, on clean renders (seconds): the deck is
    enrolled from its top-left indices at 14 and 18 px; its other corner's indices at 12-22 px,
    blurred, noisy and with jittered boxes, are named by the namer alone, with the whole deck
    enrolled, and with ``left_out`` of the codes missing from the enrolment."""
    import numpy as np

    from cardref.vision.detector.deck import DeckProfile
    from cardref.vision.detector.namer import NAMER_CLASSES, CornerNamer

    from .faces import get_faces, list_designs

    namer = CornerNamer(namer_path)
    rng = np.random.default_rng(seed)
    out: dict[str, dict[str, float]] = {}
    for design in designs if designs is not None else list_designs("heldout"):
        faces = get_faces(design)
        codes = [c for c in CLASS_NAMES if _has_face(faces, c)]
        enrol_x, enrol_y = _index_patches(faces, codes, DECK_PROBE_ENROL_SIZES, 0, rng, noisy=False)
        test_x, test_y = _index_patches(faces, codes, DECK_PROBE_TEST_SIZES, 1, rng, noisy=True)
        _, enrol_f = namer.read(enrol_x)
        probs, feats = namer.read(test_x)

        def right(p: np.ndarray, want: list[str] = test_y) -> float:
            return round(float(np.mean([NAMER_CLASSES[k] == w for k, w in zip(p.argmax(axis=1), want, strict=True)])), 3)

        row = {"alone": right(probs)}
        kept = set(rng.choice(codes, int(round(len(codes) * (1 - left_out))), replace=False).tolist())
        for name, keep in (("enrolled", set(codes)), (f"enrolled_without_{int(left_out * 100)}pct", kept)):
            rows = [i for i, c in enumerate(enrol_y) if c in keep]
            profile = DeckProfile(label=design, codes=[enrol_y[i] for i in rows], prototypes=enrol_f[rows],
                                  namer_sha1=namer.sha1, turns=namer.turns)
            row[name] = right(profile.rescore(probs, feats))
        out[design] = row
    return out


def _has_face(faces, code: str) -> bool:  # noqa: ANN001
    try:
        faces.image(code)
        return bool(faces.corner_boxes(code))
    except KeyError:
        return False
