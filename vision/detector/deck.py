"""Deck enrolment: teach the detector the one deck a table plays with.

The corner namer is trained on many card designs and reads most decks it never saw, but
some designs fool it the same way every time (one deck's clubs read as spades, another's
Cyrillic court letters).  A table, a club or a tournament plays with one deck design, so
the referee shows it to the camera once: one deck laid out face up, in rows
(:func:`layout_codes`), or photos whose corners are labelled.  The namer's features of those
corners become the deck's *profile*; from then on every reading is weighed against it
(:meth:`DeckProfile.rescore`): each enrolled code's probability is discounted by how much
less the patch resembles that code's nearest enrolled index than the best-matching code's
(cosine similarity of the namer's features, discount ``exp(-SHARPNESS * gap)``).  Nothing is
ever raised above the namer's own reading, so codes the layout did not show and "not a
corner" keep their odds against the enrolled codes.

Measured with ``cardref eval-detector --deck-probe`` (clean index renders at 12-22 px of
the other corner than the enrolled one, blurred and noisy; shipped namer n6): indices named
right by the namer alone / with the deck enrolled / with a quarter of its codes left out:
aisleriot-plastic 0.76 / 0.92 / 0.86, slavic_costumes 0.79 / 0.95 / 0.82, anglo_modern
0.97 / 0.96 / 0.96, lattmann 0.99 / 0.99 / 0.99, simplistic 1.00 / 1.00 / 1.00.  An earlier
form that shared the enrolled codes' probability out again by a softmax of similarities did
as well on whole decks but lost on partly enrolled ones (real photos of the standard deck,
45 codes enrolled: card F1 0.75 -> 0.64): a code left out lost to its enrolled look-alike.

A profile is only valid for the namer that made it (its features): it records the namer
file's digest and :meth:`CornerNamer.use_deck` refuses another.

A layout enrolment also adapts the namer to the deck (:mod:`.deck_adapt`, ``adapt_steps``):
a copy fine-tuned on the enrolled index cuts travels inside the profile and reads every
corner while the profile is used.  The adapted namer reads alone (sharpness 0): on the
index boxes of six simulated deals of the held-out designs (one per design) it named
98.35 % right alone and 97.8 % weighed against its own features at the sharpness the
namer's enrolment had chosen (anglo_modern 97.8 -> 94.2 %), where the shipped namer with
the profile named 97.1 %.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..classes import CLASS_NAMES
from ..types import Box, CardDetection, box_centre
from .errors import DetectorError
from .namer import NAMER_CLASSES, crop_corner

#: How hard an enrolled code is discounted per unit of cosine similarity it lacks against
#: the best-matching enrolled code (a gap of 0.02 costs a factor 20).
SHARPNESS = 150.0
#: The sharpness values an enrolment tries on its own corners (:func:`calibrate_sharpness`);
#: 0 is the namer alone.  300 and 600 were added after measuring play, not layouts: on the
#: corners the finder found in eight simulated deals of held-out designs, each read against
#: its deck enrolled from a layout frame, 150 named 92.3 % right, 300 93.4 %, 600 93.8 %,
#: each enrolment's own choice from this grid 94.0 % (aisleriot-plastic, whose clubs the
#: namer reads as spades: 84-95 % -> 92-97 %; one anglo_modern_4_color deal lost 86.0 ->
#: 84.5 % at 600 and chose 150; the rest within 0.2 points).
SHARPNESS_GRID = (0.0, 10.0, 20.0, 40.0, 80.0, 150.0, 300.0, 600.0)
#: A patch unlike every enrolled index (best cosine similarity below ``SIM_FLOOR``: a piece of
#: a picture, a hand, a card of another deck) keeps the namer's own probabilities; the
#: discount ramps up to full strength at ``SIM_FULL``.  On a simulated anglo_modern deal the
#: finder's true indices had similarities of 0.88-0.99 (5th-95th percentile) and its other
#: boxes 0.60-0.70.
SIM_FLOOR = 0.75
SIM_FULL = 0.85
#: Each enrolled index is also cut at these box scales (a little tighter and looser), as the
#: finder's boxes vary that much from frame to frame.
ENROL_BOX_SCALES = (0.9, 1.0, 1.12)
#: ... and turned by these angles (degrees) about its centre: cards lie at any angle on the
#: table, the layout's upright.
ENROL_ANGLES = (0.0, -20.0, 20.0, -45.0, 45.0)
#: Suit rows of a laid-out deck, top to bottom, unless the user says otherwise.
DEFAULT_ROWS = "SHCD"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
#: Version 2 may hold the deck's adapted namer; version 1 files (without) still load.
PROFILE_VERSION = 2
READABLE_VERSIONS = (1, 2)


class DeckProfileError(DetectorError):
    """A deck profile cannot be made, read or used; the message says why and what to do."""


class LayoutError(DeckProfileError):
    """A layout frame cannot be read; ``cards`` are the cards found in it (to show the user)."""

    def __init__(self, message: str, cards: list) -> None:  # list[LaidCard]
        super().__init__(message)
        self.cards = cards


def layout_rows(rows: str = DEFAULT_ROWS, jokers: bool = True) -> list[list[str]]:
    """The card codes of a laid-out deck, row by row from the top, left to right: one suit
    per row in the order ``rows``, ace to king, then (``jokers``) the small and the big joker."""
    return [[r + s for r in RANKS] for s in rows] + ([["SJ", "BJ"]] if jokers else [])


@dataclass
class DeckProfile:
    """Enrolled corner features of one deck design, by card code."""

    label: str
    codes: list[str]  # the code of each prototype row
    prototypes: np.ndarray  # (n, d) unit-length namer features
    namer_sha1: str
    turns: int
    source: str = ""
    sharpness: float = SHARPNESS
    calibration: dict = field(default_factory=dict)  # how the sharpness was chosen
    #: the namer adapted to this deck (ONNX, :mod:`.deck_adapt`); ``None``: the shipped namer reads
    namer_onnx: bytes | None = None
    _cols: dict[str, list[int]] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        self.prototypes = np.asarray(self.prototypes, dtype=np.float32)
        if self.prototypes.ndim != 2 or len(self.prototypes) != len(self.codes) or not len(self.codes):
            raise DeckProfileError(f"deck profile {self.label!r}: {len(self.codes)} codes for "
                                   f"{self.prototypes.shape} prototypes")
        bad = sorted(set(self.codes) - set(CLASS_NAMES))
        if bad:
            raise DeckProfileError(f"deck profile {self.label!r}: unknown card codes {', '.join(bad)}")
        for i, c in enumerate(self.codes):
            self._cols.setdefault(c, []).append(i)

    @property
    def enrolled(self) -> list[str]:
        """The card codes the profile knows, in class order."""
        return [c for c in CLASS_NAMES if c in self._cols]

    def rescore(self, probs: np.ndarray, feats: np.ndarray) -> np.ndarray:
        """The namer's ``(n, 55)`` probabilities weighed against the profile (same shape).

        Each enrolled code's probability is multiplied by ``exp(-sharpness * like * gap)``,
        ``gap`` how much less similar the patch is to that code's nearest enrolled index than
        to the best-matching enrolled code's, ``like`` 0..1 how much the patch resembles any
        enrolled index at all (:data:`SIM_FLOOR`); codes not enrolled and "not a corner" are
        left as they are; the result is normalised again."""
        probs = np.asarray(probs, dtype=np.float64)
        if not len(probs):
            return probs.astype(np.float32)
        if self.sharpness == 0:  # every discount is exp(0) = 1 (a deck's adapted namer reads alone)
            return (probs / np.maximum(probs.sum(axis=1, keepdims=True), 1e-12)).astype(np.float32)
        codes = self.enrolled
        # einsum, not a BLAS product: OpenBLAS's threads keep spinning after a product and
        # took the cores from the finder's next frame (detector 30 -> 48 ms a frame with a
        # profile on this 2-core machine; this costs 0.3 ms)
        sims = np.einsum("ij,kj->ik", np.asarray(feats, dtype=np.float64), self.prototypes.astype(np.float64))
        best = np.stack([sims[:, self._cols[c]].max(axis=1) for c in codes], axis=1)
        return discounted(probs, best, codes, self.sharpness).astype(np.float32)

    # ------------------------------------------------------------------ files
    def save(self, path: str | Path) -> Path:
        """Write the profile (``.npz``: the prototypes and a JSON header); returns the path."""
        path = Path(path)
        if path.suffix != ".npz":
            path = path.with_suffix(".npz")
        path.parent.mkdir(parents=True, exist_ok=True)
        meta = {"version": PROFILE_VERSION, "label": self.label, "codes": self.codes, "namer_sha1": self.namer_sha1,
                "turns": self.turns, "source": self.source, "sharpness": self.sharpness,
                "calibration": self.calibration}
        arrays = {"prototypes": self.prototypes, "meta": np.frombuffer(json.dumps(meta).encode(), np.uint8)}
        if self.namer_onnx:
            arrays["namer"] = np.frombuffer(self.namer_onnx, np.uint8)
        tmp = path.with_name(path.name + ".part")
        with open(tmp, "wb") as fh:
            np.savez(fh, **arrays)
        tmp.replace(path)
        return path

    @classmethod
    def load(cls, path: str | Path) -> DeckProfile:
        path = Path(path)
        if not path.is_file():
            raise DeckProfileError(f"deck profile not found: {path} (make one with `cardref enrol-deck`)")
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(bytes(data["meta"]).decode())
                protos = np.array(data["prototypes"])
                namer = bytes(data["namer"]) if "namer" in data.files else None
            if meta.get("version") not in READABLE_VERSIONS:
                raise DeckProfileError(f"deck profile {path}: version {meta.get('version')!r}, "
                                       f"this cardref reads {', '.join(map(str, READABLE_VERSIONS))}; "
                                       "enrol the deck again")
            return cls(label=str(meta["label"]), codes=[str(c) for c in meta["codes"]], prototypes=protos,
                       namer_sha1=str(meta["namer_sha1"]), turns=int(meta["turns"]), source=str(meta.get("source", "")),
                       sharpness=float(meta.get("sharpness", SHARPNESS)),
                       calibration=dict(meta.get("calibration", {})), namer_onnx=namer)
        except DeckProfileError:
            raise
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise DeckProfileError(f"deck profile {path} is unreadable ({exc.__class__.__name__}: {exc}); "
                                   "enrol the deck again with `cardref enrol-deck`") from exc


def discounted(probs: np.ndarray, best: np.ndarray, codes: Sequence[str], sharpness: float) -> np.ndarray:
    """``probs`` (n, 55) with each of ``codes`` discounted by its similarity gap (the rule of
    :meth:`DeckProfile.rescore`); ``best`` (n, len(codes)) is each patch's similarity to the
    nearest enrolled index of each code, ``-inf`` where a code has none (left as it is)."""
    known = np.isfinite(best)
    top = np.where(known, best, -np.inf).max(axis=1, keepdims=True)
    like = np.clip((top - SIM_FLOOR) / (SIM_FULL - SIM_FLOOR), 0.0, 1.0)
    like = np.where(np.isfinite(like), like, 0.0)
    out = np.array(probs, dtype=np.float64)
    gap = np.zeros(best.shape, dtype=np.float64)
    np.subtract(top, best, out=gap, where=known)  # (rows with no code known would give -inf - -inf)
    out[:, [NAMER_CLASSES.index(c) for c in codes]] *= np.exp(-sharpness * like * gap)
    return out / np.maximum(out.sum(axis=1, keepdims=True), 1e-12)


# ---------------------------------------------------------------------- layout
#: Two marks of a layout read as the same code are one card when their placed centres lie
#: within this share of a card's width and height (other marks: within half).
SAME_CODE_REACH = 0.8


@dataclass
class LaidCard:
    """One card of a layout: where it lies, its index corners, the namer's reading and the
    code its place in the layout gives it."""

    centre: tuple[float, float]
    corners: list  # CornerDetection
    read: str
    code: str = ""

    @property
    def box(self) -> Box:
        return (min(c.box[0] for c in self.corners), min(c.box[1] for c in self.corners),
                max(c.box[2] for c in self.corners), max(c.box[3] for c in self.corners))


def _laid_cards(cards: Sequence[CardDetection]) -> list[LaidCard]:
    """The cards of an upright layout, one per card even where the merge left a card's two
    indices apart: the typical step from a card's top-left index to its bottom-right one is
    learnt from the cards seen whole; a lone index is put at the card centre that lines up
    with the others (as a top-left or as a bottom-right index), and indices that land on one
    centre are one card.  Two marks along one edge of a card (a joker's word and a dot) are
    no card seen whole: their box is much shorter than a card's, and they are placed like a
    lone index."""
    paired = [c for c in cards if len(c.corners) >= 2]
    tall = 0.6 * float(np.median([c.box[3] - c.box[1] for c in paired])) if paired else 0.0
    whole = [c for c in paired if c.box[3] - c.box[1] >= tall]
    if len(whole) < 3:
        return [LaidCard(box_centre(c.box), list(c.corners), c.card) for c in cards]
    steps = []
    for c in whole:
        a, b = sorted((box_centre(k.box) for k in c.corners[:2]), key=lambda p: p[0] + p[1])
        steps.append((b[0] - a[0], b[1] - a[1]))
    sx, sy = float(np.median([s[0] for s in steps])), float(np.median([s[1] for s in steps]))
    xs = np.array([box_centre(c.box)[0] for c in whole])
    ys = np.array([box_centre(c.box)[1] for c in whole])
    unit = max(1.0, float(np.hypot(sx, sy)))
    laid = [LaidCard(box_centre(c.box), list(c.corners), c.card) for c in whole]
    whole_ids = {id(c) for c in whole}
    for c in cards:
        if id(c) in whole_ids:
            continue
        cx, cy = box_centre(c.corners[0].box) if len(c.corners) == 1 else box_centre(c.box)
        home = [k for k in laid[:len(whole)] if k.box[0] <= cx <= k.box[2] and k.box[1] <= cy <= k.box[3]]
        if home:  # an index inside a card seen whole (a joker's third mark, a court card's picture)
            home[0].corners += list(c.corners)
            continue
        options = [(cx + sx / 2, cy + sy / 2), (cx - sx / 2, cy - sy / 2)]  # a top-left or a bottom-right index
        score = [(np.abs(xs - x).min() + np.abs(ys - y).min()) / unit for x, y in options]
        laid.append(LaidCard(options[int(np.argmin(score))], list(c.corners), c.card))
    # indices that landed on one card are that card
    # within half a card of each other (a card seen whole spans about its two indices; the
    # layout keeps cards apart, so neighbours' centres are further than that)
    half_w = 0.5 * float(np.median([c.box[2] - c.box[0] for c in whole]))
    half_h = 0.5 * float(np.median([c.box[3] - c.box[1] for c in whole]))
    # ... and marks read as the same code within most of a card (SAME_CODE_REACH): a layout
    # holds each card once, and a joker's marks, which sit where no index does, are placed
    # less exactly than indices (anglo_modern's big joker at 1080p: its two marks' centres
    # 36 px apart across, half a card being 35)
    merged: list[LaidCard] = []
    for card in sorted(laid, key=lambda k: -max((c.conf for c in k.corners), default=0.0)):
        for m in merged:
            reach = 2 * SAME_CODE_REACH if card.read == m.read else 1.0
            if (abs(card.centre[0] - m.centre[0]) < half_w * reach
                    and abs(card.centre[1] - m.centre[1]) < half_h * reach):
                m.corners += card.corners
                break
        else:
            merged.append(LaidCard(card.centre, list(card.corners), card.read))
    return merged


def _rows_by_gaps(ys: Sequence[float], n_rows: int) -> list[list[int]]:
    """Indices of ``ys`` split into ``n_rows`` groups at the ``n_rows - 1`` widest gaps."""
    order = sorted(range(len(ys)), key=lambda i: ys[i])
    gaps = sorted(range(len(order) - 1), key=lambda k: ys[order[k + 1]] - ys[order[k]], reverse=True)[:n_rows - 1]
    rows, start = [], 0
    for k in sorted(gaps):
        rows.append(order[start:k + 1])
        start = k + 1
    rows.append(order[start:])
    return rows


#: Rows of a layout lie a card's height apart or more: two groups of cards whose centres are
#: closer than this share of a card's height are one row cut in two, not two rows.
ROW_BREAK_SHARE = 0.5


def _card_height(laid: Sequence[LaidCard]) -> float:
    """The median height of the laid cards seen by two or more marks (0: none)."""
    heights = [k.box[3] - k.box[1] for k in laid if len(k.corners) >= 2]
    return float(np.median(heights)) if heights else 0.0


def _narrowest_break(groups: Sequence[Sequence[LaidCard]]) -> float:
    """The smallest vertical step between the centres of one row and the next."""
    rows = [[k.centre[1] for k in g] for g in groups if g]
    return min((min(b) - max(a) for a, b in zip(rows, rows[1:], strict=False)), default=float("inf"))


def _widest_row(groups: Sequence[Sequence[LaidCard]]) -> float:
    """The largest vertical spread of the card centres within one row."""
    return max((max(k.centre[1] for k in g) - min(k.centre[1] for k in g) for g in groups if g), default=0.0)


def _overfull(groups: Sequence[Sequence[LaidCard]], names: Sequence[Sequence[str]]) -> bool:
    return any(len(g) > len(n) for g, n in zip(groups, names, strict=True))


def _rows_of(laid: list[LaidCard], n_rows: int) -> list[list[LaidCard]]:
    """The laid cards in ``n_rows`` rows (split at the widest gaps), each left to right with
    the marks of one card joined."""
    return [sorted(_join_columns([laid[i] for i in g]), key=lambda k: k.centre[0])
            for g in _rows_by_gaps([k.centre[1] for k in laid], n_rows)]


def layout_codes(cards: Sequence[CardDetection], rows: str = DEFAULT_ROWS, jokers: bool = True) -> list[LaidCard]:
    """The cards of a deck laid out face up in rows, each with the code its place gives it:
    one suit per row in the order ``rows`` (top to bottom as the camera sees it), ace to king
    from left to right, and (``jokers``) a last row with the small joker left of the big one,
    under the ace and the two.

    A row with cards missing (an index the finder did not see) is read against the nearest
    complete row: each card takes the column it lies under, and the missing codes are simply
    not enrolled.  Raises :class:`DeckProfileError`, saying what to fix, when a row holds more
    cards than it should, when no row is complete, or when two cards fall in one column."""
    if len(set(rows)) != len(rows) or not rows or set(rows) - set("SHDC"):
        raise DeckProfileError(f"rows must name suits once each, from S H D C (e.g. {DEFAULT_ROWS}), not {rows!r}")
    names = layout_rows(rows, jokers)
    laid = _laid_cards(cards)
    if len(laid) < len(names):
        groups: list[list[LaidCard]] = [laid]
    else:  # each row left to right, marks of one card joined
        groups = _rows_of(laid, len(names))
        row_gap = ROW_BREAK_SHARE * _card_height(laid)
        if jokers and (_overfull(groups, names) or _narrowest_break(groups) < row_gap):
            # the jokers' row not found at all (their marks unread): the suit rows alone,
            # rather than a suit row cut in two at its widest gap to make up the count
            suits_only = [*_rows_of(laid, len(names) - 1), []]
            if not _overfull(suits_only, names) and _widest_row(suits_only) < row_gap:
                groups = suits_only
    laid = [k for g in groups for k in g]
    if len(laid) < len(names) or len(laid) > sum(len(n) for n in names):
        raise LayoutError(f"the layout should show {sum(len(n) for n in names)} cards ({len(rows)} rows of 13"
                          f"{' and a row of the two jokers' if jokers else ''}), {len(laid)} were found: "
                          "make sure every card lies face up, upright, apart from the others, "
                          "with both corner indices in view", laid)
    counts = [len(g) for g in groups]
    if _overfull(groups, names):
        raise LayoutError("the cards do not fall into rows of " + ", ".join(str(len(n)) for n in names) +
                          " from top to bottom (found " + ", ".join(map(str, counts)) +
                          "): lay each suit in its own row with a gap between rows", laid)
    complete = [r for r in range(len(rows)) if counts[r] == 13]
    if not complete:
        raise LayoutError("no suit row shows all 13 cards (found " + ", ".join(map(str, counts)) +
                          "): spread the cards so that every corner index is in view", laid)
    for r, (group, row_names) in enumerate(zip(groups, names, strict=True)):
        if not group:
            continue  # a row not found at all (the jokers'): its codes are not enrolled
        if len(group) == len(row_names):
            for k, code in zip(group, row_names, strict=True):
                k.code = code
            continue
        ref = groups[min(complete, key=lambda c: abs(np.median([k.centre[1] for k in groups[c]])
                                                    - np.median([k.centre[1] for k in group])))]
        cols = [k.centre[0] for k in ref[:len(row_names)]]
        taken = [int(np.argmin([abs(k.centre[0] - x) for x in cols])) for k in group]
        if len(set(taken)) != len(taken):
            raise LayoutError(f"row {r + 1} has {len(group)} of its {len(row_names)} cards and two of them lie "
                              "under one column: line the cards up under the complete rows", laid)
        for k, j in zip(group, taken, strict=True):
            k.code = row_names[j]
    return laid


def _join_columns(row: list[LaidCard]) -> list[LaidCard]:
    """A row's cards with those whose indices overlap across the row joined: cards of a layout
    lie apart, so marks above one another (a joker's word and its dots, placed apart when
    they fit no index geometry) are one card."""
    out: list[LaidCard] = []
    for k in sorted(row, key=lambda k: k.box[0]):
        if out and k.box[0] <= out[-1].box[2]:
            last = out[-1]
            corners = last.corners + k.corners
            xs = [(c.box[0] + c.box[2]) / 2 for c in corners]
            out[-1] = LaidCard((float(np.mean(xs)), (last.centre[1] + k.centre[1]) / 2), corners,
                               max((last, k), key=lambda c: max(x.conf for x in c.corners)).read)
        else:
            out.append(k)
    return out


def missing_codes(laid: Sequence[LaidCard], rows: str = DEFAULT_ROWS, jokers: bool = True) -> list[str]:
    """The codes of the layout no card was found for (not enrolled)."""
    have = {k.code for k in laid}
    return [code for row in layout_rows(rows, jokers) for code in row if code not in have]


# ---------------------------------------------------------------------- enrolment
def _scaled(box: Box, s: float) -> Box:
    cx, cy = box_centre(box)
    hw, hh = (box[2] - box[0]) * s / 2, (box[3] - box[1]) * s / 2
    return (cx - hw, cy - hh, cx + hw, cy + hh)


def turned_patch(frame: np.ndarray, box: Box, angle: float) -> np.ndarray:
    """The patch :func:`crop_corner` cuts for the index in ``box`` turned by ``angle`` degrees
    about its centre, as the finder would box it (the turned index's upright bounding box)."""
    if angle == 0.0:
        return crop_corner(frame, box)
    import cv2

    cx, cy = box_centre(box)
    w, h = box[2] - box[0], box[3] - box[1]
    r = int(np.ceil(max(w, h) * 2)) + 2
    x0, y0 = int(cx) - r, int(cy) - r
    region = cv2.copyMakeBorder(frame, r, r, r, r, cv2.BORDER_REPLICATE)[y0 + r:y0 + 3 * r, x0 + r:x0 + 3 * r]
    m = cv2.getRotationMatrix2D((cx - x0, cy - y0), angle, 1.0)
    turned = cv2.warpAffine(region, m, (region.shape[1], region.shape[0]), flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_REPLICATE)
    a = np.radians(angle)
    bw = abs(w * np.cos(a)) + abs(h * np.sin(a))
    bh = abs(w * np.sin(a)) + abs(h * np.cos(a))
    lx, ly = cx - x0, cy - y0
    return crop_corner(turned, (lx - bw / 2, ly - bh / 2, lx + bw / 2, ly + bh / 2))


def profile_from_corners(namer, items: Sequence[tuple[np.ndarray, Box, str]], label: str,  # noqa: ANN001
                         source: str = "", groups: Sequence[object] | None = None,
                         same_camera: bool = False, adapt_steps: int = 0,
                         progress: Callable[[int, int], None] | None = None) -> DeckProfile:
    """A profile from ``(frame, index box, code)`` triples, each index cut at every
    :data:`ENROL_BOX_SCALES` and :data:`ENROL_ANGLES`, its sharpness chosen by
    :func:`calibrate_sharpness` with the items' ``groups`` (default: each item its own;
    photos: the photo each came from).

    ``same_camera``: the items are one layout frame from the table's own camera.  Its corners
    are clean and upright, easier than play, so among the sharpness values within two
    corners of the best the sharpest is taken (in every simulated game on held-out designs
    the sharper profile named more of the deal's corners right).  Photos from many angles
    are as varied as what they will be used on: the best value is taken as it is, the
    gentler one on a tie (on the held-out real photos of the standard deck a tie taken
    sharp lost card F1 0.80 -> 0.76).

    ``adapt_steps``: the namer is also fine-tuned on the cuts for that many steps
    (:func:`.deck_adapt.adapt_namer`, ``progress(step, steps)``); the profile then holds the
    adapted namer, its features of the cuts, and sharpness 0 (it reads alone)."""
    patches, codes, group_of = [], [], []
    groups = list(range(len(items))) if groups is None else list(groups)
    cuts = [(s, a) for a in ENROL_ANGLES for s in ENROL_BOX_SCALES]
    for (frame, box, code), g in zip(items, groups, strict=True):
        for s, a in cuts:
            patches.append(turned_patch(frame, _scaled(box, s), a))
            codes.append(code)
            group_of.append(g)
    if not patches:
        raise DeckProfileError("no labelled corners to enrol")
    namer.require_features()
    if adapt_steps > 0:
        from .deck_adapt import adapt_namer, negative_patches
        from .namer import NOT_A_CORNER

        # and what is no index, beside the indices of each frame
        frames: dict[int, tuple[np.ndarray, list[Box]]] = {}
        for frame, box, _code in items:
            frames.setdefault(id(frame), (frame, []))[1].append(box)
        junk = [p for k, (frame, boxes) in enumerate(frames.values()) for p in negative_patches(frame, boxes, seed=k)]
        blob = adapt_namer([*patches, *junk], [*codes, *[NOT_A_CORNER] * len(junk)], adapt_steps, progress=progress)
        probs, feats = namer.read_with(namer.adapted(blob), patches)
        assert feats is not None
        named = float((probs.argmax(axis=1) == np.asarray([NAMER_CLASSES.index(c) for c in codes])).mean())
        return DeckProfile(label=label, codes=codes, prototypes=feats, namer_sha1=namer.sha1, turns=namer.turns,
                           source=source, sharpness=0.0, namer_onnx=blob,
                           calibration={"adapted_steps": adapt_steps, "cuts_named_right_adapted": round(named, 4)})
    probs, feats = namer.read(patches, adapted=False)
    assert feats is not None
    held_out = [i for i in range(len(patches)) if i % len(cuts) == cuts.index((1.0, 0.0))]
    scores = calibrate_sharpness(probs, feats, codes, group_of, held_out)
    top = max(scores.values())
    if same_camera:
        best = max(k for k, v in scores.items() if v >= top - 2 / max(1, len(held_out)) - 1e-9)
    else:
        best = min(k for k, v in scores.items() if v >= top - 1e-9)
    return DeckProfile(label=label, codes=codes, prototypes=feats, namer_sha1=namer.sha1, turns=namer.turns,
                       source=source, sharpness=best,
                       calibration={"held_out_corners": len(held_out),
                                    "named_right_by_sharpness": {str(k): v for k, v in scores.items()}})


def calibrate_sharpness(probs: np.ndarray, feats: np.ndarray, codes: Sequence[str], groups: Sequence[object],
                        held_out: Sequence[int], grid: Sequence[float] = SHARPNESS_GRID) -> dict[float, float]:
    """The share of the enrolment's own corners named right at each sharpness of ``grid``
    (0: the namer alone), each corner ``held_out`` read against a profile without its group
    (the other cuts of that index; a photo's other corners).  Enrolment conditions decide
    what the profile is worth: one layout frame from the table's camera wants a sharp
    profile, a pile of photos from many angles a gentle one or none."""
    feats = np.asarray(feats, dtype=np.float64)
    ids = {g: i for i, g in enumerate(dict.fromkeys(groups))}
    groups_arr = np.asarray([ids[g] for g in groups])
    rows = np.asarray(held_out, dtype=int)
    if not len(rows):
        return {float(k): 0.0 for k in grid}
    sims = feats[rows] @ feats.T
    sims[groups_arr[rows][:, None] == groups_arr[None, :]] = -np.inf
    enrolled = sorted(set(codes))
    code_arr = np.asarray(codes)
    best = np.stack([sims[:, code_arr == c].max(axis=1) for c in enrolled], axis=1)  # -inf: not enrolled here
    truth = np.asarray([NAMER_CLASSES.index(codes[i]) for i in rows])
    probs = np.asarray(probs, dtype=np.float64)[rows]
    return {float(k): round(float((discounted(probs, best, enrolled, float(k)).argmax(axis=1) == truth).mean()), 4)
            for k in grid}


@dataclass
class LayoutEnrolment:
    profile: DeckProfile
    cards: list[LaidCard]  # as found, each with the code its place gave it
    missing: list[str] = field(default_factory=list)  # codes of the layout not found (not enrolled)

    @property
    def disagreements(self) -> list[tuple[str, str]]:
        """(code from the layout, the namer's own reading) where they differ: what the profile fixes,
        or a card out of place."""
        return [(k.code, k.read) for k in self.cards if k.code != k.read]


def enrol_layout(detector, frame_bgr: np.ndarray, label: str, rows: str = DEFAULT_ROWS,  # noqa: ANN001
                 jokers: bool = True, source: str = "", adapt_steps: int = 0,
                 progress: Callable[[int, int], None] | None = None) -> LayoutEnrolment:
    """Enrol the deck laid out in ``frame_bgr`` (see :func:`layout_codes`) with ``detector``
    (a :class:`~cardref.vision.detector.Detector` with a namer that has features), adapting
    the namer to it for ``adapt_steps`` steps (:mod:`.deck_adapt`; 0: the profile alone)."""
    namer = detector.namer
    if namer is None:
        raise DeckProfileError("deck enrolment needs the class-agnostic detector with its corner namer")
    namer.require_features()
    saved = namer.deck
    namer.deck = None  # the layout is read by the namer alone, every index the finder found kept
    try:
        cards = detector.merge_cards(namer.name(frame_bgr, detector.find_corners(frame_bgr), keep_all=True))
    finally:
        namer.deck = saved
    laid = layout_codes(cards, rows, jokers)
    items = [(frame_bgr, c.box, k.code) for k in laid for c in k.corners]
    profile = profile_from_corners(namer, items, label, source, same_camera=True, adapt_steps=adapt_steps,
                                   progress=progress)
    return LayoutEnrolment(profile, laid, missing_codes(laid, rows, jokers))


def draw_layout(frame_bgr: np.ndarray, cards: Sequence[LaidCard]) -> np.ndarray:
    """The layout frame with each card's box and the code it is enrolled as (red where the
    namer alone read it otherwise), for the user to check."""
    import cv2

    out = frame_bgr.copy()
    for card in cards:
        code = card.code or card.read
        colour = (0, 170, 0) if card.read == code else (0, 0, 230)
        x1, y1, x2, y2 = (int(round(v)) for v in card.box)
        cv2.rectangle(out, (x1, y1), (x2, y2), colour, 2)
        cv2.putText(out, code, (x1, max(12, y1 - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (255, 255, 255), 3, cv2.LINE_AA)
        cv2.putText(out, code, (x1, max(12, y1 - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.5, colour, 1, cv2.LINE_AA)
    return out
