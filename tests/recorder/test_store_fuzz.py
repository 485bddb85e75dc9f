"""Properties over random logs: every line kept as received, and each exported match judges
offline exactly as the store judged it (corrections across matches, dangling refs, junk)."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardref.engine.judge import judge_text
from cardref.recorder import Recorder, open_store
from cardref.recorder.exchange import export_match
from cardref.recorder.store import to_line

CARDS = ["3S", "5H", "9D", "QC", "AS", "2H", "BJ", "SJ", "ZZ", "10C"]


@st.composite
def a_line(draw: st.DrawFn, n_so_far: int) -> str:
    kind = draw(st.sampled_from(["play", "play", "pass", "correct", "junk", "deal"]))
    if kind == "deal":
        return json.dumps({"type": "deal", "game": draw(st.sampled_from(["gouji-shandong", "guafeng-zibo", "x"])),
                           "leader": 0, "level": "2", "trump": "S", "dealer": 0})
    if kind == "play":
        return json.dumps({"type": "play", "seat": draw(st.integers(0, 7)),
                           "cards": draw(st.lists(st.sampled_from(CARDS), min_size=1, max_size=3))})
    if kind == "pass":
        return json.dumps({"type": "pass", "seat": draw(st.integers(0, 5))})
    if kind == "correct":
        ref = draw(st.integers(0, n_so_far + 3))
        obj = {"type": "correct", "ref": ref, "who": "ref", "why": "fuzz"}
        if draw(st.booleans()):
            obj["cards"] = draw(st.lists(st.sampled_from(CARDS), min_size=1, max_size=2))
        else:
            obj["seat"] = draw(st.integers(0, 6))
        return json.dumps(obj)
    return draw(st.text(min_size=1, max_size=30).filter(lambda t: t.strip() != ""))


@st.composite
def two_matches(draw: st.DrawFn) -> tuple[list[str], list[str]]:
    first: list[str] = []
    for _ in range(draw(st.integers(1, 12))):
        first.append(draw(a_line(len(first))))
    second: list[str] = []
    for _ in range(draw(st.integers(0, 12))):
        second.append(draw(a_line(len(first) + len(second))))
    return first, second


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(logs=two_matches())
def test_random_logs_round_trip(tmp_path_factory, logs):
    first, second = logs
    path = tmp_path_factory.mktemp("fuzz") / "f.db"
    with open_store(str(path)) as store:
        rec = Recorder(store)
        m1 = store.start_match("T", "one")
        for line in first:
            rec.record("T", line)
        m2 = store.start_match("T", "two")
        for line in second:
            rec.record("T", line)
        assert store.lines("T") == [to_line(x) for x in first + second]
        stored = store.verdict_json("T", "en")
        assert sorted(stored) == list(range(len(first) + len(second)))
        for match in (m1, m2):
            exported = export_match(store, match)
            for k, v in enumerate(judge_text(exported.lines).verdicts):
                mine = v.to_json("en")
                theirs = dict(stored[exported.seqs[k]])
                assert mine["ok"] == theirs["ok"], (k, mine, theirs)
                assert mine.get("code") == theirs.get("code"), (k, mine, theirs)
                if "proven_at" in mine:
                    assert exported.seqs[mine["proven_at"]] == theirs["proven_at"]
