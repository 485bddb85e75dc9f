"""``cardref store …``: the event store: record lines, list tables, events, corrections.

``cardref store append --table T [FILE|-]`` records a JSON Lines log (a file, or a live
pipe on standard input) at a table, judging each line; with ``--echo`` it prints
``recorded SEQ`` after each line is durably stored.  It claims the table first: a second
``append`` to the same table is refused before it writes anything.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

HELP = "the event store: append (record) logs, tables, events, corrections, audit, matches"


def add_arguments(p: argparse.ArgumentParser) -> None:
    from cardref.recorder.cliutil import add_db_argument

    sub = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    a = sub.add_parser("append", help="record JSON Lines (file or - for stdin) at a table, judging each line "
                                      "(one writer per table: a second one is refused before it writes)")
    a.add_argument("log", nargs="?", default="-", help="log file, or - (default) for standard input")
    a.add_argument("--table", required=True, help="table id")
    a.add_argument("--batch", type=int, default=1,
                   help="lines per transaction (default 1: each line durable before the next is read)")
    a.add_argument("--echo", action="store_true", help="print 'recorded SEQ' after each durable line")
    a.add_argument("--verdicts", action="store_true", help="print each line's verdicts as JSON Lines")
    a.add_argument("--lang", choices=("zh", "en"), default="zh")
    a.add_argument("--no-judge", action="store_true", help="store only (verdicts later with 'rejudge')")
    a.add_argument("--spool", metavar="OUTBOX.db",
                   help="when the store (a shared PostgreSQL) cannot be reached, keep lines in this local file and "
                        "forward them in order once it answers (a table laptop on a flaky network)")
    a.add_argument("--resume", action="store_true",
                   help="the table already holds the start of this log (an interrupted run): check it and "
                        "record only the rest")
    info = sub.add_parser("info", help="where the store is, its schema version and its tables")
    sub.add_parser("tables", help="list tables")
    ev = sub.add_parser("events", help="a table's events with their verdicts")
    ev.add_argument("--table", required=True)
    ev.add_argument("--match", type=int)
    ev.add_argument("--deal", type=int)
    ev.add_argument("--lang", choices=("zh", "en"), default="zh")
    co = sub.add_parser("corrections", help="the corrections audit trail (who, when, why, what)")
    co.add_argument("--table")
    au = sub.add_parser("audit", help="the director's audit log (confirmations, refusals, corrections)")
    au.add_argument("--table")
    cr = sub.add_parser("correct", help="append a correction of event REF at a table")
    cr.add_argument("--table", required=True)
    cr.add_argument("--ref", type=int, required=True, help="seq (0-based line index) of the event to fix")
    cr.add_argument("--cards", nargs="+", help="the right cards")
    cr.add_argument("--seat", type=int, help="the right seat")
    cr.add_argument("--who", required=True)
    cr.add_argument("--why", required=True)
    from ._pin import add_pin_arguments

    add_pin_arguments(cr)  # needed for an event of a tournament match
    sm = sub.add_parser("start-match", help="open a new match at a table (ends the open one)")
    sm.add_argument("--table", required=True)
    sm.add_argument("--name")
    sub.add_parser("matches", help="list matches with their deals")
    rj = sub.add_parser("rejudge", help="re-judge a table's whole log and store the verdicts again")
    rj.add_argument("--table", required=True)
    for sp in (a, info, ev, co, au, cr, sm, rj, *[sub.choices[n] for n in ("tables", "matches")]):
        add_db_argument(sp)


def _print(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, default=str) + "\n")


def _append(store, args: argparse.Namespace) -> int:  # type: ignore[no-untyped-def]
    from cardref.recorder import Recorder
    from cardref.recorder.cliutil import CommandError, input_lines
    from cardref.recorder.store import to_line

    rec = Recorder(store)
    batch = max(1, args.batch)
    counts = {"lines": 0, "rejected": 0}
    pending: list[str] = []

    def flush() -> None:
        if args.no_judge:
            done = [(a, a.verdicts) for a in store.append_many(args.table, pending)]
        else:
            done = [(r.appended, r.verdicts) for r in rec.record_many(args.table, pending)]
        pending.clear()
        for appended, verdicts in done:
            counts["lines"] += 1
            counts["rejected"] += appended.rejected
            if args.echo:
                sys.stdout.write(f"recorded {appended.seq}\n")
            if args.verdicts:
                for v in verdicts:
                    _print(v.to_json(args.lang))
        sys.stdout.flush()

    stored = store.lines(args.table) if args.resume else []
    skipped = 0
    with input_lines(args.log) as lines:  # the table is claimed (see run) before anything is read or written
        for raw in lines:
            text = to_line(raw)
            if not text:
                continue
            if skipped < len(stored):
                if text != stored[skipped]:
                    raise CommandError(f"--resume: line {skipped} of the input differs from event {skipped} "
                                       f"stored at table {args.table}")
                skipped += 1
                continue
            pending.append(text)
            if len(pending) >= batch:
                flush()
        if pending:
            flush()
    if skipped:
        print(f"cardref store: {skipped} lines were already stored, resumed after them", file=sys.stderr)
    print(f"cardref store: {counts['lines']} lines recorded at table {args.table} "
          f"({counts['rejected']} rejected as malformed)", file=sys.stderr)
    return 0


def _append_spooled(args: argparse.Namespace) -> int:
    from cardref.recorder import open_store
    from cardref.recorder.cliutil import input_lines
    from cardref.recorder.spool import Queued, SpoolingRecorder
    from cardref.recorder.store import to_line

    spool = SpoolingRecorder(lambda: open_store(args.db), args.spool)
    counts = {"recorded": 0, "queued": 0}
    try:
        with spool.claim(args.table), input_lines(args.log) as lines:  # a second writer is refused at once
            for raw in lines:
                text = to_line(raw)
                if not text:
                    continue
                done = spool.record(args.table, text)
                if isinstance(done, Queued):
                    counts["queued"] += 1
                    if args.echo:
                        sys.stdout.write(f"queued {done.uid} ({done.waiting} waiting)\n")
                else:
                    counts["recorded"] += 1
                    if args.echo:
                        sys.stdout.write(f"recorded {done.seq}\n")
                    if args.verdicts:
                        for v in done.verdicts:
                            _print(v.to_json(args.lang))
                sys.stdout.flush()
            spool.flush()
            waiting = spool.outbox.count()
    finally:
        spool.close()
    print(f"cardref store: {counts['recorded']} lines recorded at table {args.table}, {counts['queued']} went "
          f"through the outbox, {waiting} still waiting in {args.spool}", file=sys.stderr)
    return 0 if waiting == 0 else 3


def run(args: argparse.Namespace) -> int:
    from cardref.recorder import LockedError, Recorder, table_rows
    from cardref.recorder.cliutil import CommandError, fail, opened
    from cardref.recorder.store import TableBusy

    if args.action == "append" and args.spool:
        try:
            return _append_spooled(args)
        except (CommandError, ValueError, TableBusy) as exc:
            return fail("store", exc)
    try:
        with opened(args) as store:
            if args.action == "append":
                with store.claim_table(args.table):  # a second writer of this table is refused at once
                    return _append(store, args)
            if args.action == "info":
                _print({"store": store.url, "backend": store.dialect, "schema_version": store.schema_version(),
                        "tables": len(store.tables()), "events": store.count_events()})
            elif args.action == "tables":
                for t in store.tables():
                    _print(t.__dict__)
            elif args.action == "events":
                if store.table(args.table) is None:
                    raise CommandError(f"no table {args.table!r}")
                for row in table_rows(store, args.table, lang=args.lang, match_id=args.match, deal_id=args.deal):
                    _print(row)
            elif args.action == "corrections":
                for row in store.corrections(args.table):
                    _print(row)
            elif args.action == "audit":
                for row in store.audit_log(table_id=args.table):
                    _print(row)
            elif args.action == "correct":
                from cardref.recorder.tournament import correct_with_pin

                from ._pin import cli_session, read_pin

                # no $CARDREF_PIN here: a correction names its PIN on purpose (--pin-file, the prompt)
                done = correct_with_pin(store, args.table, args.ref, cards=args.cards, seat=args.seat,
                                        who=args.who, why=args.why, pin=read_pin(args, env=False),
                                        recorder=Recorder(store), session=cli_session())
                _print({"recorded": done.seq, "verdicts": [v.to_json() for v in done.verdicts]})
            elif args.action == "start-match":
                _print({"match": store.start_match(args.table, args.name)})
            elif args.action == "matches":
                for m in store.matches():
                    item = dict(m.__dict__)
                    item["deals"] = [d.id for d in store.deals(match_id=m.id)]
                    _print(item)
            elif args.action == "rejudge":
                from cardref.recorder import rejudge_table

                if store.table(args.table) is None:
                    raise CommandError(f"no table {args.table!r}")
                rejudge_table(store, args.table)
                _print({"table": args.table, "lines": store.count_events(args.table)})
    except (CommandError, LockedError, ValueError, KeyError, PermissionError) as exc:
        return fail("store", exc)
    return 0
