"""The corner namer's reading: a small classifier that names each corner index the detector found.

This module reads with the ONNX file it is given (:class:`FileNamer`); the product's
:class:`~.namer.CornerNamer` adds the choice of that file (a fresh INT8 copy where it is the
fast one, :mod:`.int8`).  The INT8 load-time check (:mod:`.int8_check`) reads through
:class:`FileNamer`, which knows nothing of that choice: so the check and the choice do not
import each other.

The YOLO detector is good at *finding* the rank-and-suit indices and weak at telling 54
look-alike classes apart from a few pixels; so the shipped detector is class-agnostic
(one class, ``corner``) and this second stage names every box it finds.  Each box is cut
out as a square patch (:func:`crop_corner`, the same code at training and at run time),
scaled to :data:`CROP_SIZE` pixels and classified into the 54 card codes plus
:data:`NOT_A_CORNER`, which rejects boxes that are not an index at all.

The network is trained by :mod:`cardref.datasets.namer_train` and shipped as ONNX
(``models/corner-namer.onnx``), run by OpenVINO (or ONNX Runtime when OpenVINO is
missing) on every box of a frame in one batch.

A namer exported with a second output, ``features`` (the pooled 160-number description of
a patch the classifier reads), can also be taught one deck (:mod:`.deck`): its readings are
then weighed against that deck's own enrolled corners.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from ..classes import CLASS_NAMES
from ..types import Box, CornerDetection
from .digest import file_digest
from .errors import BackendUnavailableError, DetectorError, ModelFileError

#: Side of the square patch the namer sees, in pixels.
CROP_SIZE = 32
#: The patch side is this many times the box's longer side (some context around the index).
CONTEXT = 1.3
#: The extra class: "this box is not a corner index".
NOT_A_CORNER = "none"
#: Namer classes: the 54 card codes (vision/classes.py order), then NOT_A_CORNER.
NAMER_CLASSES: tuple[str, ...] = (*CLASS_NAMES, NOT_A_CORNER)
NAMER_STEM = "corner-namer"
#: Quarter turns the namer looks at each patch in (their probabilities are averaged).  The
#: network is trained on patches turned every way, so the turns are four more looks at one
#: index: on the earlier namer (11 epochs on v1 scenes) 1 -> 4 turns took held-out designs from 55.8 to 58.6 % and
#: held-out real photos from 46.0 to 50.9 % of indices named right, for 4x the namer's time.
TURNS = 4
#: The namer also reads each patch of light ink (:func:`light_ink`) inverted, as dark ink on a
#: light card, and keeps the likelier of the two readings: the black-and-gold deck's light
#: indices on black.  Card F1 against reading nothing inverted: held-out real photos through
#: cardref detect 0.7823 -> 0.8008 (black-and-gold deck 0.7496 -> 0.7783, standard deck
#: unchanged), held-out designs at 320 px 0.7441 -> 0.7492 (models/README.md, "inverted").
INVERTED = True
#: A corner whose best card code is less likely than this is dropped (the product's setting;
#: the evaluation uses it too, so its figures are the product's).
MIN_PROB = 0.3
#: Each named corner keeps its ``ALTS`` likeliest codes of at least ``ALT_MIN_PROB``
#: (``CornerDetection.alts``), for the merge to reconcile two differently read indices.
ALTS = 4
ALT_MIN_PROB = 0.05


def crop_corner(frame_bgr: np.ndarray, box: Box, size: int = CROP_SIZE, context: float = CONTEXT) -> np.ndarray:
    """The square ``size`` x ``size`` BGR patch centred on ``box`` (edges replicated past the frame)."""
    x1, y1, x2, y2 = (float(v) for v in box)
    side = max(x2 - x1, y2 - y1, 1.0) * context
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    s = size / side
    if s < 0.5:  # shrinking a lot: smooth first so the patch is not aliased
        k = int(round(0.5 / s)) * 2 + 1
        x0, y0 = int(max(0, cx - side)), int(max(0, cy - side))
        xe, ye = int(min(frame_bgr.shape[1], cx + side + 1)), int(min(frame_bgr.shape[0], cy + side + 1))
        if xe > x0 and ye > y0:
            region = cv2.GaussianBlur(frame_bgr[y0:ye, x0:xe], (k, k), 0)
            frame_bgr, cx, cy = region, cx - x0, cy - y0
    m = np.array([[s, 0.0, size / 2 - s * cx], [0.0, s, size / 2 - s * cy]], dtype=np.float64)
    return cv2.warpAffine(frame_bgr, m, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def patches_blob(patches: Sequence[np.ndarray] | np.ndarray) -> np.ndarray:
    """``(n, size, size, 3)`` BGR uint8 patches -> the network input ``(n, 3, size, size)`` RGB float32 0..1."""
    arr = np.asarray(patches, dtype=np.uint8)
    return np.ascontiguousarray(arr[..., ::-1].transpose(0, 3, 1, 2), dtype=np.float32) / 255.0


def light_ink(patches: np.ndarray) -> np.ndarray:
    """Per patch: is its ink lighter than its card?  The card is the patch's most common tone
    (its median grey); the ink is whichever tail lies further from it, the brightest or the
    darkest twentieth of the pixels.  Light ink on a dark card (the black-and-gold deck) is
    read inverted as well; a white card's index, whatever the light, is not."""
    grey = np.asarray(patches, dtype=np.float32).mean(axis=-1).reshape(len(patches), -1)
    lo, mid, hi = np.percentile(grey, [5, 50, 95], axis=1)
    return (hi - mid) > (mid - lo)


def softmax(logits: np.ndarray) -> np.ndarray:
    z = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def load_onnx_classifier(path: Path, classes: Sequence[str], what: str, threads: int | None = None):  # noqa: ANN201
    """Load a patch classifier exported to ONNX with its class list in the metadata (the corner
    namer, the suit reader): OpenVINO when installed (about twice as fast here: bf16 on CPUs
    that have it), else ONNX Runtime.  Returns a function giving the model's outputs for a
    blob, and whether the model has more than one output (the namer's features)."""
    from .backends import default_threads, read_onnx_metadata
    from .cpu import openvino_config

    try:
        meta = read_onnx_metadata(path)
    except ModelFileError:
        raise
    except Exception as exc:  # noqa: BLE001 - the runtimes raise their own types for a bad file
        raise ModelFileError(path, f"not a readable ONNX model ({exc.__class__.__name__})") from exc
    _check_classes(meta, path, tuple(classes), what)
    threads = threads or default_threads()
    try:
        import openvino as ov
    except ImportError:
        ov = None
    if ov is not None:
        try:
            compiled = ov.Core().compile_model(str(path), "CPU", openvino_config({"INFERENCE_NUM_THREADS": threads,
                                                                                  "PERFORMANCE_HINT": "LATENCY"}, path))
        except Exception as exc:  # noqa: BLE001 - openvino raises RuntimeError subclasses
            raise ModelFileError(path, f"OpenVINO cannot load the {what} ({exc})") from exc
        outputs = compiled.outputs

        def run(blob: np.ndarray) -> list[np.ndarray]:
            result = compiled(blob)  # one inference for all outputs
            return [result[o] for o in outputs]

        return run, len(outputs) > 1
    try:
        import onnxruntime as ort
    except ImportError as exc:
        raise BackendUnavailableError(what, "neither openvino nor onnxruntime is installed") from exc
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.log_severity_level = 3
    try:
        sess = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
    except Exception as exc:  # noqa: BLE001 - onnxruntime raises its own types
        raise ModelFileError(path, f"ONNX Runtime cannot load the {what} ({exc})") from exc
    name = sess.get_inputs()[0].name
    return (lambda blob: sess.run(None, {name: blob})), len(sess.get_outputs()) > 1


def load_onnx_bytes(blob: bytes, classes: Sequence[str], what: str, threads: int | None = None):  # noqa: ANN201
    """:func:`load_onnx_classifier` for a model held in memory (a deck's adapted namer)."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "model.onnx"
        path.write_bytes(blob)
        return load_onnx_classifier(path, classes, what, threads)


class FileNamer:
    """Names corner boxes: ``name(frame, corners)`` returns them with card codes (or drops them).

    ``model_path`` is the float ONNX export; ``runtime(model_path)``, where given, is the file
    that runs instead (:class:`~.namer.CornerNamer` passes its INT8 choice), else
    ``model_path`` itself runs.  ``min_prob`` drops a corner whose best card
    code is less likely than this; a corner the namer calls :data:`NOT_A_CORNER` is dropped.
    The reported confidence is the detector's box confidence times the namer's probability of
    the code; corners below ``min_conf`` are dropped (the detector's own threshold applies to
    the box confidence alone).
    """

    def __init__(self, model_path: str | Path, min_prob: float = MIN_PROB, threads: int | None = None,
                 min_conf: float = 0.0, turns: int = TURNS, inverted: bool = INVERTED,
                 runtime: Callable[[Path], Path] | None = None) -> None:
        if turns not in (1, 2, 4):
            raise ValueError("turns must be 1, 2 or 4")
        self.min_conf = min_conf
        self.turns = turns
        self.inverted = inverted
        path = Path(model_path)
        if not path.is_file():
            raise ModelFileError(path, "corner namer model not found", "train one with `cardref train-namer`")
        self.model_path = path
        #: the file that runs: ``model_path``, or its INT8 copy where that is the fast one
        #: (``runtime``, :func:`.int8.runtime_file`); a deck profile belongs to ``model_path`` either way
        self.runtime_path = runtime(path) if runtime is not None else path
        self.min_prob = min_prob
        self._threads = threads
        self._run, self.has_features = load_onnx_classifier(self.runtime_path, NAMER_CLASSES, "corner namer", threads)
        #: a :class:`~.deck.DeckProfile` the readings are weighed against (``use_deck``)
        self.deck = None
        #: the deck's adapted namer (:mod:`.deck_adapt`), which reads instead while that deck is used
        self._deck_run = None
        self._sha1: str | None = None

    @property
    def sha1(self) -> str:
        """Digest of the model file's content: a deck profile is only valid for the namer that made it."""
        if self._sha1 is None:
            self._sha1 = file_digest(self.model_path)
        return self._sha1

    def read(self, patches: Sequence[np.ndarray] | np.ndarray,
             adapted: bool = True) -> tuple[np.ndarray, np.ndarray | None]:
        """``(n, 55)`` class probabilities for ``n`` patches from :func:`crop_corner`, and their
        ``(n, d)`` unit-length features (``None`` for a namer exported without them).  Both are
        averaged over the quarter turns, so a card reads the same whichever way it lies.  The
        deck in use reads them when it holds an adapted namer, unless ``adapted`` is false
        (the shipped namer's own reading: what a profile is made of)."""
        use_deck = adapted and self.deck is not None and self._deck_run is not None
        run = self._deck_run if use_deck else self._run
        return self.read_with(run, patches)

    def read_with(self, run, patches: Sequence[np.ndarray] | np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:  # noqa: ANN001
        """:meth:`read` with another network of the namer's shape (``run`` from
        :func:`load_onnx_classifier`): a deck's adapted namer."""
        if len(patches) == 0:
            return np.zeros((0, len(NAMER_CLASSES)), np.float32), None
        arr = np.asarray(patches, dtype=np.uint8)
        # every patch at each quarter turn (2 turns: upright and half a turn), and the patches
        # of light ink inverted (INVERTED), in one batch
        step = 4 // self.turns
        light = np.flatnonzero(light_ink(arr)) if self.inverted else np.zeros(0, np.intp)
        looks = np.concatenate([arr, 255 - arr[light]])
        batch = np.concatenate([np.rot90(looks, k * step, axes=(1, 2)) for k in range(self.turns)])
        outs = run(patches_blob(batch))
        probs = softmax(np.asarray(outs[0], dtype=np.float64))
        probs = probs.reshape(self.turns, len(looks), -1).mean(axis=0).astype(np.float32)
        probs, inv = probs[:len(arr)], probs[len(arr):]
        better = inv.max(axis=1) > probs[light].max(axis=1)  # the likelier reading of the two
        probs[light[better]] = inv[better]
        if len(outs) < 2:
            return probs, None
        # the features are the patch's own (a deck profile compares a deck with itself)
        feats = np.asarray(outs[1], dtype=np.float32).reshape(self.turns, len(looks), -1).mean(axis=0)[:len(arr)]
        feats /= np.maximum(np.linalg.norm(feats, axis=1, keepdims=True), 1e-9)
        return probs, feats

    def probabilities(self, patches: Sequence[np.ndarray] | np.ndarray) -> np.ndarray:
        """``(n, 55)`` class probabilities for ``n`` patches from :func:`crop_corner` (the
        namer's own, without a deck profile)."""
        return self.read(patches)[0]

    def require_features(self) -> None:
        """Raise :class:`ModelFileError` unless the model has its features output (deck enrolment)."""
        if not self.has_features:
            raise ModelFileError(self.model_path, "this corner namer was exported without its features output, "
                                 "which deck enrolment needs", "export it again with `cardref train-namer "
                                 "--resume --export-only` or use the shipped one")

    def features(self, patches: Sequence[np.ndarray] | np.ndarray) -> np.ndarray:
        """``(n, d)`` unit-length features of the patches (for enrolling a deck)."""
        self.require_features()
        if len(patches) == 0:
            return np.zeros((0, 0), np.float32)
        feats = self.read(patches)[1]
        assert feats is not None
        return feats

    def adapted(self, blob: bytes):  # noqa: ANN201
        """A runner of an adapted copy of this namer (ONNX ``blob``, :mod:`.deck_adapt`) for :meth:`read_with`."""
        run, features = load_onnx_bytes(blob, NAMER_CLASSES, "adapted corner namer", self._threads)
        if not features:
            raise DetectorError("the deck's adapted corner namer has no features output")
        return run

    def use_deck(self, deck) -> None:  # noqa: ANN001 - a DeckProfile (imported lazily by callers)
        """Weigh every reading against ``deck`` (``None``: the namer alone again); a deck with
        an adapted namer (:mod:`.deck_adapt`) is read by it.  Raises :class:`DetectorError`
        when the profile was made with another namer or turns."""
        if deck is not None:
            self.require_features()
            if deck.namer_sha1 != self.sha1:
                raise DetectorError(f"the deck profile {deck.label!r} was made with another corner namer "
                                    f"({deck.namer_sha1}, this one is {self.sha1}): enrol the deck again "
                                    "with `cardref enrol-deck`")
            if deck.turns != self.turns:
                raise DetectorError(f"the deck profile {deck.label!r} was made with {deck.turns} turns, "
                                    f"the namer uses {self.turns}")
        self._deck_run = self.adapted(deck.namer_onnx) if deck is not None and deck.namer_onnx else None
        self.deck = deck

    def name(self, frame_bgr: np.ndarray, corners: Sequence[CornerDetection],
             keep_all: bool = False) -> list[CornerDetection]:
        """The corners with their likeliest card codes; those the namer calls "not a corner" or
        is unsure of are dropped, unless ``keep_all`` (each then gets its likeliest card code)."""
        if not corners:
            return []
        probs, feats = self.read([crop_corner(frame_bgr, c.box) for c in corners])
        # the alternatives the merge may reconcile two indices with: with a deck profile, also
        # what the namer alone found plausible (the profile's sharp readings would leave one
        # index of a card read two ways without the other's code among its alternatives)
        readings = probs
        if self.deck is not None and feats is not None:
            probs = self.deck.rescore(probs, feats)
            readings = np.maximum(readings, probs)
        out = []
        none = NAMER_CLASSES.index(NOT_A_CORNER)
        for c, p, r in zip(corners, probs, readings, strict=True):
            k = int(p.argmax())
            if keep_all and k == none:
                k = int(np.delete(p, none).argmax())  # the class order has "none" last
            elif NAMER_CLASSES[k] == NOT_A_CORNER or p[k] < self.min_prob or c.conf * p[k] < self.min_conf:
                continue
            # the code given first, with its probability; then the other plausible readings
            others = [(NAMER_CLASSES[j], round(float(r[j]), 4)) for j in np.argsort(-r)
                      if j not in (k, none) and r[j] >= ALT_MIN_PROB]
            alts = ((NAMER_CLASSES[k], round(float(p[k]), 4)), *others[:ALTS - 1])
            out.append(replace(c, card=NAMER_CLASSES[k], conf=float(c.conf * p[k]), alts=alts))
        return out


def _check_classes(meta: dict[str, str], path: Path, expected: tuple[str, ...], what: str) -> None:
    raw = meta.get("classes")
    if raw is None:
        return
    try:
        classes = tuple(json.loads(raw))
    except ValueError as exc:
        raise ModelFileError(path, f"unreadable class list in the {what} metadata") from exc
    if classes != expected:
        raise ModelFileError(path, f"the {what} was trained on another class list ({', '.join(classes[:6])}...) "
                             f"than this version expects")
