"""Card-face library: every French-suited SVG deck on this machine, rendered once and cached.

Two Debian packages hold the decks:

* ``gnome-cards-data`` (``/usr/share/aisleriot/cards/*.svgz``): each file is a sheet of
  13 columns x 5 rows (rows clubs, diamonds, hearts, spades; the fifth row holds the black
  joker, the red joker and the back).  ``rsvg-convert --export-id`` is unreliable on these
  files (it returns odd bounding boxes for groups built from ``<use>``), so the whole sheet
  is rendered and cut along the grid.
* ``kdegames-card-data-kf5`` (``/usr/share/carddecks/svg-*/``): one element per face with
  ids ``1_club`` .. ``10_club``, ``jack_club``, ``queen_club``, ``king_club``,
  ``black_joker``/``red_joker``.  Each render is trimmed to its opaque pixels (some elements'
  bounds include empty margins); a deck is used only when every face then has the same
  size with a card's aspect ratio.  Where ``rsvg-convert`` mis-measures the elements (it
  renders slivers: dondorf, konqi-modern, penguins, xskat-french), the faces are cut from
  one render of the whole sheet by the bounds ``resvg --query-all`` reports (PyPI
  ``resvg-cli``).
* Drawn decks (``datasets/drawn_decks.py``): designs made from a seed, with varied suit
  shapes and rank fonts, for training only.

The small joker ``SJ`` (小王) is the black/monochrome joker, the big joker ``BJ`` (大王)
the red/coloured one.  Decks whose suits are not French (xskat-german, swiss-xvii) are
skipped.

For every face the rank-and-suit corner indices are found automatically from the rendered
pixels (see :func:`find_corner_boxes`); a design that has indices in all four corners gets
four boxes per card.  Faces and boxes are cached under ``datasets/cache/faces`` (git-ignored).

Designs are split into ``train`` and ``heldout`` by design family (the same artwork shipped
by both packages stays on one side): the held-out families are pinned
(:data:`HELDOUT_FAMILIES`), so decks added later go to training.
"""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import subprocess
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from cardref.vision.classes import CLASS_NAMES
from cardref.vision.types import box_iou

from .drawn_decks import DRAWN_DECKS, DrawnDeckError, draw_deck

AISLERIOT_DIR = Path("/usr/share/aisleriot/cards")
KDE_DIR = Path("/usr/share/carddecks")
CACHE_DIR = Path(__file__).resolve().parent / "cache" / "faces"
FACE_WIDTH = 200  # rendered face width in pixels
CACHE_VERSION = 11
APT_PACKAGES = ("gnome-cards-data", "kdegames-card-data-kf5")

#: Decks never used: not French-suited (xskat-german, swiss-xvii), sheets that do not
#: cut into whole cards on the 13x5 grid (tango, tango_nuevo), or an index whose suit
#: stands apart from the rank, so only the rank would be labelled (jolly-royal).
EXCLUDED = frozenset({"kde-xskat-german", "aisleriot-swiss-xvii", "aisleriot-tango", "aisleriot-tango_nuevo",
                      "kde-jolly-royal"})
#: Share of design families kept out of training (chosen by sha1 of the family name).
HELDOUT_FRACTION = 0.22
#: The held-out families of the shipped models: the sha1 rule's choice over the 23 families
#: usable until November 2026, pinned then, so that decks made usable later (the KDE decks
#: cut from whole-sheet renders) join training and held-out figures stay comparable.
HELDOUT_FAMILIES = frozenset({"anglo_modern", "lattmann", "plastic", "simplistic", "slavic_costumes"})

Box = tuple[int, int, int, int]  # x1, y1, x2, y2 in face pixels (x2, y2 exclusive)

_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_SUIT_NAME = {"S": "spade", "H": "heart", "D": "diamond", "C": "club"}
_AISLERIOT_ROWS = ("C", "D", "H", "S")
_KDE_RANK = {"A": "1", "J": "jack", "Q": "queen", "K": "king"}


class FaceError(RuntimeError):
    """A design cannot be rendered or has no usable face."""


# --------------------------------------------------------------------------- discovery


@dataclass(frozen=True)
class DesignSource:
    name: str  # e.g. "aisleriot-anglo", "kde-standard"
    kind: str  # "aisleriot" | "kde" | "drawn"
    path: Path

    @property
    def family(self) -> str:
        """The artwork family: same-named decks of both packages are one family."""
        if self.kind == "drawn":
            return self.name
        stem = self.name.split("-", 1)[1]
        for prefix in ("nicu-", "gm-"):
            stem = stem.removeprefix(prefix)
        return stem.replace("_bitmap", "").replace("_4_color", "").replace("-classic", "")


def packages_present() -> bool:
    """Whether a deck package's SVG files are on this machine."""
    return any(AISLERIOT_DIR.glob("*.svgz")) or any(KDE_DIR.glob("svg-*/*.svg*"))


def ensure_packages() -> None:
    """Install the deck packages with apt-get when none of their files are present."""
    if packages_present():
        return
    apt = shutil.which("apt-get")
    if apt is None:
        raise FaceError("no card decks found and apt-get is unavailable; install " + " ".join(APT_PACKAGES))
    subprocess.run([apt, "install", "-y", "--no-install-recommends", *APT_PACKAGES], check=True)


def _sources() -> list[DesignSource]:
    out: list[DesignSource] = []
    for p in sorted(AISLERIOT_DIR.glob("*.svg*")):
        stem = p.name.split(".")[0]
        if not stem.isascii():  # a duplicate of atlasnye under a Cyrillic name
            continue
        out.append(DesignSource(f"aisleriot-{stem}", "aisleriot", p))
    for d in sorted(KDE_DIR.glob("svg-*")):
        files = sorted(d.glob("*.svg*"))
        if files:
            out.append(DesignSource(f"kde-{d.name.removeprefix('svg-')}", "kde", files[0]))
    # decks drawn from a seed (datasets/drawn_decks.py): more suit shapes and rank fonts
    out += [DesignSource(f"drawn-{n:02d}", "drawn", Path(f"drawn-{n:02d}")) for n in range(DRAWN_DECKS)]
    return [s for s in out if s.name not in EXCLUDED]


# --------------------------------------------------------------------------- rendering


def _rsvg(path: Path, width: int, export_id: str | None = None) -> np.ndarray | None:
    cmd = ["rsvg-convert", "-w", str(width)]
    if export_id:
        cmd.append(f"--export-id={export_id}")
    cmd.append(str(path))
    r = subprocess.run(cmd, capture_output=True)
    if r.returncode != 0 or not r.stdout:
        return None
    return np.asarray(Image.open(io.BytesIO(r.stdout)).convert("RGBA"))


def _trim(img: np.ndarray) -> np.ndarray | None:
    ys, xs = np.nonzero(img[:, :, 3] > 128)
    if len(xs) == 0:
        return None
    return img[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def _render_aisleriot(src: DesignSource) -> dict[str, np.ndarray]:
    sheet = _rsvg(src.path, FACE_WIDTH * 13 + 13)
    if sheet is None:
        raise FaceError(f"{src.name}: rsvg-convert failed")
    h, w = sheet.shape[:2]
    cw, ch = w / 13, h / 5
    faces: dict[str, np.ndarray] = {}

    def cell(r: int, c: int) -> np.ndarray | None:
        return _trim(sheet[int(round(r * ch)) : int(round((r + 1) * ch)), int(round(c * cw)) : int(round((c + 1) * cw))])

    for r, suit in enumerate(_AISLERIOT_ROWS):
        for c, rank in enumerate(_RANKS):
            im = cell(r, c)
            if im is not None:
                faces[rank + suit] = im
    for c, code in ((0, "SJ"), (1, "BJ"), (2, "BACK")):
        im = cell(4, c)
        if im is not None:
            faces[code] = im
    return faces


def _kde_id(code: str) -> str:
    rank, suit = code[:-1], code[-1]
    return f"{_KDE_RANK.get(rank, rank)}_{_SUIT_NAME[suit]}"


def _render_kde(src: DesignSource) -> dict[str, np.ndarray]:
    faces: dict[str, np.ndarray] = {}
    for code in CLASS_NAMES[:52]:
        im = _rsvg(src.path, FACE_WIDTH, _kde_id(code))
        if im is not None and (im := _trim(im)) is not None:
            faces[code] = im
    for code, eid in (("SJ", "black_joker"), ("BJ", "red_joker")):
        im = _rsvg(src.path, FACE_WIDTH, eid)
        if im is not None and (im := _trim(im)) is not None:
            faces[code] = im
    return faces


def _resvg_binary() -> str | None:
    """The ``resvg`` renderer (PyPI ``resvg-cli``, installed beside this Python), if present."""
    here = Path(sys.executable).parent / "resvg"
    return str(here) if here.is_file() else shutil.which("resvg")


def _render_kde_sheet(src: DesignSource) -> dict[str, np.ndarray]:
    """The faces of a KDE deck cut from one render of the whole sheet.

    Some KDE decks put transforms on their card groups that ``rsvg-convert --export-id``
    mis-measures (it renders a sliver or an empty box).  ``resvg --query-all`` reports each
    card's true bounds, so the sheet is rendered once at a zoom that makes a card
    :data:`FACE_WIDTH` wide and every face is cut out of it.
    """
    exe = _resvg_binary()
    if exe is None:
        return {}
    q = subprocess.run([exe, "--query-all", str(src.path)], capture_output=True, text=True)
    bounds: dict[str, tuple[float, float, float, float]] = {}
    for line in q.stdout.splitlines():
        parts = line.split(",")
        if len(parts) == 5:
            try:
                bounds[parts[0]] = (float(parts[1]), float(parts[2]), float(parts[3]), float(parts[4]))
            except ValueError:
                continue
    ids = {code: _kde_id(code) for code in CLASS_NAMES[:52]} | {"SJ": "black_joker", "BJ": "red_joker"}
    if ids["AS"] not in bounds or bounds[ids["AS"]][2] <= 0:
        return {}
    zoom = FACE_WIDTH / bounds[ids["AS"]][2]
    r = subprocess.run([exe, "-z", f"{zoom:.6f}", str(src.path), "-c"], capture_output=True)
    if r.returncode != 0 or not r.stdout:
        return {}
    sheet = np.asarray(Image.open(io.BytesIO(r.stdout)).convert("RGBA"))
    faces: dict[str, np.ndarray] = {}
    for code, eid in ids.items():
        if eid not in bounds:
            continue
        x, y, bw, bh = bounds[eid]
        x1, y1 = int(round(x * zoom)), int(round(y * zoom))
        x2, y2 = int(round((x + bw) * zoom)), int(round((y + bh) * zoom))
        if x1 < 0 or y1 < 0 or x2 > sheet.shape[1] or y2 > sheet.shape[0]:
            continue
        im = _trim(sheet[y1:y2, x1:x2])
        if im is not None:
            faces[code] = im
    return faces


def _normalise(faces: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Keep faces of one consistent card size; drop the deck if the 52 are not all there."""
    sizes = [faces[c].shape[:2] for c in CLASS_NAMES[:52] if c in faces]
    if len(sizes) < 52:
        return {}
    hs = np.array([s[0] for s in sizes])
    ws = np.array([s[1] for s in sizes])
    h0, w0 = int(np.median(hs)), int(np.median(ws))
    if not 1.25 <= h0 / max(w0, 1) <= 1.75:
        return {}
    out: dict[str, np.ndarray] = {}
    for code, im in faces.items():
        h, w = im.shape[:2]
        if abs(h - h0) > max(3, 0.03 * h0) or abs(w - w0) > max(3, 0.03 * w0):
            continue
        opaque = (im[:, :, 3] > 128).mean()
        if opaque < 0.85:  # not a card-shaped element
            continue
        if (h, w) != (h0, w0):
            im = cv2.resize(im, (w0, h0), interpolation=cv2.INTER_AREA)
        out[code] = np.ascontiguousarray(im)
    if any(c not in out for c in CLASS_NAMES[:52]):
        return {}
    return out


# --------------------------------------------------------------------------- corner boxes


def _paper_and_ink(img: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mask of the card and mask of 'ink' (anything clearly differing from the paper)."""
    h, w = img.shape[:2]
    card = img[:, :, 3] > 128
    m = max(2, int(round(0.035 * w)))
    # (outside the image counts as off the card: a face cut flush with its edges has no
    # transparent margin, and the band below must still run along all four sides)
    inner = cv2.erode(card.astype(np.uint8), np.ones((2 * m + 1, 2 * m + 1), np.uint8),
                      borderType=cv2.BORDER_CONSTANT, borderValue=0) > 0
    rgb = img[:, :, :3].astype(np.int16)
    # Paper colour: median of a thin band just inside the outline.
    band = inner & ~(cv2.erode(inner.astype(np.uint8), np.ones((7, 7), np.uint8),
                               borderType=cv2.BORDER_CONSTANT, borderValue=0) > 0)
    paper = np.median(rgb[band], axis=0) if band.any() else np.array([255, 255, 255])
    diff = np.abs(rgb - paper).sum(axis=2)
    ink = inner & (diff > 90)
    return inner, ink


def _components(ink: np.ndarray) -> list[Box]:
    h, w = ink.shape
    k = max(1, int(round(0.01 * w)))
    dil = cv2.dilate(ink.astype(np.uint8), np.ones((2 * k + 1, 2 * k + 1), np.uint8))
    n, _lab, stats, _ = cv2.connectedComponentsWithStats(dil, connectivity=8)
    boxes: list[Box] = []
    for i in range(1, n):
        x, y, bw, bh, _area = stats[i]
        # undo the dilation on the box
        boxes.append((int(x + k), int(y + k), int(x + bw - k), int(y + bh - k)))
    return [b for b in boxes if b[2] > b[0] and b[3] > b[1]]


def _gap(a: Box, b: Box) -> float:
    dx = max(0, max(a[0], b[0]) - min(a[2], b[2]))
    dy = max(0, max(a[1], b[1]) - min(a[3], b[3]))
    return float(max(dx, dy))


def _union(a: Box, b: Box) -> Box:
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


# How far down the corner an index may reach (fraction of the face height): some designs
# (ornamental, nicu) print a large suit under the rank that ends near mid-card.
INDEX_ZONE_H = 0.50
INDEX_MAX_H = 0.46


def _tl_index(ink: np.ndarray, ref: Box | None = None) -> Box | None:
    """The index at the top-left corner of an ink mask, or None.

    Without ``ref``: seed at the in-zone component nearest the corner and grow by close
    in-zone components.  With ``ref`` (the design's index box from clean cards): take the
    in-zone components overlapping ``ref`` grown by a margin.
    """
    h, w = ink.shape
    zx, zy = 0.34 * w, INDEX_ZONE_H * h
    comps = [b for b in _components(ink) if b[2] <= zx and b[3] <= zy]
    comps = [b for b in comps if (b[2] - b[0]) * (b[3] - b[1]) >= 4]
    if ref is not None:
        mx, my = 0.25 * (ref[2] - ref[0]), 0.15 * (ref[3] - ref[1])
        grown = (ref[0] - mx, ref[1] - my, ref[2] + mx, ref[3] + my)
        hit = [b for b in comps if b[0] < grown[2] and b[2] > grown[0] and b[1] < grown[3] and b[3] > grown[1]]
        box = None
        for b in hit:
            box = b if box is None else _union(box, b)
        if box is None or box_iou(box, ref) < 0.6:
            # a glyph touches a picture or frame (so its component left the zone):
            # take the ink inside the design's box
            x1, y1 = int(ref[0] - 0.1 * (ref[2] - ref[0])), int(ref[1] - 0.05 * (ref[3] - ref[1]))
            x1, y1 = max(0, x1), max(0, y1)
            ys, xs = np.nonzero(ink[y1 : ref[3], x1 : ref[2]])
            if len(xs) < 4:
                return None
            return (x1 + int(xs.min()), y1 + int(ys.min()), x1 + int(xs.max()) + 1, y1 + int(ys.max()) + 1)
        return box
    if not comps:
        return None
    comps.sort(key=lambda b: b[0] ** 2 + b[1] ** 2)
    box = comps[0]
    if box[0] > 0.2 * w or box[1] > 0.2 * h:
        return None
    g = 0.05 * w
    changed = True
    while changed:
        changed = False
        for b in comps:
            if b != box and _union(box, b) != box and _gap(box, b) <= g:
                cand = _union(box, b)
                # an index is narrow and tall-ish; stop before swallowing pip columns
                if cand[2] - cand[0] > 0.26 * w or cand[3] - cand[1] > INDEX_MAX_H * h:
                    continue
                box, changed = cand, True
    return box


_CORNERS = ("tl", "tr", "br", "bl")


def _flip_to_tl(a: np.ndarray, corner: str) -> np.ndarray:
    if corner == "tl":
        return a
    if corner == "tr":
        return a[:, ::-1]
    if corner == "br":
        return a[::-1, ::-1]
    return a[::-1, :]


def _unflip_box(b: Box, corner: str, w: int, h: int) -> Box:
    x1, y1, x2, y2 = b
    if corner in ("tr", "br"):
        x1, x2 = w - x2, w - x1
    if corner in ("br", "bl"):
        y1, y2 = h - y2, h - y1
    return (x1, y1, x2, y2)


def _median_box(boxes: list[Box]) -> Box:
    a = np.array(boxes)
    return (int(np.median(a[:, 0])), int(np.median(a[:, 1])), int(np.median(a[:, 2])), int(np.median(a[:, 3])))


def find_corner_boxes(faces: dict[str, np.ndarray]) -> dict[str, list[Box]]:
    """Corner-index boxes for every face of one design (face pixel coordinates).

    The design's index position is learned per corner from the aces, twos and threes
    (their pips stay clear of the corners); then each card's own index is the ink
    overlapping that position.  Corners where the clean cards show no consistent index
    are not labelled for the design.  Faces without a found index get no entry.
    """
    clean = [r + s for r in ("A", "2", "3") for s in "SHDC"]
    h, w = faces["AS"].shape[:2]
    inks = {code: _paper_and_ink(im)[1] for code, im in faces.items() if code != "BACK"}
    refs: dict[str, Box] = {}
    for corner in _CORNERS:
        found = [_tl_index(_flip_to_tl(inks[c], corner)) for c in clean]
        ok = [b for b in found if b is not None]
        if len(ok) < 0.75 * len(clean):
            continue
        ref = _median_box(ok)
        area = (ref[2] - ref[0]) * (ref[3] - ref[1])
        # the two glyphs of an index: not a speck, not a picture
        if area < 0.004 * w * h or area > 0.10 * w * h or ref[3] - ref[1] < 0.06 * h:
            continue
        agree = sum(1 for b in ok if box_iou(b, ref) > 0.5)
        if agree < 0.6 * len(clean):
            continue
        refs[corner] = ref
    if "tl" not in refs:
        return {}
    ref_area = (refs["tl"][2] - refs["tl"][0]) * (refs["tl"][3] - refs["tl"][1])
    for corner in list(refs):
        r = refs[corner]
        if not 0.4 <= (r[2] - r[0]) * (r[3] - r[1]) / ref_area <= 2.5:
            del refs[corner]
    out: dict[str, list[Box]] = {}
    for code, ink in inks.items():
        boxes: list[Box] = []
        joker = code in ("SJ", "BJ")
        for corner, ref in refs.items():
            flipped = _flip_to_tl(ink, corner)
            b = _tl_index(flipped) if joker else _tl_index(flipped, ref)
            if b is None:
                continue
            if not joker:
                # clip to the reference grown generously (pictures may touch the index)
                rw, rh = ref[2] - ref[0], ref[3] - ref[1]
                b = (max(b[0], ref[0] - int(0.3 * rw)), max(b[1], ref[1] - int(0.2 * rh)),
                     min(b[2], ref[2] + int(0.6 * rw)), min(b[3], ref[3] + int(0.3 * rh)))
            else:
                ba = (b[2] - b[0]) * (b[3] - b[1])
                if not 0.25 * ref_area <= ba <= 4.0 * ref_area:
                    continue
            boxes.append(_unflip_box(b, corner, w, h))
        if boxes:
            out[code] = [_pad(b, w, h) for b in boxes]
    return out


def _pad(b: Box, w: int, h: int, p: int = 1) -> Box:
    return (max(0, b[0] - p), max(0, b[1] - p), min(w, b[2] + p), min(h, b[3] + p))


# --------------------------------------------------------------------------- the library


def _cache_dir(name: str) -> Path:
    return CACHE_DIR / name


def _build(src: DesignSource) -> None:
    unusable = "not a complete French deck of consistent card size"
    if src.kind == "drawn":
        try:
            faces = _normalise(draw_deck(int(src.name.rsplit("-", 1)[1])))
        except DrawnDeckError as exc:  # no fonts: the deck is left out, with the reason
            faces, unusable = {}, str(exc)
    else:
        faces = _normalise(_render_aisleriot(src) if src.kind == "aisleriot" else _render_kde(src))
        if not faces and src.kind == "kde":
            faces = _normalise(_render_kde_sheet(src))
    meta: dict = {"version": CACHE_VERSION, "source": str(src.path), "family": src.family, "usable": False}
    d = _cache_dir(src.name)
    d.mkdir(parents=True, exist_ok=True)
    if faces:
        boxes = find_corner_boxes(faces)
        keep = {c: boxes[c] for c in faces if c in boxes}
        if all(c in keep for c in CLASS_NAMES[:52]):
            for code in keep:
                Image.fromarray(faces[code]).save(d / f"{code}.png")
            if "BACK" in faces:
                Image.fromarray(faces["BACK"]).save(d / "BACK.png")
            meta.update(usable=True, boxes=keep, codes=[c for c in CLASS_NAMES if c in keep],
                        has_back="BACK" in faces)
        else:
            missing = [c for c in CLASS_NAMES[:52] if c not in keep]
            meta["reason"] = f"no corner index found on {len(missing)} faces, e.g. {missing[:5]}"
    else:
        meta["reason"] = unusable
    (d / "meta.json").write_text(json.dumps(meta, indent=1))


def _meta(src: DesignSource) -> dict:
    p = _cache_dir(src.name) / "meta.json"
    if p.exists():
        meta = json.loads(p.read_text())
        if meta.get("version") == CACHE_VERSION:
            meta["family"] = src.family
            return meta
    _build(src)
    return json.loads(p.read_text())


class _Library(Mapping):
    """The designs' cache entries by name, each built the first time it is asked for: naming
    one design (``CardFaces``) or the held-out split renders only those decks, not the whole
    library (minutes on a cold cache)."""

    def __init__(self, sources: list[DesignSource]) -> None:
        self._sources = {s.name: s for s in sources}
        self._built: dict[str, dict] = {}

    def __getitem__(self, name: str) -> dict:
        if name not in self._built:
            self._built[name] = _meta(self._sources[name])  # KeyError for an unknown design
        return self._built[name]

    def __contains__(self, name: object) -> bool:  # known without building
        return name in self._sources

    def __iter__(self) -> Iterator[str]:
        return iter(self._sources)

    def __len__(self) -> int:
        return len(self._sources)

    def family(self, name: str) -> str:
        """A design's family, known without building it."""
        return self._sources[name].family


def cached_sources(cache_dir: Path | None = None) -> list[DesignSource]:
    """The usable designs built into the cache (``cache_dir``, default :data:`CACHE_DIR`),
    read from their ``meta.json`` alone.  On a machine without the deck packages (the lent
    GPU machine, which gets the cache from ``cardref device-kit``: :mod:`.device_kit`) these
    are the library, and they are what the kit packs."""
    cache_dir = CACHE_DIR if cache_dir is None else cache_dir
    out: list[DesignSource] = []
    if not cache_dir.is_dir():
        return out
    for d in sorted(cache_dir.iterdir()):
        try:
            meta = json.loads((d / "meta.json").read_text())
        except (OSError, ValueError):
            continue
        kind = d.name.split("-", 1)[0]
        if (meta.get("version") != CACHE_VERSION or not meta.get("usable") or d.name in EXCLUDED
                or kind not in ("aisleriot", "kde", "drawn")):
            continue
        out.append(DesignSource(d.name, kind, Path(str(meta.get("source") or d.name))))
    return out


@lru_cache(maxsize=1)
def _all_meta() -> _Library:
    if not packages_present():
        carried = cached_sources()
        if carried:  # no SVG decks here, but a cache carried from a machine that has them
            sources = [s for s in _sources() if s.kind == "drawn"]
            known = {s.name for s in sources}
            return _Library(sources + [s for s in carried if s.name not in known])
    ensure_packages()
    return _Library(_sources())


def list_designs(split: str | None = None) -> list[str]:
    """Usable designs (all 52 faces with found corner indices), optionally of one split.

    ``split`` is ``None`` (all), ``"train"`` or ``"heldout"``.  The held-out split is that of
    :func:`heldout_families`; while a pinned family has a usable design, only the pinned
    families' designs are built to answer it.
    """
    metas = _all_meta()
    if split == "heldout":
        pinned = sorted(n for n in metas if metas.family(n) in HELDOUT_FAMILIES and metas[n].get("usable"))
        if pinned:
            return pinned
    names = sorted(n for n, m in metas.items() if m.get("usable"))
    if split is None:
        return names
    if split not in ("train", "heldout"):
        raise ValueError(f"split must be 'train' or 'heldout', not {split!r}")
    held = heldout_families([metas[n]["family"] for n in names])
    return [n for n in names if (metas[n]["family"] in held) == (split == "heldout")]


def list_sources() -> list[str]:
    """Every design's name on this machine, usable or not, without building any."""
    return sorted(_all_meta())


def iter_designs(split: str | None = None, order: list[str] | None = None) -> Iterator[str]:
    """The designs of :func:`list_designs` (same split, same set), built one at a time as the
    caller walks them, in ``order`` (design names; default sorted).  A caller that needs one
    design, or the first few, does not build the whole library (minutes on a cold cache).

    While a pinned held-out family has a usable design, the split is known from the family
    alone; otherwise (another library) the whole list is built first, as by ``list_designs``.
    """
    if split not in (None, "train", "heldout"):
        raise ValueError(f"split must be 'train' or 'heldout', not {split!r}")
    metas = _all_meta()
    names = sorted(metas) if order is None else [n for n in order if n in metas]
    pinned = any(metas[n].get("usable") for n in metas if metas.family(n) in HELDOUT_FAMILIES)
    if split == "heldout" or not pinned:
        allowed = set(list_designs(split))
        yield from (n for n in names if n in allowed)
        return
    for name in names:
        if split == "train" and metas.family(name) in HELDOUT_FAMILIES:
            continue
        if metas[name].get("usable"):
            yield name


def heldout_families(families: list[str]) -> set[str]:
    """The held-out families among ``families``: the pinned :data:`HELDOUT_FAMILIES` when any
    is present; otherwise (another library, e.g. a test's) the first fraction in sha1 order
    of the family name."""
    pinned = set(families) & HELDOUT_FAMILIES
    if pinned:
        return pinned
    fams = sorted(set(families), key=lambda f: hashlib.sha1(f.encode()).hexdigest())
    k = max(1, int(round(HELDOUT_FRACTION * len(fams))))
    return set(fams[:k])


def design_reasons() -> dict[str, str]:
    """Why each unusable design was skipped."""
    return {n: m.get("reason", "") for n, m in _all_meta().items() if not m.get("usable")}


class CardFaces:
    """The rendered faces of one design and their corner-index boxes."""

    def __init__(self, design: str) -> None:
        metas = _all_meta()
        if design not in metas or not metas[design].get("usable"):
            raise FaceError(f"unknown or unusable design {design!r}; see list_designs()")
        self.design = design
        self._meta = metas[design]
        self._dir = _cache_dir(design)
        self._images: dict[str, np.ndarray] = {}
        self._points: dict[str, list[np.ndarray]] = {}

    @property
    def codes(self) -> list[str]:
        """Card codes this design has (52, plus SJ/BJ when its jokers carry an index)."""
        return list(self._meta["codes"])

    @property
    def has_jokers(self) -> bool:
        return "SJ" in self._meta["codes"] and "BJ" in self._meta["codes"]

    @property
    def family(self) -> str:
        return str(self._meta["family"])

    def image(self, code: str) -> np.ndarray:
        """The face as an RGBA uint8 array (height x width x 4), about 200 px wide."""
        if code not in self._meta["boxes"]:
            raise KeyError(f"{self.design} has no face {code!r}")
        return self._load(code)

    def back(self) -> np.ndarray | None:
        """The card back (RGBA), when the deck has one."""
        if not self._meta.get("has_back"):
            return None
        return self._load("BACK")

    def _load(self, code: str) -> np.ndarray:
        im = self._images.get(code)
        if im is None:
            im = np.asarray(Image.open(self._dir / f"{code}.png").convert("RGBA"))
            self._images[code] = im
        return im

    def corner_points(self, code: str) -> list[np.ndarray]:
        """Per corner box, the ink pixels of the index as an (N, 2) float array of (x, y).

        Used to place labels tightly after any geometric transform and to measure how
        much of an index stays visible under occlusion.
        """
        key = "pts:" + code
        cached = self._points.get(key)
        if cached is not None:
            return cached
        ink = _paper_and_ink(self.image(code))[1]
        out: list[np.ndarray] = []
        for x1, y1, x2, y2 in self.corner_boxes(code):
            ys, xs = np.nonzero(ink[y1:y2, x1:x2])
            if len(xs) < 4:
                pts = np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]], np.float32)
            else:
                pts = np.stack([xs + x1 + 0.5, ys + y1 + 0.5], axis=1).astype(np.float32)
            out.append(pts)
        self._points[key] = out
        return out

    def corner_boxes(self, code: str) -> list[Box]:
        """Boxes (x1, y1, x2, y2; face pixels) around each rank-and-suit corner index."""
        if code not in self._meta["boxes"]:
            raise KeyError(f"{self.design} has no face {code!r}")
        return [tuple(b) for b in self._meta["boxes"][code]]  # type: ignore[misc]


@lru_cache(maxsize=64)
def get_faces(design: str) -> CardFaces:
    """A shared :class:`CardFaces` per design (decoded images and ink points stay cached)."""
    return CardFaces(design)
