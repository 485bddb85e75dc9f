"""Is the camera's pixel scale one the detector can read?  From a table calibration, the
height of a card in pixels, as the camera sees it and as the corner finder sees it (frames
wider than its input are shrunk to it), against the card heights it was trained on.

``cardref watch`` prints this once the table is calibrated, so a referee setting up a
camera learns at once whether to move it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..types import CornerDetection
from .merge import index_size

#: Input shape (height, width) of the shipped finder export: a 1280x720 frame letterboxed to
#: a multiple of the model stride (32) is 1280x736 (``cardref.datasets.export`` exports at it).
DEFAULT_EXPORT_SHAPE: tuple[int, int] = (736, 1280)

#: Card heights, in pixels, of the scenes the corner finder was trained on
#: (``cardref.datasets.scenes.SceneConfig.card_px``; a test keeps the two equal).
TRAINED_CARD_PX: tuple[float, float] = (50.0, 95.0)
#: Above the trained range by this factor before the advice says "too large": the scenes
#: also hold 25 % close-ups, and the finder keeps finding indices somewhat larger.
LARGE_MARGIN = 1.3


#: A box at least this confident counts as an index when the detector judges a frame's scale
#: from its boxes (``at_camera_scale``, ``drop_specks``, the enlarged look's ``indices_small``).
CONFIDENT_INDEX = 0.5


def confident_index_sizes(corners: Iterable[CornerDetection], seen_scale: float = 1.0,
                          confident: float = CONFIDENT_INDEX) -> list[float]:
    """The sizes (:func:`.merge.index_size`) of the ``confident`` boxes of ``corners`` (frame
    pixels), times ``seen_scale``: as the finder sees them when it sees the frame that scaled."""
    return [index_size(c) * seen_scale for c in corners if c.conf >= confident]


def finder_scale(frame_size: tuple[int, int], input_shape: tuple[int, int] = DEFAULT_EXPORT_SHAPE) -> float:
    """The factor a ``(width, height)`` frame is shrunk by to fit the finder's input (1: not at all)."""
    w, h = frame_size
    return min(input_shape[0] / h, input_shape[1] / w, 1.0)


@dataclass(frozen=True)
class ScaleCheck:
    """A card's height in the camera's frames (``card_px``) and as the finder sees it
    (``seen_px``), with the ``verdict`` ("ok", "small" or "large") and a sentence saying
    what to do."""

    card_px: float
    seen_px: float
    verdict: str
    message: str

    @property
    def ok(self) -> bool:
        return self.verdict == "ok"


def scale_advice(card_px: float, frame_size: tuple[int, int]) -> ScaleCheck:
    """The check for cards ``card_px`` tall in ``frame_size`` (width, height) frames."""
    w, h = frame_size
    seen = card_px * finder_scale(frame_size)
    lo, hi = TRAINED_CARD_PX
    what = f"a card is about {card_px:.0f} px tall in these {w}x{h} frames"
    if seen != card_px:
        what += f" ({seen:.0f} px as the corner finder sees them, shrunk to its input)"
    if seen < lo:
        fix = "lower the camera or zoom in"
        if finder_scale(frame_size) == 1.0:
            fix += f", or use a higher resolution ({w * 3 // 2}x{h * 3 // 2} makes cards 1.5 times as tall)"
        else:
            fix += ", or let the finder see the frame at full size in four tiles (--tiles 4)"
        return ScaleCheck(card_px, seen, "small",
                          f"{what}: smaller than the detector reads reliably ({lo:.0f}-{hi:.0f} px); {fix}")
    if seen > hi * LARGE_MARGIN:
        return ScaleCheck(card_px, seen, "large", f"{what}: larger than the detector was trained on "
                          f"({lo:.0f}-{hi:.0f} px); raise the camera or zoom out")
    return ScaleCheck(card_px, seen, "ok", f"{what}: within what the detector was trained on ({lo:.0f}-{hi:.0f} px)")
