"""#31: the recorder's own refusals (a match, deal, table, round or tournament it does not
hold; a correction of a confirmed result) carry a stable ``code`` and ``facts`` with an
English message, and stay the KeyError / PermissionError their callers catch."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
import sample_logs as logs  # tests/helpers (pytest pythonpath)

from cardref.recorder import EventStore, LockedError, NotFound, Recorder
from cardref.recorder import tournament as tm
from cardref.recorder.exchange import export_deal, export_match, export_table
from cardref.recorder.report import match_report


@dataclass
class World:
    store: EventStore
    rec: Recorder
    tid: int
    teams: tuple[int, int]
    locked_match: int  # a confirmed match of table T2, which plays no tournament


@pytest.fixture
def world(store: EventStore) -> World:
    tid = tm.create_tournament(store, "Spring", "gouji", "2468")
    a, b = tm.add_team(store, tid, "East"), tm.add_team(store, tid, "West")
    tm.add_table(store, tid, "T1")
    tm.start_match(store, tm.add_round(store, tid), "T1", a, b)
    rec = Recorder(store)
    for line in logs.DEAL_GOUJI[:5]:
        rec.record("T2", line)
    locked = store.events("T2")[0].match_id
    store.confirm_match(locked, "director Wang")
    return World(store, rec, tid, (a, b), locked)


# (what is done, the exception class, its code, its facts, its English message); facts and
# message are functions of the world where they hold an id the store chose.
CASES: list[tuple[str, Any, type[Exception], str, Any, Any]] = [
    ("report of a missing match", lambda w: match_report(w.store, 999), NotFound, "recorder.no_match",
     {"match": 999}, "no match 999"),
    ("export of a missing match", lambda w: export_match(w.store, 999), NotFound, "recorder.no_match",
     {"match": 999}, "no match 999"),
    ("confirmation of a missing match", lambda w: tm.confirm_result(w.store, 999, "2468", director="Wang"),
     NotFound, "recorder.no_match", {"match": 999}, "no match 999"),
    ("export of a missing deal", lambda w: export_deal(w.store, 999), NotFound, "recorder.no_deal",
     {"deal": 999}, "no deal 999"),
    ("export of a missing table", lambda w: export_table(w.store, "T9"), NotFound, "recorder.no_table",
     {"table": "T9"}, "no table 'T9'"),
    ("a match in a missing round", lambda w: tm.start_match(w.store, 999, "T1", *w.teams), NotFound,
     "recorder.no_round", {"round": 999}, "no round 999"),
    ("a missing tournament", lambda w: tm.get_tournament(w.store, "Autumn"), NotFound, "recorder.no_tournament",
     {"tournament": "Autumn"}, "no tournament 'Autumn'"),
    ("a correction of a confirmed result", lambda w: w.rec.correct("T2", 4, who="Li", why="late", cards=["9H"]),
     LockedError, "recorder.locked",
     lambda w: {"event": 4, "table": "T2", "match": w.locked_match, "who": "director Wang"},
     lambda w: f"event 4 of table T2 belongs to match {w.locked_match}, whose result was confirmed by "
               "director Wang: a correction needs the director's PIN"),
    ("a PIN correction of a confirmed match of no tournament",
     lambda w: tm.correct_with_pin(w.store, "T2", 4, who="Wang", why="video", cards=["9H"], pin="2468"),
     LockedError, "recorder.locked_no_tournament", lambda w: {"match": w.locked_match},
     lambda w: f"match {w.locked_match} is confirmed and belongs to no tournament: it cannot be corrected"),
]


def _value(x: Any, w: World) -> Any:
    return x(w) if callable(x) else x


@pytest.mark.parametrize(("what", "act", "cls", "code", "facts", "message"), CASES, ids=[c[0] for c in CASES])
def test_each_refusal_has_its_code_facts_and_english_message(world, what, act, cls, code, facts,
                                                             message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(cls) as caught:
        act(world)
    exc = caught.value
    assert exc.code == code
    assert exc.facts == _value(facts, world)
    assert str(exc) == _value(message, world)


@pytest.mark.parametrize("cls", [NotFound, LockedError])
def test_the_refusals_stay_what_callers_catch(cls) -> None:  # type: ignore[no-untyped-def]
    exc = NotFound("match", 3) if cls is NotFound else LockedError("locked", match=3)
    assert isinstance(exc, KeyError if cls is NotFound else PermissionError)
    assert (exc.code, exc.facts) == (("recorder.no_match", {"match": 3}) if cls is NotFound
                                     else ("recorder.locked", {"match": 3}))


def test_a_missing_match_reads_plainly_on_the_command_line(world, capsys) -> None:  # type: ignore[no-untyped-def]
    """KeyError's own str() quotes its message ("'no match 999'"); the refusal does not."""
    from cardref.recorder.cliutil import fail

    with pytest.raises(KeyError) as caught:
        match_report(world.store, 999)
    assert fail("report", caught.value) == 2
    assert capsys.readouterr().err == "cardref report: no match 999\n"


def test_the_tournament_command_refuses_a_missing_team_or_round_with_a_code(tmp_path, capsys,
                                                                              monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """``cardref tournament match`` looks the round and the teams up by what the director
    typed: a round or team the tournament lacks is the typed ``NotFound`` (so the dashboard
    can word it), printed plainly with exit status 2."""
    from cardref.cli import main as cli
    from cardref.commands.tournament import _round_id, _team_id
    from cardref.recorder import open_store

    db = str(tmp_path / "t.db")
    monkeypatch.setenv("CARDREF_PIN", "1357")
    assert cli(["tournament", "create", "Cup", "--family", "gouji", "--db", db]) == 0
    assert cli(["tournament", "team", "Cup", "A", "--db", db]) == 0
    assert cli(["tournament", "round", "Cup", "--db", db]) == 0
    assert cli(["tournament", "table", "Cup", "T1", "--db", db]) == 0
    capsys.readouterr()
    match = ["tournament", "match", "Cup", "--table", "T1", "--team-a", "A", "--db", db]
    assert cli([*match, "--round", "1", "--team-b", "Z"]) == 2
    assert capsys.readouterr().err == "cardref tournament: no team 'Z'\n"
    assert cli([*match, "--round", "4", "--team-b", "A"]) == 2
    assert capsys.readouterr().err == "cardref tournament: no round 4\n"
    with open_store(db) as store:
        tid = tm.get_tournament(store, "Cup").id
        for act, code, facts in ((lambda: _team_id(store, tid, "Z"), "recorder.no_team", {"team": "Z"}),
                                 (lambda: _round_id(store, tid, 4), "recorder.no_round", {"round": 4})):
            with pytest.raises(NotFound) as caught:
                act()
            assert (caught.value.code, caught.value.facts) == (code, facts)
