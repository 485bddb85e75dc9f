"""`cardref judge` from the command line (issue 2, item 5)."""

import json
import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cardref.cli", *args], input=stdin, capture_output=True,
                          text=True, encoding="utf-8", timeout=120)


def test_bad_log_prints_per_line_errors_and_a_summary() -> None:
    proc = _run("judge", str(EXAMPLES / "bad.jsonl"))
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    verdicts, summary = out[:-1], out[-1]
    assert [v["i"] for v in verdicts] == list(range(len(verdicts)))
    codes = {v.get("code") for v in verdicts}
    assert {"log.bad_json", "log.not_object", "log.unknown_type", "event.bad_seat", "log.unknown_game"} <= codes
    assert summary["type"] == "summary" and len(summary["deals"]) == 2
    for v in verdicts:
        assert set(v) <= {"i", "ok", "code", "message", "proven_at"}
        assert v["ok"] is (v.get("code") is None)


def test_stdin_and_english() -> None:
    proc = _run("judge", "--lang", "en", "-", stdin='{"type":"deal","game":"bridge","seats":4}\n')
    first = json.loads(proc.stdout.splitlines()[0])
    assert first["code"] == "log.unknown_game" and "unknown game" in first["message"]


def test_missing_file_is_a_clear_error() -> None:
    proc = _run("judge", "/nonexistent/log.jsonl")
    assert proc.returncode == 2 and "/nonexistent/log.jsonl" in proc.stderr


def test_strict_exits_one_on_faults() -> None:
    proc = _run("judge", "--strict", str(EXAMPLES / "bad.jsonl"))
    assert proc.returncode == 1


def test_example_game_log_judges() -> None:
    proc = _run("judge", str(EXAMPLES / "gouji-example.jsonl"))
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert out[-1]["type"] == "summary" and out[-1]["deals"][0]["game"] == "gouji-yucheng"


def test_simulated_example_deals_flag_their_injected_faults() -> None:
    for name, injected in [("gouji-yucheng-deal", {25, 27}), ("guafeng-zibo-deal", {8, 10}),
                           ("chaodipi-mingchao-deal", {8, 16})]:
        proc = _run("judge", str(EXAMPLES / f"{name}.jsonl"))
        out = [json.loads(line) for line in proc.stdout.splitlines()]
        flagged = {v["i"] for v in out[:-1] if not v["ok"]}
        assert injected <= flagged, (name, flagged)


def test_simulated_example_deals_flag_only_their_injected_faults() -> None:
    """Issue 34: one slip, one flag: the example deals flag their injected plays and nothing else."""
    for name, injected in [("gouji-yucheng-deal", {25, 27}), ("guafeng-zibo-deal", {8, 10}),
                           ("chaodipi-mingchao-deal", {8, 16})]:
        proc = _run("judge", str(EXAMPLES / f"{name}.jsonl"))
        out = [json.loads(line) for line in proc.stdout.splitlines()]
        assert {v["i"] for v in out[:-1] if not v["ok"]} == injected, name


def test_table_format_is_for_people() -> None:
    """Issue 31 item 9: --format table, 1-based line numbers throughout."""
    proc = _run("judge", "--format", "table", "--lang", "en", str(EXAMPLES / "gouji-yucheng-deal.jsonl"))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    faults = [ln for ln in lines if "gouji." in ln or "play." in ln]
    assert [ln.split()[0] for ln in faults] == ["26", "28"]
    assert any("2 faults" in ln for ln in lines)
    assert not proc.stdout.lstrip().startswith("{")


def test_table_format_says_each_deal_in_words() -> None:
    """Issue 31 item 9: the deal's line of --format table is in the words the dashboard and
    the report use (engine/names.py), never ``key=json`` pairs."""
    proc = _run("judge", "--format", "table", str(EXAMPLES / "guafeng-zibo-deal.jsonl"))
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(_run("judge", str(EXAMPLES / "guafeng-zibo-deal.jsonl")).stdout.splitlines()[-1])["deals"][0]
    (deal,) = [ln for ln in proc.stdout.splitlines() if ln.startswith("第 1 局")]
    assert deal.startswith("第 1 局（第 1 行起）刮风 · 淄博：打6 · 主♥ · 庄家 北")
    assert f"最终得分 {summary['final_points']}" in deal and "升级 东/西" in deal
    assert "=" not in deal and '"' not in deal and "final_points" not in deal
    gouji = _run("judge", "--format", "table", "--lang", "en", str(EXAMPLES / "gouji-yucheng-deal.jsonl")).stdout
    (deal,) = [ln for ln in gouji.splitlines() if ln.startswith("deal 1")]
    assert "Finishing order Seat 2 → Seat 3" in deal and "点贡" in deal and "kind" not in deal
    # a fault names its seat as the dashboard does (the message's 0-based "seat 2" is Seat 3)
    json_line = json.loads(_run("judge", "--lang", "en", str(EXAMPLES / "gouji-yucheng-deal.jsonl")).stdout.splitlines()[25])
    assert json_line["message"].startswith("seat 2 ")
    assert any(ln.split()[0] == "26" and ": Seat 3 passed" in ln for ln in gouji.splitlines())
    assert "西 手里还有" in proc.stdout and "座位" not in proc.stdout
