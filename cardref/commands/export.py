"""``cardref export``: a deal, a match or a whole table as the spec's JSON Lines."""

from __future__ import annotations

import argparse
import sys

HELP = "export a deal, a match or a table from the store as an event log (JSON Lines)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    from cardref.recorder.cliutil import add_db_argument

    add_db_argument(p)
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--deal", type=int, help="deal id (see cardref store matches)")
    which.add_argument("--match", type=int, help="match id")
    which.add_argument("--table", help="a whole table's log")
    p.add_argument("--out", default="-", help="output file (default - for standard output)")


def run(args: argparse.Namespace) -> int:
    from cardref.recorder.cliutil import CommandError, fail, opened
    from cardref.recorder.exchange import export_deal, export_match, export_table

    try:
        with opened(args) as store:
            if args.deal is not None:
                exported = export_deal(store, args.deal)
            elif args.match is not None:
                exported = export_match(store, args.match)
            else:
                exported = export_table(store, args.table)
    except (CommandError, KeyError) as exc:
        return fail("export", exc)
    if args.out == "-":
        sys.stdout.writelines(line + "\n" for line in exported.lines)
    else:
        try:
            exported.write(args.out)
        except OSError as exc:
            return fail("export", f"cannot write {args.out}: {exc.strerror or exc}")
        print(f"cardref export: {len(exported.lines)} lines to {args.out}", file=sys.stderr)
    return 0
