"""Tournaments: scoring from the engines' deal summaries, standings, the director PIN."""

from __future__ import annotations

import json
import random

import pytest

from cardref.cli import main as cli
from cardref.engine.eventlog import dump_event
from cardref.engine.gouji.simulate import simulate_deal as gouji_deal
from cardref.engine.judge import judge_text
from cardref.engine.shengji.simulate import simulate_deal as shengji_deal
from cardref.recorder import LockedError, Recorder, open_store
from cardref.recorder import tournament as tm
from cardref.recorder.scoring import Scoring, score_deal, score_match


def _lines(events):
    return [dump_event(e) for e in events]


# -- scoring -------------------------------------------------------------------------
def test_gouji_places_and_tributes():
    summary = {"order": [3, 5, 0, 4, 1, 2],
               "tributes": [{"from": 1, "to": 3, "count": 1, "kind": "men"},
                            {"from": 2, "to": 3, "count": 2, "kind": "luo"},
                            {"from": 1, "to": 5, "count": 1, "kind": "luo"}]}
    score = score_deal("gouji-shandong", summary)
    # places: B (odd) 3 + 2 - 2 = 3; A (even) 1 - 1 - 3 = -3; tributes: B +4 - 2 = +2, A -2
    assert (score.a, score.b) == (-5, 5)
    assert score.detail["places"] == {"a": -3, "b": 3} and score.detail["tributes"] == {"a": -2, "b": 2}
    five = score_deal("gouji-yucheng", {"order": [0, 1, 2, 3, 4], "tributes": []})
    assert five.detail["order"] == [0, 1, 2, 3, 4, 5]
    assert score_deal("gouji-shandong", {"order": [0, 1], "tributes": []}) is None
    heavy = score_deal("gouji-shandong", summary, Scoring(place_points=(6, 4, 2, -2, -4, -6), tribute_weight=0))
    assert (heavy.a, heavy.b) == (-6, 6)


def test_shengji_levels_and_match_decision():
    up = score_deal("guafeng-zibo", {"level_change": {"team": [1, 3], "levels": 2, "dealer_keeps": False}})
    assert (up.a, up.b) == (0, 2)
    assert score_deal("chaodipi-anchao", {"level_change": None}) is None
    won = score_match([("guafeng-zibo", {"level_change": {"team": [1, 3], "levels": 3}}),
                       ("guafeng-zibo", {"level_change": {"team": [0, 2], "levels": 0, "match_won": [0, 2]}})])
    assert (won.a, won.b, won.winner()) == (0, 3, "a")
    assert score_deal("bridge", {"order": [0]}) is None


def test_pin_is_salted_and_checked():
    salt1, h1 = tm.hash_pin("4321")
    salt2, h2 = tm.hash_pin("4321")
    assert salt1 != salt2 and h1 != h2 and "4321" not in h1
    assert tm.pin_matches("4321", salt1, h1) and not tm.pin_matches("4322", salt1, h1)
    assert not tm.pin_matches(None, salt1, h1) and not tm.pin_matches("4321", salt1, "garbage")
    with pytest.raises(ValueError):
        tm.hash_pin("12")


# -- a whole tournament ------------------------------------------------------------------
def _gouji_tournament(store):
    tid = tm.create_tournament(store, "Zibo Open", "gouji", "2468")
    teams = [tm.add_team(store, tid, name, [f"{name}{k}" for k in range(3)]) for name in ("East", "West", "North",
                                                                                         "South")]
    r1 = tm.add_round(store, tid)
    for table in ("T1", "T2"):
        tm.add_table(store, tid, table)
    m1 = tm.start_match(store, r1, "T1", teams[0], teams[1])
    m2 = tm.start_match(store, r1, "T2", teams[2], teams[3])
    return tid, teams, r1, m1, m2


def test_gouji_tournament_standings_confirm_and_locked_corrections(store):
    tid, teams, r1, m1, m2 = _gouji_tournament(store)
    rec = Recorder(store)
    expected = {}
    for table, match, seed in (("T1", m1, 1), ("T2", m2, 2)):
        lines = []
        for k in range(2):
            lines += _lines(gouji_deal("gouji-shandong", random.Random(seed * 10 + k), with_hands=False))
        for line in lines:
            rec.record(table, line)
        deals = judge_text(lines).summary()["deals"]
        expected[match] = score_match([(d["game"], d) for d in deals])
        assert tm.match_score(store, match).a == expected[match].a
    rows = {r["team"]: r for r in tm.standings_rows(store, tid)}
    for match, a, b in ((m1, "East", "West"), (m2, "North", "South")):
        e = expected[match]
        assert rows[a]["points_for"] == e.a and rows[b]["points_for"] == e.b
        assert rows[a]["match_points"] == (2 if e.a > e.b else 1 if e.a == e.b else 0)
        assert rows[a]["confirmed"] == "0/1"
    places = [r["place"] for r in tm.standings_rows(store, tid)]
    assert places == [1, 2, 3, 4]

    # confirmation needs the PIN, and locks the result
    with pytest.raises(tm.PinError):
        tm.confirm_result(store, m1, "0000", director="Wang")
    tm.confirm_result(store, m1, "2468", director="Wang")
    with pytest.raises(ValueError):
        tm.confirm_result(store, m1, "2468", director="Wang")
    assert store.match(m1).confirmed_by == "Wang"
    assert {r["team"]: r for r in tm.standings_rows(store, tid)}["East"]["confirmed"] == "1/1"
    play = next(e for e in store.events("T1") if e.type == "play")
    with pytest.raises(LockedError):
        rec.correct("T1", play.seq, who="Li", why="late", cards=["3S"])
    with pytest.raises(tm.PinError):
        tm.correct_with_pin(store, "T1", play.seq, who="Li", why="video", cards=["3S"], pin="1111", recorder=rec)
    n = store.count_events("T1")
    done = tm.correct_with_pin(store, "T1", play.seq, who="Wang", why="video review", cards=list(
        json.loads(play.line)["cards"]), pin="2468", recorder=rec)
    assert done.seq == n
    audit = [(a["action"], a["outcome"].split(":")[0]) for a in store.audit_log()]
    assert ("confirm", "refused") in audit and ("confirm", "ok") in audit
    assert ("correct", "refused") in audit and ("correct", "ok") in audit
    rows = tm.match_rows(store, tid)
    assert [r["status"] for r in rows] == ["confirmed", "playing"]
    assert rows[0]["team_a"] == "East" and rows[0]["deals"] == 2


def test_each_match_is_judged_as_its_own_log(store):
    first = _lines(shengji_deal("guafeng-zibo", random.Random(2), with_hands=False))
    second = _lines(shengji_deal("guafeng-zibo", random.Random(3), with_hands=False))
    chained = judge_text(first + second).verdicts[len(first)]
    assert not chained.ok  # in one log, the second deal contradicts the first deal's result
    rec = Recorder(store)
    store.start_match("T1", "one")
    for line in first:
        rec.record("T1", line)
    store.start_match("T1", "two")
    for line in second:
        rec.record("T1", line)
    stored = store.verdict_json("T1", "en")
    assert stored[len(first)]["ok"] is True
    assert not any(not v["ok"] for v in stored.values())
    deals = store.deals(table_id="T1")
    assert deals[0].summary["level_change"] == judge_text(first).summary()["deals"][0]["level_change"]


def test_shengji_tournament_standings(store):
    tid = tm.create_tournament(store, "Zibo 刮风 cup", "shengji", "9999")
    a, b = tm.add_team(store, tid, "红"), tm.add_team(store, tid, "蓝")
    rid = tm.add_round(store, tid, 1, "first")
    tm.add_table(store, tid, "S1")
    match = tm.start_match(store, rid, "S1", a, b)
    rec = Recorder(store)
    lines = _lines(shengji_deal("guafeng-zibo", random.Random(2), with_hands=False))
    for line in lines:
        rec.record("S1", line)
    change = judge_text(lines).summary()["deals"][0]["level_change"]
    rows = {r["team"]: r for r in tm.standings_rows(store, tid)}
    gainer = "红" if change["team"][0] % 2 == 0 else "蓝"
    assert rows[gainer]["levels_gained"] == change["levels"]
    assert tm.match_rows(store, tid)[0]["match"] == match


def test_tournament_cli(tmp_path, capsys, monkeypatch):
    db = str(tmp_path / "t.db")
    monkeypatch.setenv("CARDREF_PIN", "1357")
    assert cli(["tournament", "create", "Cup", "--family", "gouji", "--db", db]) == 0
    assert cli(["tournament", "create", "Cup", "--family", "gouji", "--db", db]) == 2
    for name in ("A", "B"):
        assert cli(["tournament", "team", "Cup", name, "--players", "x", "y", "z", "--db", db]) == 0
    assert cli(["tournament", "table", "Cup", "T1", "--db", db]) == 0
    assert cli(["tournament", "pair", "Cup", "--method", "round-robin", "--db", db]) == 0
    assert cli(["tournament", "pair", "Cup", "--db", db]) == 2  # round 1 is not confirmed
    assert cli(["tournament", "round", "Cup", "--db", db]) == 0
    assert cli(["tournament", "match", "Cup", "--round", "2", "--table", "T1", "--team-a", "A", "--team-b", "B",
                "--db", db]) == 0
    log = tmp_path / "deal.jsonl"
    log.write_text("\n".join(_lines(gouji_deal("gouji-yucheng", random.Random(5), with_hands=False))) + "\n")
    assert cli(["store", "append", "--table", "T1", str(log), "--db", db, "--batch", "50"]) == 0
    capsys.readouterr()
    assert cli(["tournament", "standings", "Cup", "--matches", "--db", db]) == 0
    rows = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert sorted(r["team"] for r in rows[:2]) == ["A", "B"]
    assert [(r["round"], r["status"]) for r in rows[2:]] == [(1, "finished"), (2, "playing")]
    assert rows[0]["played"] == 1 and rows[3]["deals"] == 1
    assert cli(["tournament", "confirm", str(rows[3]["match"]), "--director", "Z", "--pin", "0000", "--db", db]) == 2
    assert cli(["tournament", "confirm", str(rows[3]["match"]), "--director", "Z", "--db", db]) == 0
    assert cli(["store", "correct", "--table", "T1", "--ref", "1", "--seat", "1", "--who", "Z", "--why", "w",
                "--db", db]) == 2
    assert cli(["store", "correct", "--table", "T1", "--ref", "1", "--seat", "1", "--who", "Z", "--why", "w",
                "--pin", "1357", "--db", db]) == 0
    with open_store(db) as store:
        assert store.corrections("T1")[0]["who"] == "Z"


def test_wrong_pins_lock_the_session_that_gave_them_for_a_while(store):
    """#32 item 9: the lockout is per session, so a stranger's wrong PINs never lock the
    real director out."""
    tid, teams, r1, m1, m2 = _gouji_tournament(store)
    for _ in range(tm.PIN_ATTEMPTS):
        with pytest.raises(tm.PinError, match="wrong"):
            tm.confirm_result(store, m1, "0000", director="x", session="ui:stranger")
    with pytest.raises(tm.PinError, match="too many"):
        tm.confirm_result(store, m1, "2468", director="x", session="ui:stranger")  # even the right PIN waits
    assert not store.match(m1).confirmed
    outcomes = [a["outcome"] for a in store.audit_log(tournament_id=tid) if a["action"] == "confirm"]
    assert outcomes[-1] == "refused: too many wrong PINs"
    tm.confirm_result(store, m1, "2468", director="Wang", session="ui:director")  # another session: not locked
    assert store.match(m1).confirmed_by == "Wang"
    tm.confirm_result(store, m2, "2468", director="Wang")  # the command line's own session too
    assert store.match(m2).confirmed_by == "Wang"


def test_a_tournament_match_is_never_corrected_without_the_pin(store):
    """#32 item 9: an unconfirmed tournament match needs the PIN too; a table outside any
    tournament needs none."""
    tid, teams, r1, m1, m2 = _gouji_tournament(store)
    rec = Recorder(store)
    for line in _lines(gouji_deal("gouji-shandong", random.Random(3), with_hands=False)):
        rec.record("T1", line)
    play = next(e for e in store.events("T1") if e.type == "play")
    assert not store.match(m1).confirmed
    with pytest.raises(tm.PinError):
        tm.correct_with_pin(store, "T1", play.seq, who="Li", why="no PIN", seat=play.seat, recorder=rec)
    assert store.corrections("T1") == []
    tm.correct_with_pin(store, "T1", play.seq, who="Wang", why="video", seat=play.seat, pin="2468", recorder=rec)
    assert [c["who"] for c in store.corrections("T1")] == ["Wang"]
    store.start_match("FREE", "a friendly game")
    for line in _lines(gouji_deal("gouji-shandong", random.Random(4), with_hands=False))[:12]:
        rec.record("FREE", line)
    free = next(e for e in store.events("FREE") if e.type == "play")
    tm.correct_with_pin(store, "FREE", free.seq, who="Li", why="misread", seat=free.seat, recorder=rec)
    assert [c["who"] for c in store.corrections("FREE")] == ["Li"]


def test_the_pin_comes_from_a_file_and_pin_on_the_command_line_is_warned(tmp_path, capsys, monkeypatch):
    db = str(tmp_path / "f.db")
    monkeypatch.delenv("CARDREF_PIN", raising=False)
    pin_file = tmp_path / "pin.txt"
    pin_file.write_text("8642\n", encoding="utf-8")
    assert cli(["tournament", "create", "Cup", "--family", "gouji", "--pin-file", str(pin_file), "--db", db]) == 0
    with open_store(db) as store:
        tid = tm.get_tournament(store, "Cup").id
        assert tm.verify_pin(store, tid, "8642")
        assert not tm.verify_pin(store, tid, "8643")
        row = store.query_one("SELECT pin_hash FROM tournaments WHERE id = ?", (tid,))
        # only the salted hash is kept: "scrypt:n:r:p:" and 32 bytes of digest, no PIN field (a
        # test for "8642" in the text failed by chance when the digest's hex held those digits)
        scheme, n, r, p, digest = row[0].split(":")
        assert (scheme, n, r, p) == ("scrypt", "16384", "8", "1")
        assert len(digest) == 64 and set(digest) <= set("0123456789abcdef")
    capsys.readouterr()
    assert cli(["tournament", "create", "Cup2", "--family", "gouji", "--pin", "8642", "--db", db]) == 0
    assert "other users of this machine can read it" in capsys.readouterr().err  # --pin works, warned
    assert cli(["tournament", "create", "Cup3", "--family", "gouji", "--pin-file", str(tmp_path / "none"),
                "--db", db]) == 2
    assert "cannot read the PIN file" in capsys.readouterr().err


def test_round_robin_meets_everyone_once():
    for n in (4, 5, 6):
        met = set()
        rounds = n - 1 if n % 2 == 0 else n
        for r in range(rounds):
            pairs = tm.round_robin_pairs(list(range(n)), r)
            seen = [t for p in pairs for t in p]
            assert len(seen) == len(set(seen))  # nobody plays twice in a round
            met |= {frozenset(p) for p in pairs}
        assert len(met) == n * (n - 1) // 2


def test_swiss_avoids_rematches():
    assert tm.swiss_pairs([1, 2, 3, 4], {frozenset((1, 2))}) == [(1, 3), (2, 4)]
    assert tm.swiss_pairs([1, 2], {frozenset((1, 2))}) is None


def test_pair_round_creates_matches_at_the_tables(store):
    tid, teams, r1, m1, m2 = _gouji_tournament(store)
    rec = Recorder(store)
    for line in _lines(gouji_deal("gouji-shandong", random.Random(11), with_hands=False)):
        rec.record("T1", line)
    with pytest.raises(ValueError, match="confirm"):
        tm.pair_round(store, tid, "swiss")
    for match in (m1, m2):
        tm.confirm_result(store, match, "2468", director="Wang")
    round_id, matches = tm.pair_round(store, tid, "swiss")
    pairs = [frozenset((store.match(m).team_a, store.match(m).team_b)) for m in matches]
    assert len(pairs) == 2 and not set(pairs) & {frozenset((teams[0], teams[1])), frozenset((teams[2], teams[3]))}
    assert [store.match(m).table_id for m in matches] == ["T1", "T2"]
    assert tm.rounds(store, tid)[-1][0] == round_id
    tm.add_team(store, tid, "Extra1")
    tm.add_team(store, tid, "Extra2")
    with pytest.raises(ValueError, match="tables"):
        tm.pair_round(store, tid, "round-robin", force=True)
