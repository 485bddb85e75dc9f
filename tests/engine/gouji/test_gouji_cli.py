"""Both 够级 game names judged end to end through ``cardref judge``."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from cardref.cli import main
from cardref.engine.eventlog import dump_event
from cardref.engine.gouji.simulate import simulate_deal, simulate_deal_with_faults


@pytest.mark.parametrize("game", ["gouji-yucheng", "gouji-shandong"], ids=["004 whole deal", "002 whole deal"])
def test_cardref_judge_whole_deal(tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str) -> None:
    events = simulate_deal(game, random.Random(7))
    log = tmp_path / "deal.jsonl"
    log.write_text("\n".join(dump_event(e) for e in events) + "\n", encoding="utf-8")
    assert main(["judge", "--strict", str(log)]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert len(lines) == len(events) + 1 and all(x["ok"] for x in lines[:-1])
    deal = lines[-1]["deals"][0]
    assert deal["game"] == game and sorted(deal["order"]) == list(range(6))
    assert isinstance(deal["kaidian"], list) and isinstance(deal["tributes"], list)
    assert all({"from", "to", "count", "kind"} <= set(t) for t in deal["tributes"])


def test_cardref_judge_flags_a_mutated_play_in_english(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    events, bad = simulate_deal_with_faults("gouji-yucheng", random.Random(11), illegal=1, with_hands=False)
    log = tmp_path / "deal.jsonl"
    log.write_text("\n".join(dump_event(e) for e in events) + "\n", encoding="utf-8")
    assert main(["judge", "--strict", "--lang", "en", str(log)]) == 1
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    verdict = lines[bad[0]]
    assert verdict["ok"] is False and verdict["code"].split(".")[0] in ("gouji", "play")
    assert verdict["message"] and not verdict["message"].startswith("gouji.")
