"""What the table session may call on a card detector: the capabilities, declared.

Every detector finds cards in a BGR frame (:class:`FrameDetector`).  Some can do more,
and the session uses what a detector declares by its type, decided once when the session
is built (:func:`detect_call`), never probed per frame:

* :class:`IndexedDetector` reads a frame by its index in the source as well (the
  simulation's oracle, a replay of recorded detections): its ``detect_indexed`` is the call;
* :class:`SplitDetector` is a model detector whose finder and namer run apart (``find_corners``,
  ``name_corners``, ``merge_cards`` and a ``backend``): the stream detector
  (:class:`~cardref.vision.detector.regions.StreamDetector`) can wrap it and look again only
  where a frame changed;
* :class:`PreparableDetector` can ready itself for a frame size before the first frame
  (the stream detector compiles its tile-sized finder).

The protocols are ``runtime_checkable`` so that the session's one decision is an
``isinstance`` against a declared interface; a type checker verifies the implementations.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Protocol, runtime_checkable

import numpy as np

from .types import CardDetection, CornerDetection


@runtime_checkable
class FrameDetector(Protocol):
    """Anything that finds cards in a BGR frame (the YOLO detector, the oracle, a fake)."""

    def detect(self, frame_bgr: np.ndarray) -> list[CardDetection]: ...


@runtime_checkable
class IndexedDetector(Protocol):
    """A detector that reads frame ``index`` of the source (an oracle, a replay)."""

    def detect(self, frame_bgr: np.ndarray) -> list[CardDetection]: ...

    def detect_indexed(self, frame_bgr: np.ndarray, index: int) -> list[CardDetection]: ...


@runtime_checkable
class SplitDetector(Protocol):
    """A model detector whose corner finder and corner namer run apart (what the stream
    detector calls on the detector it wraps)."""

    backend: Any

    def find_corners(self, frame_bgr: np.ndarray) -> list[CornerDetection]: ...

    def name_corners(self, frame_bgr: np.ndarray, corners: list[CornerDetection]) -> list[CornerDetection]: ...

    def merge_cards(self, corners: list[CornerDetection], frame_bgr: np.ndarray | None = None) -> list[CardDetection]: ...


@runtime_checkable
class PreparableDetector(Protocol):
    """A detector that readies itself for frames of ``frame_hw`` (height, width)."""

    def detect(self, frame_bgr: np.ndarray) -> list[CardDetection]: ...

    def prepare(self, frame_hw: tuple[int, int]) -> None: ...


class DetectCall(StrEnum):
    """How the session asks its detector for a frame's cards."""

    INDEXED = "indexed"  # detect_indexed(frame, index)
    TILES = "tiles"  # detect() on the table's box, cut into tiles
    WHOLE = "whole"  # detect(frame)


def detect_call(detector: FrameDetector, tiles: int) -> DetectCall:
    """The one call the session makes on ``detector`` per frame (an indexed detector is
    asked by index even with ``tiles``: it knows each frame's cards already)."""
    if isinstance(detector, IndexedDetector):
        return DetectCall.INDEXED
    return DetectCall.TILES if tiles else DetectCall.WHOLE
