"""The card detector: a YOLO model behind interchangeable backends (see :func:`load_detector`).

>>> det = load_detector()                 # the fastest backend whose model file is present
>>> cards = det.detect(frame_bgr)         # one CardDetection per physical card

Backends (fastest first): ``openvino`` (OpenVINO on the ONNX export), ``onnx`` (ONNX
Runtime on the same file) and ``torch`` (the ultralytics ``.pt`` in PyTorch).  The shipped
model files live in the ``cardref.models`` package: ``cards-yolo11n.pt``,
``cards-yolo11n.onnx`` (its weights stored as float16, :mod:`cardref.datasets.onnx_weights`) and
``cards-yolo11n-int8.onnx`` (OpenVINO takes the float export on CPUs with bf16 units, the
INT8 copy elsewhere once the load-time check (:mod:`.int8_check`) found it reading as the
float export does, and faster, on this machine; an ``cards-yolo11n_openvino_model/`` IR
folder is used first when present).  The corner namer has an INT8 copy too, chosen the same way.

The shipped detector is class-agnostic: it finds corner indices and the corner namer
(:mod:`.namer`, ``models/corner-namer.onnx``) names each one; the suit reader
(:mod:`.body`, ``models/suit-reader.onnx``) then looks again at the suit of each pip card
whose two indices were merged.  A 54-class detector works alone, or with the namer
re-naming its boxes.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from ..classes import UNNAMED
from ..types import CardDetection, CornerDetection
from .backends import (
    DEFAULT_CONF,
    DEFAULT_IOU,
    CornerDetector,
    OnnxBackend,
    OpenVinoBackend,
    TorchBackend,
)
from .body import BODY_STEM, SuitReader
from .confidence import ConfidenceCalibration, calibration_for
from .decode import nms
from .enlarge import ENLARGE, MIN_INDEX_PX, enlarged_corners, indices_small
from .errors import BackendUnavailableError, DetectorError, ModelFileError
from .int8 import int8_sibling, is_fresh, is_int8_copy, passes_check, prefer_int8
from .joker_ink import settle_jokers
from .merge import DEFAULT_MERGE, MergeSettings, index_size, merge_corners
from .namer import NAMER_STEM, CornerNamer
from .rules import DEFAULT_RULES, DetectorRules, RuleTrace, trace_merge, trace_renamed
from .scale import CONFIDENT_INDEX, DEFAULT_EXPORT_SHAPE, confident_index_sizes, finder_scale

__all__ = [
    "BACKENDS", "CornerDetector", "CornerNamer", "Detector", "SuitReader", "DetectorError", "ModelFileError", "BackendUnavailableError",
    "DetectorRules", "MergeSettings", "RuleTrace", "available_backends", "default_model_paths", "load_detector", "merge_corners",
]

#: Backend names, fastest first (the order ``"auto"`` tries them in).
BACKENDS: tuple[str, ...] = ("openvino", "onnx", "torch")
MODEL_STEM = "cards-yolo11n"
_RUNTIME_MODULE = {"openvino": "openvino", "onnx": "onnxruntime", "torch": "ultralytics"}


def models_dir() -> Path:
    """The folder of the installed ``cardref.models`` package (the repository's ``models/``)."""
    import cardref.models

    return Path(cardref.models.__file__).resolve().parent


def default_model_paths(stem: str = MODEL_STEM, folder: Path | None = None) -> dict[str, list[Path]]:
    """For each backend, the model files it can use, preferred first."""
    folder = folder or models_dir()
    onnx = folder / f"{stem}.onnx"
    return {"openvino": [folder / f"{stem}_openvino_model", *_openvino_order(onnx, int8_sibling(onnx))],
            "onnx": [onnx], "torch": [folder / f"{stem}.pt"]}


def _openvino_order(float_model: Path, int8_model: Path) -> list[Path]:
    """Which exports OpenVINO may run, preferred first: the INT8 copy where it may be the
    fast one and was made from this float export (:mod:`.int8`), then the float export.
    :func:`load_detector` runs the copy only once it passes the load-time check
    (:mod:`.int8_check`).

    The check weighs the copy against the float export as OpenVINO runs it here: in f32
    without bf16 units (89 vs 63 ms a 1280x720 frame on the machine of 2026-12-01), in bf16
    with them (28 vs 29 ms with AMX on the machine of 2026-11-30), so it runs where it is
    the faster.
    """
    if prefer_int8() and is_fresh(int8_model, float_model):
        return [int8_model, float_model]
    return [float_model]


def available_backends() -> list[str]:
    """Backends whose runtime library is installed (model files not checked), fastest first."""
    return [b for b in BACKENDS if importlib.util.find_spec(_RUNTIME_MODULE[b]) is not None]


def _paths_for(backend: str, model: Path) -> list[Path]:
    """The files ``backend`` could read for the model the user named (its exports sit beside it)."""
    if model.is_dir() or model.suffix == ".xml":
        return [model] if backend == "openvino" else []
    if backend == "torch":
        return [model] if model.suffix == ".pt" else [model.with_suffix(".pt")]
    if model.suffix == ".onnx":
        return [model]
    onnx = model.with_suffix(".onnx")
    if backend == "openvino":
        return [model.parent / f"{model.stem}_openvino_model", *_openvino_order(onnx, int8_sibling(onnx))]
    return [onnx]


@dataclass
class Detector:
    """Finds cards in a frame: corners from a backend, merged into one detection per card."""

    backend: CornerDetector
    merge: MergeSettings = field(default_factory=lambda: DEFAULT_MERGE)
    namer: CornerNamer | None = None
    #: Frame scales the finder looks at; the corners of all of them are pooled (one box per
    #: index, :func:`pool_scales`).  ``(1.0,)`` is the camera's own pixel scale (live video);
    #: :data:`PHOTO_SCALES` adds a look at 0.4 for close-up photos, whose indices are larger
    #: than a webcam's.
    scales: tuple[float, ...] = (1.0,)
    #: When the indices found are too small for the finder (:func:`.enlarge.indices_small`),
    #: it looks once more at the frame enlarged this many times (from the scale it first saw
    #: the frame at: a 1080p frame, seen at 2/3, is looked at 4/3 its size) and the boxes are pooled
    #: (rule ``enlarged-look``, :mod:`.enlarge`); ``1.0``: never.  :data:`PHOTO_ENLARGE` for
    #: still images; live video keeps 1.0 (about five times the finder's work on a 720p frame).
    enlarge: float = 1.0
    #: Reads the suit again from the face of each pip card seen by two indices (:mod:`.body`).
    suits: SuitReader | None = None
    #: Names each joker big or small by the colour of its ink (:mod:`.joker_ink`).
    jokers_by_ink: bool = True
    #: Which of the hand-written rules (:mod:`.rules`) are on.
    rules: DetectorRules = field(default_factory=lambda: DEFAULT_RULES)
    #: Turns each card's score into the probability that it is right and marks it ``sure``
    #: (:mod:`.confidence`); ``None``: scores stay raw, no card is marked.
    confidence: ConfidenceCalibration | None = None

    @property
    def name(self) -> str:
        return self.backend.name

    @property
    def model_path(self) -> Path:
        return self.backend.model_path

    def _look(self, frame_bgr: np.ndarray, scale: float) -> list[CornerDetection]:
        """The finder's corners in the frame shrunk by ``scale``, boxes in frame pixels."""
        if scale == 1.0:
            return self.backend.detect_corners(frame_bgr)
        small = cv2.resize(frame_bgr, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        return [replace(c, box=tuple(v / scale for v in c.box)) for c in self.backend.detect_corners(small)]

    def find_corners(self, frame_bgr: np.ndarray, trace: RuleTrace | None = None) -> list[CornerDetection]:
        """The finder's corner boxes at every scale, pooled, not yet named (:meth:`_scaled_looks`),
        and with rule ``enlarged-look`` (when :attr:`enlarge` is above 1) those of the frame
        enlarged, when the indices found are too small for the finder."""
        found = self._scaled_looks(frame_bgr, trace)
        if self.enlarge <= 1.0 or not self.rules.on("enlarged-look"):
            return found
        h, w = frame_bgr.shape[:2]
        input_hw = self._input_hw()
        seen = finder_scale((w, h), input_hw or DEFAULT_EXPORT_SHAPE)
        if not indices_small(found, seen):
            return found
        # enlarged from what the finder first saw: a frame it saw shrunk (1080p, 4K) is looked
        # at in tiles at enlarge x that scale, not enlarge x its own pixels
        factor = self.enlarge * seen
        pooled = pool_scales([found, enlarged_corners(frame_bgr, factor, input_hw,
                                                      self.backend.detect_corners, MIN_INDEX_PX / seen)])
        if trace is not None:
            trace.note("enlarged-look", f"indices small: {len(found)} boxes -> {len(pooled)} with the frame "
                       f"at {factor:g}x its size")
        return pooled

    def _input_hw(self) -> tuple[int, int] | None:
        """The finder's input (height, width) where its backend says (the exports do)."""
        shape = getattr(self.backend, "input_shape", None)
        return (int(shape[0]), int(shape[1])) if shape is not None else None

    def _scaled_looks(self, frame_bgr: np.ndarray, trace: RuleTrace | None = None) -> list[CornerDetection]:
        """The finder's corner boxes at every scale, pooled, not yet named.  The looks after
        the first (shrunk frames, for indices larger than a webcam's; rule ``second-look``)
        are skipped when the first already found the indices at a webcam's scale
        (:func:`at_camera_scale`, rule ``camera-scale``); specks are dropped from pooled looks
        (:func:`drop_specks`, rule ``specks``).  ``trace`` records what those rules changed."""
        first = self._look(frame_bgr, self.scales[0])
        if len(self.scales) == 1 or not self.rules.on("second-look"):
            return first
        if self.rules.on("camera-scale") and at_camera_scale(first, frame_bgr.shape[:2], self.scales[0]):
            if trace is not None:
                trace.note("camera-scale", f"skipped the looks at {self.scales[1:]} (indices at a webcam's scale)")
            return first
        pooled = pool_scales([first, *(self._look(frame_bgr, s) for s in self.scales[1:])])
        if trace is not None and pooled != first:
            trace.note("second-look", f"{len(first)} boxes at scale {self.scales[0]} -> {len(pooled)} pooled")
        if not self.rules.on("specks"):
            return pooled
        kept = drop_specks(pooled)
        if trace is not None and len(kept) < len(pooled):
            trace.note("specks", f"dropped {len(pooled) - len(kept)} of {len(pooled)} boxes")
        return kept

    def detect_corners(self, frame_bgr: np.ndarray, trace: RuleTrace | None = None) -> list[CornerDetection]:
        return self.name_corners(frame_bgr, self.find_corners(frame_bgr, trace), trace)

    def name_corners(self, frame_bgr: np.ndarray, corners: list[CornerDetection],
                     trace: RuleTrace | None = None) -> list[CornerDetection]:
        """The finder's ``corners`` of this frame named (by the namer, when the finder does not;
        light ink also read inverted under rule ``inverted-ink``)."""
        if self.namer is not None:
            own = self.namer.inverted
            try:
                self.namer.inverted = own and self.rules.on("inverted-ink")
                named = self.namer.name(frame_bgr, corners)
                if trace is not None and self.namer.inverted:
                    self.namer.inverted = False
                    trace_renamed("inverted-ink", self.namer.name(frame_bgr, corners), named, trace)
            finally:
                self.namer.inverted = own
            return named
        if any(c.card == UNNAMED for c in corners):
            raise ModelFileError(models_dir() / f"{NAMER_STEM}.onnx",
                                 f"{self.backend.model_path.name} finds corners without naming them and "
                                 "the corner namer model is missing", "train one with `cardref train-namer`")
        return corners

    def merge_cards(self, corners: list[CornerDetection], frame_bgr: np.ndarray | None = None,
                    trace: RuleTrace | None = None) -> list[CardDetection]:
        """The named corners merged into cards.  With the frame they came from, each joker is
        named big or small by its ink (``jokers_by_ink`` and rule ``joker-ink``) and each pip
        card seen by two indices also has its suit read from its face (the suit reader, when
        loaded).  The merge's rules that are off (:mod:`.rules`) are off in its settings."""
        if self.jokers_by_ink and self.rules.on("joker-ink") and frame_bgr is not None:
            settled = settle_jokers(frame_bgr, corners)
            if trace is not None:
                trace_renamed("joker-ink", corners, settled, trace)
            corners = settled
        settings = self.rules.merge_settings(self.merge)
        if trace is not None:
            trace_merge(corners, settings, self.rules, trace)
        cards = merge_corners(corners, settings)
        if self.suits is not None and frame_bgr is not None:
            cards = self.suits.reconsider(frame_bgr, cards)
        if self.confidence is not None:
            cards = self.confidence.apply(cards)
        return cards

    def use_deck(self, deck) -> None:  # noqa: ANN001 - a deck.DeckProfile or None
        """Name corners with an enrolled deck's profile (:mod:`.deck`); ``None`` drops it."""
        if self.namer is None and deck is None:
            return
        if self.namer is None:
            raise DetectorError(f"{self.backend.model_path.name} names its own corners: a deck profile needs "
                                "the class-agnostic detector with the corner namer")
        self.namer.use_deck(deck)

    def detect(self, frame_bgr: np.ndarray, trace: RuleTrace | None = None) -> list[CardDetection]:
        """One card per physical card; ``trace`` (when given) records what each rule changed."""
        return self.merge_cards(self.detect_corners(frame_bgr, trace), frame_bgr, trace)


#: Scales for still photos (``cardref detect``): the frame as it is and shrunk to 0.4, where
#: a phone close-up's indices (40-120 px on a 640x640 photo) come near the 12-25 px of a
#: webcam frame the finder is trained at.  On the held-out real phone photos card F1 went
#: 0.50 -> 0.63 with a second look at 0.5 (model card).  0.4 was chosen on the real tuning
#: photos (F1 0.913 at 0.5, 0.918 at 0.4; three looks 1 + 0.5 + 0.3 or 0.25, 1 + 0.6 + 0.35,
#: or one sized to the corners found at full size, did no better); on the held-out photos it
#: gave 0.7699 against 0.7495 at 0.5.  A webcam frame among the images gets the first look
#: only (:func:`at_camera_scale`).
PHOTO_SCALES = (1.0, 0.4)
#: The enlarged look of still images (``cardref detect``): see :mod:`.enlarge`.
PHOTO_ENLARGE = ENLARGE
#: A look finding at least CAMERA_SCALE_MIN_CORNERS indices of confidence CAMERA_SCALE_CONF
#: or more, whose median size as the finder sees them is under CAMERA_SCALE_INDEX_PX, saw
#: a webcam frame: its indices are at the scale the finder is trained on (12-25 px), and a
#: further look at the frame shrunk would only add false indices.  On 60 held-out 1280x720
#: frames the look at 0.4 took card F1 from 0.7518 to 0.7375; the real phone photos'
#: indices are 40-120 px (median 83 as the finder sees them), the frames' 9-47 (median 14).
#: Chosen on the real tuning photos (F1 0.9464 as without the rule; at confidence 0.25
#: instead of 0.5, 0.9313: a close-up's pips and letters found small) and the frames
#: (0.7375 -> 0.7515); on the held-out real photos F1 went 0.7768 -> 0.7823.
CAMERA_SCALE_MIN_CORNERS = 3
CAMERA_SCALE_CONF = CONFIDENT_INDEX
CAMERA_SCALE_INDEX_PX = 32.0


def at_camera_scale(corners: list[CornerDetection], frame_hw: tuple[int, int], scale: float = 1.0) -> bool:
    """Whether ``corners`` (found in a frame of ``frame_hw`` looked at at ``scale``; boxes in
    frame pixels) are a webcam's indices (see CAMERA_SCALE_INDEX_PX)."""
    h, w = frame_hw
    r = finder_scale((max(1, round(w * scale)), max(1, round(h * scale)))) * scale
    sizes = confident_index_sizes(corners, r, CAMERA_SCALE_CONF)
    return len(sizes) >= CAMERA_SCALE_MIN_CORNERS and float(np.median(sizes)) < CAMERA_SCALE_INDEX_PX


#: In a close-up (a photo whose indices are larger than a webcam's, :func:`at_camera_scale`
#: false), a box whose longer side is under this share of the median of the confident
#: indices' (CAMERA_SCALE_CONF, at least CAMERA_SCALE_MIN_CORNERS of them) is no index of
#: that photo's cards: a speck of noise or dirt the namer would read as a joker's star.
#: Chosen on the real tuning photos (card F1 0.9379 -> 0.9487 through cardref detect, the
#: same from 0.25 to 0.5; 0.15-0.2: 0.9463); the held-out photos 0.7960 -> 0.7968.  A
#: webcam frame's corners are never filtered (a joker's star there is legitimately small).
SPECK_SHARE = 0.25


def drop_specks(corners: list[CornerDetection], share: float = SPECK_SHARE) -> list[CornerDetection]:
    """A close-up photo's ``corners`` less the boxes far smaller than its confident indices
    (see SPECK_SHARE); unchanged when fewer than CAMERA_SCALE_MIN_CORNERS are confident."""
    sizes = confident_index_sizes(corners, 1.0, CAMERA_SCALE_CONF)
    if len(sizes) < CAMERA_SCALE_MIN_CORNERS:
        return corners
    least = share * float(np.median(sizes))
    return [c for c in corners if index_size(c) >= least]


#: Boxes from two scales overlapping more than this are one index.
POOL_IOU = 0.5


def pool_scales(looks: list[list[CornerDetection]], iou: float = POOL_IOU) -> list[CornerDetection]:
    """Corners found at several scales (boxes already in frame pixels), one per index: the
    most confident of overlapping boxes is kept."""
    flat = [c for look in looks for c in look]
    if not flat:
        return []
    boxes = np.array([c.box for c in flat], dtype=np.float64)
    scores = np.array([c.conf for c in flat], dtype=np.float64)
    return [flat[i] for i in sorted(nms(boxes, scores, iou).tolist())]


def _build(backend: str, path: Path, conf: float, iou: float, imgsz: int | None, threads: int | None,
           ) -> CornerDetector:
    if backend == "torch":
        return TorchBackend(path, conf=conf, iou=iou, imgsz=imgsz, threads=threads)
    if backend == "onnx":
        return OnnxBackend(path, conf=conf, iou=iou, threads=threads)
    if backend == "openvino":
        return OpenVinoBackend(path, conf=conf, iou=iou, threads=threads)
    raise DetectorError(f"unknown detector backend {backend!r} (choose from auto, {', '.join(BACKENDS)})")


def load_detector(backend: str = "auto", model: str | Path | None = None, conf: float = DEFAULT_CONF,
                  iou: float = DEFAULT_IOU, imgsz: int | None = None, threads: int | None = None,
                  merge: MergeSettings = DEFAULT_MERGE, namer: str | Path | bool = True,
                  scales: tuple[float, ...] = (1.0,), suit_reader: str | Path | bool = True,
                  int8: bool = True, rules: DetectorRules = DEFAULT_RULES, calibrated: bool = True,
                  enlarge: float = 1.0) -> Detector:
    """Build a :class:`Detector`.

    ``backend`` is ``"auto"`` (the fastest installed backend whose model file exists) or one
    of :data:`BACKENDS`.  ``model`` is a ``.pt``, ``.onnx``, OpenVINO ``.xml`` or IR folder;
    its sibling exports are found by name (``x.pt`` -> ``x.onnx``).  By default the shipped
    ``cards-yolo11n`` files are used.  ``imgsz`` only applies to the PyTorch backend (the
    exports have a fixed input shape).  Raises :class:`ModelFileError` naming the missing file.

    ``namer``: ``True`` gives a class-agnostic detector the shipped corner namer (a missing
    namer file raises :class:`ModelFileError`), a path puts that namer behind any detector,
    ``False`` runs the detector alone.  ``scales``: see :attr:`Detector.scales` (each in 0..1].
    ``suit_reader``: ``True`` adds the shipped suit reader behind the corner namer (a missing
    file raises :class:`ModelFileError`), a path that reader, ``False`` none.  ``int8=False``
    never runs the INT8 copies of the finder and the namer (:mod:`.int8`), even where they
    are the fast ones.  ``rules``: which hand-written rules are on (:mod:`.rules`).
    ``calibrated``: use the shipped confidence calibration (``models/confidence.json``) when
    it was fitted for these model files (:mod:`.confidence`); ``False`` keeps raw scores.
    ``enlarge``: see :attr:`Detector.enlarge` (1 or more; :data:`PHOTO_ENLARGE` for stills).
    """
    if not enlarge >= 1.0:
        raise DetectorError(f"the detector's enlarged look must be 1 (none) or more, not {enlarge!r}")
    if not scales or any(not 0 < s <= 1 for s in scales):
        raise DetectorError(f"detector scales must lie in (0, 1], not {scales!r}")
    if backend != "auto" and backend not in BACKENDS:
        raise DetectorError(f"unknown detector backend {backend!r} (choose from auto, {', '.join(BACKENDS)})")
    model_path = Path(model) if model is not None else None
    if model_path is not None and not model_path.exists():
        raise ModelFileError(model_path, "model file not found")
    wanted = list(BACKENDS) if backend == "auto" else [backend]
    defaults = default_model_paths()
    tried: list[Path] = []
    for name in wanted:
        if backend == "auto" and name not in available_backends():
            continue
        paths = _paths_for(name, model_path) if model_path is not None else defaults[name]
        if not int8:
            paths = [p for p in paths if not is_int8_copy(p)]
        for path in paths:
            if path.exists() and is_int8_copy(path) and not _int8_passes(path, paths, namer):
                continue  # the check found it reading otherwise (or slower) here: the float file next
            if path.exists():
                found = _build(name, path, conf, iou, imgsz, threads)
                namer_ = _load_namer(namer, found, threads, conf, int8)
                reader = _load_suit_reader(suit_reader, namer_, threads)
                confidence = _load_confidence(path, namer_, reader) if calibrated else None
                return Detector(found, merge, namer_, tuple(scales), float(enlarge), reader, rules=rules,
                                confidence=confidence)
            tried.append(path)
    if backend == "auto" and not available_backends():
        raise BackendUnavailableError("auto", "none of openvino, onnxruntime, ultralytics is installed")
    tried = list(dict.fromkeys(tried))
    if backend == "auto" and tried:  # name the weights first: every export derives from them
        tried = tried[-1:] + tried[:-1]
    missing = tried[0] if tried else (model_path or defaults[wanted[0]][0])
    hints = []
    if len(tried) > 1:
        hints.append("also looked for " + ", ".join(str(p) for p in tried[1:]))
    if model_path is None:
        hints.append("train one with `cardref train`, export it with `cardref export-detector`")
    raise ModelFileError(missing, f"no model file for the {backend} detector backend", "; ".join(hints))


def _int8_passes(int8_path: Path, paths: list[Path], namer: str | Path | bool) -> bool:
    """Whether the INT8 finder ``int8_path`` passes the load-time check against the float
    file after it in ``paths`` (:func:`.int8.passes_check`); its corners are named by the
    namer the detector gets.  With no float file to compare with, it does not run."""
    float_path = next((p for p in paths[paths.index(int8_path) + 1:] if p.exists() and not is_int8_copy(p)), None)
    if float_path is None:
        return False
    namer_path = models_dir() / f"{NAMER_STEM}.onnx" if namer is True else (Path(namer) if namer else None)
    return passes_check("finder", float_path, int8_path, namer_path)


def calibration_files(finder: Path, namer: CornerNamer | None, reader: SuitReader | None) -> list[Path]:
    """The model files a confidence calibration is tied to, as they run: the finder's ONNX
    file (an OpenVINO folder stands for the file it was converted from), the namer's runtime
    file (its INT8 copy where that runs) and the suit reader."""
    onnx = finder.with_name(finder.name.removesuffix("_openvino_model")).with_suffix(".onnx")
    files = [onnx]
    files += [namer.runtime_path] if namer is not None else []
    files += [reader.model_path] if reader is not None else []
    return files


def _load_confidence(finder: Path, namer: CornerNamer | None, reader: SuitReader | None) -> ConfidenceCalibration | None:
    """The shipped calibration for the files this detector runs (:func:`.confidence.calibration_for`)."""
    return calibration_for(models_dir(), calibration_files(finder, namer, reader))


def _load_namer(namer: str | Path | bool, backend: CornerDetector, threads: int | None,
                conf: float, int8: bool = True) -> CornerNamer | None:
    """``True``: the shipped namer, for a class-agnostic detector only (a 54-class one names its
    own corners); a path: that namer, for any detector; ``False``: none."""
    if namer is False or (namer is True and UNNAMED not in backend.names):
        return None
    if namer is True:
        return CornerNamer(models_dir() / f"{NAMER_STEM}.onnx", threads=threads, min_conf=conf, int8=int8)
    return CornerNamer(Path(namer), threads=threads, min_conf=conf, int8=int8)


def _load_suit_reader(reader: str | Path | bool, namer: CornerNamer | None, threads: int | None) -> SuitReader | None:
    """``True``: the shipped suit reader, behind a corner namer only (it weighs the namer's
    readings); a path: that reader; ``False``: none."""
    if reader is False or (reader is True and namer is None):
        return None
    if reader is True:
        return SuitReader(models_dir() / f"{BODY_STEM}.onnx", threads=threads)
    return SuitReader(Path(reader), threads=threads)
