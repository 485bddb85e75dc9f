"""docs/event-log.md is the complete reference of what ``cardref judge`` reads and writes
(issue #34 item 5): every ``declare`` ``what`` the engine knows is in its declares tables,
each table lists only names the engine knows, and every field the judge writes in a verdict
or a deal's summary (``level_change`` and ``levels_after`` included) is named there.

The summary fields are collected from the judge itself, on simulated deals of every game
(with their options varied), not from a list kept here, so a field added to the engine
without its line in the reference fails this test."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from cardref.engine import registry
from cardref.engine.eventlog import dump_event, read_lines
from cardref.engine.gouji.declare_names import Declare
from cardref.engine.gouji.simulate import simulate_deal as gouji_deal
from cardref.engine.gouji.simulate import simulate_deal_with_faults as gouji_faulty
from cardref.engine.judge import Judge
from cardref.engine.shengji.declares import KNOWN as SHENGJI_DECLARES
from cardref.engine.shengji.simulate import simulate_deal as shengji_deal

DOC = Path(__file__).resolve().parents[2] / "docs" / "event-log.md"
GAMES = sorted(g.name for g in registry.games().values() if g.referee is not None)


def _doc() -> str:
    return DOC.read_text(encoding="utf-8")


def _section(title: str) -> str:
    """The text of the ``### title`` / ``## title`` section up to the next heading of its level."""
    text = _doc()
    m = re.search(rf"^(#+) {re.escape(title)}.*?$", text, re.M)
    assert m, f"docs/event-log.md has no section {title!r}"
    level = len(m.group(1))
    rest = text[m.end():]
    end = re.search(rf"^#{{1,{level}}} ", rest, re.M)
    return rest[: end.start()] if end else rest


def _table_names(block: str) -> set[str]:
    """The backticked names of the first column of every table row in ``block``."""
    names: set[str] = set()
    for line in block.splitlines():
        first = line.split("|")[1].strip() if line.startswith("| `") else ""
        if first and first != "`what`":          # a row, not the header
            names |= set(re.findall(r"`([a-z0-9_]+)`", first))
    return names


def _declare_tables() -> tuple[set[str], set[str]]:
    block = _section("Declares")
    gouji, _, shengji = block.partition("升级 family")
    return _table_names(gouji), _table_names(shengji)


def test_every_gouji_declare_is_in_the_reference_and_no_other() -> None:
    documented, _ = _declare_tables()
    assert documented == {d.value for d in Declare}


def test_every_shengji_declare_is_in_the_reference_and_no_other() -> None:
    _, documented = _declare_tables()
    assert documented == set(SHENGJI_DECLARES)


def _judged_summaries(game: str, deals: int) -> list[dict]:
    out = []
    for n in range(deals):
        rng = random.Random(n)
        if registry.is_gouji(game):
            events = gouji_faulty(game, rng, illegal=n % 2)[0] if n % 3 == 0 else gouji_deal(game, rng)
        else:
            events = shengji_deal(game, rng)
        out += Judge.judge(list(read_lines(dump_event(e) for e in events))).summary()["deals"]
    return out


def _field_names(summaries: list[dict]) -> set[str]:
    """The keys of each deal object and of its ``level_change`` (seat/team keys, digits, left out)."""
    names: set[str] = set()
    for deal in summaries:
        names |= set(deal)
        if isinstance(deal.get("level_change"), dict):
            names |= set(deal["level_change"])
    return {n for n in names if not n.isdigit()}


@pytest.mark.parametrize("game", GAMES)
def test_every_summary_field_the_judge_writes_is_in_the_reference(game: str) -> None:
    output = _section("Judge output")
    written = _field_names(_judged_summaries(game, 24))
    assert {"game", "i", "complete"} <= written          # the collection itself worked
    missing = sorted(n for n in written if f"`{n}`" not in output)
    assert missing == [], f"{game}: summary fields missing from docs/event-log.md 'Judge output': {missing}"


def test_every_verdict_field_is_in_the_reference() -> None:
    output = _section("Judge output")
    log = ['{"type":"deal","game":"guafeng-zibo","seats":4,"leader":0}',
           '{"type":"play","seat":1,"cards":["3S"],"conf":0.3}']
    verdicts = [v.to_json() for v in Judge.judge(list(read_lines(log))).verdicts]
    fields = set().union(*verdicts)
    assert {"i", "ok", "code", "message", "confirm"} <= fields
    assert sorted(f for f in fields if f"`{f}`" not in output) == []
