"""``cardref import LOG.jsonl``: record an event log into the store as a new match."""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

HELP = ("import an event log (JSON Lines) into the store as a new match at a table, judging it (all or "
        "nothing: an interrupted import records no line)")


def add_arguments(p: argparse.ArgumentParser) -> None:
    from cardref.recorder.cliutil import add_db_argument

    p.add_argument("log", help="event log file, or - for standard input")
    add_db_argument(p)
    p.add_argument("--table", help="table id (default: the file's name)")
    p.add_argument("--name", help="match name (default: 'import of FILE')")


def run(args: argparse.Namespace) -> int:
    from cardref.recorder.cliutil import CommandError, fail, input_lines, opened
    from cardref.recorder.exchange import import_lines

    table = args.table or re.sub(r"[^\w.-]+", "-", Path(args.log).stem if args.log != "-" else "stdin")[:100]
    try:
        with opened(args) as store, store.claim_table(table), input_lines(args.log) as lines:
            result = import_lines(store, lines, table, name=args.name or f"import of {args.log}")
    except (CommandError, ValueError) as exc:
        return fail("import", exc)
    print(json.dumps({"table": result.table_id, "match": result.match_id, "first_seq": result.first_seq,
                      "lines": result.count, "rejected": result.rejected, "faults": result.faults},
                     ensure_ascii=False))
    sys.stdout.flush()
    return 0
