"""kill -9 in the middle of recording loses nothing that was shown as recorded."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

from cardref.engine.judge import judge_text
from cardref.recorder import open_store


def _log(n_deals: int = 6) -> list[str]:
    """``n_deals`` 够级 deals of random plays (most faulted), each with a garbled line and a
    correction.  Six deals (258 lines) lie beyond the furthest kill (line 120); every
    correction re-judges the log, so each deal more costs more than the last."""
    rng = random.Random(7)
    ranks = ["5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]
    lines = []
    for _ in range(n_deals):
        start = len(lines)
        lines.append(json.dumps({"type": "deal", "game": "gouji-shandong", "seats": 6, "leader": 0}))
        for k in range(40):
            rank = rng.choice(ranks)
            lines.append(json.dumps({"type": "play", "seat": k % 6, "cards": [rank + rng.choice("SHDC")],
                                     "t": float(k)}))
        lines.append("garbled {camera frame")
        lines.append(json.dumps({"type": "correct", "ref": start + 3, "cards": ["9H"], "who": "ref", "why": "misread"}))
    return lines


def _run(db: str, log: Path, stop_after: int | None) -> list[int]:
    """Record ``log`` with --resume --echo; SIGKILL after ``stop_after`` echoes.  Returns
    every seq the child reported as recorded (including any it printed before dying)."""
    cmd = [sys.executable, "-m", "cardref.cli", "store", "append", "--db", db, "--table", "T1",
           "--resume", "--echo", str(log)]
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    shown: list[int] = []
    assert proc.stdout is not None
    if stop_after is not None:
        for text in proc.stdout:
            shown.append(int(text.split()[1]))
            if len(shown) >= stop_after:
                proc.send_signal(signal.SIGKILL)
                break
    out, err = proc.communicate(timeout=300)
    shown.extend(int(t.split()[1]) for t in out.splitlines() if t.startswith("recorded "))
    if stop_after is None:
        assert proc.returncode == 0, err
    else:
        assert proc.returncode in (-signal.SIGKILL, 0), err
    return shown


def test_kill_9_loses_nothing_shown_and_resume_finishes(tmp_path, store_url):
    log = tmp_path / "table.jsonl"
    lines = _log()
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    seed = random.SystemRandom().randrange(10**6)
    rng = random.Random(seed)
    total_shown: set[int] = set()
    for _ in range(3):
        stop = rng.randrange(5, 120)
        shown = _run(store_url, log, stop)
        total_shown.update(shown)
        with open_store(store_url) as store:
            stored = store.lines("T1")
        assert stored == lines[:len(stored)], f"seed {seed}: stored log is not a prefix of the input"
        assert all(seq < len(stored) for seq in total_shown), f"seed {seed}: a line shown as recorded is lost"
    _run(store_url, log, None)
    with open_store(store_url) as store:
        assert store.lines("T1") == lines
        assert [e.seq for e in store.events("T1")] == list(range(len(lines)))
        verdicts = store.verdict_json("T1", "en")
        offline = judge_text(lines)
        assert [verdicts[i] for i in range(len(lines))] == [v.to_json("en") for v in offline.verdicts]
        assert [d.summary for d in store.deals(table_id="T1")] == offline.summary()["deals"]
