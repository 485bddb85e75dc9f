"""What the screens compute: rows, banners, deal views and scoreboards read defensively."""

from __future__ import annotations

import json

from PIL import Image

from cardref.engine.eventlog import read_lines
from cardref.engine.judge import Judge
from cardref.ui import cards_img, views
from cardref.ui.model import TableLog
from cardref.ui.table_img import table_image

G_DEAL = {"type": "deal", "game": "gouji-yucheng", "seats": 6, "leader": 0, "names": ["甲", "乙", "丙", "丁", "戊", "己"]}


def _judged(lines: list[str]):
    return Judge.judge(read_lines(lines))


def _dv(state: dict, summary: dict | None = None, game: str = "guafeng-zibo", seats: int = 4) -> views.DealView:
    names = [f"P{s}" for s in range(seats)]
    return views.DealView(index=0, game=game, family=views.family_of(game), seats=seats, names=names,
                          options={"dealer": 0, "level": "7", "trump": "S"}, judged=True, state=state,
                          summary=summary or {}, plays=[], trick=[], seat_views=[], bottom=[], declares=[])


def test_shengji_board_shows_dash_for_missing_keys() -> None:
    b = views.shengji_board(_dv({}))
    assert b["attacker_points"] == "—" and b["final_points"] == "—" and b["bottom_multiplier"] == "—"
    assert b["level"] == "7" and b["dealer"] == "P0"


def test_shengji_board_reads_the_engine_keys() -> None:
    state = {"attacker_points": 85, "team_levels": {"0": "7", "1": "A"}, "dealer": 1}
    summary = {"bottom_points": 20, "bottom_multiplier": 4, "final_points": 165,
               "level_change": {"team": [0, 2], "levels": 2}}
    b = views.shengji_board(_dv(state, summary))
    assert b["attacker_points"] == "85" and b["final_points"] == "165" and b["bottom_multiplier"] == "4"
    assert b["team_levels"] == {"P0/P2": "7", "P1/P3": "A"}
    assert b["level_change"] == "P0/P2 +2" and b["dealer"] == "P1"


def test_gouji_board_is_defensive_and_reads_order_kaidian_tributes() -> None:
    empty = views.gouji_board(_dv({}, game="gouji-yucheng", seats=6))
    assert empty["order"] == "—" and empty["kaidian"] == "—" and empty["tributes"] == []
    summary = {"order": [2, 0, 1, 3, 5, 4], "kaidian": [2], "tributes": [{"from": 4, "to": 2, "count": 2, "kind": "luo"}]}
    b = views.gouji_board(_dv({"gouji": {"by": 1}, "may_answer": [4]}, summary, game="gouji-yucheng", seats=6))
    assert b["order"].startswith("P2 → P0") and b["kaidian"] == "P2"
    assert b["tributes"] == [{"from": "P4", "to": "P2", "count": "2", "kind": "落贡"}]
    assert b["may_answer"] == "P4" and "P1" in b["gouji"]


def test_rows_mark_corrections_and_confirmations() -> None:
    log = TableLog.from_text("\n".join(json.dumps(x) for x in [
        G_DEAL, {"type": "play", "seat": 0, "cards": ["ZZ"]}, {"type": "play", "seat": 1, "cards": ["5H"], "conf": 0.4}]))
    log.correct(1, cards=["AS"], who="裁判", why="误读")
    log.confirm(2, who="裁判")
    rows = views.rows(log.snapshot(), log.result())
    assert rows[1].corrected_by == [3] and rows[1].cards == ["AS"] and rows[1].ok
    assert rows[2].confirmed_by == [4]
    assert log.pending() == []


def test_banners_for_unknown_and_unsupported_games_and_bad_lines() -> None:
    lines = ['{"type":"deal","game":"bridge","seats":4}', "not json"]
    banners = views.log_banners(lines, _judged(lines))
    assert [b.level for b in banners].count("error") == 2
    assert any("bridge" in b.text for b in banners)


def test_replay_lines_apply_only_this_sessions_corrections_in_view() -> None:
    lines = [json.dumps(G_DEAL), '{"type":"play","seat":0,"cards":["3S"]}', '{"type":"play","seat":1,"cards":["4S"]}',
             '{"type":"correct","ref":2,"cards":["5S"]}', '{"type":"correct","ref":1,"cards":["6S"]}']
    assert views.replay_lines(lines, 2, 3) == lines[:2] + [lines[4]]  # ref 2 is not yet shown
    assert views.replay_lines(lines, 3, 3) == lines[:3] + lines[3:]


def test_table_picture_and_card_rows_draw(monkeypatch) -> None:
    lines = [json.dumps(G_DEAL), '{"type":"play","seat":0,"cards":["3S","3H"]}', '{"type":"pass","seat":1}']
    dv = views.deal_view(lines, _judged(lines))
    assert dv is not None and dv.trick[0][0] == 0
    img = table_image(dv)
    assert isinstance(img, Image.Image) and img.size == (900, 620)
    # with no font at all the cards are still drawn (suits as polygons)
    monkeypatch.setattr(cards_img, "font_path", lambda cjk=False: None)
    cards_img.font.cache_clear()
    try:
        card = cards_img.drawn_card.__wrapped__("QH")
        red = sum(1 for px in card.get_flattened_data() if px[0] > 150 and px[1] < 80)
        assert red > 50
    finally:
        cards_img.font.cache_clear()


def test_points_series_from_engine_tricks() -> None:
    dv = _dv({"attackers": [1, 3], "tricks": [
        {"leader": 0, "winner": 1, "points": 10, "plays": [{"seat": 0, "cards": ["10S"], "i": 1}]},
        {"leader": 1, "winner": 0, "points": 5, "plays": [{"seat": 1, "cards": ["5S"], "i": 5}]},
        {"leader": 0, "winner": 3, "points": 20, "plays": [{"seat": 0, "cards": ["KS", "KS"], "i": 9}]}]})
    assert views.points_series(dv) == [{"trick": 1, "points": 10, "attacker_points": 10},
                                       {"trick": 2, "points": 5, "attacker_points": 10},
                                       {"trick": 3, "points": 20, "attacker_points": 30}]


def test_an_engine_that_raises_falls_back_to_the_generic_checks(monkeypatch) -> None:
    from cardref.engine import registry
    from cardref.engine.events import DealEvent

    deal = {"type": "deal", "game": "guafeng-zibo", "seats": 4, "level": "2", "trump": "H", "dealer": 0}
    referee = registry.get("guafeng-zibo").new_deal(DealEvent(game="guafeng-zibo", seats=4, options={}), 0)

    def boom(self, i, event):  # noqa: ANN001
        raise RuntimeError("engine bug")

    monkeypatch.setattr(type(referee), "feed", boom)
    log = TableLog.from_text("\n".join(json.dumps(x) for x in [
        deal, {"type": "play", "seat": 0, "cards": ["BJ", "BJ"]}, {"type": "play", "seat": 1, "cards": ["BJ"]}]))
    result = log.result()
    assert "engine bug" in result.engine_error
    assert result.verdicts[2].fault.code == "deck.too_many_copies"  # the generic checks still run
    banners = views.log_banners(log.snapshot(), result)
    assert any("engine bug" in b.text and b.level == "error" for b in banners)
    assert views.deal_view(log.snapshot(), result) is not None


def test_incremental_judging_matches_the_whole_log_judge(ui) -> None:
    events, k, truth = ui.misread(ui.simulated_lines())
    log = TableLog()
    texts = [json.dumps(e) for e in events]
    for n, text in enumerate(texts, start=1):
        log.append(text)
        if n % 17 == 0 or n == len(texts):
            assert [v.to_json() for v in log.result().verdicts] == [v.to_json() for v in _judged(texts[:n]).verdicts]
    log.correct(k, cards=truth, who="ref")
    full = _judged(log.snapshot())
    live = log.result()
    assert [v.to_json() for v in live.verdicts] == [v.to_json() for v in full.verdicts]
    assert [getattr(e, "cards", None) for e in live.effective] == [getattr(e, "cards", None) for e in full.effective]
    assert live.deals[-1].summary() == full.deals[-1].summary()


def test_plays_the_pipeline_marks_uncertain_wait_for_confirmation() -> None:
    log = TableLog.from_text("\n".join(json.dumps(x) for x in [
        G_DEAL, {"type": "play", "seat": 0, "cards": ["5S"], "conf": 0.95, "confirm": True},
        {"type": "play", "seat": 1, "cards": ["6S"], "conf": 0.95}]))
    assert log.pending() == [1]


def test_gouji_round_starts_when_a_seat_plays_after_itself() -> None:
    lines = [json.dumps(G_DEAL)] + [json.dumps({"type": "play", "seat": s, "cards": c}) for s, c in [
        (0, ["5S"]), (1, ["7S"]), (3, ["9C"]), (3, ["6H", "6H"]), (4, ["8D", "8D"])]]
    dv = views.deal_view(lines, _judged(lines))
    assert [(s, c) for s, c, _ in dv.trick] == [(3, ["6H", "6H"]), (4, ["8D", "8D"])]


def test_without_a_chinese_font_names_are_drawn_as_seat_numbers(monkeypatch) -> None:
    monkeypatch.setattr(cards_img, "font_path", lambda cjk=False: None if cjk else "/nonexistent")
    assert cards_img.drawable("老张", "S0") == "S0" and cards_img.drawable("Ann", "S0") == "Ann"
