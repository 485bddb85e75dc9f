"""The observation types that flow between the vision steps.

The detector turns a frame into :class:`CardDetection` objects (one per physical card,
its corner indices merged); the table steps map them to seats and plays.
"""

from __future__ import annotations

from dataclasses import dataclass, field

Box = tuple[float, float, float, float]  # x1, y1, x2, y2 in frame pixels


def box_centre(box: Box) -> tuple[float, float]:
    """The middle of a box (x, y)."""
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)


def box_iou(a: Box, b: Box) -> float:
    """Intersection over union of two boxes (0 for boxes without area)."""
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


@dataclass(frozen=True)
class CornerDetection:
    """One rank-and-suit corner index as the model saw it."""

    card: str  # canonical event-log code, e.g. "10H", "SJ"
    conf: float
    box: Box
    #: The corner namer's leading readings, ``(code, probability)`` best first (empty when
    #: the model named the corner itself); lets two indices of one card that were read
    #: differently agree on one code (see ``merge.MergeSettings.joint_min``).
    alts: tuple[tuple[str, float], ...] = ()

    @property
    def center(self) -> tuple[float, float]:
        return box_centre(self.box)


@dataclass(frozen=True)
class CardDetection:
    """One physical card: its code, confidence and the box around its visible corners.
    ``conf`` is the probability that the code is right when the detector is calibrated."""

    card: str
    conf: float
    box: Box
    corners: tuple[CornerDetection, ...] = field(default_factory=tuple)
    #: Read surely (a calibrated ``conf`` at or above the calibration's threshold,
    #: :mod:`cardref.vision.detector.confidence`); ``None``: no calibration says.
    sure: bool | None = None

    @property
    def center(self) -> tuple[float, float]:
        return box_centre(self.box)

    def to_json(self) -> dict:
        out: dict = {"card": self.card, "conf": round(float(self.conf), 4),
                     "box": [round(float(v), 1) for v in self.box]}
        if self.sure is not None:
            out["sure"] = self.sure
        return out
