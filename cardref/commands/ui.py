"""``cardref ui``: the referee's dashboard (Streamlit) on this machine.

Without arguments it opens the bundled demo (a recorded deal replaying itself);
``--camera 0 --game gouji-yucheng`` watches a live table, ``--video FILE`` a recording
as if live, ``--log FILE`` replays a log.  The server listens on 127.0.0.1 only unless
``--host`` says otherwise; ``--pin-file FILE`` (or ``--ask-pin``) locks corrections behind a
director PIN, which the dashboard keeps only as a salted hash.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HELP = "open the referee's dashboard (the bundled demo when no camera, video or log is given)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    src = p.add_mutually_exclusive_group()
    src.add_argument("--camera", type=int, metavar="INDEX", help="watch a live table from this camera")
    src.add_argument("--video", metavar="FILE", help="watch a video file as if it were the camera")
    src.add_argument("--log", metavar="FILE", help="replay an event log (JSON Lines)")
    src.add_argument("--demo", action="store_true", help="replay the bundled demo (the default)")
    p.add_argument("--replay-video", metavar="FILE", help="with --log: the video recorded with it")
    p.add_argument("--game", help="game of the live table, e.g. gouji-yucheng, guafeng-zibo")
    p.add_argument("--detector", choices=("auto", "model", "oracle"), default="auto",
                   help="card detector of the live table: the model, or 'oracle' (the truth of a video made by "
                        "cardref simulate); auto: the model when installed, else the oracle when the video has one")
    p.add_argument("--deal", metavar="JSON", help='options of the live deal, e.g. \'{"level":"7","trump":"H","dealer":0}\' '
                                                  "(or start the deal on the setup page)")
    p.add_argument("--header", metavar="LOG", help="start the live log with this log's deal and hand events")
    p.add_argument("--names", help="player names per seat, comma separated (seat 0 first)")
    p.add_argument("--calibration", metavar="FILE", help="table calibration (JSON) for the live table")
    p.add_argument("--deck", metavar="DECK.npz", help="the live table's deck, enrolled with cardref enrol-deck")
    p.add_argument("--out", metavar="FILE", help="where the live table's log is written "
                                                 "(default recordings/table-<time>.jsonl)")
    p.add_argument("--store", metavar="URL", help="the recorder's store for the tournament page")
    p.add_argument("--pin-file", metavar="FILE",
                   help="lock corrections and setup behind the director PIN written on this file's first line "
                        "(recommended; the dashboard keeps only its salted hash)")
    p.add_argument("--ask-pin", action="store_true", help="ask for the director PIN on the terminal")
    p.add_argument("--pin", help="the director PIN itself (visible to other users in ps: prefer --pin-file or "
                                 "--ask-pin)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine only)")
    p.add_argument("--port", type=int, default=8501)
    p.add_argument("--headless", action="store_true", help="do not open a browser window")
    p.add_argument("--no-autoplay", action="store_true", help="do not start the replay by itself")
    p.add_argument("--speed", type=float, default=0.6, help="replay seconds per event (default 0.6)")
    p.add_argument("--print-command", action="store_true", help="print the streamlit command and exit")


def _pin_hash(args: argparse.Namespace) -> tuple[str | None, str | None]:
    """The director PIN's salted hash from --pin-file, --ask-pin or --pin (warned); the
    PIN itself goes no further than this function."""
    from cardref.ui.config import hash_ui_pin

    from ._pin import PinSourceError, read_pin

    if not (getattr(args, "pin_file", None) or getattr(args, "pin", None) or getattr(args, "ask_pin", False)):
        return None, None
    try:
        pin = read_pin(args, env=False, prompt=bool(getattr(args, "ask_pin", False)))
    except PinSourceError as exc:
        return None, str(exc)
    if not pin:
        return None, "--ask-pin needs a terminal to ask on: use --pin-file FILE"
    try:
        return hash_ui_pin(pin), None
    except ValueError as exc:
        return None, f"director PIN: {exc}"


def config_from_args(args: argparse.Namespace) -> tuple[object, str | None]:
    """The dashboard's configuration, or a problem to report (exit 2)."""
    from cardref.engine.events import GAME_SEATS
    from cardref.ui.config import UiConfig

    names = [n.strip() for n in args.names.split(",")] if args.names else []
    if args.game and args.game not in GAME_SEATS:
        return None, f"unknown game {args.game!r}; known: {', '.join(sorted(GAME_SEATS))}"
    if args.video and not Path(args.video).is_file():
        return None, f"no such video file: {args.video}"
    if args.log and not Path(args.log).is_file():
        return None, f"no such log file: {args.log}"
    if args.speed <= 0:
        return None, "--speed must be positive"
    deal: dict = {}
    if args.deal:
        try:
            deal = json.loads(args.deal)
        except json.JSONDecodeError as exc:
            return None, f"--deal is not JSON ({exc.msg})"
        if not isinstance(deal, dict):
            return None, "--deal must be a JSON object"
    if args.deck and not Path(args.deck).is_file():
        return None, f"no such deck profile: {args.deck} (make one with cardref enrol-deck)"
    if args.header and not Path(args.header).is_file():
        return None, f"no such header log: {args.header}"
    pin_hash, why = _pin_hash(args)
    if why:
        return None, why
    beside = [Path(args.video).with_name(n) for n in ("truth.jsonl", "table.jsonl")] if args.video else []
    if (args.camera is not None or args.video) and not args.game and not args.header \
            and not any(b.is_file() for b in beside):
        return None, "watching a table needs its game: --game gouji-yucheng (or guafeng-zibo, …) or --header LOG"
    if args.camera is not None:
        mode = "camera"
    elif args.video:
        mode = "video"
    elif args.log:
        mode = "log"
    else:
        mode = "demo"
    cfg = UiConfig(mode=mode, log=str(Path(args.log).resolve()) if args.log else None,
                   video=str(Path(args.video or args.replay_video).resolve()) if (args.video or args.replay_video) else None,
                   camera=args.camera, game=args.game,
                   calibration=str(Path(args.calibration).resolve()) if args.calibration else None,
                   out=str(Path(args.out).resolve()) if args.out else None, pin_hash=pin_hash, names=names,
                   autoplay=not args.no_autoplay, speed=args.speed, store=args.store,
                   detector=args.detector, deal=deal, deck=str(Path(args.deck).resolve()) if args.deck else None,
                   header=str(Path(args.header).resolve()) if args.header else None)
    return cfg, None


def run(args: argparse.Namespace) -> int:
    from cardref.ui.browser import streamlit_command

    cfg, problem = config_from_args(args)
    if problem:
        print(f"cardref ui: {problem}", file=sys.stderr)
        return 2
    cmd = streamlit_command(args.port, host=args.host, headless=args.headless)
    env = dict(os.environ)
    env["CARDREF_UI_CONFIG"] = cfg.to_env()  # type: ignore[attr-defined]
    if args.print_command:
        print(" ".join(cmd))
        return 0
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(f"cardref ui: listening on {args.host}: anyone who can reach this machine can open the dashboard"
              + ("" if cfg.pin_hash else " and correct events (set --pin-file)"),  # type: ignore[attr-defined]
              file=sys.stderr)
    print(f"cardref ui: http://{'127.0.0.1' if args.host in ('0.0.0.0', '::') else args.host}:{args.port}",
          file=sys.stderr)
    sys.stdout.flush()
    sys.stderr.flush()
    if os.name == "posix":  # become the server: signals (Ctrl-C, kill) reach it directly
        os.execve(cmd[0], cmd, env)
    try:
        return subprocess.call(cmd, env=env)
    except KeyboardInterrupt:
        return 130
