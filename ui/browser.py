"""Drive the dashboard in a real browser (Debian's chromium + chromedriver, through
selenium): start ``streamlit run`` on a free local port, open a page, wait for text,
take screenshots.  Used by the browser test and for looking at the app by hand:

    python -m cardref.ui.browser OUT.png [--page replay] [--wait TEXT] [--seconds N]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .config import UiConfig

APP = Path(__file__).resolve().parent / "app.py"
CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")
CHROMEDRIVER = ("/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver")


class BrowserMissing(RuntimeError):
    """chromium, chromedriver or selenium is not installed."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def streamlit_command(port: int, host: str = "127.0.0.1", headless: bool = True) -> list[str]:
    """The ``streamlit run`` command line for the dashboard (no telemetry; a browser window
    unless ``headless``).  Streamlit's first run on a machine asks for an e-mail address on
    the terminal when it is not headless, and waits: the dashboard did not come up until
    someone pressed Enter, so the prompt is turned off."""
    return [sys.executable, "-m", "streamlit", "run", str(APP),
            "--server.address", host, "--server.port", str(port),
            "--server.headless", "true" if headless else "false",
            "--server.showEmailPrompt", "false",
            "--browser.gatherUsageStats", "false",
            "--server.fileWatcherType", "none",
            "--global.developmentMode", "false",
            "--client.toolbarMode", "viewer",
            "--theme.base", "light"]


@contextlib.contextmanager
def served(cfg: UiConfig | None = None, *, port: int | None = None, timeout: float = 60.0,
           log_path: Path | None = None) -> Iterator[str]:
    """Run the dashboard in a subprocess for the ``with`` block; yields its URL."""
    port = port or free_port()
    env = dict(os.environ)
    env["CARDREF_UI_CONFIG"] = (cfg or UiConfig()).to_env()
    out: Any = open(log_path, "w") if log_path else subprocess.DEVNULL  # noqa: SIM115
    proc = subprocess.Popen(streamlit_command(port), env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + timeout
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"streamlit exited with {proc.returncode}" + (f"; see {log_path}" if log_path else ""))
            try:
                with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"streamlit did not answer on {url} within {timeout:.0f} s")
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        if log_path:
            out.close()


def _first(paths: tuple[str, ...]) -> str | None:
    for p in paths:
        if Path(p).is_file():
            return p
    return None


def browser(width: int = 1500, height: int = 2200) -> Any:
    """A headless chromium driven by selenium; raises :class:`BrowserMissing` saying what to install."""
    chromium = _first(CHROMIUM) or shutil.which("chromium")
    driver_path = _first(CHROMEDRIVER) or shutil.which("chromedriver")
    if not chromium or not driver_path:
        raise BrowserMissing("the browser test needs Debian's chromium and chromedriver: "
                             "apt-get install -y chromium chromium-driver")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError as exc:
        raise BrowserMissing(f"the browser test needs selenium (pip install selenium): {exc}") from None
    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                f"--window-size={width},{height}", "--lang=zh-CN", "--no-first-run",
                "--disable-extensions", "--disable-background-networking"):
        opts.add_argument(arg)
    os.environ.setdefault("SE_OFFLINE", "true")  # selenium-manager must not look for drivers online
    return webdriver.Chrome(service=Service(executable_path=driver_path), options=opts)


def page_text(driver: Any) -> str:
    return str(driver.execute_script("return document.body ? document.body.innerText : ''"))


def wait_for(driver: Any, predicate: Any, timeout: float, every: float = 0.5) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if predicate(driver):
                return True
        except Exception:
            pass
        time.sleep(every)
    return False


def screenshot(driver: Any, out: Path, width: int = 1500) -> None:
    """The whole page (Streamlit scrolls inside its main block, so grow the window to fit it)."""
    height = driver.execute_script(
        "const m = document.querySelector('[data-testid=\"stMain\"]') || document.body;"
        "return Math.max(m.scrollHeight, document.body.scrollHeight);") or 2200
    driver.set_window_size(width, min(int(height) + 150, 8000))
    time.sleep(1.5)
    out.parent.mkdir(parents=True, exist_ok=True)
    driver.save_screenshot(str(out))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m cardref.ui.browser")
    p.add_argument("out", type=Path)
    p.add_argument("--page", default="")
    p.add_argument("--wait", default="", help="text to wait for before the screenshot")
    p.add_argument("--seconds", type=float, default=8.0)
    p.add_argument("--mode", default="demo")
    p.add_argument("--log")
    p.add_argument("--video")
    p.add_argument("--game")
    p.add_argument("--pin")
    p.add_argument("--en", action="store_true")
    args = p.parse_args(argv)
    from .config import hash_ui_pin

    cfg = UiConfig(mode=args.mode, log=args.log, video=args.video, game=args.game,
                   pin_hash=hash_ui_pin(args.pin) if args.pin else None)
    with served(cfg, log_path=args.out.with_suffix(".log")) as url:
        driver = browser()
        try:
            driver.get(f"{url}/{args.page}")
            if args.wait:
                wait_for(driver, lambda d: args.wait in page_text(d), args.seconds)
            else:
                time.sleep(args.seconds)
            screenshot(driver, args.out)
        finally:
            driver.quit()
    print(args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
