"""Train the corner namer (:mod:`cardref.vision.detector.namer`) and ship it as ONNX.

Data: patches cut from the synthetic training scenes (22 designs), optionally the
real-cards tuning split (:func:`cardref.datasets.evaluate.real_cards_split`), with
jittered boxes and "not a corner" patches (:mod:`.namer_data`).  Validation: the held-out
designs' scenes (exact boxes) and the held-out real photos.  Augmentation at each batch:
quarter turns (a card lies any way up on the table; never a mirror image), brightness,
contrast, colour cast, noise and blur.  A wall-clock budget bounds the run; the weights
with the best held-out synthetic accuracy are exported to ``models/corner-namer.onnx``
with the class list in its metadata, and the figures go to the model card.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np

from cardref.vision.detector.namer import CROP_SIZE, NAMER_CLASSES, NAMER_STEM
from cardref.vision.detector.namer_finetune import build_net, export_onnx
from cardref.vision.fingerprint import files_digest

from .namer_data import NONE_ID, patches_from
from .patch_training import (
    blurred,
    fit,
    glared,
    greyed,
    keystoned,
    light_and_colour,
    noisy,
    pixelated,
    pixelated_fixed,
    quarter_turned,
    speckled,
    start_run,
    warped,
)

MODELS_DIR = Path(__file__).resolve().parent.parent / "models"
CACHE_DIR = Path(__file__).resolve().parent / "out" / "namer-cache"
RUNS_DIR = Path(__file__).resolve().parent.parent / "runs" / "namer"
#: Share of the training patches seen at a webcam's resolution (:func:`.patch_training.pixelated`);
#: 0 before namer n12.
PIXELATED_SHARE = 0.4
#: The held-out real photos are also scored at these webcam index heights (px): their patches
#: shrunk to 1.3x that side and enlarged back (:func:`.patch_training.pixelated_fixed`).
WEBCAM_INDEX_PX = (12, 18)
#: Share of the training patches given each flaw of a phone photo that the scenes lack
#: (:func:`.patch_training.keystoned` perspective, :func:`~.patch_training.glared` glare,
#: :func:`~.patch_training.speckled` dots); 0: none, as namers up to n12 were trained.
PHOTO_FLAWS = 0.0
#: Share of the training patches in grey (the shared standard deck's photos: 83 of 306 grey).
GREY_SHARE = 0.15


def augment(x, gen, photo_flaws: float | None = None, grey: float | None = None):  # noqa: ANN001, ANN201 - torch tensors (n, 3, s, s) in 0..1
    import torch

    flaws = PHOTO_FLAWS if photo_flaws is None else photo_flaws
    n = x.shape[0]
    x = quarter_turned(x, gen)
    # a card seen obliquely (the real photos' phones tilt up to ~60 degrees): half of the
    # patches get a small turn (+-26 degrees), shear and scale on top of the quarter turns
    x = warped(x, gen, p=0.5, turn=0.9, shear=0.6, scale=(0.9, 1.15))
    if flaws:
        x = keystoned(x, gen, flaws)
    # a webcam's resolution: the real photos' sharp indices as a webcam far above the table
    # shows them (8-22 px tall), where clubs and spades differ by a few pixels
    x = pixelated(x, gen, PIXELATED_SHARE)
    # the scenes already vary light and colour: a little more here, not so much that a
    # patch ends up unreadable (v1 of this step darkened or washed out a quarter of them)
    x = light_and_colour(x, gen)
    if flaws:
        x = glared(x, gen, flaws).clamp(0, 1)
    # other decks: a dark deck (light ink on black: inverted) and other ink colours (a four-colour
    # deck's green clubs and blue diamonds, gold ink): shapes must carry the name, not red/black
    invert = torch.rand(n, generator=gen) < 0.1
    x[invert] = 1 - x[invert]
    permute = torch.rand(n, generator=gen) < 0.15
    if permute.any():
        x[permute] = x[permute][:, torch.randperm(3, generator=gen)]
    x = greyed(x, gen, GREY_SHARE if grey is None else grey)  # black-and-white photos: suits by shape alone
    if flaws:
        x = speckled(x, gen, flaws)
    return noisy(blurred(x, gen, 0.25), gen)


def _blob(arr: np.ndarray):  # noqa: ANN202
    import torch

    from cardref.vision.detector.namer import patches_blob

    return torch.from_numpy(patches_blob(arr))


def accuracy(net, x: np.ndarray, y: np.ndarray, batch: int = 1024) -> dict:  # noqa: ANN001
    import torch

    net.eval()
    preds = []
    with torch.inference_mode():
        for i in range(0, len(x), batch):
            preds.append(net(_blob(x[i:i + batch])).argmax(1).numpy())
    p = np.concatenate(preds) if preds else np.zeros(0, np.int64)
    cards = y != NONE_ID
    return {"n": int(len(y)), "card_accuracy": round(float((p[cards] == y[cards]).mean()), 4) if cards.any() else None,
            "none_recall": round(float((p[~cards] == NONE_ID).mean()), 4) if (~cards).any() else None,
            "card_called_none": round(float((p[cards] == NONE_ID).mean()), 4) if cards.any() else None}


def _cached(name: str, images: list[Path], seed: int, copies: int, negatives: int) -> tuple[np.ndarray, np.ndarray]:
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    # keyed by the files' content: a regenerated or different folder of the same size never
    # reuses another's patches
    f = CACHE_DIR / f"{name}-{len(images)}-{files_digest(images)}-{seed}-{copies}-{negatives}-{CROP_SIZE}.npz"
    if f.exists():
        d = np.load(f)
        return d["x"], d["y"]
    x, y = patches_from(images, seed=seed, copies=copies, negatives=negatives)
    np.savez(f, x=x, y=y)
    return x, y


def _glyph_set(n: int, seed: int) -> tuple[np.ndarray, np.ndarray, dict]:
    """``n`` font-printed indices' patches (cached by the font set) and their card entry."""
    from .glyph_indices import discover, glyph_patches

    fonts = discover()
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    f = CACHE_DIR / f"glyphs-{n}-{fonts.digest()}-{seed}-{CROP_SIZE}.npz"
    if f.exists():
        d = np.load(f)
        x, y = d["x"], d["y"]
    else:
        x, y = glyph_patches(n, seed=seed, fonts=fonts)
        np.savez(f, x=x, y=y)
    return x, y, {"glyph_indices": n, "glyph_patches": int(len(y)), "glyph_suit_fonts": len(fonts.suit_fonts),
                  "glyph_rank_fonts": len(fonts.rank_fonts)}


def train_namer(synthetic: Path, budget_min: float, with_real: bool = True, real_repeat: int = 4,
                batch: int = 256, lr: float = 3e-3, threads: int = 2, models_dir: Path = MODELS_DIR,
                seed: int = 0, extra_sets: list[Path] | None = None, name: str = "namer",
                resume: bool = False, init: str | Path | None = None, export_only: bool = False,
                device: str = "cpu", glyph_indices: int = 0, real_fold: str = "standard",
                photo_flaws: float = PHOTO_FLAWS, grey: float = GREY_SHARE) -> dict:
    """Train within ``budget_min`` minutes; ``resume`` carries on the run ``name`` from its
    checkpoint (``runs/namer/<name>/last.pt``, written after every epoch), ``init`` starts
    from another run's weights; ``export_only`` (with ``resume``) publishes the checkpoint's
    best weights without training (e.g. while the run still goes on); ``device`` is where
    the steps run (``cpu``, or e.g. ``cuda`` on a GPU machine); ``glyph_indices`` adds that
    many indices printed from the installed fonts (:mod:`.glyph_indices`); ``real_fold``
    chooses which real deck tunes and which validates (:data:`.evaluate.REAL_FOLDS`);
    ``photo_flaws`` and ``grey`` are the shares of :func:`augment`'s phone-photo flaws and grey patches.
    Returns the namer's model-card entry."""
    import torch

    from .evaluate import real_cards_split_if_present, real_photos_by_deck

    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    t0 = time.time()
    # each set's patches are cached on their own: a run that adds a set cuts only that one's
    parts_x, parts_y, train_imgs = [], [], []
    for train_set in [synthetic, *(extra_sets or [])]:
        imgs = sorted((train_set / "images" / "train").glob("*.*"))
        xs, ys = _cached(f"train-{train_set.name}", imgs, seed, 3, 3)
        parts_x.append(xs)
        parts_y.append(ys)
        train_imgs += imgs
    sets: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    sets["synthetic held-out designs"] = _cached(f"val-{synthetic.name}",
                                                 sorted((synthetic / "images" / "val").glob("*.*")), seed + 1, 1, 1)
    real_info = {}
    tune, held = real_cards_split_if_present(real_fold)
    fold = "" if real_fold == "standard" else f"-{real_fold}"
    if held:
        sets["real photos held out"] = _cached(f"real-held{fold}", held, seed + 2, 1, 1)
        # deck by deck too: the deck-split report of issue #33 item 4
        for px in WEBCAM_INDEX_PX:
            hx, hy = sets["real photos held out"]
            sets[f"real photos held out at {px} px"] = (pixelated_fixed(hx, round(px * 1.3)), hy)
        for deck, photos in real_photos_by_deck(held).items():
            sets[f"real photos held out: {deck.split(' (')[0]}"] = _cached(f"real-held{fold}-{deck.split()[0]}",
                                                                         photos, seed + 2, 1, 1)
    if with_real and tune:
        rx, ry = _cached(f"real-tune{fold}", tune, seed + 3, 3, 3)
        parts_x += [rx] * real_repeat
        parts_y += [ry] * real_repeat
        real_info = {"real_tune_images": len(tune), "real_tune_patches": int(len(ry)), "real_repeat": real_repeat,
                     "real_fold": real_fold}
    glyph_info = {}
    if glyph_indices:
        gx, gy, glyph_info = _glyph_set(glyph_indices, seed + 4)
        parts_x.append(gx)
        parts_y.append(gy)
    x_train = np.concatenate(parts_x)
    y_train = np.concatenate(parts_y)
    print(f"namer: {len(y_train)} training patches; " +
          ", ".join(f"{k}: {len(v[1])}" for k, v in sets.items()), flush=True)

    net = build_net()
    run = start_run(net, lr, RUNS_DIR / name / "last.pt", "namer", resume=resume, init=init)
    deadline = time.time() if export_only else t0 + budget_min * 60
    fit(run, x_train, y_train, batch=batch, lr=lr, seed=seed, t0=t0, deadline=deadline,
        augment=lambda x, gen: augment(x, gen, photo_flaws, grey),
        evaluate=lambda n: {k: accuracy(n, *v) for k, v in sets.items()},
        key=lambda scores: scores["synthetic held-out designs"]["card_accuracy"] or 0.0,
        ckpt=RUNS_DIR / name / "last.pt", device=device)
    final = {k: accuracy(net, *v) for k, v in sets.items()}
    out = export_onnx(net, models_dir / f"{NAMER_STEM}.onnx")
    _write_int8_copy(out, models_dir)
    # the weights alone (1.2 MB): a later run starts from them with --init
    torch.save({"net": net.state_dict()}, models_dir / f"{NAMER_STEM}.pt")
    card = {
        "model": "corner namer: 7-conv CNN on 32x32 patches, trained from scratch (datasets/namer_train.py)",
        "weights": f"models/{out.name}", "weights_bytes": out.stat().st_size,
        "classes": len(NAMER_CLASSES), "patch": CROP_SIZE,
        "train_patches": int(len(y_train)), "synthetic_train_images": len(train_imgs), **real_info, **glyph_info,
        "photo_flaws": photo_flaws, "grey_share": grey,
        "epochs": run.epoch, "steps": run.step, "batch": batch, "train_time_s": round(run.spent, 1),
        "held_out": final, "history": run.history[-8:],
    }
    card_path = models_dir / "model-card.json"
    full = json.loads(card_path.read_text()) if card_path.exists() else {}
    full["namer"] = card
    card_path.write_text(json.dumps(full, indent=1, ensure_ascii=False) + "\n")
    return card


def _write_int8_copy(namer: Path, models_dir: Path) -> None:
    """The namer's INT8 copy (what OpenVINO runs on CPUs without bf16 units), calibrated on
    what the finder beside it finds; without a finder export there, none (an older copy
    is stale and never runs: :mod:`cardref.vision.detector.int8`)."""
    from cardref.vision.detector import MODEL_STEM
    from cardref.vision.detector.int8 import int8_sibling

    from .export import export_namer_int8

    finder = models_dir / f"{MODEL_STEM}.onnx"
    if finder.is_file():
        copy = export_namer_int8(namer, int8_sibling(namer), finder)
        print(f"namer: wrote {copy} (INT8)", flush=True)
