"""``cardref report --match ID --html out.html --csv out.csv``: a readable match report."""

from __future__ import annotations

import argparse
import sys

HELP = "write a match report (HTML and/or CSV): each deal's plays, verdicts, corrections and scores"


def add_arguments(p: argparse.ArgumentParser) -> None:
    from cardref.recorder.cliutil import add_db_argument

    add_db_argument(p)
    p.add_argument("--match", type=int, required=True, help="match id (see cardref store matches)")
    p.add_argument("--html", help="HTML file to write")
    p.add_argument("--csv", help="CSV file to write")
    p.add_argument("--lang", choices=("zh", "en"), default="zh", help="language of the report: its headings, words and verdict messages (default zh)")


def run(args: argparse.Namespace) -> int:
    from cardref.recorder.cliutil import CommandError, fail, opened
    from cardref.recorder.report import match_report, write_csv, write_html

    if not args.html and not args.csv:
        return fail("report", "say where to write it: --html FILE and/or --csv FILE")
    try:
        with opened(args) as store:
            report = match_report(store, args.match, lang=args.lang)
        if args.html:
            write_html(report, args.html)
        if args.csv:
            write_csv(report, args.csv)
    except (CommandError, KeyError) as exc:
        return fail("report", exc)
    except OSError as exc:
        return fail("report", f"cannot write: {exc}")
    print(f"cardref report: match {args.match}, {len(report['deals'])} deals, {report['faults']} faulty events, "
          f"score {report['totals']['a']}:{report['totals']['b']}", file=sys.stderr)
    return 0
