"""The dashboard's tournament page, driven like a director would (Streamlit AppTest)."""

from __future__ import annotations

import json
import random

from streamlit.testing.v1 import AppTest

from cardref.engine.eventlog import dump_event
from cardref.engine.gouji.simulate import simulate_deal
from cardref.recorder import Recorder, open_store
from cardref.recorder import tournament as tm
from cardref.ui.i18n import tr
from cardref.ui.tournament_page import shown_rows

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


def _button(at: AppTest, key: str):  # type: ignore[no-untyped-def]
    """A button by its catalogue key (the page is in Chinese by default)."""
    return next(b for b in at.button if b.label == tr(key, "zh"))


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
    _button(at, "tp.create").click().run()
    assert at.error and "至少要 4 位" in at.error[0].value
    at.text_input(key="tp_new_pin").input("1234")
    _button(at, "tp.create").click().run()
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
    assert set(standings["队伍"]) == {"East", "West"}
    assert standings.to_dict("records") == shown_rows(expected, "zh")
    assert sum(r["played"] for r in expected) == 2
    matches = at.dataframe[1].value
    assert matches["状态"].tolist() == ["进行中"] and matches["确认人"].tolist() == ["—"]
    shown = " ".join(" ".join(map(str, df.value.columns)) for df in at.dataframe)
    for raw in ("match_points", "unscored_deals", "confirmed_by", "team_a", "status"):
        assert raw not in shown  # the recorder's column names are not shown to the director

    at.text_input(key="tp_confirm_director").input("Wang")
    at.text_input(key="tp_confirm_pin").input("9999")
    _button(at, "tp.confirm_submit").click().run()
    assert at.error and "密码不对" in at.error[0].value
    with open_store(db) as store:
        assert not store.match(match).confirmed
    at.text_input(key="tp_confirm_pin").input("2468")
    _button(at, "tp.confirm_submit").click().run()
    assert at.success and "已由 Wang 确认" in at.success[0].value
    with open_store(db) as store:
        assert store.match(match).confirmed_by == "Wang"
        play = next(e for e in store.events("T1") if e.type == "play")

    at.selectbox(key="tp_fix_table").select("T1")
    at.number_input(key="tp_fix_seq").set_value(play.seq)
    assert at.selectbox(key="tp_fix_seat").options == ["—", "1号位", "2号位", "3号位", "4号位", "5号位", "6号位"]
    at.selectbox(key="tp_fix_seat").set_value((play.seat + 3) % 6)  # picked by its name: 对门
    at.text_input(key="tp_fix_who").input("Wang")
    at.text_input(key="tp_fix_why").input("video review")
    _button(at, "tp.fix_submit").click().run()
    assert at.error and "密码不对" in at.error[0].value
    at.text_input(key="tp_fix_pin").input("2468")
    _button(at, "tp.fix_submit").click().run()
    assert at.success and "更正已记录" in at.success[0].value
    with open_store(db) as store:
        trail = store.corrections("T1")
        assert [(c["ref"], c["who"], c["why"]) for c in trail] == [(play.seq, "Wang", "video review")]
        assert json.loads(trail[0]["correction"])["seat"] == (play.seat + 3) % 6
        outcomes = [a["outcome"].split(":")[0] for a in store.audit_log(tournament_id=tid)]
        assert outcomes.count("refused") == 2

    at.text_input(key="tp_pair_pin").input("2468")
    _button(at, "tp.pair_submit").click().run()
    assert at.error and tr("tp.err.swiss_exhausted", "zh") in at.error[0].value  # Swiss: these two have met
    at.selectbox(key="tp_pair_method").select("round-robin")
    _button(at, "tp.pair_submit").click().run()
    assert at.success and "已编排：1 场" in at.success[0].value
    with open_store(db) as store:
        assert [n for _, n, _ in tm.rounds(store, tid)] == [1, 2]

    at.selectbox(key="tp_add_what").select("team")
    at.text_input(key="tp_add_name").input("North")
    _button(at, "tp.add").click().run()
    assert at.error
    at.text_input(key="tp_add_pin").input("2468")
    _button(at, "tp.add").click().run()
    with open_store(db) as store:
        assert sorted(tm.teams(store, tid).values()) == ["East", "North", "West"]


def test_correcting_an_unconfirmed_match_needs_the_pin_too(tmp_path, monkeypatch):
    """#32 item 9: the "Correct an event" form calls the PIN gate for any tournament match,
    not only for a confirmed one."""
    db = str(tmp_path / "u.db")
    _setup(db)
    monkeypatch.setenv("TP_DB", db)
    with open_store(db) as store:
        play = next(e for e in store.events("T1") if e.type == "play")
        assert not store.match(play.match_id).confirmed
    at = AppTest.from_string(SCRIPT, default_timeout=60).run()
    at.number_input(key="tp_fix_seq").set_value(play.seq)
    at.selectbox(key="tp_fix_seat").set_value(play.seat)
    at.text_input(key="tp_fix_who").input("stranger")
    at.text_input(key="tp_fix_why").input("no PIN")
    _button(at, "tp.fix_submit").click().run()
    assert at.error and "密码不对" in at.error[0].value
    with open_store(db) as store:
        assert store.corrections("T1") == []


def test_a_strangers_wrong_pins_lock_only_their_own_session(tmp_path, monkeypatch):
    """Five wrong PINs from one browser session lock that session; the director's own
    session still confirms with the right PIN (no denial of service)."""
    db = str(tmp_path / "dos.db")
    _, match = _setup(db)
    monkeypatch.setenv("TP_DB", db)
    stranger = AppTest.from_string(SCRIPT, default_timeout=60).run()
    stranger.text_input(key="tp_confirm_director").input("x")
    for _ in range(tm.PIN_ATTEMPTS):
        stranger.text_input(key="tp_confirm_pin").input("0000")
        _button(stranger, "tp.confirm_submit").click().run()
    stranger.text_input(key="tp_confirm_pin").input("2468")
    _button(stranger, "tp.confirm_submit").click().run()
    assert stranger.error and "错误次数太多" in stranger.error[0].value  # even the right PIN waits here
    with open_store(db) as store:
        assert not store.match(match).confirmed
    director = AppTest.from_string(SCRIPT, default_timeout=60).run()
    director.text_input(key="tp_confirm_director").input("Wang")
    director.text_input(key="tp_confirm_pin").input("2468")
    _button(director, "tp.confirm_submit").click().run()
    assert director.success and not director.error
    with open_store(db) as store:
        assert store.match(match).confirmed_by == "Wang"


def test_the_page_follows_the_session_language(tmp_path, monkeypatch):
    db = str(tmp_path / "en.db")
    _setup(db)
    monkeypatch.setenv("TP_DB", db)
    at = AppTest.from_string(SCRIPT, default_timeout=60)
    at.session_state["lang_en"] = True
    at.run()
    assert at.header[0].value == "Tournament"
    assert "match points" in list(at.dataframe[0].value.columns)
    assert at.dataframe[1].value["status"].tolist() == ["playing"]
