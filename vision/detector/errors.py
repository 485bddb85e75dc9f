"""Typed errors of the detector, each naming the file it is about."""

from __future__ import annotations

from pathlib import Path


class DetectorError(Exception):
    """Base class: the detector could not be built or run."""


class ModelFileError(DetectorError):
    """A model file is missing or unreadable; ``path`` names it."""

    def __init__(self, path: str | Path, reason: str, hint: str = "") -> None:
        self.path = Path(path)
        self.reason = reason
        self.hint = hint
        super().__init__(f"{reason}: {self.path}" + (f" ({hint})" if hint else ""))


class BackendUnavailableError(DetectorError):
    """A backend's runtime library is not installed (or no backend at all is usable)."""

    def __init__(self, backend: str, reason: str) -> None:
        self.backend = backend
        self.reason = reason
        super().__init__(f"detector backend {backend!r} unavailable: {reason}")
