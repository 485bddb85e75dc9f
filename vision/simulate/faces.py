"""Card faces for the simulator: a design of the card-face library, and drawn faces for
whatever that design lacks (often the jokers) or when the library cannot be used."""

from __future__ import annotations

import random

import cv2
import numpy as np

FACE_W, FACE_H = 200, 280
_RED = (200, 30, 30)
_BLACK = (20, 20, 20)


def _suit_glyph(img: np.ndarray, suit: str, cx: int, cy: int, r: int, color: tuple[int, int, int]) -> None:
    if suit == "H":
        cv2.circle(img, (cx - r // 2, cy - r // 4), r // 2 + 1, color, -1, cv2.LINE_AA)
        cv2.circle(img, (cx + r // 2, cy - r // 4), r // 2 + 1, color, -1, cv2.LINE_AA)
        pts = np.array([[cx - r, cy], [cx + r, cy], [cx, cy + r]], np.int32)
        cv2.fillPoly(img, [pts], color, cv2.LINE_AA)
    elif suit == "D":
        pts = np.array([[cx, cy - r], [cx + int(r * 0.75), cy], [cx, cy + r], [cx - int(r * 0.75), cy]], np.int32)
        cv2.fillPoly(img, [pts], color, cv2.LINE_AA)
    elif suit == "S":
        pts = np.array([[cx, cy - r], [cx + r, cy + r // 3], [cx - r, cy + r // 3]], np.int32)
        cv2.fillPoly(img, [pts], color, cv2.LINE_AA)
        cv2.circle(img, (cx - r // 2, cy + r // 4), r // 2, color, -1, cv2.LINE_AA)
        cv2.circle(img, (cx + r // 2, cy + r // 4), r // 2, color, -1, cv2.LINE_AA)
        cv2.line(img, (cx, cy), (cx, cy + r), color, max(2, r // 4))
    else:  # clubs
        for dx, dy in ((0, -r // 2), (-r // 2, r // 5), (r // 2, r // 5)):
            cv2.circle(img, (cx + dx, cy + dy), r // 2, color, -1, cv2.LINE_AA)
        cv2.line(img, (cx, cy), (cx, cy + r), color, max(2, r // 4))


def drawn_face(code: str) -> tuple[np.ndarray, list[tuple[int, int, int, int]]]:
    """A plain face (RGBA, 200x280) with rank-and-suit indices in two corners, and their boxes."""
    img = np.zeros((FACE_H, FACE_W, 4), np.uint8)
    cv2.rectangle(img, (2, 2), (FACE_W - 3, FACE_H - 3), (250, 250, 246, 255), -1)
    cv2.rectangle(img, (2, 2), (FACE_W - 3, FACE_H - 3), (120, 120, 120, 255), 2)
    joker = code in ("SJ", "BJ")
    color = _RED if (code.endswith(("H", "D")) and not joker) or code == "BJ" else _BLACK
    rgb = img[:, :, :3].copy()
    rank = code[:-1] if not joker else "J"
    suit = code[-1] if not joker else ""
    corner = np.full((70, 40, 3), 250, np.uint8)
    font = cv2.FONT_HERSHEY_SIMPLEX
    label = rank if not joker else ("JK")
    scale = 0.9 if len(label) == 1 else 0.7
    cv2.putText(corner, label, (3, 26), font, scale, color, 2, cv2.LINE_AA)
    if joker:
        cv2.putText(corner, "B" if code == "BJ" else "S", (10, 58), font, 0.9, color, 2, cv2.LINE_AA)
    else:
        _suit_glyph(corner, suit, 19, 48, 11, color)
    rgb[8:78, 8:48] = corner
    rgb[FACE_H - 78:FACE_H - 8, FACE_W - 48:FACE_W - 8] = corner[::-1, ::-1]
    if joker:
        cv2.putText(rgb, "JOKER", (40, 150), font, 1.1, color, 3, cv2.LINE_AA)
    else:
        _suit_glyph(rgb, suit, FACE_W // 2, FACE_H // 2, 34, color)
    img[:, :, :3] = np.where(img[:, :, 3:4] > 0, rgb, 0)
    boxes = [(8, 8, 48, 78), (FACE_W - 48, FACE_H - 78, FACE_W - 8, FACE_H - 8)]
    return img, boxes


class DesignPool:
    """The face-library designs the simulator picks from (of the detector's ``split``): those
    with jokers when any have them.  ``pick(k)`` is the ``k``-th of them (modulo their number)
    in ``order`` (default sorted); it builds only the designs it walks past, so a short run
    does not build the whole library (minutes on a cold cache)."""

    def __init__(self, split: str | None = None, order: list[str] | None = None) -> None:
        from cardref.datasets.faces import iter_designs

        self._walk = iter_designs(split, order)
        self._jokers: list[str] = []
        self._plain: list[str] = []
        self._done = False

    def _next(self) -> bool:
        from cardref.datasets.faces import CardFaces

        name = next(self._walk, None)
        if name is None:
            self._done = True
            return False
        (self._jokers if CardFaces(name).has_jokers else self._plain).append(name)
        return True

    def pick(self, k: int) -> str | None:
        """The ``k``-th design, or ``None`` when the library has none."""
        while len(self._jokers) <= k and not self._done:
            self._next()
        pool = self._jokers or self._plain
        return pool[k % len(pool)] if pool else None


class FaceSet:
    """Faces of one design (``CardFaces``) with drawn faces filling the gaps."""

    def __init__(self, design: str | None = None, seed: int = 0, *, drawn_only: bool = False,
                 split: str | None = None) -> None:
        """``design``: a design of the face library; ``None`` picks one by ``seed``, from the
        detector's ``split`` (``"train"``, ``"heldout"``, ``None`` = any)."""
        self.design = "drawn"
        self._lib = None
        self._drawn: dict[str, tuple[np.ndarray, list]] = {}
        if drawn_only:
            return
        try:
            from cardref.datasets.faces import CardFaces

            if design is None:  # one design by seed, building only the designs walked past
                from cardref.datasets.faces import list_sources

                names = list_sources()
                design = DesignPool(split, order=random.Random(seed).sample(names, len(names))).pick(0)
            if design is not None:
                self._lib = CardFaces(design)
                self.design = design
        except Exception as exc:  # the library is optional: any failure means drawn faces
            if design is not None:
                raise ValueError(f"card design {design!r} is not available: {exc}") from exc
            self._lib = None

    def _get(self, code: str) -> tuple[np.ndarray, list]:
        if self._lib is not None:
            try:
                img, boxes = self._lib.image(code), self._lib.corner_boxes(code)
            except KeyError:
                img, boxes = None, []
            # a card laid in a fan shows only its top-left index: faces without one there
            # (some decks' jokers) are drawn instead, as real cards always have it
            w, h = (img.shape[1], img.shape[0]) if img is not None else (1, 1)
            if img is not None and any(b[2] <= 0.3 * w and b[3] <= 0.4 * h for b in boxes):
                return img, boxes
        if code not in self._drawn:
            self._drawn[code] = drawn_face(code)
        return self._drawn[code]

    def image(self, code: str) -> np.ndarray:
        return self._get(code)[0]

    def index_mm(self, code: str, card_w_mm: float = 63.0) -> float:
        """How far the top-left index reaches into the card from its left edge, in mm."""
        img, boxes = self._get(code)
        w = img.shape[1]
        left = [b for b in boxes if b[2] <= 0.4 * w and b[3] <= 0.4 * img.shape[0]]
        return max((b[2] for b in left), default=0.2 * w) / w * card_w_mm

    def corner_boxes(self, code: str) -> list[tuple[int, int, int, int]]:
        return [tuple(b) for b in self._get(code)[1]]  # type: ignore[misc]
