"""Pre- and post-processing shared by the ONNX Runtime and OpenVINO backends (numpy only).

They follow what ultralytics does for its own predictions, so that every backend turns the
same frame into the same corners: letterbox (keep the aspect ratio, pad with grey 114 to the
network input), decode the YOLO detection head, non-maximum suppression, and map the boxes
back to frame pixels.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

PAD_VALUE = 114


@dataclass(frozen=True)
class Letterbox:
    """How a frame was fitted into the network input: ``scale`` then ``pad`` (left, top)."""

    scale: float
    pad_x: float
    pad_y: float
    frame_w: int
    frame_h: int

    def to_frame(self, boxes: np.ndarray) -> np.ndarray:
        """Map ``(n, 4)`` x1 y1 x2 y2 boxes from network input back to frame pixels (clipped)."""
        out = boxes.astype(np.float64, copy=True)
        out[:, [0, 2]] = (out[:, [0, 2]] - self.pad_x) / self.scale
        out[:, [1, 3]] = (out[:, [1, 3]] - self.pad_y) / self.scale
        out[:, [0, 2]] = out[:, [0, 2]].clip(0, self.frame_w)
        out[:, [1, 3]] = out[:, [1, 3]].clip(0, self.frame_h)
        return out


def letterbox_image(frame_bgr: np.ndarray, shape: tuple[int, int]) -> tuple[np.ndarray, Letterbox]:
    """Fit a BGR frame into ``shape`` (height, width): shrink keeping the aspect ratio, pad grey.

    A frame smaller than the input is padded, never enlarged: the detector is trained at a
    camera's own pixel scale, and enlarging a small frame makes its cards larger than any it
    was trained on (a 640x640 phone photo enlarged 1.15x into 1280x736 scored card F1 0.47 on
    the held-out real photos; padded at its own size, see the model card).  A larger frame
    (1080p) is shrunk by pixel area, which averages rather than skips pixels: like a 720p
    camera's own pixels, not an aliased picture the finder was never trained on.  Returns the padded uint8 HWC image (for runtimes that normalise it themselves).
    """
    h, w = frame_bgr.shape[:2]
    out_h, out_w = shape
    r = min(out_h / h, out_w / w, 1.0)
    new_w, new_h = round(w * r), round(h * r)
    dw, dh = (out_w - new_w) / 2, (out_h - new_h) / 2
    img = frame_bgr if (new_w, new_h) == (w, h) else cv2.resize(frame_bgr, (new_w, new_h),
                                                                 interpolation=cv2.INTER_AREA)
    top, bottom = round(dh - 0.1), round(dh + 0.1)
    left, right = round(dw - 0.1), round(dw + 0.1)
    if top or bottom or left or right:
        img = cv2.copyMakeBorder(img, top, bottom, left, right, cv2.BORDER_CONSTANT,
                                 value=(PAD_VALUE, PAD_VALUE, PAD_VALUE))
    return np.ascontiguousarray(img), Letterbox(scale=r, pad_x=float(left), pad_y=float(top), frame_w=w, frame_h=h)


def letterbox(frame_bgr: np.ndarray, shape: tuple[int, int]) -> tuple[np.ndarray, Letterbox]:
    """Fit a BGR frame into ``shape`` (height, width) and return the NCHW float32 RGB blob (0..1)."""
    img, lb = letterbox_image(frame_bgr, shape)
    return cv2.dnn.blobFromImage(img, scalefactor=1 / 255.0, swapRB=True), lb


def stride_shape(frame_h: int, frame_w: int, imgsz: int, stride: int = 32) -> tuple[int, int]:
    """The smallest stride-multiple input that holds the frame scaled to ``imgsz`` (ultralytics' rect)."""
    r = min(imgsz / frame_h, imgsz / frame_w)
    new_h, new_w = round(frame_h * r), round(frame_w * r)
    return (int(np.ceil(new_h / stride) * stride), int(np.ceil(new_w / stride) * stride))


def nms(boxes: np.ndarray, scores: np.ndarray, iou: float) -> np.ndarray:
    """Indices kept by greedy non-maximum suppression, best score first."""
    order = np.argsort(-scores, kind="stable")
    x1, y1, x2, y2 = boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3]
    areas = (x2 - x1).clip(0) * (y2 - y1).clip(0)
    keep: list[int] = []
    while order.size:
        i = int(order[0])
        keep.append(i)
        rest = order[1:]
        xx1 = np.maximum(x1[i], x1[rest])
        yy1 = np.maximum(y1[i], y1[rest])
        xx2 = np.minimum(x2[i], x2[rest])
        yy2 = np.minimum(y2[i], y2[rest])
        inter = (xx2 - xx1).clip(0) * (yy2 - yy1).clip(0)
        overlap = inter / (areas[i] + areas[rest] - inter + 1e-9)
        order = rest[overlap <= iou]
    return np.asarray(keep, dtype=np.int64)


def decode_yolo(output: np.ndarray, conf: float, iou: float, agnostic: bool = True,
                max_det: int = 300) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Decode a YOLO detection head ``(1, 4 + nc, n)`` (cx, cy, w, h, class scores).

    Returns ``(boxes x1y1x2y2 in input pixels, scores, class ids)`` after NMS, best first.
    ``agnostic`` suppresses overlapping boxes whatever their class: one corner index has
    one identity, so a weaker second reading of the same index is dropped.
    """
    pred = np.asarray(output)
    if pred.ndim == 3:
        pred = pred[0]  # (4 + nc, n)
    best = pred[4:].max(axis=0)
    keep_idx = np.flatnonzero(best > conf)
    if not keep_idx.size:
        return np.zeros((0, 4), np.float32), np.zeros(0, np.float32), np.zeros(0, np.int64)
    sub = pred[:, keep_idx].T  # only the candidates: (k, 4 + nc)
    cls = sub[:, 4:].argmax(axis=1)
    scores = best[keep_idx]
    xywh = sub[:, :4]
    boxes = np.empty_like(xywh)
    boxes[:, 0] = xywh[:, 0] - xywh[:, 2] / 2
    boxes[:, 1] = xywh[:, 1] - xywh[:, 3] / 2
    boxes[:, 2] = xywh[:, 0] + xywh[:, 2] / 2
    boxes[:, 3] = xywh[:, 1] + xywh[:, 3] / 2
    offset = 0.0 if agnostic else cls[:, None].astype(boxes.dtype) * 7680.0
    keep = nms(boxes + offset, scores, iou)[:max_det]
    return boxes[keep], scores[keep], cls[keep].astype(np.int64)
