"""Looking again only where the table changed: the corner finder on tiles of a video stream.

A referee camera looks at a still table most of the time; between two frames only a hand
and the cards it moves change.  :class:`StreamDetector` runs the corner finder on the whole
first frame, then only on the tiles of the frame that changed since the finder last saw
them, and keeps the corners it found earlier everywhere else.  On the simulated deals the
finder then looks at under half of the frame's pixels per frame (``cardref bench e2e``
prints the share).  ``cardref watch``, the dashboard and ``cardref bench e2e`` use it unless
told ``--whole-frames``.

- The frame is cut into a grid of *cores* (:class:`TileGrid`); the finder looks at a core
  with a ``margin`` of context around it (a *crop*, one fixed size for every tile, so the
  finder is compiled once for it), and keeps the corners whose centre lies in the core.
- A core *changed* (:class:`ChangeMap`) when some of its pixels, on a grey thumbnail, left the
  envelope of what the finder last saw there: brighter than the brightest or darker than
  the darkest of each pixel's neighbourhood, by ``delta`` grey levels, after the whole
  frame's change of light.  A camera that shakes by a pixel or two, sensor noise and light
  drifting over the table stay inside the envelope; a card sliding in or a hand does not.
- A tile that changed is looked at again for ``hold`` more frames, and ``refresh`` tiles that
  did not change are looked at each frame in turn, the longest unseen first: nothing stays
  unseen for more than a few seconds.
- On the frame a tile stops changing (the hand has gone, the cards it put down lie still),
  the finder looks at the whole frame (``settle_whole``): the settled cards are read as on
  the whole frame, faint joker indices included, and their boxes are kept until the tile
  changes again.  The tile of a joker is looked at in the whole frame whenever it is due
  (``jokers_whole``), for ``joker_memory`` frames after the namer last called a corner there
  a joker.
- When so many tiles need a look that the whole frame costs less, the finder looks at the
  whole frame (the first frame, a camera bumped, a change of light).

The namer still names every corner on every frame (its votes over frames stay fresh); only
the finder's boxes are kept.  A finder exported with a fixed input shape cannot look at
tiles (``backend.at_shape`` gives ``None``): the stream detector then looks at every whole
frame, as :class:`~cardref.vision.detector.Detector` does.
"""

from __future__ import annotations

import weakref
from bisect import bisect_right
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from ..classes import JOKER_CODES
from ..types import CardDetection, CornerDetection, box_iou


@dataclass(frozen=True)
class RegionSettings:
    """How the stream detector cuts the frame and decides where to look again."""

    #: Side of a core, frame pixels (about; the grid spreads the cores evenly over the frame).
    core_px: int = 224
    #: Context the finder sees around a core, frame pixels (an index at a core's edge is whole).
    margin_px: int = 40
    #: Frame pixels per thumbnail pixel of the change test.
    thumb_px: int = 4
    #: Grey levels beyond the envelope of the last look for a thumbnail pixel to count as changed.
    delta: float = 20.0
    #: A core changed when one of its 4x4 thumbnail cells has this many changed pixels.
    min_changed: int = 3
    #: Frames a core keeps being looked at after it last changed.  With ``settle_whole`` the
    #: first of them is the whole frame's look at the settled cards, and further tile looks
    #: add nothing: on anchao-1003 (400 frames) hold 4 cost 69 ms a frame, hold 1 61 ms.
    hold: int = 1
    #: Unchanged cores looked at per frame, the longest unseen first.
    refresh: int = 1
    #: The whole frame is looked at when the tiles due would cost this share of it or more.
    full_share: float = 1.0
    #: A tile due a look that holds a joker's index has the whole frame looked at instead.  The
    #: finder's joker indices are faint (confidence 0.1-0.6) and it finds them less often in a
    #: tile than in the whole frame (its attention block sees the whole image): on tiles, the
    #: two jokers of a pair were read as one, and a joker's second index came and went.
    jokers_whole: bool = True
    #: Frames a tile counts as holding a joker after one was last named there (a joker's
    #: reading that flickers for a frame does not send its tile back to tile looks).
    joker_memory: int = 10
    #: The whole frame is looked at on the frame a tile stops changing (the hand has left, the
    #: cards it put down lie still): a joker put down where none lay is found there, as on the
    #: whole frame, and the tile is then a joker's tile.
    settle_whole: bool = True

    def __post_init__(self) -> None:
        if self.core_px < 32 or self.margin_px < 0 or self.thumb_px < 1:
            raise ValueError("core_px must be at least 32, margin_px and thumb_px not negative")
        if self.hold < 0 or self.refresh < 0 or self.joker_memory < 0 or self.min_changed < 1 or not 0 < self.full_share:
            raise ValueError("hold, refresh and joker_memory must not be negative, min_changed at least 1, "
                             "full_share positive")


DEFAULT_REGIONS = RegionSettings()

#: Side of the thumbnail cells whose changed pixels are counted (thumbnail pixels).
CELL = 4


def _splits(length: int, parts: int) -> list[int]:
    return [round(i * length / parts) for i in range(parts + 1)]


@dataclass(frozen=True)
class TileGrid:
    """The cores of a frame (a partition of it) and the crop the finder sees of each."""

    frame_hw: tuple[int, int]
    crop_hw: tuple[int, int]
    xs: tuple[int, ...]  # core column bounds, frame pixels
    ys: tuple[int, ...]  # core row bounds
    #: top-left corner of each tile's crop, row by row
    origins: tuple[tuple[int, int], ...]

    @classmethod
    def build(cls, frame_hw: tuple[int, int], settings: RegionSettings = DEFAULT_REGIONS,
              stride: int = 32) -> TileGrid | None:
        """The grid for frames of ``frame_hw`` (height, width), or ``None`` when a crop would
        not fit in the frame (a frame that small is looked at whole)."""
        h, w = frame_hw
        nx, ny = max(1, round(w / settings.core_px)), max(1, round(h / settings.core_px))
        xs, ys = _splits(w, nx), _splits(h, ny)
        core_w = int(np.diff(xs).max())
        core_h = int(np.diff(ys).max())
        crop_w = -(-(core_w + 2 * settings.margin_px) // stride) * stride
        crop_h = -(-(core_h + 2 * settings.margin_px) // stride) * stride
        if nx * ny < 2 or crop_w > w or crop_h > h:
            return None
        origins = []
        for r in range(ny):
            for c in range(nx):
                cx, cy = (xs[c] + xs[c + 1]) / 2, (ys[r] + ys[r + 1]) / 2
                x0 = int(min(max(round(cx - crop_w / 2), 0), w - crop_w))
                y0 = int(min(max(round(cy - crop_h / 2), 0), h - crop_h))
                origins.append((x0, y0))
        return cls((h, w), (crop_h, crop_w), tuple(xs), tuple(ys), tuple(origins))

    @property
    def columns(self) -> int:
        return len(self.xs) - 1

    def __len__(self) -> int:
        return self.columns * (len(self.ys) - 1)

    def core(self, k: int) -> tuple[int, int, int, int]:
        r, c = divmod(k, self.columns)
        return (self.xs[c], self.ys[r], self.xs[c + 1], self.ys[r + 1])

    def owner(self, x: float, y: float) -> int:
        """The tile whose core holds the point (points outside the frame: the nearest core)."""
        c = min(max(bisect_right(self.xs, x) - 1, 0), self.columns - 1)
        r = min(max(bisect_right(self.ys, y) - 1, 0), len(self.ys) - 2)
        return r * self.columns + c

    @property
    def crop_share(self) -> float:
        """A crop's pixels as a share of the frame's."""
        return self.crop_hw[0] * self.crop_hw[1] / (self.frame_hw[0] * self.frame_hw[1])

    def crop(self, frame: np.ndarray, k: int) -> np.ndarray:
        x0, y0 = self.origins[k]
        return frame[y0:y0 + self.crop_hw[0], x0:x0 + self.crop_hw[1]]


class ChangeMap:
    """Which cores of a frame changed since the finder last looked at them."""

    def __init__(self, grid: TileGrid, settings: RegionSettings = DEFAULT_REGIONS) -> None:
        self.grid = grid
        self.settings = settings
        h, w = grid.frame_hw
        s = settings.thumb_px
        self.thumb_hw = (max(CELL, h // s // CELL * CELL), max(CELL, w // s // CELL * CELL))
        self._ref: np.ndarray | None = None
        # each core's thumbnail cells (a cell is a core's when its centre is in the core)
        th, tw = self.thumb_hw
        fy, fx = h / th, w / tw
        rows = ((np.arange(th // CELL) + 0.5) * CELL * fy)
        cols = ((np.arange(tw // CELL) + 0.5) * CELL * fx)
        self._cell_owner = np.array([[grid.owner(x, y) for x in cols] for y in rows], np.int32)
        self._pixel_owner = np.kron(self._cell_owner, np.ones((CELL, CELL), np.int32))

    def thumbnail(self, frame_bgr: np.ndarray) -> np.ndarray:
        grey = cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY) if frame_bgr.ndim == 3 else frame_bgr
        th, tw = self.thumb_hw
        return cv2.resize(grey, (tw, th), interpolation=cv2.INTER_AREA).astype(np.float32)

    @property
    def first(self) -> bool:
        """Nothing seen yet."""
        return self._ref is None

    def changed(self, thumb: np.ndarray) -> np.ndarray:
        """One bool per tile: its core left the envelope of the last look (all, before any)."""
        n = len(self.grid)
        if self._ref is None:
            return np.ones(n, bool)
        ref = self._ref
        light = float(np.median(thumb - ref))
        kernel = np.ones((3, 3), np.uint8)
        out = (thumb > cv2.dilate(ref, kernel) + light + self.settings.delta) | \
              (thumb < cv2.erode(ref, kernel) + light - self.settings.delta)
        th, tw = self.thumb_hw
        counts = out.reshape(th // CELL, CELL, tw // CELL, CELL).sum(axis=(1, 3))
        hit = self._cell_owner[counts >= self.settings.min_changed]
        flags = np.zeros(n, bool)
        flags[hit] = True
        return flags

    def seen(self, thumb: np.ndarray, tiles: np.ndarray | None = None) -> None:
        """The finder looked at ``tiles`` (bools; ``None``: the whole frame) of this thumbnail."""
        if self._ref is None or tiles is None:
            self._ref = thumb.copy()
            return
        mask = tiles[self._pixel_owner]
        self._ref[mask] = thumb[mask]


@dataclass
class LookStats:
    """What the finder looked at: whole frames, tiles, and their pixels against whole frames'."""

    frames: int = 0
    whole: int = 0
    tiles: int = 0
    pixels: float = 0.0  # in whole frames

    @property
    def share(self) -> float:
        """The finder's pixels per frame, as a share of the whole frame's."""
        return self.pixels / self.frames if self.frames else 0.0


@dataclass
class _State:
    """One stream's memory for frames of one size: the corners kept, each with its tile,
    and each tile's frame numbers of its last change and its last look."""

    grid: TileGrid
    changes: ChangeMap
    corners: list[tuple[int, CornerDetection]] = field(default_factory=list)
    last_change: np.ndarray = field(init=False)
    last_look: np.ndarray = field(init=False)
    #: each tile's frame number of the last corner named (or nearly) a joker there
    last_joker: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        self.last_change = np.full(len(self.grid), -10**9, np.int64)
        self.last_look = np.full(len(self.grid), -10**9, np.int64)
        self.last_joker = np.full(len(self.grid), -10**9, np.int64)


def _maybe_joker(c: CornerDetection) -> bool:
    """Named a joker, or a joker among the namer's leading readings."""
    return c.card in JOKER_CODES or any(code in JOKER_CODES for code, _p in c.alts)


#: The tile-shaped copies of each finder (compiling one costs OpenVINO seconds): shared by
#: the stream detectors of one process, dropped with their finder.
_TILE_BACKENDS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def tile_backend(backend, shape: tuple[int, int]):  # noqa: ANN001, ANN201 - a CornerDetector or None
    """``backend`` at the input ``shape`` (``backend.at_shape``, made once), or ``None``."""
    at_shape = getattr(backend, "at_shape", None)
    if at_shape is None:
        return None
    try:
        copies = _TILE_BACKENDS.setdefault(backend, {})
    except TypeError:  # not weakly referable: made each time
        return at_shape(shape)
    if shape not in copies:
        copies[shape] = at_shape(shape)
    return copies[shape]


class StreamDetector:
    """A :class:`~cardref.vision.detector.Detector` for the frames of one camera, in order:
    the finder looks again only at the tiles that changed (module docstring).

    Same calls as the detector it wraps (``detect``, ``detect_corners``, ``merge_cards``,
    ``use_deck``); ``reset`` forgets the stream (the next frame is looked at whole).
    """

    def __init__(self, detector, settings: RegionSettings = DEFAULT_REGIONS) -> None:  # noqa: ANN001 - a Detector
        self.detector = detector
        self.settings = settings
        self.stats = LookStats()
        self._state: _State | None = None

    # the wrapped detector's face
    @property
    def name(self) -> str:
        return self.detector.name

    @property
    def model_path(self):  # noqa: ANN201 - a Path
        return self.detector.model_path

    def use_deck(self, deck) -> None:  # noqa: ANN001 - a DeckProfile or None
        self.detector.use_deck(deck)

    def merge_cards(self, corners: list[CornerDetection], frame_bgr: np.ndarray | None = None) -> list[CardDetection]:
        return self.detector.merge_cards(corners, frame_bgr)

    def detect_corners(self, frame_bgr: np.ndarray) -> list[CornerDetection]:
        named = self.detector.name_corners(frame_bgr, self.find_corners(frame_bgr))
        st = self._state
        if st is not None and st.grid.frame_hw == frame_bgr.shape[:2]:
            for c in named:
                if _maybe_joker(c):
                    st.last_joker[st.grid.owner(*c.center)] = self.stats.frames
        return named

    def detect(self, frame_bgr: np.ndarray) -> list[CardDetection]:
        return self.merge_cards(self.detect_corners(frame_bgr), frame_bgr)

    def reset(self) -> None:
        self._state = None

    def prepare(self, frame_hw: tuple[int, int]) -> None:
        """Make the finder's tile-sized copy for frames of ``frame_hw`` (height, width) now
        (OpenVINO compiles it in about 3 s), not on the stream's first frame: a live camera
        would otherwise move on by 3 s of frames while it compiles."""
        grid = TileGrid.build(frame_hw, self.settings)
        if grid is not None:
            self._tile_backend(grid)

    # the looking
    def _tile_backend(self, grid: TileGrid):  # noqa: ANN202 - a CornerDetector or None
        return tile_backend(self.detector.backend, grid.crop_hw)

    def _state_for(self, frame_bgr: np.ndarray) -> _State | None:
        hw = frame_bgr.shape[:2]
        if self._state is not None and self._state.grid.frame_hw == hw:
            return self._state
        grid = TileGrid.build(hw, self.settings)
        if grid is None or self._tile_backend(grid) is None:
            self._state = None
            return None
        self._state = _State(grid, ChangeMap(grid, self.settings))
        return self._state

    def _find_in_whole_frame(self, frame_bgr: np.ndarray) -> list[CornerDetection]:
        self.stats.whole += 1
        self.stats.pixels += 1.0
        return self.detector.find_corners(frame_bgr)

    def _look_again_everywhere(self, st: _State, frame_bgr: np.ndarray, thumb: np.ndarray,
                               now: int) -> list[CornerDetection]:
        """The whole frame looked at: every tile's corners and reference replaced."""
        corners = self._find_in_whole_frame(frame_bgr)
        st.corners = [(st.grid.owner(*c.center), c) for c in corners]
        st.changes.seen(thumb)
        st.last_look[:] = now
        return corners

    def find_corners(self, frame_bgr: np.ndarray) -> list[CornerDetection]:
        """The finder's corners in this frame: looked at again where it changed, kept elsewhere."""
        self.stats.frames += 1
        now = self.stats.frames
        st = self._state_for(frame_bgr)
        if st is None:
            return self._find_in_whole_frame(frame_bgr)
        grid, s = st.grid, self.settings
        thumb = st.changes.thumbnail(frame_bgr)
        if st.changes.first:  # the stream's first frame: looked at whole, nothing held
            return self._look_again_everywhere(st, frame_bgr, thumb, now)
        changed = st.changes.changed(thumb)
        settled = (st.last_change == now - 1) & ~changed
        st.last_change[changed] = now
        due = now - st.last_change <= s.hold
        rest = np.flatnonzero(~due)
        if s.refresh and rest.size:
            due[rest[np.argsort(st.last_look[rest], kind="stable")[:s.refresh]]] = True
        jokers = now - st.last_joker <= s.joker_memory
        if (due.sum() * grid.crop_share >= s.full_share
                or (s.jokers_whole and (due & jokers).any())
                or (s.settle_whole and settled.any())):
            return self._look_again_everywhere(st, frame_bgr, thumb, now)
        backend = self._tile_backend(grid)
        fresh: list[tuple[int, CornerDetection]] = []
        for k in np.flatnonzero(due):
            x0, y0 = grid.origins[k]
            for c in backend.detect_corners(np.ascontiguousarray(grid.crop(frame_bgr, k))):
                moved = replace(c, box=(c.box[0] + x0, c.box[1] + y0, c.box[2] + x0, c.box[3] + y0))
                if grid.owner(*moved.center) == k:
                    fresh.append((int(k), moved))
        self.stats.tiles += int(due.sum())
        self.stats.pixels += float(due.sum() * grid.crop_share)
        kept = [(k, c) for k, c in st.corners if not due[k]]
        # an index that crossed into a tile looked at now is the fresh box, not two
        kept = [(k, c) for k, c in kept if not any(box_iou(c.box, f.box) > 0.5 for _, f in fresh)]
        st.corners = kept + fresh
        st.changes.seen(thumb, due)
        st.last_look[due] = now
        return [c for _, c in st.corners]
