"""#31: the dashboard and the match report show the suits' symbols and the tribute kinds from
their one copy each (the engine's ``Suit.symbol``, ``engine/names.TRIBUTE_KINDS``); no module
of ``ui/`` or of the report keeps a table of its own that could drift."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from cardref.engine import names
from cardref.engine.cards import Suit
from cardref.engine.events import DealEvent
from cardref.recorder import report_words
from cardref.ui import views

ROOT = Path(__file__).resolve().parents[2]
READERS = sorted(ROOT.glob("ui/*.py")) + [ROOT / "recorder" / "report.py", ROOT / "recorder" / "report_words.py"]


def _own_tables(path: Path) -> list[str]:
    """The dict literals of ``path`` that map to a suit symbol or a tribute kind."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Dict):
            values = {v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)}
            if values & ({s.symbol for s in Suit} | set(names.TRIBUTE_KINDS.values())):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return found


def test_no_reader_keeps_its_own_suit_or_tribute_table() -> None:
    assert _own_tables(ROOT / "engine" / "names.py")  # the check sees such a table where there is one
    assert [hit for path in READERS for hit in _own_tables(path)] == []


def test_the_readers_use_the_one_copy() -> None:
    assert views.TRIBUTE_KINDS is names.TRIBUTE_KINDS
    assert report_words.SUITS == {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    assert [views.suit_symbol(s) for s in ("S", "H", "D", "C", "NT", "", None)] == ["♠", "♥", "♦", "♣", None, None, None]


@pytest.mark.parametrize(("trump", "line", "board"), [("H", "主♥", "♥H"), ("C", "主♣", "♣C"), (None, "无主", "无主"),
                                                     ("X", "主X", "X")])
def test_the_deal_line_and_the_scoreboard_show_the_engines_symbol(trump, line, board) -> None:  # type: ignore[no-untyped-def]
    options = {"level": "5", "trump": trump, "dealer": 1}
    assert line in views.deal_text(DealEvent(game="guafeng-zibo", seats=4, options=options)).split(" · ")
    view = views.DealView(index=0, game="guafeng-zibo", family="shengji", seats=4, names=["东", "南", "西", "北"],
                          options=options, judged=True, state={}, summary={}, plays=[], trick=[], seat_views=[],
                          bottom=[], declares=[])
    assert views.shengji_board(view)["trump"] == board
