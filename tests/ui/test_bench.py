"""``cardref bench ui`` runs and reports both frame rates (the figures themselves are not tested)."""

from __future__ import annotations

import json

from cardref.ui import bench


def test_bench_reports_both_frame_rates(capsys) -> None:
    assert bench.main(["--frames", "30", "--seconds", "0.5", "--repeat", "1", "--detector", "oracle", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["bare_fps"] > 0 and report["dashboard_fps"] > 0
    assert report["pipeline"] == "Pipeline" and report["detector"] == "OracleDetector"  # the demo's recorded truth
    assert report["page_work"]["pictures"] >= 1 and not report["page_work"]["errors"]
