"""How the dashboard was started: passed by ``cardref ui`` in the ``CARDREF_UI_CONFIG``
environment variable (JSON), so the Streamlit script never parses the command line."""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

ENV = "CARDREF_UI_CONFIG"
DEMO_DIR = Path(__file__).resolve().parent / "demo"
DEMO_LOG = DEMO_DIR / "table.jsonl"
DEMO_VIDEO = DEMO_DIR / "video.mp4"
DEMO_CALIBRATION = DEMO_DIR / "calibration.json"
DEMO_GOUJI = DEMO_DIR / "gouji.jsonl"  # a 够级 deal, log only


@dataclass
class UiConfig:
    """``mode``: ``demo`` (bundled recording, auto-playing), ``log`` (replay a file),
    ``camera`` or ``video`` (live table)."""

    mode: str = "demo"
    log: str | None = None
    video: str | None = None
    camera: int | None = None
    game: str | None = None
    calibration: str | None = None
    out: str | None = None
    pin_hash: str | None = None  # the director PIN as ``salt$scrypt-hash`` (never the PIN itself)
    names: list[str] = field(default_factory=list)
    autoplay: bool = True
    speed: float = 0.6
    refresh: float = 0.2
    confirm_below: float = 0.6
    store: str | None = None
    deal: dict[str, Any] = field(default_factory=dict)  # options of the live table's deal
    header: str | None = None  # a log whose deal and hands start the live log
    detector: str = "auto"  # auto | model | oracle (a simulation's truth, for demos and tests)
    deck: str | None = None  # an enrolled deck profile (cardref enrol-deck) for the live table

    def to_env(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False)

    @property
    def live(self) -> bool:
        return self.mode in ("camera", "video")

    @property
    def replay_log(self) -> str | None:
        if self.mode == "demo":
            return str(DEMO_LOG)
        return self.log

    @property
    def replay_video(self) -> str | None:
        if self.mode == "demo":
            return str(DEMO_VIDEO) if DEMO_VIDEO.is_file() else None
        return self.video if self.mode == "log" else None


def hash_ui_pin(pin: str) -> str:
    """The director PIN as the dashboard keeps it: ``salt$hash`` (salted scrypt, the
    recorder's :func:`cardref.recorder.tournament.hash_pin`)."""
    from cardref.recorder.tournament import hash_pin

    salt, digest = hash_pin(pin)
    return f"{salt}${digest}"


def ui_pin_matches(pin: str | None, stored: str | None) -> bool:
    """Whether ``pin`` is the PIN hashed in ``stored`` (see :func:`hash_ui_pin`)."""
    from cardref.recorder.tournament import pin_matches

    if not stored or "$" not in stored:
        return False
    salt, digest = stored.split("$", 1)
    return pin_matches(pin, salt, digest)


@lru_cache(maxsize=4)
def _hash_plain(pin: str) -> str | None:
    try:
        return hash_ui_pin(pin)
    except ValueError:
        return None


PLAIN_PIN = (f"{ENV} holds a plain-text PIN: it is hashed now, but start the dashboard with cardref ui --pin-file "
             "FILE (the PIN is then kept only as a salted hash)")


def from_env(environ: dict[str, str] | None = None) -> tuple[UiConfig, str | None]:
    """The configuration, and a problem with it (shown as a banner) or None.  A plain
    ``pin`` (an older ``cardref ui``) is hashed here and reported; it never stays in the
    configuration."""
    env = os.environ if environ is None else environ
    text = env.get(ENV)
    if not text:
        return UiConfig(), None
    try:
        obj: Any = json.loads(text)
        if not isinstance(obj, dict):
            raise ValueError("not an object")
        known = {k: v for k, v in obj.items() if k in UiConfig.__dataclass_fields__}
        plain = obj.get("pin")
        if plain and not known.get("pin_hash"):
            known["pin_hash"] = _hash_plain(str(plain)) or "invalid$"  # too short to hash: nothing unlocks
        cfg = UiConfig(**known)
    except (ValueError, TypeError) as exc:
        return UiConfig(), f"{ENV} is not a valid configuration ({exc}); showing the demo"
    if cfg.mode not in ("demo", "log", "camera", "video"):
        return UiConfig(), f"unknown mode {cfg.mode!r}; showing the demo"
    return cfg, PLAIN_PIN if plain else None
