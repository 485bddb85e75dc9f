"""#32 item 9 on the dashboard: every write handler checks the PIN on the server, unlock
attempts are limited per browser session with back-off, and one session's lockout is not
another's."""

from __future__ import annotations

import json
import re

import pytest

from cardref.ui import pinlock


@pytest.mark.parametrize(("wrong", "wait"), [(1, 1.0), (2, 2.0), (3, 4.0), (4, 8.0), (5, pinlock.LOCKOUT_S)])
def test_back_off_grows_then_locks_the_session(wrong: int, wait: float) -> None:
    tries = pinlock.Attempts()
    for _ in range(wrong):
        tries.failed(now=100.0)
    assert tries.wait(now=100.0) == wait
    assert tries.wait(now=100.0 + wait) == 0.0
    tries.succeeded()
    assert tries.wait(now=100.0) == 0.0 and tries.wrong == 0


def _unlock(at, pin: str, key: str = "rp") -> None:  # type: ignore[no-untyped-def]
    at.text_input(key=f"{key}_pin").input(pin)
    at.button(key=f"{key}_unlock").click().run()


def test_a_stale_enabled_button_writes_nothing_once_locked(app, ui, tmp_path) -> None:
    """The server checks the PIN in each handler: a page drawn while unlocked, whose
    buttons are pressed after the session was locked again, changes nothing."""
    events, k, truth = ui.misread(ui.simulated_lines())
    at = app(mode="log", log=str(ui.write_log(tmp_path / "p.jsonl", events)), pin="2468")
    at.button(key="rp_last").click().run()
    _unlock(at, "2468")
    log = at.session_state["replay_log"]
    n = len(log.lines)
    at.selectbox(key="rp_ref").set_value(k).run()
    at.text_input(key=f"rp_cards_{k}").input(" ".join(truth))
    at.session_state["unlocked"] = False  # locked meanwhile; the page on screen is the unlocked one
    next(b for b in at.button if "追加更正" in str(b.label)).click().run()
    assert len(log.lines) == n
    at.session_state["unlocked"] = True
    at.switch_page("screens/setup_page.py").run()
    at.session_state["unlocked"] = False
    at.button(key="su_start").click().run()
    assert len(log.lines) == n
    at.session_state["unlocked"] = True
    at.run()
    at.session_state["unlocked"] = False
    next(b for b in at.button if "记录不要" in str(b.label)).click().run()
    assert len(log.lines) == n


def test_five_wrong_pins_lock_this_session_only(app, ui, tmp_path) -> None:
    path = ui.write_log(tmp_path / "s.jsonl", ui.simulated_lines())
    stranger = app(mode="log", log=str(path), pin="2468")
    for _ in range(pinlock.ATTEMPTS):
        if "pin_attempts" in stranger.session_state:
            stranger.session_state["pin_attempts"].next_try_at = 0.0  # each back-off waited out
        _unlock(stranger, "0000")
    assert stranger.session_state["pin_attempts"].wrong == pinlock.ATTEMPTS
    _unlock(stranger, "2468")  # the right PIN, but this session is locked for ten minutes
    waits = [int(m.group(1)) for e in stranger.error for m in [re.search(r"(\d+) 秒后再试", e.value)] if m]
    assert waits and waits[0] > 590
    assert next(b for b in stranger.button if "追加更正" in str(b.label)).disabled
    director = app(mode="log", log=str(path), pin="2468")  # another browser session
    _unlock(director, "2468")
    assert director.session_state["unlocked"] is True
    assert not next(b for b in director.button if "追加更正" in str(b.label)).disabled


def test_the_configuration_never_holds_the_pin(app, ui, monkeypatch) -> None:
    from cardref.ui.config import ENV

    app(mode="demo", pin="97531")
    import os

    env = json.loads(os.environ[ENV])
    assert "pin" not in env and env["pin_hash"].count("$") == 1
    # the PIN is in no field but the salted hash, whose hex digits may hold any digits by chance
    assert "97531" not in json.dumps({k: v for k, v in env.items() if k != "pin_hash"}, ensure_ascii=False)
