"""Whether this machine may run an INT8 copy: a check at load time, its verdict cached per machine.

An INT8 copy (:mod:`.int8`) is a speed path and must never change what is read.  Its integer
kernels differ from CPU to CPU: without VNNI, OpenVINO sums pairs of u8 x s8 products in 16
bits, which saturates on weights that use all 8 bits, and a copy that reads well on one
machine can be blind on another.  So before a copy runs, it is compared with its float file on
the shipped check frames (:data:`CHECK_DIR`, rendered tables with their corner boxes), on this
CPU, through OpenVINO as the product runs it:

* the finder: of the corners the float finder finds (named by the float corner namer), the
  copy must find at least :data:`MIN_CORNER_SHARE` again (box IoU >= :data:`MATCH_IOU`, the
  same code), and name alike at least :data:`MIN_SAME_NAME` of the corners it finds again;
* the namer: of the check frames' corner boxes the float namer keeps, the copy must keep at
  least :data:`MIN_CORNER_SHARE` with the same code, and give :data:`MIN_SAME_NAME` of those
  both keep the same code;
* and the copy must be faster than the float file on those frames (:data:`MIN_SPEEDUP`).

The verdict is cached in the user's cache folder (:func:`cache_file`), keyed by the CPU's
flags, the two files' digests, the check frames and the OpenVINO version, so the check runs
once per machine and model.  A copy the check rejects is one log line (once per process),
never an error: the float file runs instead.  ``CARDREF_INT8=off`` never runs a copy.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from ..types import CornerDetection, box_iou
from .cpu import cpu_flags, cpu_name, isa_line, openvino_config
from .digest import file_digest

log = logging.getLogger("cardref.vision.detector.int8")

#: Version of the check: a verdict cached by another version is not used.  2 (2026-12-07): the
#: key holds how OpenVINO compiles each file (:func:`compile_settings`); verdicts of version 1
#: were reached with the INT8 copies' float layers in bf16, before they ran in f32.
CHECK_VERSION = 2
#: Share of the float path's corners the INT8 copy must find (finder) or keep (namer) again.
MIN_CORNER_SHARE = 0.9
#: Share of the corners both paths have that must be given the same code.
MIN_SAME_NAME = 0.97
#: Box IoU at which a corner of the copy is the float corner found again.
MATCH_IOU = 0.5
#: The copy runs only when the float file takes at least this many times as long on the check frames.
MIN_SPEEDUP = 1.05
#: The cache file's name in :func:`cache_dir`.
CACHE_NAME = "int8-check.json"
#: The environment variable that switches the INT8 copies off (``off``) for a process.
ENV_SWITCH = "CARDREF_INT8"


def check_dir() -> Path:
    """The shipped check frames: ``models/int8-check/`` (``frames.json`` and its images)."""
    import cardref.models

    return Path(cardref.models.__file__).resolve().parent / "int8-check"


def int8_switched_off() -> bool:
    """Whether ``$CARDREF_INT8`` says never to run an INT8 copy (``off``, ``0``, ``no``, ``false``)."""
    return os.environ.get(ENV_SWITCH, "").strip().lower() in ("off", "0", "no", "false")


def cache_dir() -> Path:
    """``$XDG_CACHE_HOME/cardref``, else ``~/.cache/cardref``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "cardref"


def cache_file() -> Path:
    return cache_dir() / CACHE_NAME


@dataclass(frozen=True)
class CheckFrame:
    """A check frame: the BGR image and the boxes of the corner indices drawn on it."""

    name: str
    image: np.ndarray
    boxes: tuple[tuple[float, float, float, float], ...]


def load_check_frames(folder: Path | None = None) -> list[CheckFrame]:
    """The check frames listed in ``folder/frames.json`` ([] when the folder or a frame is
    missing or unreadable: no check can run, so no copy does)."""
    import cv2

    folder = folder or check_dir()
    try:
        listing = json.loads((folder / "frames.json").read_text(encoding="utf-8"))
        out = []
        for entry in listing["frames"]:
            image = cv2.imread(str(folder / entry["file"]))
            if image is None:
                return []
            boxes = tuple(tuple(float(v) for v in b) for b in entry["boxes"])
            out.append(CheckFrame(entry["file"], image, boxes))  # type: ignore[arg-type]
        return out
    except (OSError, ValueError, KeyError, TypeError):
        return []


def frames_digest(folder: Path | None = None) -> str:
    """A digest of the check frames' files (part of the verdict's key)."""
    folder = folder or check_dir()
    h = hashlib.sha1()
    for p in sorted(folder.glob("*")) if folder.is_dir() else []:
        if p.is_file():
            h.update(p.name.encode())
            h.update(p.read_bytes())
    return h.hexdigest()[:16]


@dataclass(frozen=True)
class Verdict:
    """Whether an INT8 copy runs on this machine, why, and the figures it was decided on."""

    use_int8: bool
    reason: str
    figures: dict = field(default_factory=dict)


@dataclass
class Comparison:
    """How an INT8 path compares with its float path on the check frames."""

    float_corners: int = 0  # corners the float path has (found and named)
    found_again: int = 0  # of those, the copy has with the same code
    both: int = 0  # corners both paths have (by box)
    same_name: int = 0  # of those, given the same code by both
    float_ms: float = 0.0  # time of the float path over the frames
    int8_ms: float = 0.0

    @property
    def corner_share(self) -> float:
        return self.found_again / self.float_corners if self.float_corners else 0.0

    @property
    def name_share(self) -> float:
        return self.same_name / self.both if self.both else 0.0

    @property
    def speedup(self) -> float:
        return self.float_ms / self.int8_ms if self.int8_ms > 0 else 0.0

    def agrees(self) -> bool:
        """The copy reads what the float path reads (:data:`MIN_CORNER_SHARE`, :data:`MIN_SAME_NAME`)."""
        return (self.float_corners > 0 and self.corner_share >= MIN_CORNER_SHARE
                and self.name_share >= MIN_SAME_NAME)

    def summary(self) -> str:
        return (f"{self.found_again}/{self.float_corners} float corners found again with their code "
                f"({self.corner_share:.1%}), {self.same_name}/{self.both} named alike ({self.name_share:.1%}), "
                f"{self.int8_ms:.0f} ms against {self.float_ms:.0f} ms for float")

    def verdict(self) -> Verdict:
        figures = {**asdict(self), "corner_share": round(self.corner_share, 4),
                   "name_share": round(self.name_share, 4), "speedup": round(self.speedup, 3)}
        if not self.agrees():
            return Verdict(False, f"it reads otherwise than the float file: {self.summary()}", figures)
        if self.speedup < MIN_SPEEDUP:
            return Verdict(False, f"it reads alike but is not faster here: {self.summary()}", figures)
        return Verdict(True, f"it reads alike and is {self.speedup:.2f}x as fast: {self.summary()}", figures)


def match_corners(a: Sequence[CornerDetection], b: Sequence[CornerDetection],
                  min_iou: float = MATCH_IOU) -> list[tuple[int, int]]:
    """Pairs ``(i, j)`` of the same corner in ``a`` and ``b``: each box at most once, the
    pairs of largest IoU first, IoU at least ``min_iou`` (codes not compared)."""
    pairs = sorted(((box_iou(x.box, y.box), i, j) for i, x in enumerate(a) for j, y in enumerate(b)), reverse=True)
    used_a: set[int] = set()
    used_b: set[int] = set()
    out = []
    for iou, i, j in pairs:
        if iou < min_iou:
            break
        if i in used_a or j in used_b:
            continue
        used_a.add(i)
        used_b.add(j)
        out.append((i, j))
    return out


Reader = Callable[[np.ndarray, tuple], tuple[list[CornerDetection], float]]


def compare_paths(float_read: Reader, int8_read: Reader, frames: Sequence[CheckFrame]) -> Comparison:
    """Run both paths on every frame (``read(image, boxes)`` -> the named corners and the ms
    the path's model took; a first, untimed run of each warms it up; the order alternates
    frame by frame, so that other work on the machine slows both alike) and count the
    corners they share."""
    report = Comparison()
    if not frames:
        return report
    float_read(frames[0].image, frames[0].boxes)
    int8_read(frames[0].image, frames[0].boxes)
    for k, frame in enumerate(frames):
        order = [("float", float_read), ("int8", int8_read)]
        results = {label: read(frame.image, frame.boxes) for label, read in (order if k % 2 == 0 else order[::-1])}
        (a, float_ms), (b, int8_ms) = results["float"], results["int8"]
        report.float_ms += float_ms
        report.int8_ms += int8_ms
        report.float_corners += len(a)
        for i, j in match_corners(a, b):
            report.both += 1
            same = a[i].card == b[j].card
            report.same_name += same
            report.found_again += same
    return report


def _timed(fn: Callable, *args: object) -> tuple[object, float]:
    t0 = time.perf_counter()
    out = fn(*args)
    return out, (time.perf_counter() - t0) * 1000


def finder_comparison(float_path: Path, int8_path: Path, frames: Sequence[CheckFrame],
                      namer_path: Path | None) -> Comparison:
    """The INT8 finder against its float file, both run by OpenVINO at their default shape;
    the corners of both are named by the float namer (``namer_path``; a finder that names
    its own corners keeps its codes)."""
    from .backends import OpenVinoBackend
    from .namer_core import FileNamer

    flt, q = OpenVinoBackend(float_path), OpenVinoBackend(int8_path)
    namer = FileNamer(namer_path) if namer_path is not None and namer_path.is_file() else None

    def reader(finder: OpenVinoBackend) -> Reader:
        def read(image: np.ndarray, _boxes: tuple) -> tuple[list[CornerDetection], float]:
            corners, ms = _timed(finder.detect_corners, image)  # the finder's time, not the namer's
            return (namer.name(image, corners) if namer is not None else corners), ms
        return read

    return compare_paths(reader(flt), reader(q), frames)


def namer_comparison(float_path: Path, int8_path: Path, frames: Sequence[CheckFrame]) -> Comparison:
    """The INT8 namer against its float file on the check frames' corner boxes, both named as
    the product names them (four turns, inverted light ink, the product's thresholds)."""
    from ..classes import UNNAMED
    from .namer_core import FileNamer

    flt, q = FileNamer(float_path), FileNamer(int8_path)

    def reader(namer: FileNamer) -> Reader:
        def read(image: np.ndarray, boxes: tuple) -> tuple[list[CornerDetection], float]:
            return _timed(namer.name, image, [CornerDetection(UNNAMED, 1.0, b) for b in boxes])
        return read

    return compare_paths(reader(flt), reader(q), frames)


def _openvino_version() -> str:
    try:
        import openvino as ov

        return str(ov.get_version())
    except Exception:  # noqa: BLE001 - no OpenVINO: no copy runs anyway
        return "none"


def compile_settings(path: Path) -> dict[str, str]:
    """The settings :func:`.cpu.openvino_config` adds for compiling ``path`` here (the precision
    its float layers run in): a verdict holds only for the files compiled as they were checked."""
    return {k: str(v) for k, v in openvino_config({}, path).items()}


def verdict_key(kind: str, float_path: Path, int8_path: Path, extra: str = "") -> str:
    """The cache key of a verdict: what the check's outcome depends on."""
    parts = {"check": CHECK_VERSION, "kind": kind, "cpu": sorted(cpu_flags()), "cpu_name": cpu_name(),
             "compile": [compile_settings(float_path), compile_settings(int8_path)],
             "openvino": _openvino_version(), "float": file_digest(float_path), "int8": file_digest(int8_path),
             "frames": frames_digest(), "extra": extra,
             "thresholds": [MIN_CORNER_SHARE, MIN_SAME_NAME, MATCH_IOU, MIN_SPEEDUP]}
    return hashlib.sha1(json.dumps(parts, sort_keys=True).encode()).hexdigest()[:24]


def read_cache(path: Path | None = None) -> dict[str, dict]:
    """The cached verdicts by key ({} for a missing, unreadable or malformed file)."""
    path = path or cache_file()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    verdicts = data.get("verdicts") if isinstance(data, dict) else None
    if not isinstance(verdicts, dict):
        return {}
    return {k: v for k, v in verdicts.items() if isinstance(v, dict) and isinstance(v.get("use_int8"), bool)}


def write_cache(key: str, entry: dict, path: Path | None = None) -> None:
    """Add ``entry`` under ``key`` (a malformed file is replaced; a folder that cannot be
    written leaves the verdict uncached, and the check runs again next time)."""
    path = path or cache_file()
    verdicts = read_cache(path)
    verdicts[key] = entry
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".int8-check-", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump({"version": CHECK_VERSION, "verdicts": verdicts}, fh, indent=1)
        os.replace(tmp, path)
    except OSError as exc:
        log.debug("INT8 check: cannot write %s (%s); the verdict is not cached", path, exc)


#: Verdicts decided or read in this process, by key (each logged once).
_SEEN: dict[str, Verdict] = {}


def verdict(kind: str, float_path: str | Path, int8_path: str | Path, namer_path: Path | None = None) -> Verdict:
    """Whether the INT8 copy ``int8_path`` of ``float_path`` (``kind`` ``"finder"`` or
    ``"namer"``) runs on this machine: the cached verdict, else the check's, cached.  A
    rejection is logged once per process; it is never raised."""
    float_path, int8_path = Path(float_path), Path(int8_path)
    extra = ""
    if kind == "finder" and namer_path is not None and namer_path.is_file():
        extra = file_digest(namer_path)
    key = verdict_key(kind, float_path, int8_path, extra)
    if key in _SEEN:
        return _SEEN[key]
    cached = read_cache().get(key)
    if cached is not None:
        found = Verdict(cached["use_int8"], str(cached.get("reason", "")), dict(cached.get("figures") or {}))
    else:
        found = _run_check(kind, float_path, int8_path, namer_path)
        if found.figures.get("cacheable", True):
            write_cache(key, {**asdict(found), "kind": kind, "float": float_path.name, "int8": int8_path.name,
                              "cpu": cpu_name(), "isa": isa_line(), "checked": time.strftime("%Y-%m-%d %H:%M:%S")})
    _SEEN[key] = found
    if found.use_int8:
        log.info("INT8 %s %s runs on this CPU (%s): %s", kind, int8_path.name, isa_line(), found.reason)
    else:
        log.warning("INT8 %s %s not used on this CPU (%s): %s; running %s", kind, int8_path.name, isa_line(),
                    found.reason, float_path.name)
    return found


def _run_check(kind: str, float_path: Path, int8_path: Path, namer_path: Path | None) -> Verdict:
    frames = load_check_frames()
    if not frames:
        return Verdict(False, f"no check frames at {check_dir()} to compare it with the float file on",
                       {"cacheable": False})
    try:
        if kind == "finder":
            comparison = finder_comparison(float_path, int8_path, frames, namer_path)
        elif kind == "namer":
            comparison = namer_comparison(float_path, int8_path, frames)
        else:
            raise ValueError(f"unknown INT8 check kind {kind!r}")
    except Exception as exc:  # noqa: BLE001 - whatever keeps the check from running keeps the copy from running
        return Verdict(False, f"the check could not run ({exc.__class__.__name__}: {exc})")
    return comparison.verdict()


def forget() -> None:
    """Drop this process's verdicts (the cache file is kept): the next load asks it again."""
    _SEEN.clear()
