"""Helpers for the 够级 tests: judge a script in the notation of ``engine.gouji.notation``."""

from __future__ import annotations

import pytest

from cardref.engine.eventlog import dump_event, read_lines
from cardref.engine.gouji.notation import expectations, parse_script
from cardref.engine.judge import Judge, JudgeResult


def judge_script(text: str) -> JudgeResult:
    events = parse_script(text)
    return Judge.judge(list(read_lines([dump_event(e) for e in events])))


def check_script(text: str) -> JudgeResult:
    """Judge ``text`` and assert every verdict matches its ``# code [@k]`` comment."""
    result = judge_script(text)
    want = expectations(text)
    got = [(v.fault.code if v.fault else None, v.fault.proven_at if v.fault else None) for v in result.verdicts]
    lines = [ln for ln in text.strip().splitlines() if ln.split("#")[0].strip()]
    diffs = [f"{k}: {lines[k].strip()!r} want {w} got {g}" for k, (w, g) in enumerate(zip(want, got, strict=True))
             if w != g]
    assert not diffs, "\n".join(diffs)
    return result


@pytest.fixture
def script():
    return check_script
