"""A real browser on the real server: ``streamlit run`` on a free local port, Debian's
chromium through selenium, the bundled demo playing by itself.

Needs ``apt-get install -y chromium chromium-driver`` and ``pip install selenium``; when
they are missing this test fails and says so (it is not skipped)."""

from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

import pytest

from cardref.ui.browser import BrowserMissing, browser, page_text, screenshot, served, wait_for
from cardref.ui.config import UiConfig


def test_demo_plays_in_a_browser_and_shows_a_flagged_play_and_the_score(tmp_path) -> None:
    try:
        driver = browser(width=1400, height=1800)
    except BrowserMissing as exc:
        pytest.fail(str(exc))
    try:
        with served(UiConfig(mode="demo", autoplay=True, speed=0.3), log_path=tmp_path / "streamlit.log") as url:
            assert url.startswith("http://127.0.0.1:")  # bound to this machine only
            driver.get(url + "/")

            def fault_and_score(d) -> bool:
                text = page_text(d)
                flagged = d.find_elements("css selector", ".cardref-fault")
                return bool(flagged) and "必须跟出" in text and re.search(r"抓分方得分\s*\d+", text)

            ok = wait_for(driver, fault_and_score, timeout=60)
            shot = tmp_path / "demo.png"
            screenshot(driver, shot)
            keep = os.environ.get("CARDREF_TEST_ARTIFACTS")  # CI may collect it from here as well
            if keep:
                Path(keep).mkdir(parents=True, exist_ok=True)
                shutil.copyfile(shot, Path(keep) / "ui-demo.png")
            print(f"screenshot: {shot}")
            assert ok, f"no flagged play and score after 60 s; page says: {page_text(driver)[:1500]}"
            fault = driver.find_elements("css selector", ".cardref-fault")[0]
            assert "198, 40, 40" in fault.value_of_css_property("color")  # the fault is drawn in red
            # the replay keeps playing: the event counter moves on
            first = re.search(r"第 (\d+) / (\d+) 个事件", page_text(driver))
            assert first is not None
            def moved_on(d) -> bool:  # a loaded machine (load 20 on 2 cores) takes seconds per step
                later = re.search(r"第 (\d+) / (\d+) 个事件", page_text(d))
                return later is not None and int(later.group(1)) > int(first.group(1))

            assert wait_for(driver, moved_on, timeout=30)
            assert shot.stat().st_size > 50_000
    finally:
        driver.quit()


def _artefacts() -> Path:
    """Where the screenshots are kept (not committed): $CARDREF_TEST_ARTIFACTS, else
    /tmp/artefacts/cardref-ui; printed by each test."""
    out = Path(os.environ.get("CARDREF_TEST_ARTIFACTS") or "/tmp/artefacts/cardref-ui")
    out.mkdir(parents=True, exist_ok=True)
    return out


def _english(driver) -> None:  # type: ignore[no-untyped-def]
    toggle = driver.find_element("xpath", "//section[@data-testid='stSidebar']//label[contains(., 'English')]")
    toggle.click()


def _red_frame_pixels(png: Path) -> int:
    """Pixels of the red frame drawn around a faulted play (230, 0, 0), not the fault panel's #c62828."""
    from PIL import Image

    with Image.open(png) as img:
        rgb = img.convert("RGB")
        return sum(1 for r, g, b in rgb.getdata() if r > 215 and g < 25 and b < 25)


def test_the_guafeng_demo_frames_the_faulted_play_and_the_pages_are_chinese(tmp_path) -> None:
    """#31: in the 刮风 demo the revoke (event 6) is framed red in 当前一轮 and on the table;
    the tournament page is in Chinese; /replay opened directly is no "Page not found";
    screenshots of the replay, setup, tournament and live pages in zh and en are kept."""
    from cardref.recorder import open_store
    from cardref.recorder import tournament as tm
    from cardref.ui.config import DEMO_DIR

    keep = _artefacts()
    db = tmp_path / "store.db"
    with open_store(str(db)) as store:
        tid = tm.create_tournament(store, "春季赛", "gouji", "2468")
        tm.add_team(store, tid, "东队", ["甲", "乙", "丙"])
        tm.add_team(store, tid, "西队", ["丁", "戊", "己"])
    try:
        driver = browser(width=1400, height=1800)
    except BrowserMissing as exc:
        pytest.fail(str(exc))
    shots: list[Path] = []
    try:
        with served(UiConfig(mode="demo", autoplay=False, store=str(db)), log_path=tmp_path / "s.log") as url:
            started = time.monotonic()
            driver.get(url + "/replay")  # opened directly
            assert wait_for(driver, lambda d: "裁判面板" in page_text(d), timeout=90), page_text(driver)[:800]
            print(f"first page load: {time.monotonic() - started:.1f} s")
            assert "Page not found" not in page_text(driver)
            def cursor(d) -> int:  # type: ignore[no-untyped-def]
                m = re.search(r"第 (\d+) / \d+ 个事件", page_text(d))
                return int(m.group(1)) if m else -1

            for _ in range(12):  # step with 下一手 up to the revoke (event 6: cursor 7), one click at a time
                k = cursor(driver)
                if k >= 7:
                    break
                driver.find_element("xpath", "//button[.//p[text()='下一手']]").click()
                wait_for(driver, lambda d, k=k: cursor(d) > k, timeout=30)
            assert re.search(r"第 7 / \d+ 个事件", page_text(driver)), page_text(driver)[:800]
            assert wait_for(driver, lambda d: "必须跟出" in page_text(d), timeout=20)  # the sentence, not the code
            assert "shengji.must_follow_suit" not in page_text(driver).split("规则代码")[0]
            assert re.search(r"轮到 \S+", page_text(driver))
            assert "Drag and drop" not in page_text(driver) and "Limit 200MB" not in page_text(driver)  # uploader
            shot = keep / "replay-zh-faulted-play.png"
            screenshot(driver, shot)
            shots.append(shot)
            assert _red_frame_pixels(shot) > 200, "the faulted play is not framed red"
            _english(driver)
            assert wait_for(driver, lambda d: "Referee panel" in page_text(d), timeout=30)
            shots.append(keep / "replay-en.png")
            screenshot(driver, shots[-1])
            for page, zh, en in (("setup", "开始新的一局", "Start a new deal"), ("tournament", "名次", "Standings")):
                driver.get(f"{url}/{page}")
                assert wait_for(driver, lambda d, w=zh: w in page_text(d), timeout=60), page_text(driver)[:800]
                text = page_text(driver)
                for raw in ("Press Enter to submit form", "Stop", "Running", "Drag and drop"):  # Streamlit's own
                    assert raw not in text, (page, raw)
                if page == "tournament":
                    for raw in ("match_points", "unscored_deals", "confirmed_by", "Tournament", "Standings"):
                        assert raw not in text
                shots.append(keep / f"{page}-zh.png")
                screenshot(driver, shots[-1])
                _english(driver)
                assert wait_for(driver, lambda d, w=en: w in page_text(d), timeout=30)
                shots.append(keep / f"{page}-en.png")
                screenshot(driver, shots[-1])
        live = UiConfig(mode="video", video=str(DEMO_DIR / "video.mp4"), detector="oracle",
                        out=str(tmp_path / "live.jsonl"), store=str(tmp_path / "live.db"))
        with served(live, log_path=tmp_path / "live.log") as url:
            driver.get(url + "/live")
            assert wait_for(driver, lambda d: "实时牌桌" in page_text(d) and "帧/秒" in page_text(d), timeout=90)
            time.sleep(4)
            shots.append(keep / "live-zh.png")
            screenshot(driver, shots[-1])
            _english(driver)
            assert wait_for(driver, lambda d: "Live table" in page_text(d), timeout=30)
            shots.append(keep / "live-en.png")
            screenshot(driver, shots[-1])
    finally:
        driver.quit()
        print("screenshots:", *map(str, shots), sep="\n  ")
    assert all(s.stat().st_size > 30_000 for s in shots)
