"""Write a synthetic data set in Ultralytics YOLO format.

Layout under ``out``::

    images/<split>/<split>_000000.jpg   labels/<split>/<split>_000000.txt
    meta/<split>.jsonl                  one line per image: cards and per-label card ids
    data.yaml                           names from :mod:`cardref.vision.classes`

Split ``train`` uses the training designs, ``val`` the held-out designs (never trained
on).  Image ``i`` of a split is rendered from ``SeedSequence([seed, split_id, i])``, so a
data set is identical for the same arguments whatever the number of worker processes.
"""

from __future__ import annotations

import fnmatch
import json
import multiprocessing as mp
from collections.abc import Iterator, Sequence
from dataclasses import asdict
from pathlib import Path

import numpy as np
from tqdm import tqdm

from cardref.datasets.faces import list_designs
from cardref.datasets.scenes import SceneConfig, encode_jpeg, render_scene, yolo_lines
from cardref.vision.classes import CLASS_NAMES

SPLITS = {"train": 0, "val": 1}
DESIGN_SPLIT = {"train": "train", "val": "heldout"}


def split_designs(split: str, patterns: Sequence[str] = ()) -> list[str]:
    """The designs of ``split``; with ``patterns`` (shell globs such as ``drawn-*``), those
    that match one of them."""
    if split not in SPLITS:
        raise ValueError(f"split must be one of {sorted(SPLITS)}, not {split!r}")
    designs = list_designs(DESIGN_SPLIT[split])
    if patterns:
        designs = [d for d in designs if any(fnmatch.fnmatchcase(d, pat) for pat in patterns)]
    if not designs:
        which = f" matching {' '.join(patterns)}" if patterns else ""
        raise RuntimeError(f"no card designs{which} available for split {split!r}")
    return designs


def _job(args: tuple[int, int, int, list[str], SceneConfig]) -> tuple[int, bytes, list[str], dict]:
    seed, split_id, i, designs, cfg = args
    scene = render_scene(np.random.SeedSequence([seed, split_id, i]), designs, cfg)
    meta = {"cards": scene.cards,
            "labels": [{"card": lab.card, "card_id": lab.card_id, "visible": round(lab.visible, 3)}
                       for lab in scene.labels]}
    return i, encode_jpeg(scene), yolo_lines(scene), meta


def write_data_yaml(out: Path) -> Path:
    out = Path(out)
    lines = [f"path: {out.resolve()}", "train: images/train", "val: images/val", f"nc: {len(CLASS_NAMES)}", "names:"]
    lines += [f"  {i}: '{n}'" for i, n in enumerate(CLASS_NAMES)]
    p = out / "data.yaml"
    p.write_text("\n".join(lines) + "\n")
    return p


def iter_scenes(n: int, seed: int, split: str, cfg: SceneConfig, start: int = 0,
                designs: Sequence[str] = ()) -> Iterator[tuple[int, bytes, list[str], dict]]:
    designs = split_designs(split, designs)
    for i in range(start, start + n):
        yield _job((seed, SPLITS[split], i, designs, cfg))


def generate(out: Path | str, n: int, seed: int, split: str = "train", cfg: SceneConfig | None = None,
             workers: int = 1, start: int = 0, progress: bool = True, designs: Sequence[str] = ()) -> dict:
    """Render ``n`` scenes (indices ``start``..``start+n-1``) of ``split`` into ``out``, from
    the split's designs that match one of the globs ``designs`` (all of them when empty)."""
    if n < 0:
        raise ValueError("n must be >= 0")
    cfg = cfg or SceneConfig()
    out = Path(out)
    designs = split_designs(split, designs)
    img_dir, lab_dir, meta_dir = out / "images" / split, out / "labels" / split, out / "meta"
    for d in (img_dir, lab_dir, meta_dir):
        d.mkdir(parents=True, exist_ok=True)
    jobs = [(seed, SPLITS[split], i, designs, cfg) for i in range(start, start + n)]
    metas: dict[int, dict] = {}
    n_labels = 0
    bar = tqdm(total=n, desc=f"gen-data {split}", unit="img", disable=not progress)

    def handle(res: tuple[int, bytes, list[str], dict]) -> None:
        nonlocal n_labels
        i, jpg, lines, meta = res
        name = f"{split}_{i:06d}"
        (img_dir / f"{name}.jpg").write_bytes(jpg)
        (lab_dir / f"{name}.txt").write_text("".join(line + "\n" for line in lines))
        metas[i] = {"image": f"{name}.jpg", **meta}
        n_labels += len(lines)
        bar.update(1)

    if workers > 1 and n > 1:
        with mp.get_context("fork").Pool(workers) as pool:
            for res in pool.imap_unordered(_job, jobs, chunksize=4):
                handle(res)
    else:
        for job in jobs:
            handle(_job(job))
    bar.close()
    meta_path = meta_dir / f"{split}.jsonl"
    existing: dict[str, dict] = {}
    if meta_path.exists():
        for line in meta_path.read_text().splitlines():
            if line.strip():
                rec = json.loads(line)
                existing[rec["image"]] = rec
    for i in sorted(metas):
        existing[metas[i]["image"]] = metas[i]
    meta_path.write_text("".join(json.dumps(existing[k]) + "\n" for k in sorted(existing)))
    write_data_yaml(out)
    info = {"split": split, "images": n, "labels": n_labels, "seed": seed, "start": start,
            "designs": designs, "config": asdict(cfg)}
    (meta_dir / f"{split}_info.json").write_text(json.dumps(info, indent=1))
    return info
