"""``cardref ui``: arguments → the dashboard's configuration and the streamlit command."""

from __future__ import annotations

import json

from cardref.cli import main
from cardref.ui.config import ENV, from_env, ui_pin_matches


def _without_hash(env_text: str) -> str:
    """The configuration's JSON without its salted PIN hash: the hash's hex digits may hold any
    PIN's digits by chance, so a PIN is looked for in the rest."""
    obj = json.loads(env_text)
    obj.pop("pin_hash", None)
    return json.dumps(obj, ensure_ascii=False)


def test_print_command_binds_to_localhost_without_telemetry(capsys) -> None:
    assert main(["ui", "--print-command", "--port", "8765", "--headless"]) == 0
    cmd = capsys.readouterr().out
    assert "--server.address 127.0.0.1" in cmd and "--server.port 8765" in cmd
    assert "--browser.gatherUsageStats false" in cmd and "--server.headless true" in cmd
    assert cmd.split()[4].endswith("ui/app.py")


def test_a_window_opening_launch_never_waits_for_an_email_prompt(capsys) -> None:
    """Without --headless, streamlit's first run on a machine asked for an e-mail address on
    the terminal and waited, so the README's first command never brought the dashboard up."""
    assert main(["ui", "--print-command"]) == 0
    cmd = capsys.readouterr().out
    assert "--server.headless false" in cmd and "--server.showEmailPrompt false" in cmd


def test_bad_arguments_are_refused_with_a_reason(capsys, tmp_path) -> None:
    assert main(["ui", "--log", str(tmp_path / "missing.jsonl")]) == 2
    assert "no such log file" in capsys.readouterr().err
    assert main(["ui", "--camera", "0", "--game", "bridge"]) == 2
    assert "unknown game" in capsys.readouterr().err
    assert main(["ui", "--camera", "0", "--game", "guafeng-zibo", "--deal", "{oops"]) == 2
    assert "--deal is not JSON" in capsys.readouterr().err


def test_configuration_round_trip(tmp_path) -> None:
    import argparse

    from cardref.commands import ui as command

    p = argparse.ArgumentParser()
    command.add_arguments(p)
    log = tmp_path / "t.jsonl"
    log.write_text('{"type":"deal","game":"guafeng-zibo","seats":4}\n', encoding="utf-8")
    pin_file = tmp_path / "pin"
    pin_file.write_text("1234\n", encoding="utf-8")
    cfg, problem = command.config_from_args(p.parse_args(["--log", str(log), "--pin-file", str(pin_file),
                                                          "--names", "东,南,西,北"]))
    assert problem is None and cfg.mode == "log" and cfg.names == ["东", "南", "西", "北"]
    assert ui_pin_matches("1234", cfg.pin_hash) and not ui_pin_matches("1235", cfg.pin_hash)
    assert "1234" not in _without_hash(cfg.to_env())  # CARDREF_UI_CONFIG holds the salted hash, never the PIN
    back, why = from_env({ENV: cfg.to_env()})
    assert why is None and back == cfg
    cfg, _ = command.config_from_args(p.parse_args([]))
    assert cfg.mode == "demo" and cfg.replay_log.endswith("table.jsonl")
    bad, why = from_env({ENV: json.dumps({"mode": "teleport"})})
    assert bad.mode == "demo" and "teleport" in why


def test_a_live_table_needs_its_game(capsys) -> None:
    assert main(["ui", "--camera", "0"]) == 2
    assert "needs its game" in capsys.readouterr().err


def test_a_deck_profile_reaches_the_live_pipeline_or_is_reported(capsys, tmp_path) -> None:
    """``--deck`` must name a profile; one that cannot be used leaves the dashboard up with
    the reason (no live pipeline) instead of crashing it."""
    import argparse

    from cardref.commands import ui as command
    from cardref.ui.sources import NullPipeline, build_pipeline

    assert main(["ui", "--camera", "0", "--game", "guafeng-zibo", "--deck", str(tmp_path / "none.npz")]) == 2
    assert "no such deck profile" in capsys.readouterr().err
    junk = tmp_path / "junk.npz"
    junk.write_bytes(b"junk")
    p = argparse.ArgumentParser()
    command.add_arguments(p)
    cfg, problem = command.config_from_args(p.parse_args(["--camera", "0", "--game", "guafeng-zibo", "--deck", str(junk)]))
    assert problem is None and cfg.deck == str(junk.resolve())
    pipeline, why = build_pipeline("guafeng-zibo", None, detector="model", deck=cfg.deck)
    assert isinstance(pipeline, NullPipeline) and "deck profile" in why and "unreadable" in why


def test_the_pin_from_the_command_line_is_warned_and_hashed(tmp_path, capsys) -> None:
    import argparse

    from cardref.commands import ui as command

    p = argparse.ArgumentParser()
    command.add_arguments(p)
    cfg, problem = command.config_from_args(p.parse_args(["--pin", "2468"]))
    assert problem is None and ui_pin_matches("2468", cfg.pin_hash) and "2468" not in _without_hash(cfg.to_env())
    assert "other users of this machine can read it" in capsys.readouterr().err
    _, problem = command.config_from_args(p.parse_args(["--pin", "12"]))
    assert "at least 4 characters" in problem
    _, problem = command.config_from_args(p.parse_args(["--pin-file", str(tmp_path / "missing")]))
    assert "cannot read the PIN file" in problem
    empty = tmp_path / "empty"
    empty.write_text("", encoding="utf-8")
    _, problem = command.config_from_args(p.parse_args(["--pin-file", str(empty)]))
    assert "is empty" in problem
    assert "--pin-file" in p.format_help()


def test_a_plain_pin_in_the_environment_is_hashed_and_reported() -> None:
    cfg, problem = from_env({ENV: json.dumps({"mode": "demo", "pin": "2468"})})
    assert ui_pin_matches("2468", cfg.pin_hash) and "2468" not in _without_hash(cfg.to_env())
    assert "plain-text PIN" in problem
