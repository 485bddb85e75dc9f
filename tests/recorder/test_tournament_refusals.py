"""#31: the recorder's tournament refusals carry stable codes; the dashboard shows each in
the user's language from the catalogue (zh by default, English for --lang en)."""

from __future__ import annotations

import re

import pytest

from cardref.recorder import open_store
from cardref.recorder import tournament as tm
from cardref.ui.i18n import refusal, tr


def _two_teams_met(db: str) -> int:
    with open_store(db) as store:
        tid = tm.create_tournament(store, "Spring", "gouji", "2468")
        a, b = tm.add_team(store, tid, "East"), tm.add_team(store, tid, "West")
        tm.add_table(store, tid, "T1")
        tm.start_match(store, tm.add_round(store, tid), "T1", a, b)
    return tid


# (what is done, the code it is refused with)
CASES = [
    (lambda s, t: tm.pair_round(s, t, "swiss", force=True), "tournament.swiss_exhausted"),
    (lambda s, t: tm.pair_round(s, t, "swiss"), "tournament.unconfirmed"),
    (lambda s, t: tm.pair_round(s, t, "knockout", force=True), "tournament.bad_method"),
    (lambda s, t: tm.add_team(s, t, "  "), "tournament.no_team_name"),
    (lambda s, t: tm.create_tournament(s, "", "gouji", "2468"), "tournament.no_name"),
    (lambda s, t: tm.create_tournament(s, "X", "poker", "2468"), "tournament.bad_family"),
    (lambda s, t: tm.create_tournament(s, "X", "gouji", "12"), "tournament.pin_short"),
    (lambda s, t: tm.confirm_result(s, 1, "2468", director=" "), "tournament.no_director"),
    (lambda s, t: tm.correct_with_pin(s, "T1", 999, who="W", why="v"), "tournament.no_event"),
    (lambda s, t: tm.start_match(s, tm.rounds(s, t)[0][0], "T9", 1, 2), "tournament.bad_table"),
    (lambda s, t: tm.confirm_result(s, 1, "0000", director="W"), "tournament.pin_wrong"),
]


@pytest.mark.parametrize(("act", "code"), CASES, ids=[c for _, c in CASES])
def test_each_refusal_has_its_code_and_words(tmp_path, act, code) -> None:  # type: ignore[no-untyped-def]
    db = str(tmp_path / "t.db")
    tid = _two_teams_met(db)
    with open_store(db) as store, pytest.raises((tm.TournamentError, tm.PinError)) as caught:
        act(store, tid)
    assert caught.value.code == code
    zh, en = refusal(caught.value, "zh"), refusal(caught.value, "en")
    key = "tp.err." + code.split(".", 1)[1]
    assert zh != en and tr(key, "zh") != key
    words = zh
    for fact in caught.value.facts.values():  # the user's own input (a table, a method) is data
        words = words.replace(str(fact), "")
    assert not re.search(r"[A-Za-z]{3,}", words), zh  # no English in zh
    assert "{" not in zh and "{" not in en  # every fact slot filled


def test_an_error_without_a_known_code_is_shown_as_is() -> None:
    assert refusal(ValueError("plain words"), "zh") == "plain words"
    assert refusal(tm.TournamentError("tournament.not_a_code", "raw"), "zh") == "raw"


def test_the_english_message_stays_for_tools(tmp_path) -> None:
    db = str(tmp_path / "t.db")
    tid = _two_teams_met(db)
    with open_store(db) as store, pytest.raises(ValueError, match="exhausted"):
        tm.pair_round(store, tid, "swiss", force=True)
