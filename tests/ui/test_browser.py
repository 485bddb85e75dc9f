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
                return bool(flagged) and "shengji.must_follow_suit" in text and re.search(r"抓分方得分\s*\d+", text)

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
            time.sleep(2.0)
            later = re.search(r"第 (\d+) / (\d+) 个事件", page_text(driver))
            assert later is not None and int(later.group(1)) > int(first.group(1))
            assert shot.stat().st_size > 50_000
    finally:
        driver.quit()
