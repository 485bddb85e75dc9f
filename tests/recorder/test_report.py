"""#31 item 5: the HTML match report speaks the report's language.

A 刮风 deal and a 够级 deal (the dashboard's demo logs, whole deals with their summaries) are
recorded as one match and reported in zh and en.  The headings and column names are the
report catalogue's (:mod:`cardref.recorder.report_words`), timestamps are shown to the second,
the visible text holds no JSON, and each deal's score is the one its summary decides:
升级 the final points and the level change, 够级 the places and the team points.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from cardref.cli import main as cli
from cardref.recorder import Recorder, open_store
from cardref.recorder import report_words as words
from cardref.recorder.report import match_report, write_html

ROOT = Path(__file__).resolve().parents[2]
LOGS = [ROOT / "ui" / "demo" / "table.jsonl", ROOT / "ui" / "demo" / "gouji.jsonl"]  # 刮风, then 够级


def _record(store) -> int:
    rec = Recorder(store)
    match = store.start_match("T1", "final")
    for log in LOGS:
        for line in log.read_text(encoding="utf-8").splitlines():
            rec.record("T1", line)
    return match


def _visible(page: str) -> str:
    text = re.sub(r"<style>.*?</style>|<[^>]+>", " ", page, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(text))


def _tags(page: str, tag: str) -> list[str]:
    return [html.unescape(re.sub(r"<[^>]+>", "", m)) for m in re.findall(rf"<{tag}>(.*?)</{tag}>", page, re.S)]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_report_in_the_reports_language(store, tmp_path, lang) -> None:
    match = _record(store)
    report = match_report(store, match, lang=lang)
    guafeng, gouji = report["deals"]
    assert (guafeng["game"], gouji["game"]) == ("guafeng-zibo", "gouji-yucheng")
    out = tmp_path / "r.html"
    write_html(report, out)
    page = out.read_text(encoding="utf-8")
    text = _visible(page)

    assert f"<html lang='{lang}'>" in page
    assert _tags(page, "h1") == [words.word("match.title", lang, id=match) + " — final"]
    assert _tags(page, "h2") == [words.word("section.deal", lang, n=1, game=words.game_title("guafeng-zibo", lang)),
                                 words.word("section.deal", lang, n=2, game=words.game_title("gouji-yucheng", lang))]
    assert _tags(page, "h3") == [words.word("section.summary", lang)] * 2
    assert _tags(page, "th")[:7] == [words.word(k, lang) for k in ("col.seq", "col.time", "col.seat", "col.event",
                                                                     "col.cards", "col.verdict", "col.corrections")]
    # timestamps to the second, never with microseconds
    assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", text)
    assert not re.search(r"\d\d:\d\d:\d\d\.\d", text)
    # no JSON: no braces, no raw summary keys, no raw deal options
    assert "{" not in text and "}" not in text
    for raw in ("final_points", "level_change", "tributes", "level=", "guafeng-zibo", "gouji-yucheng"):
        assert raw not in text
    # 升级: the final points from the summary, and the level change, instead of "A 0 : 0 B"
    s1 = guafeng["summary"]
    deal1 = text[text.index(_tags(page, "h2")[0]):text.index(_tags(page, "h2")[1])]
    assert f"{words.word('score.final_points', lang)} {s1['final_points']}" in deal1
    up = "/".join(words.seat_title(x, 4, lang) for x in s1["level_change"]["team"])
    assert f"{words.word('score.level_change', lang)} {up} +{s1['level_change']['levels']}" in deal1
    teams = report["teams"]
    assert f"{teams['a']} {guafeng['score']['a']} : {guafeng['score']['b']} {teams['b']}" not in deal1
    assert words.word("deal.level", lang, level=s1["level"]) in deal1  # the 开局 row in words
    # 够级: the places and the team points it scores
    deal2 = text[text.index(_tags(page, "h2")[1]):]
    places = " · ".join(f"{words.PLACES[k]} {words.seat_title(s, 6, lang)}" for k, s in enumerate(gouji["summary"]["order"]))
    assert places in deal2
    assert f"{teams['a']} {gouji['score']['a']} : {gouji['score']['b']} {teams['b']}" in deal2
    assert gouji["score"]["a"] != 0


def test_cli_report_defaults_to_chinese(store_url, tmp_path) -> None:
    with open_store(store_url) as store:
        match = _record(store)
    out = tmp_path / "r.html"
    assert cli(["report", "--db", store_url, "--match", str(match), "--html", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert "<html lang='zh'>" in page and words.word("section.summary", "zh") in page
    assert cli(["report", "--db", store_url, "--match", str(match), "--html", str(out), "--lang", "en"]) == 0
    page = out.read_text(encoding="utf-8")
    assert "<html lang='en'>" in page and words.word("section.summary", "en") in page


@pytest.mark.parametrize(("text", "shown"), [
    ("2026-12-02T17:55:31.229150+00:00", "2026-12-02 17:55:31 UTC"),
    ("2026-12-02T17:55:31.5+08:00", "2026-12-02 17:55:31 +08:00"),
    ("2026-12-02T17:55:31", "2026-12-02 17:55:31"),
    ("yesterday", "yesterday"),
])
def test_timestamps_to_the_second(text, shown) -> None:
    assert words.timestamp(text) == shown
