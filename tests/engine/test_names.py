"""#30/#31: the words the dashboard and the match report both show (the games' titles, the
seats' names, the tribute kinds, the shared sentences) are one copy, ``engine/names.py``,
pure data that imports nothing of the project's other layers."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from cardref.engine import names
from cardref.engine.names import game_title, seat_name

NAMES = Path(__file__).resolve().parents[2] / "engine" / "names.py"


# (game, zh, en)
GAMES = [
    ("gouji-yucheng", "够级 · 禹城", "够级 · Yucheng"),
    ("gouji-shandong", "够级 · 山东", "够级 · Shandong"),
    ("guafeng-zibo", "刮风 · 淄博", "刮风 · Zibo"),
    ("chaodipi-mingchao", "炒地皮 · 明炒", "炒地皮 · 明炒"),
    ("poker", "poker", "poker"),  # a game the table does not know is shown by its name
]


@pytest.mark.parametrize(("game", "zh", "en"), GAMES, ids=[g[0] for g in GAMES])
def test_game_titles(game: str, zh: str, en: str) -> None:
    assert (game_title(game, "zh"), game_title(game, "en"), game_title(game)) == (zh, en, zh)


# (seat, seats, zh, en)
SEATS = [
    (0, 4, "东", "East"),
    (2, 4, "西", "West"),  # 东's 对家
    (3, 4, "北", "North"),
    (0, 6, "1号位", "Seat 1"),
    (3, 6, "4号位", "Seat 4"),  # 1号位's 对门
    (5, 6, "6号位", "Seat 6"),
    (4, 4, "5号位", "Seat 5"),  # outside the table: numbered
    (1, 5, "2号位", "Seat 2"),  # a table size without names: numbered
    (1, None, "2号位", "Seat 2"),
]


@pytest.mark.parametrize(("seat", "seats", "zh", "en"), SEATS)
def test_seat_names(seat: int, seats: int | None, zh: str, en: str) -> None:
    assert (seat_name(seat, seats, "zh"), seat_name(seat, seats, "en")) == (zh, en)


def test_the_dashboard_and_the_report_read_the_one_copy() -> None:
    from cardref.recorder import report_words
    from cardref.ui import i18n

    for module in (i18n, report_words):
        assert module.GAME_TITLES is names.GAME_TITLES and module.SEAT_NAMES is names.SEAT_NAMES
        assert module.game_title is names.game_title
    assert report_words.TRIBUTE_KINDS is names.TRIBUTE_KINDS
    for key, pair in names.SHARED_WORDS.items():
        assert i18n._TEXT[key] == report_words.WORDS[key] == pair, key
    assert i18n.tr("deal.dealer", "en", seat="East") == report_words.word("deal.dealer", "en", seat="East")
    assert [i18n.seat_title(s, 6, "zh") for s in range(6)] == [report_words.seat_title(s, 6) for s in range(6)]
    assert report_words.seat_title("x", 4) == "x"  # the report's own guard for a seat that is no number


def test_every_table_has_both_languages() -> None:
    for seats, (zh, en) in names.SEAT_NAMES.items():
        assert len(zh) == len(en) == seats and len(set(zh)) == seats
    for pair in (*names.GAME_TITLES.values(), *names.SHARED_WORDS.values()):
        assert len(pair) == 2 and all(pair)


def test_names_is_pure_data() -> None:
    """No import of the project's other layers: the standard library's text tools only."""
    tree = ast.parse(NAMES.read_text(encoding="utf-8"))
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    imported |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert imported <= {"__future__", "re", "collections.abc"}


@pytest.mark.parametrize(("text", "lang", "want"), [
    ("座位 1 手里没有 9H", "zh", "南 手里没有 9H"),
    ("座位2出牌", "zh", "西出牌"),
    ("seat 3 is to play but Seat 0 played", "en", "North is to play but East played"),
    ("座位 7 不在桌上", "zh", "座位 7 不在桌上"),        # beyond the table: as written
    ("seat 1", "zh", "seat 1"),                         # the other language's wording is left alone
])
def test_a_message_names_each_seat_once(text, lang, want):
    four = names.SEAT_NAMES[4][1 if lang == "en" else 0]
    assert names.name_seats(text, four, lang) == want
