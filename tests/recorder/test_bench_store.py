"""The ingest benchmark itself: it counts and checksums what it wrote (no timing asserted)."""

from __future__ import annotations

import pytest

from cardref.recorder.bench import main, run_once


@pytest.mark.parametrize("batch", [1, 20])
def test_bench_verifies_count_and_checksum(store_url, tmp_path, batch):
    r = run_once(store_url, writers=2, events=40, batch=batch, judge=batch == 1, sync="full", tmp=str(tmp_path))
    assert r["verified"], r["problems"]
    assert r["total_events"] == 80 and r["events_per_s"] > 0


def test_bench_command_prints_figures(tmp_path, capsys):
    assert main(["--db", str(tmp_path / "b.db"), "--writers", "2", "--events", "30", "--batch", "10"]) == 0
    out = capsys.readouterr().out
    assert "count+checksum OK" in out and "writers=2" in out
