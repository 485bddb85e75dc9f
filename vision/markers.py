"""The printable sheet of table markers: four ArUco markers (``DICT_4X4_50``, ids 0–3).

Each marker is drawn at its true printed size on an A4 page at 300 dpi, with its id, the
table corner it belongs to and its printed size in mm.  The sheet is written as PNG and as
PDF (Pillow stores the resolution, so a PDF printed at 100 % scale keeps the sizes).
Cut the four markers out and lay them flat at the table corners, ids 0–3 at top left, top
right, bottom right, bottom left as the camera sees them (seat 0 sits at the bottom edge);
then measure the distance between the marker centres and pass it as ``--table-mm``.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from .calibration import CORNER_NAMES, MARKER_DICT, MARKER_IDS

A4_MM = (210.0, 297.0)
DPI = 300


def mm_to_px(mm: float, dpi: int = DPI) -> int:
    return int(round(mm / 25.4 * dpi))


def marker_image(marker_id: int, size_px: int) -> np.ndarray:
    """One marker, ``size_px`` square, black on white (no quiet zone)."""
    dictionary = cv2.aruco.getPredefinedDictionary(MARKER_DICT)
    return cv2.aruco.generateImageMarker(dictionary, marker_id, size_px)


def marker_sheet(marker_mm: float = 60.0, dpi: int = DPI) -> np.ndarray:
    """An A4 page (grey, ``uint8``) with the four markers in a 2x2 grid and their labels."""
    if not 20 <= marker_mm <= 90:
        raise ValueError(f"marker size must be 20–90 mm to fit four on A4, got {marker_mm}")
    W, H = mm_to_px(A4_MM[0], dpi), mm_to_px(A4_MM[1], dpi)
    page = np.full((H, W), 255, np.uint8)
    size = mm_to_px(marker_mm, dpi)
    cell_w, cell_h = W // 2, (H - mm_to_px(40, dpi)) // 2
    top = mm_to_px(30, dpi)
    font = cv2.FONT_HERSHEY_SIMPLEX
    scale = dpi / 300
    cv2.putText(page, f"cardref table markers - ArUco 4x4_50 - each {marker_mm:g} mm square - print at 100%",
                (mm_to_px(10, dpi), mm_to_px(12, dpi)), font, 1.0 * scale, 0, max(1, int(2 * scale)), cv2.LINE_AA)
    cv2.putText(page, "0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left as the camera sees the table;"
                " seat 0 at the bottom", (mm_to_px(10, dpi), mm_to_px(20, dpi)), font, 0.8 * scale, 0,
                max(1, int(2 * scale)), cv2.LINE_AA)
    for k, mid in enumerate(MARKER_IDS):
        cx = cell_w * (k % 2) + cell_w // 2
        cy = top + cell_h * (k // 2) + cell_h // 2
        x0, y0 = cx - size // 2, cy - size // 2
        page[y0:y0 + size, x0:x0 + size] = marker_image(mid, size)
        # cutting guide: a thin dashed square one quiet-zone width outside the marker
        q = mm_to_px(8, dpi)
        for i in range(x0 - q, x0 + size + q, mm_to_px(3, dpi)):
            cv2.line(page, (i, y0 - q), (min(i + mm_to_px(1.5, dpi), x0 + size + q), y0 - q), 160, 2)
            cv2.line(page, (i, y0 + size + q), (min(i + mm_to_px(1.5, dpi), x0 + size + q), y0 + size + q), 160, 2)
        for j in range(y0 - q, y0 + size + q, mm_to_px(3, dpi)):
            cv2.line(page, (x0 - q, j), (x0 - q, min(j + mm_to_px(1.5, dpi), y0 + size + q)), 160, 2)
            cv2.line(page, (x0 + size + q, j), (x0 + size + q, min(j + mm_to_px(1.5, dpi), y0 + size + q)), 160, 2)
        label = f"id {mid}: {CORNER_NAMES[mid]} corner ({marker_mm:g} mm)"
        cv2.putText(page, label, (x0 - q, y0 + size + q + mm_to_px(7, dpi)), font, 0.9 * scale, 0,
                    max(1, int(2 * scale)), cv2.LINE_AA)
    return page


def write_sheet(out: str | Path, marker_mm: float = 60.0, dpi: int = DPI) -> list[Path]:
    """Write ``out`` as PNG and PDF (``out`` may name either, or have no suffix)."""
    out = Path(out)
    stem = out.with_suffix("") if out.suffix.lower() in (".png", ".pdf") else out
    stem.parent.mkdir(parents=True, exist_ok=True)
    page = Image.fromarray(marker_sheet(marker_mm, dpi))
    png, pdf = stem.with_suffix(".png"), stem.with_suffix(".pdf")
    page.save(png, dpi=(dpi, dpi))
    page.convert("RGB").save(pdf, "PDF", resolution=float(dpi))
    return [png, pdf]
