"""Which suit the corner namer reads for each true suit: clubs against spades, hearts against
diamonds (issue #33, item 3).

The namer is scored alone, at the true index boxes, so the finder's misses do not hide the
shapes' confusions: every labelled index is cut as the product cuts it and named at the
product's four turns.  An index read as "not a corner" or as a joker counts as no suit.
Three kinds of set:

- the held-out designs' scenes (a generated set's ``val`` split: designs never trained on);
- the held-out designs one by one, on clean index renders at webcam heights
  (:func:`cardref.datasets.evaluate._index_patches`, the suit probe's patches);
- the real photos held out from tuning, deck by deck.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

SUITS = "SHDC"
#: The confusions that matter: (true suit, suit read).
PAIRS = (("C", "S"), ("S", "C"), ("H", "D"), ("D", "H"))
CLEAN_SIZES = (12, 16, 22, 30)
CLEAN_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def _suit(code: str) -> str | None:
    return code[-1] if code[-1] in SUITS and code not in ("SJ", "BJ") else None


def suit_confusion(want: Iterable[str], got: Iterable[str]) -> dict:
    """Counts of true suit x suit read (``"-"``: no suit read) over the indices whose truth
    has a suit, and the share of each true suit read as its partner (:data:`PAIRS`)."""
    table = {t: dict.fromkeys([*SUITS, "-"], 0) for t in SUITS}
    for w, g in zip(want, got, strict=True):
        t = _suit(w)
        if t is None:
            continue
        table[t][_suit(g) or "-"] += 1
    pairs = {}
    for t, p in PAIRS:
        n = sum(table[t].values())
        pairs[f"{t}->{p}"] = round(table[t][p] / n, 4) if n else None
    right = sum(table[s][s] for s in SUITS)
    n = sum(sum(r.values()) for r in table.values())
    return {"n": n, "suit_right": round(right / n, 4) if n else None, "pairs": pairs, "table": table}


def read_codes(namer_path: Path, patches: Sequence[np.ndarray] | np.ndarray) -> list[str]:
    """The namer's best class for each patch, at its four turns (the float file)."""
    from cardref.vision.detector.namer import NAMER_CLASSES, CornerNamer

    if len(patches) == 0:
        return []
    namer = CornerNamer(namer_path, int8=False)
    p = namer.probabilities(np.asarray(patches))
    return [NAMER_CLASSES[int(k)] for k in p.argmax(axis=1)]


def _labelled_patches(images: Sequence[Path]) -> tuple[np.ndarray, list[str]]:
    from cardref.vision.detector.namer import NAMER_CLASSES

    from .namer_data import patches_from

    x, y = patches_from(images, seed=0, copies=1, negatives=0, progress=False)
    return x, [NAMER_CLASSES[int(k)] for k in y]


def scene_confusion(namer_path: Path, data: Path, limit: int | None = None) -> dict:
    """The confusion on a generated set's held-out (``val``) scenes."""
    images = sorted((data / "images" / "val").glob("*.*"))[:limit]
    x, want = _labelled_patches(images)
    return suit_confusion(want, read_codes(namer_path, x)) | {"images": len(images)}


def design_confusion(namer_path: Path, designs: Sequence[str]) -> dict[str, dict]:
    """Per design, the confusion on its top-left indices of every code drawn clean at
    :data:`CLEAN_SIZES` pixels."""
    from .evaluate import _has_face, _index_patches
    from .faces import get_faces

    out = {}
    for design in designs:
        faces = get_faces(design)
        codes = [r + s for s in SUITS for r in CLEAN_RANKS if _has_face(faces, r + s)]
        patches, want = _index_patches(faces, codes, CLEAN_SIZES, 0, None, noisy=False)
        out[design] = suit_confusion(want, read_codes(namer_path, patches))
    return out


def real_confusion(namer_path: Path, src: Path | None = None, limit: int | None = None,
                   mapped: Path | None = None) -> dict[str, dict]:
    """Per deck, the confusion on the real photos of ``src`` (the shared real-cards set by
    default) held out from tuning; ``mapped``: where their relabelled copies go."""
    from .evaluate import REAL_CARDS, mapped_real_cards, real_cards_split, real_photos_by_deck

    _, held = real_cards_split(mapped_real_cards(src or REAL_CARDS, mapped).parent)
    out = {}
    for deck, photos in real_photos_by_deck(held).items():
        images = photos[:limit]
        x, want = _labelled_patches(images)
        out[deck] = suit_confusion(want, read_codes(namer_path, x)) | {"images": len(images)}
    return out


def format_suit_confusion(rows: dict[str, dict]) -> str:
    """One line a set: indices, suits right, and the four pair shares."""
    head = f"{'set':52s} {'indices':>7s} {'suit ok':>7s} " + " ".join(f"{t}->{p:>1s}".rjust(6) for t, p in PAIRS)
    lines = [head]
    for name, r in rows.items():
        ok = "-" if r["suit_right"] is None else f"{r['suit_right']:.3f}"
        shares = " ".join(("-" if v is None else f"{v:.3f}").rjust(6) for v in r["pairs"].values())
        lines.append(f"{name[:52]:52s} {r['n']:7d} {ok:>7s} {shares}")
    return "\n".join(lines)
