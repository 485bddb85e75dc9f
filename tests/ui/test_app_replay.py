"""AppTest: the replay page (demo by default), stepping, corrections, PIN, bad logs, language."""

from __future__ import annotations

import json
import re

from cardref.ui.config import DEMO_LOG


def _cursor(at) -> int:
    return int(at.session_state["cursor"])


def test_demo_opens_by_default_and_autoplay_advances(app, ui) -> None:
    at = app(mode="demo", autoplay=True)
    assert at.session_state["replay_name"] == DEMO_LOG.name
    assert at.session_state["playing"] is True
    first = _cursor(at)
    at.run()
    assert _cursor(at) > first  # each refresh of the fragment plays one more event


def test_stepping_play_by_play_shows_verdicts_as_they_were(app, ui) -> None:
    at = app(mode="demo")
    assert _cursor(at) == 0
    lines = [json.loads(x) for x in DEMO_LOG.read_text(encoding="utf-8").splitlines() if x.strip()]
    at.button(key="rp_next").click().run()
    assert _cursor(at) == 1  # the deal event
    steps = 1
    while _cursor(at) < 7 and steps < 20:
        at.button(key="rp_next").click().run()
        steps += 1
    assert lines[_cursor(at) - 1]["type"] == "play"
    assert "shengji.must_follow_suit" in ui.texts(at)  # demo event 6 is a revoke, flagged when played
    # before it was played, the fault is not shown
    at.button(key="rp_prev").click().run()
    assert _cursor(at) < 7
    assert "shengji.must_follow_suit" not in ui.texts(at)
    at.button(key="rp_last").click().run()
    assert _cursor(at) == len(lines)
    text = ui.texts(at)
    assert "deck.too_many_copies" in text and "抓分方得分" in text
    assert "最终得分" in text  # the deal is over: bottom and final points are shown
    at.button(key="rp_first").click().run()
    assert _cursor(at) == 0


def test_correction_appends_and_rejudges(app, ui, tmp_path) -> None:
    events, k, truth = ui.misread(ui.simulated_lines())
    path = ui.write_log(tmp_path / "misread.jsonl", events)
    at = app(mode="log", log=str(path))
    at.button(key="rp_last").click().run()
    assert "play.not_in_hand" in ui.texts(at)
    at.selectbox(key="rp_ref").set_value(k).run()
    at.text_input(key=f"rp_cards_{k}").input(" ".join(truth))
    at.text_input(key="rp_who").input("张裁判")
    at.text_input(key="rp_why").input("misread")
    submit = next(b for b in at.button if "追加更正" in str(b.label))
    submit.click().run()
    log = at.session_state["replay_log"]
    last = json.loads(log.lines[-1])
    assert {key: last[key] for key in ("type", "ref", "cards", "who", "why", "source")} == {
        "type": "correct", "ref": k, "cards": truth, "who": "张裁判", "why": "misread", "source": "manual"}
    assert last["at"].endswith("+00:00")  # when, by the clock (and "t" when the log has times)
    assert len(log.lines) == len(events) + 1  # appended, nothing erased
    assert json.loads(log.lines[k])["cards"] != truth
    assert "play.not_in_hand" not in ui.texts(at)
    # stepping back before the misread play, the correction still applies once it is reached
    at.slider(key="cursor").set_value(k + 1).run()
    assert "play.not_in_hand" not in ui.texts(at)


def test_bad_card_code_in_a_correction_is_refused(app, ui, tmp_path) -> None:
    events, k, _ = ui.misread(ui.simulated_lines())
    at = app(mode="log", log=str(ui.write_log(tmp_path / "m.jsonl", events)))
    at.button(key="rp_last").click().run()
    at.selectbox(key="rp_ref").set_value(k).run()
    at.text_input(key=f"rp_cards_{k}").input("ZZ")
    next(b for b in at.button if "追加更正" in str(b.label)).click().run()
    assert any("ZZ" in e.value for e in at.error)
    assert len(at.session_state["replay_log"].lines) == len(events)


def test_pin_locks_corrections_until_unlocked(app, ui, tmp_path, monkeypatch) -> None:
    from cardref.ui import pinlock

    monkeypatch.setattr(pinlock, "BACKOFF_S", (60.0, 60.0, 60.0, 60.0))  # slower than this machine's reruns
    events, k, truth = ui.misread(ui.simulated_lines())
    at = app(mode="log", log=str(ui.write_log(tmp_path / "p.jsonl", events)), pin="2468")
    at.button(key="rp_last").click().run()
    submit = next(b for b in at.button if "追加更正" in str(b.label))
    assert submit.disabled
    at.text_input(key="rp_pin").input("1111")
    at.button(key="rp_unlock").click().run()
    assert any("密码不对" in e.value for e in at.error)
    at.text_input(key="rp_pin").input("2468")
    at.button(key="rp_unlock").click().run()  # within the back-off after a wrong PIN: not even checked
    assert any("秒后再试" in e.value for e in at.error)
    assert next(b for b in at.button if "追加更正" in str(b.label)).disabled
    at.session_state["pin_attempts"].next_try_at = 0.0  # the back-off has passed
    at.button(key="rp_unlock").click().run()
    submit = next(b for b in at.button if "追加更正" in str(b.label))
    assert not submit.disabled


def test_one_click_confirm_of_a_low_confidence_play(app, ui) -> None:
    at = app(mode="demo")
    at.button(key="rp_last").click().run()
    log = at.session_state["replay_log"]
    pending = log.pending()
    assert pending, "the demo has plays waiting for confirmation"
    at.button(key=f"rp_ok_{pending[0]}").click().run()
    last = json.loads(log.lines[-1])
    assert last["type"] == "correct" and last["ref"] == pending[0] and last["why"] == "confirm"
    assert pending[0] not in log.pending()


def test_corrupt_log_shows_a_banner_and_the_rest_is_judged(app, ui, tmp_path) -> None:
    events = ui.simulated_lines()[:12]
    lines = [events[0], "this is not json", *events[1:], '{"type":"play","seat":1,"cards":["XX"]}']
    at = app(mode="log", log=str(ui.write_log(tmp_path / "bad.jsonl", lines)))
    at.button(key="rp_last").click().run()
    assert any("无法读取" in e.value for e in at.error)
    assert "抓分方得分" in ui.texts(at)  # the scoreboard still works


def test_unknown_game_and_missing_file(app, ui, tmp_path) -> None:
    path = ui.write_log(tmp_path / "bridge.jsonl", ['{"type":"deal","game":"bridge","seats":4}',
                                                   '{"type":"play","seat":0,"cards":["AS"]}'])
    at = app(mode="log", log=str(path))
    at.button(key="rp_last").click().run()
    assert any("bridge" in e.value for e in at.error)
    at = app(mode="log", log=str(tmp_path / "nope.jsonl"))
    assert any("nope.jsonl" in e.value for e in at.error)


def test_english_switch_keeps_game_terms_in_chinese(app, ui) -> None:
    at = app(mode="demo")
    at.toggle(key="lang_en").set_value(True).run()
    at.button(key="rp_last").click().run()
    text = ui.texts(at)
    assert "Attacker points" in text and "Referee panel" in text
    assert "扣底 multiplier" in text
    assert "抓分方得分" not in text


def test_gouji_scoreboard_renders_from_the_engine_state(app, ui, tmp_path) -> None:
    deal = {"type": "deal", "game": "gouji-yucheng", "seats": 6, "leader": 0, "names": ["甲", "乙", "丙", "丁", "戊", "己"]}
    plays = [{"type": "play", "seat": 0, "cards": ["5S", "5H"]}, {"type": "play", "seat": 1, "cards": ["7S", "7D"]},
             {"type": "pass", "seat": 2}, {"type": "play", "seat": 3, "cards": ["9C", "9C"]},
             {"type": "declare", "seat": 2, "what": "kaidian"}]
    at = app(mode="log", log=str(ui.write_log(tmp_path / "g.jsonl", [deal, *plays])))
    at.button(key="rp_last").click().run()
    text = ui.texts(at)
    assert "够级进行中" in text and "出完顺序" in text and "烧牌进行中" in text and "下一局进贡" in text
    assert "各家已出牌数" in text


def test_a_fault_proven_later_appears_when_it_is_proven(app, ui, tmp_path) -> None:
    lines = [{"type": "deal", "game": "guafeng-zibo", "seats": 4, "level": "2", "trump": "H", "dealer": 0},
             {"type": "play", "seat": 0, "cards": ["AS"]}, {"type": "play", "seat": 1, "cards": ["3C"]},
             {"type": "play", "seat": 2, "cards": ["4S"]}, {"type": "play", "seat": 3, "cards": ["5S"]},
             {"type": "play", "seat": 3, "cards": ["QD"]}, {"type": "play", "seat": 0, "cards": ["7D"]},
             {"type": "play", "seat": 1, "cards": ["6S"]}]  # seat 1 shows a spade: its 3C was a revoke
    at = app(mode="log", log=str(ui.write_log(tmp_path / "late.jsonl", lines)))
    at.slider(key="cursor").set_value(7).run()
    assert "<b>#2</b>" not in ui.texts(at)
    at.slider(key="cursor").set_value(8).run()
    text = ui.texts(at)
    assert "<b>#2</b>" in text and "shengji.must_follow_suit" in text and "由第 7 个事件证实" in text


def test_tournament_page_opens_on_the_store(app, ui) -> None:
    at = app(mode="demo", store=":memory:")
    at.switch_page("screens/tournament_page.py").run()
    assert not at.exception
    assert any("赛事" in h.value for h in at.header)  # in Chinese by default (#31 item 5)
    at.toggle(key="lang_en").set_value(True).run()
    assert any("Tournament" in h.value for h in at.header)


def test_setup_starts_a_shengji_deal_with_names_level_trump_and_dealer(app, ui) -> None:
    at = app(mode="demo")
    at.switch_page("screens/setup_page.py").run()
    at.selectbox(key="su_game").set_value("chaodipi-mingchao").run()
    for s, name in enumerate(["东", "南", "西", "北"]):
        at.text_input(key=f"su_name_{s}").input(name)
    at.selectbox(key="su_level").set_value("7")
    at.selectbox(key="su_trump").select_index(4)  # 无主
    at.selectbox(key="su_dealer").set_value(3)
    at.button(key="su_start").click().run()
    deal = json.loads(at.session_state["replay_log"].lines[-1])
    assert deal["type"] == "deal" and deal["game"] == "chaodipi-mingchao" and deal["seats"] == 4
    assert deal["level"] == "7" and deal["trump"] is None and deal["dealer"] == 3
    assert deal["names"] == ["东", "南", "西", "北"] and deal["hand_sizes"] == [25, 25, 25, 25]  # the engine says 25 in 炒地皮
    # a play entered by hand with a bad card code is refused, a good one is recorded
    at.text_input(key="su_p_cards").input("10h zz")
    next(b for b in at.button if "记录出牌" in str(b.label)).click().run()
    assert any("ZZ" in e.value or "zz" in e.value for e in at.error)
    at.text_input(key="su_p_cards").input("10h qs")
    next(b for b in at.button if "记录出牌" in str(b.label)).click().run()
    play = json.loads(at.session_state["replay_log"].lines[-1])
    assert play == {"type": "play", "seat": 0, "cards": ["10H", "QS"], "source": "manual"}


def test_the_gouji_demo_opens_and_plays_to_its_finishing_order(app, ui) -> None:
    at = app(mode="demo")
    at.button(key="replay_demo_gouji_btn").click().run()
    assert at.session_state["replay_name"] == "gouji.jsonl"
    at.button(key="rp_last").click().run()
    text = ui.texts(at)
    assert "play.not_in_hand" in text and "出完顺序" in text and "下一局进贡" in text


def test_a_file_that_is_not_a_log_at_all_is_a_banner_not_a_crash(app, ui, tmp_path) -> None:
    junk = tmp_path / "photo.jsonl"
    junk.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00\xff garbage\n" * 2500)
    at = app(mode="log", log=str(junk))
    assert any("无法读取" in e.value for e in at.error)
    assert "只列出最后 2000 个事件" in ui.texts(at)


def test_match_history_lists_every_deal_of_the_log(app, ui, tmp_path) -> None:
    first, second = ui.simulated_lines(seed=3), ui.simulated_lines(seed=4)
    at = app(mode="log", log=str(ui.write_log(tmp_path / "match.jsonl", first + second)))
    table = next(df for df in at.dataframe if "结果" in list(df.value.columns))
    assert list(table.value["局"]) == [1, 2] and list(table.value["游戏"]) == ["刮风 · 淄博", "刮风 · 淄博"]
    assert all("最终得分" in outcome for outcome in table.value["结果"])  # both deals were played out


def test_the_director_locks_again_from_the_sidebar(app, ui) -> None:
    at = app(mode="demo", pin="2468")
    at.button(key="rp_last").click().run()
    at.text_input(key="rp_pin").input("2468")
    at.button(key="rp_unlock").click().run()
    assert at.session_state["unlocked"] is True
    at.button(key="pin_lock").click().run()
    assert at.session_state["unlocked"] is False
    assert next(b for b in at.button if "追加更正" in str(b.label)).disabled


def test_calibration_from_the_markers_found_is_saved(app, ui, tmp_path) -> None:
    target = tmp_path / "cal.json"
    at = app(mode="demo", calibration=str(target))
    at.switch_page("screens/setup_page.py").run()
    assert "[0, 1, 2, 3]" in ui.texts(at)  # the demo video shows all four table markers
    # the camera check: the bundled demo is a 640x360 recording (small to ship), its cards ~36 px
    assert re.search(r"一张牌只有约 3\d 像素高（检测器按 50–95 像素训练）：请把摄像头放低", ui.texts(at))
    at.button(key="su_cal_save").click().run()
    from cardref.vision.calibration import load_calibration

    cal = load_calibration(str(target))
    assert cal.method == "manual" and cal.layout is not None and cal.layout.seats == 4
    at.text_input(key="su_corners").input("1,1 2,2 3,3 4,4").run()  # three in a line: refused, said why
    assert at.error and not at.exception
