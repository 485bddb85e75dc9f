"""Camera resolutions on the command line (``--resolution 1920x1080``), without importing
OpenCV: every command's options are built at start-up."""

from __future__ import annotations

import argparse

#: What the simulator renders and the detector's export is shaped for.
DEFAULT_RESOLUTION: tuple[int, int] = (1280, 720)


def resolution_arg(text: str) -> tuple[int, int]:
    """``"1920x1080"`` -> ``(1920, 1080)``, from 320x180 to 3840x2160 (an argparse ``type``)."""
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"WIDTHxHEIGHT (e.g. 1920x1080), not {text!r}") from None
    if not (320 <= w <= 3840 and 180 <= h <= 2160):
        raise argparse.ArgumentTypeError(f"{text!r} is outside 320x180 .. 3840x2160")
    return w, h
