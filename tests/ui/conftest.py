"""Helpers for the dashboard tests: logs made with the rules engine's simulator, and an
AppTest of ``ui/app.py`` started with a given configuration."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from cardref.engine.cards import ALL_CARDS
from cardref.ui.config import ENV, UiConfig

APP = str(Path(__file__).resolve().parents[2] / "ui" / "app.py")


def simulated_lines(seed: int = 3, game: str = "guafeng-zibo") -> list[dict]:
    from cardref.engine.shengji.simulate import simulate_deal

    return [e.to_json() for e in simulate_deal(game, random.Random(seed), illegal=0, with_hands=True)]


def misread(events: list[dict], nth_play: int = 2) -> tuple[list[dict], int, list[str]]:
    """The log with the ``nth_play`` play read wrong (a card that seat does not hold):
    returns (events, index of that play, its true cards)."""
    plays = [k for k, e in enumerate(events) if e["type"] == "play"]
    k = plays[nth_play]
    seat = events[k]["seat"]
    hand = next(e["cards"] for e in events if e["type"] == "hand" and e["seat"] == seat)
    foreign = next(c.code for c in ALL_CARDS if c.code not in hand and not c.is_joker)
    truth = list(events[k]["cards"])
    events = [dict(e) for e in events]
    events[k]["cards"] = [foreign] * len(truth)
    return events, k, truth


def write_log(path: Path, events: list[dict | str]) -> Path:
    path.write_text("".join((e if isinstance(e, str) else json.dumps(e, ensure_ascii=False)) + "\n" for e in events),
                    encoding="utf-8")
    return path


@pytest.fixture
def app(monkeypatch: pytest.MonkeyPatch) -> Callable[..., AppTest]:
    """``app(mode=..., log=..., ...)`` → an AppTest of the dashboard, already run once."""

    def make(**cfg: object) -> AppTest:
        cfg.setdefault("autoplay", False)
        if "pin" in cfg:  # the dashboard is given the PIN's salted hash, never the PIN
            from cardref.ui.config import hash_ui_pin

            cfg["pin_hash"] = hash_ui_pin(str(cfg.pop("pin")))
        monkeypatch.setenv(ENV, UiConfig(**cfg).to_env())  # type: ignore[arg-type]
        at = AppTest.from_file(APP, default_timeout=60)
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        return at

    return make


def texts(at: AppTest) -> str:
    """Everything the page shows as text (markdown, captions, alerts, metrics)."""
    parts: list[str] = []
    for kind in ("markdown", "caption", "error", "warning", "info", "success", "subheader", "title"):
        parts += [str(e.value) for e in getattr(at, kind)]
    parts += [f"{m.label} {m.value}" for m in at.metric]
    return "\n".join(parts)


@pytest.fixture
def ui():  # type: ignore[no-untyped-def]
    """The helpers above, for test modules (importlib mode cannot import conftest)."""
    from types import SimpleNamespace

    return SimpleNamespace(simulated_lines=simulated_lines, misread=misread, write_log=write_log, texts=texts)
