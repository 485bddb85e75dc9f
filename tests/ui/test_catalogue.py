"""#31 item 9: every word of the project's own that a page shows in Chinese comes from the
catalogue (``ui/i18n.py``).  Each page is rendered in zh with AppTest; then

* every label, button, heading, metric and table column must be a catalogue sentence
  (its ``{fact}`` slots filled by anything), or such sentences joined by " · " with data
  (a file name, a number); and
* no visible text may hold an English word outside a short list of data tokens (card
  codes, file names, the app's name), so an untranslated sentence cannot slip in.

A new page element whose words are typed in the code instead of the catalogue fails here.
"""

from __future__ import annotations

import random
import re

import pytest

from cardref.engine.eventlog import dump_event
from cardref.ui import i18n

ICON = re.compile(r":material/[a-z_]+:")
DATA = re.compile(r"^(?:[\w.\-]+\.(?:jsonl|mp4|db|json)|[#\d.,:/ %×\-–—+()]+|[0-9JQKA]{1,2}[SHDC]|[SB]J|✓|✗|—)$")
#: Latin words that are data, not sentences: the app's name, file suffixes, the language switch.
DATA_WORDS = {"cardref", "jsonl", "English", "JOKER", "mp4"}


def _template(text: str) -> re.Pattern[str]:
    parts = re.split(r"\{[^{}]*\}", text)
    return re.compile("^" + ".+?".join(re.escape(p) for p in parts) + "$", re.S)


def catalogue_patterns() -> list[re.Pattern[str]]:
    texts = [zh for zh, _ in i18n._TEXT.values()]
    texts += [zh for zh, _ in i18n.DECLARES.values()] + [zh for zh, _ in i18n.GAME_TITLES.values()]
    texts += [name for names, _ in i18n.SEAT_NAMES.values() for name in names]
    return [_template(t) for t in texts if t]


PATTERNS = catalogue_patterns()


def from_catalogue(text: str, data: set[str]) -> bool:
    text = ICON.sub("", text).replace("**", "").strip()
    if not text or text in data or DATA.match(text):
        return True
    if any(p.match(text) for p in PATTERNS):
        return True
    parts = [p.strip() for p in re.split(r" · | +(?=\d)|/", text) if p.strip()]
    if len(parts) > 1:
        return all(from_catalogue(p, data) for p in parts)
    # a label with data after it ("级别 东/西", "第 3 / 9 个事件 · t = 1.0 s")
    head = text.split(" ", 1)
    return len(head) == 2 and any(p.match(head[0]) for p in PATTERNS) and from_catalogue(head[1], data)


def chrome(at) -> list[str]:  # type: ignore[no-untyped-def]
    """The page's own words: labels, buttons, headings, metric labels, table columns."""
    out: list[str] = []
    for kind in ("button", "selectbox", "text_input", "number_input", "toggle", "slider", "checkbox", "radio",
                 "multiselect", "text_area", "expander"):
        out += [str(w.label) for w in getattr(at, kind, []) if getattr(w, "label", None)]
    for kind in ("header", "subheader", "title"):
        out += [str(e.value) for e in getattr(at, kind)]
    out += [str(m.label) for m in at.metric]
    for df in at.dataframe:
        out += [str(c) for c in df.value.columns]
    return out


def visible(at) -> str:  # type: ignore[no-untyped-def]
    parts = []
    for kind in ("markdown", "caption", "error", "warning", "info", "success", "subheader", "header", "title"):
        parts += [str(e.value) for e in getattr(at, kind)]
    parts += [f"{m.label} {m.value}" for m in at.metric]
    for df in at.dataframe:  # the tables' cells too: a status, an outcome, a tribute's kind in words
        parts += [str(x) for col in df.value.columns for x in df.value[col].tolist()]
    text = "\n".join(parts)
    text = re.sub(r"<style>.*?</style>", " ", text, flags=re.S)  # the page's own CSS is no sentence
    text = re.sub(r"<[^>]+>", " ", ICON.sub(" ", text))  # icons; HTML tags (a tooltip's rule code is an attribute)
    text = re.sub(r"`[^`\n]+`", " ", text)  # a command to type (`cardref ui --camera 0`) is code, not a sentence
    return re.sub(r"\S+\.(?:jsonl|mp4|db|json)\b", " ", text)


def english_words(text: str) -> set[str]:
    words = set(re.findall(r"(?<![\w.])[A-Za-z]{3,}(?![\w.])", text))
    return {w for w in words if w not in DATA_WORDS}


def check(at, data: set[str] = frozenset()) -> None:  # type: ignore[no-untyped-def]
    assert not at.exception, [e.value for e in at.exception]
    stray = sorted({c for c in chrome(at) if not from_catalogue(c, set(data))})
    assert not stray, f"shown in zh but not from ui/i18n.py: {stray}"
    words = english_words(visible(at)) - {w for d in data for w in re.findall(r"[A-Za-z]+", d)}  # data's own words
    assert not words, f"English words on a Chinese page: {sorted(words)}"


def test_the_check_catches_a_string_typed_in_the_code() -> None:
    assert from_catalogue("回放 · table.jsonl", set()) and from_catalogue("第 3 / 9 个事件", set())
    assert not from_catalogue("Start a new deal", set()) and not from_catalogue("开始一局新牌", set())
    assert english_words("裁判面板 the referee panel 10H BJ cardref") == {"the", "referee", "panel"}


def test_the_replay_page_in_chinese(app) -> None:
    at = app(mode="demo")
    at.button(key="rp_next").click().run()
    check(at)
    at.button(key="rp_last").click().run()
    check(at)


def test_the_gouji_replay_in_chinese(app) -> None:
    at = app(mode="demo")
    at.button(key="replay_demo_gouji_btn").click().run()
    at.button(key="rp_last").click().run()
    check(at)


def test_the_setup_page_in_chinese(app) -> None:
    at = app(mode="demo", pin="2468")
    at.switch_page("screens/setup_page.py").run()
    check(at)
    at.selectbox(key="su_game").set_value("gouji-shandong").run()
    check(at)


@pytest.fixture
def tournament_db(tmp_path) -> str:  # type: ignore[no-untyped-def]
    from cardref.engine.gouji.simulate import simulate_deal
    from cardref.recorder import Recorder, open_store
    from cardref.recorder import tournament as tm

    db = str(tmp_path / "t.db")
    with open_store(db) as store:
        tid = tm.create_tournament(store, "春季赛", "gouji", "2468")
        a, b = tm.add_team(store, tid, "东队", ["甲", "乙", "丙"]), tm.add_team(store, tid, "西队")
        rid = tm.add_round(store, tid)
        tm.add_table(store, tid, "T1")
        match = tm.start_match(store, rid, "T1", a, b)
        rec = Recorder(store)
        for event in simulate_deal("gouji-shandong", random.Random(4), with_hands=False):
            rec.record("T1", dump_event(event))
        tm.confirm_result(store, match, "2468", director="王")
    return db


def test_the_tournament_page_in_chinese(app, tournament_db) -> None:
    at = app(mode="demo", store=tournament_db)
    at.switch_page("screens/tournament_page.py").run()
    check(at, {"春季赛 · 够级", "T1", "东队", "西队"})


def test_the_log_uploader_speaks_chinese(app) -> None:
    """Streamlit has no option for its uploader button's own text; its label and help are ours."""
    at = app(mode="demo")
    (up,) = [e for e in at.get("file_uploader")]
    assert up.proto.label == i18n.tr("replay.upload", "zh")
    assert up.proto.help == i18n.tr("replay.upload_help", "zh") and not english_words(up.proto.help)


def test_the_live_page_in_chinese(app) -> None:
    at = app(mode="demo")
    at.switch_page("screens/live_page.py").run()
    check(at)


def test_a_live_table_in_chinese(app, tmp_path) -> None:
    """A live 刮风 table (no camera behind it) before its first play: the banner, the form that
    asks for the deal's options, the panels; then with a deal started."""
    import time

    from cardref.ui import state
    from cardref.ui.config import UiConfig

    cfg = dict(mode="camera", camera=97, game="guafeng-zibo", out=str(tmp_path / "cam.jsonl"), store=":memory:")
    at = app(**cfg)
    try:
        deadline = time.monotonic() + 10
        while not any("没有摄像头画面" in str(w.value) for w in at.warning) and time.monotonic() < deadline:
            time.sleep(0.3)
            at.run()
        pipeline = state.live_table(UiConfig(**{**cfg, "autoplay": False}).to_env()).pipeline_name
        check(at, {pipeline})  # the recognition's own name ("StreamDetector (openvino)") is data
        at.button(key="lvdeal_start").click().run()
        assert (tmp_path / "cam.jsonl").read_text(encoding="utf-8").startswith('{"type":"deal"')
        check(at, {pipeline})
    finally:
        table = state.live_table(UiConfig(**{**cfg, "autoplay": False}).to_env())
        if table.runner is not None:
            table.runner.stop()
