"""#31: the dashboard shows each of the recorder's own refusals (``recorder.<what>``) in the
user's language from the catalogue (``rec.err.<what>``), its facts filled in; every code the
recorder raises has its sentence."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cardref.commands.tournament import _round_id, _team_id
from cardref.engine.eventlog import dump_event
from cardref.recorder import LockedError, NotFound, Recorder, open_store
from cardref.recorder import tournament as tm
from cardref.recorder.exchange import export_deal, export_table
from cardref.recorder.report import match_report
from cardref.ui import i18n
from cardref.ui.i18n import refusal

ROOT = Path(__file__).resolve().parents[2]
#: where the recorder's refusals are raised: the recorder, and the command that looks up
#: teams and rounds by the names a director types
RAISERS = [*sorted((ROOT / "recorder").glob("*.py")), ROOT / "cardref" / "commands" / "tournament.py"]


@pytest.fixture
def world(tmp_path) -> Iterator[dict[str, Any]]:  # type: ignore[no-untyped-def]
    """A tournament with a round on T1, and table T2's confirmed match, which plays no tournament."""
    from cardref.engine.gouji.simulate import simulate_deal

    store = open_store(str(tmp_path / "t.db"))
    tid = tm.create_tournament(store, "春季赛", "gouji", "2468")
    a, b = tm.add_team(store, tid, "东队"), tm.add_team(store, tid, "西队")
    tm.add_table(store, tid, "T1")
    tm.start_match(store, tm.add_round(store, tid), "T1", a, b)
    rec = Recorder(store)
    for event in simulate_deal("gouji-shandong", random.Random(4), with_hands=False):
        rec.record("T2", dump_event(event))
    match = store.events("T2")[0].match_id
    store.confirm_match(match, "王")
    play = next(e.seq for e in store.events("T2") if e.type == "play")
    yield {"store": store, "rec": rec, "tid": tid, "teams": (a, b), "match": match, "play": play}
    store.close()


# (the code, what is done, its sentence in zh, in en: {match}/{play} are the world's ids)
CASES = [
    ("recorder.no_match", lambda w: match_report(w["store"], 999),
     "没有第 999 场比赛。", "there is no match 999."),
    ("recorder.no_deal", lambda w: export_deal(w["store"], 999),
     "没有编号为 999 的牌局。", "there is no deal 999."),
    ("recorder.no_table", lambda w: export_table(w["store"], "T9"),
     "没有牌桌 T9。", "there is no table T9."),
    ("recorder.no_round", lambda w: tm.start_match(w["store"], 999, "T1", *w["teams"]),
     "没有编号为 999 的轮次。", "there is no round 999."),
    ("recorder.no_round", lambda w: _round_id(w["store"], w["tid"], 7),
     "没有编号为 7 的轮次。", "there is no round 7."),
    ("recorder.no_team", lambda w: _team_id(w["store"], w["tid"], "北队"),
     "本赛事没有队伍 北队。", "there is no team 北队 in this tournament."),
    ("recorder.no_tournament", lambda w: tm.get_tournament(w["store"], "秋季赛"),
     "没有赛事 秋季赛。", "there is no tournament 秋季赛."),
    ("recorder.locked", lambda w: w["rec"].correct("T2", w["play"], who="李", why="看录像", cards=["3S"]),
     "第 {match} 场的结果已由 王 确认：更正牌桌 T2 的第 {play} 号事件需要裁判长密码。",
     "match {match} was confirmed by 王: correcting event {play} of table T2 needs the director's PIN."),
    ("recorder.locked_no_tournament",
     lambda w: tm.correct_with_pin(w["store"], "T2", w["play"], who="王", why="看录像", cards=["3S"], pin="2468"),
     "第 {match} 场的结果已确认，且不属于任何赛事：不能再更正。",
     "match {match} is confirmed and belongs to no tournament: it cannot be corrected."),
]


@pytest.mark.parametrize(("code", "act", "zh", "en"), CASES, ids=[c[0] for c in CASES])
def test_each_recorder_refusal_in_both_languages(world, code, act, zh, en) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises((NotFound, LockedError)) as caught:
        act(world)
    assert caught.value.code == code
    ids = {"match": world["match"], "play": world["play"]}
    assert refusal(caught.value, "zh") == zh.format(**ids)
    assert refusal(caught.value, "en") == en.format(**ids)
    assert refusal(caught.value) == zh.format(**ids)  # Chinese unless asked otherwise


def test_every_code_the_recorder_raises_has_its_sentence() -> None:
    """The codes written in recorder/ and in ``cardref tournament`` ("recorder.locked_no_tournament",
    NotFound("deal", …)) are each a ``rec.err.<what>`` of the catalogue, in both languages, and
    the cases above show every one of them."""
    codes: set[str] = set()
    for path in RAISERS:
        text = path.read_text(encoding="utf-8")
        codes |= set(re.findall(r"""["'](recorder\.[a-z_]+)["']""", text))
        codes |= {f"recorder.no_{what}" for what in re.findall(r"""NotFound\(\s*["']([a-z_]+)["']""", text)}
    assert {"recorder.locked", "recorder.no_match", "recorder.no_deal", "recorder.no_team"} <= codes
    for code in codes:
        zh, en = i18n._TEXT["rec.err." + code.split(".", 1)[1]]
        assert zh != en and re.search(r"[\u4e00-\u9fff]", zh), code
    assert codes == {c[0] for c in CASES}


def test_an_unknown_recorder_code_is_shown_as_its_message() -> None:
    assert refusal(NotFound("player", 3), "zh") == "no player 3"
    assert refusal(LockedError("raw words", "recorder.not_a_code"), "en") == "raw words"
