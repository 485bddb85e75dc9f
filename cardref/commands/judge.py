"""``cardref judge LOG.jsonl``: one verdict line per log line, then a summary line."""

from __future__ import annotations

import argparse
import json
import sys

HELP = "judge an event log (JSON Lines; '-' reads stdin) and print verdicts and a summary"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("log", help="event log file, or - for standard input")
    p.add_argument("--lang", choices=("zh", "en"), default="zh", help="language of messages (default zh)")
    p.add_argument("--strict", action="store_true", help="exit 1 when any event is faulty")


def run(args: argparse.Namespace) -> int:
    from cardref.engine.judge import judge_text

    if args.log == "-":
        result = judge_text(sys.stdin)
    else:
        try:
            with open(args.log, encoding="utf-8", errors="replace") as fh:
                result = judge_text(fh)
        except OSError as exc:
            print(f"cardref judge: cannot read {args.log}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    out = sys.stdout
    for verdict in result.verdicts:
        out.write(json.dumps(verdict.to_json(args.lang), ensure_ascii=False) + "\n")
    out.write(json.dumps(result.summary(), ensure_ascii=False) + "\n")
    out.flush()
    return 1 if args.strict and result.faults() else 0
