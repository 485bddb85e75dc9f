"""The dashboard's tournament page, driven like a director would (Streamlit AppTest)."""

from __future__ import annotations

import random

from cardref.engine.eventlog import dump_event
from cardref.engine.gouji.simulate import simulate_deal
from cardref.recorder import Recorder, open_store
from cardref.recorder import tournament as tm
from streamlit.testing.v1 import AppTest

SCRIPT = """
import os
from cardref.recorder import open_store
from cardref.ui.tournament_page import render_tournament_page

store = open_store(os.environ["TP_DB"])
try:
    render_tournament_page(store)
finally:
    store.close()
"""


def _button(at: AppTest, label: str):  # type: ignore[no-untyped-def]
    return next(b for b in at.button if b.label == label)


def _setup(db: str) -> tuple[int, int]:
    with open_store(db) as store:
        tid = tm.create_tournament(store, "Spring", "gouji", "2468")
        a, b = tm.add_team(store, tid, "East", ["e1", "e2", "e3"]), tm.add_team(store, tid, "West")
        rid = tm.add_round(store, tid)
        tm.add_table(store, tid, "T1")
        match = tm.start_match(store, rid, "T1", a, b)
        rec = Recorder(store)
        for event in simulate_deal("gouji-shandong", random.Random(4), with_hands=False):
            rec.record("T1", dump_event(event))
        return tid, match


def test_empty_store_offers_to_create(tmp_path, monkeypatch):
    db = str(tmp_path / "empty.db")
    monkeypatch.setenv("TP_DB", db)
    at = AppTest.from_string(SCRIPT, default_timeout=60).run()
    assert not at.exception
    at.text_input(key="tp_new_name").input("Cup")
    at.text_input(key="tp_new_pin").input("12")
    _button(at, "Create").click().run()
    assert at.error and "PIN" in at.error[0].value
    at.text_input(key="tp_new_pin").input("1234")
    _button(at, "Create").click().run()
    with open_store(db) as store:
        assert [t.name for t in tm.tournaments(store)] == ["Cup"]


def test_standings_confirm_and_correct_with_pin(tmp_path, monkeypatch):
    db = str(tmp_path / "t.db")
    tid, match = _setup(db)
    monkeypatch.setenv("TP_DB", db)
    at = AppTest.from_string(SCRIPT, default_timeout=60).run()
    assert not at.exception
    standings = at.dataframe[0].value
    with open_store(db) as store:
        expected = tm.standings_rows(store, tid)
    assert set(standings["team"]) == {"East", "West"}
    assert standings.to_dict("records") == expected
    assert sum(r["played"] for r in expected) == 2
    assert at.dataframe[1].value["status"].tolist() == ["playing"]

    at.text_input(key="tp_confirm_director").input("Wang")
    at.text_input(key="tp_confirm_pin").input("9999")
    _button(at, "Confirm result").click().run()
    assert at.error and "PIN" in at.error[0].value
    with open_store(db) as store:
        assert not store.match(match).confirmed
    at.text_input(key="tp_confirm_pin").input("2468")
    _button(at, "Confirm result").click().run()
    assert at.success and "confirmed" in at.success[0].value
    with open_store(db) as store:
        assert store.match(match).confirmed_by == "Wang"
        play = next(e for e in store.events("T1") if e.type == "play")

    at.selectbox(key="tp_fix_table").select("T1")
    at.number_input(key="tp_fix_seq").set_value(play.seq)
    at.text_input(key="tp_fix_seat").input(str(play.seat))
    at.text_input(key="tp_fix_who").input("Wang")
    at.text_input(key="tp_fix_why").input("video review")
    _button(at, "Record correction").click().run()
    assert at.error and "PIN" in at.error[0].value
    at.text_input(key="tp_fix_pin").input("2468")
    _button(at, "Record correction").click().run()
    assert at.success and "Correction recorded" in at.success[0].value
    with open_store(db) as store:
        trail = store.corrections("T1")
        assert [(c["ref"], c["who"], c["why"]) for c in trail] == [(play.seq, "Wang", "video review")]
        outcomes = [a["outcome"].split(":")[0] for a in store.audit_log(tournament_id=tid)]
        assert outcomes.count("refused") == 2

    at.text_input(key="tp_pair_pin").input("2468")
    _button(at, "Pair round").click().run()
    assert at.error and "exhausted" in at.error[0].value  # Swiss: these two teams have met
    at.selectbox(key="tp_pair_method").select("round-robin")
    _button(at, "Pair round").click().run()
    assert at.success and "1 match " in at.success[0].value
    with open_store(db) as store:
        assert [n for _, n, _ in tm.rounds(store, tid)] == [1, 2]

    at.selectbox(key="tp_add_what").select("team")
    at.text_input(key="tp_add_name").input("North")
    _button(at, "Add").click().run()
    assert at.error
    at.text_input(key="tp_add_pin").input("2468")
    _button(at, "Add").click().run()
    with open_store(db) as store:
        assert sorted(tm.teams(store, tid).values()) == ["East", "North", "West"]
