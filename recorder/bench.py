"""``cardref bench store``: event-store ingest from concurrent table writers.

Each writer is a separate process playing one table: it appends its events (real deals
from the engines' simulators, each line made unique) to its own table, ``--batch`` lines
per transaction, every append durable before the next.  Afterwards the store is read
back: per table the count, the seqs (0..N-1: nothing lost, nothing duplicated) and a
SHA-256 over the stored lines in order must equal what the writer sent.

    cardref bench store --writers 8 --events 4000 --batch 100 500 \
        --db sqlite --db postgresql://cardref:cardref@127.0.0.1:55432/cardref_test
    cardref bench store --writers 8 --events 300 --batch 1 --judge    # the live path

``--db sqlite`` uses a fresh file in a temporary folder.  A path names where the throwaway
store goes (to measure that disk): it must not exist yet, since the benchmark writes its
``bench-N`` tables there and removes the file after each run, so a real store is never
touched.  A PostgreSQL URL gets a fresh schema, dropped afterwards.  Figures depend on the disk's fsync latency
(SQLite ``--sync full``) and on the CPU: they are printed, never asserted.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import multiprocessing as mp
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Sequence
from typing import Any
from urllib.parse import quote


def _lines(n: int, seed: int) -> list[str]:
    from cardref.engine.gouji.simulate import simulate_deal

    rng = random.Random(seed)
    out: list[str] = []
    while len(out) < n:
        for event in simulate_deal("gouji-shandong", rng, with_hands=False):
            obj = event.to_json()
            obj["n"] = len(out)  # every line unique, so a duplicate or a loss shows in the checksum
            out.append(json.dumps(obj, ensure_ascii=False, separators=(",", ":")))
            if len(out) == n:
                break
    return out


def _writer(url: str, table: str, n: int, batch: int, judge: bool, sync: str, start: Any, out: Any) -> None:
    from cardref.recorder import Recorder, open_store

    lines = _lines(n, hash(table) & 0xFFFF)
    digest = hashlib.sha256("\n".join(lines).encode()).hexdigest()
    store = open_store(url, sync=sync)
    rec = Recorder(store) if judge else None
    start.wait()
    t0 = time.perf_counter()
    for k in range(0, n, batch):
        chunk = lines[k:k + batch]
        if rec is not None:
            rec.record_many(table, chunk)
        elif batch == 1:
            store.append(table, chunk[0])
        else:
            store.append_many(table, chunk)
    t1 = time.perf_counter()
    store.close()
    out.put({"table": table, "n": n, "t0": t0, "t1": t1, "sha256": digest})


def _fresh_target(target: str, tmp: str) -> tuple[str, Any]:
    """A URL to benchmark into and a cleanup function."""
    if target.startswith(("postgresql://", "postgres://")):
        import psycopg

        schema = "bench_" + uuid.uuid4().hex[:10]
        with psycopg.connect(target, autocommit=True) as conn:
            conn.execute(f'CREATE SCHEMA "{schema}"')
        sep = "&" if "?" in target else "?"

        def drop() -> None:
            with psycopg.connect(target, autocommit=True) as conn:
                conn.execute(f'DROP SCHEMA "{schema}" CASCADE')

        return f"{target}{sep}options={quote(f'-csearch_path={schema}')}", drop
    if target == "sqlite":
        return os.path.join(tmp, f"bench-{uuid.uuid4().hex[:8]}.db"), lambda: None
    refuse_existing(target)

    def remove() -> None:  # only what this run created: the path did not exist before it
        for suffix in ("", "-wal", "-shm", "-journal", "-writer.lock"):
            with contextlib.suppress(FileNotFoundError):
                os.remove(target + suffix)

    return target, remove


class BenchTargetError(ValueError):
    """A ``--db`` the benchmark must not write to (an existing file: maybe a real store)."""


def refuse_existing(path: str) -> None:
    """Raise :class:`BenchTargetError` when ``path`` exists: the benchmark writes only to a
    store it creates, never into one that may hold real tables."""
    if path.startswith("sqlite:///"):
        path = path[len("sqlite:///"):]
    if os.path.lexists(path):
        raise BenchTargetError(f"{path} exists: cardref bench store writes its bench-N tables only into a new "
                               f"throwaway store (removed after each run); give a path that does not exist yet, "
                               f"or 'sqlite' for a temporary file")


def run_once(target: str, *, writers: int, events: int, batch: int, judge: bool, sync: str,
             tmp: str) -> dict[str, Any]:
    from cardref.recorder import open_store

    url, cleanup = _fresh_target(target, tmp)
    try:
        open_store(url, sync=sync).close()  # create the schema before the writers race
        ctx = mp.get_context("spawn")
        start, out = ctx.Event(), ctx.Queue()
        tables = [f"bench-{k}" for k in range(writers)]
        procs = [ctx.Process(target=_writer, args=(url, t, events, batch, judge, sync, start, out)) for t in tables]
        for p in procs:
            p.start()
        time.sleep(0.5)
        start.set()
        results = [out.get(timeout=3600) for _ in procs]
        for p in procs:
            p.join()
        failed = [p.exitcode for p in procs if p.exitcode]
        if failed:
            raise RuntimeError(f"writers failed: exit codes {failed}")
        with open_store(url, sync=sync) as store:
            problems = []
            for r in results:
                stored = store.lines(r["table"])
                seqs = [e.seq for e in store.events(r["table"])]
                if len(stored) != r["n"] or seqs != list(range(r["n"])):
                    problems.append(f"{r['table']}: {len(stored)} stored, {r['n']} sent")
                if hashlib.sha256("\n".join(stored).encode()).hexdigest() != r["sha256"]:
                    problems.append(f"{r['table']}: checksum differs")
            total = store.count_events()
        wall = max(r["t1"] for r in results) - min(r["t0"] for r in results)
        per_table = [r["n"] / (r["t1"] - r["t0"]) for r in results]
        return {"backend": "postgresql" if "://" in url else f"sqlite (sync={sync})", "writers": writers,
                "events_per_writer": events, "batch": batch, "judged": judge, "total_events": total,
                "wall_s": round(wall, 3), "events_per_s": round(total / wall), "per_table_min": round(min(per_table)),
                "per_table_median": round(statistics.median(per_table)), "verified": not problems,
                "problems": problems}
    finally:
        cleanup()


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="cardref bench store", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--db", action="append", default=None,
                   help="'sqlite' (a fresh temporary file), a SQLite path that does not exist yet (a throwaway "
                        "store there, removed after each run; an existing file is refused, so a real store is "
                        "never written), or a postgresql:// URL (a fresh schema, dropped after); repeat for several "
                        "(default: sqlite, plus $CARDREF_TEST_PG when set)")
    p.add_argument("--writers", type=int, default=8, help="concurrent writer processes, one table each (8)")
    p.add_argument("--events", type=int, default=4000, help="events per writer (4000)")
    p.add_argument("--batch", type=int, nargs="+", default=[500],
                   help="lines per transaction, several values run several times (500: import / catch-up; "
                        "1 is the live path, one durable commit per event: use fewer --events)")
    p.add_argument("--judge", action="store_true", help="judge every line too (the live recorder path)")
    p.add_argument("--sync", choices=("full", "normal"), default="full", help="SQLite synchronous mode (full)")
    p.add_argument("--json", action="store_true", help="print one JSON object per run")
    args = p.parse_args(list(argv) if argv is not None else None)
    targets = args.db or ["sqlite", *([os.environ["CARDREF_TEST_PG"]] if os.environ.get("CARDREF_TEST_PG") else [])]
    for target in targets:
        if target != "sqlite" and not target.startswith(("postgresql://", "postgres://")):
            try:
                refuse_existing(target)
            except BenchTargetError as exc:
                print(f"cardref bench store: {exc}", file=sys.stderr)
                return 2
    ok = True
    with tempfile.TemporaryDirectory(prefix="cardref-bench-") as tmp:
        for target in targets:
            for batch in args.batch:
                r = run_once(target, writers=args.writers, events=args.events, batch=max(1, batch),
                             judge=args.judge, sync=args.sync, tmp=tmp)
                ok &= r["verified"]
                if args.json:
                    print(json.dumps(r), flush=True)
                else:
                    print(f"{r['backend']:<20} writers={r['writers']} batch={r['batch']:<4} "
                          f"judged={'yes' if r['judged'] else 'no '} events={r['total_events']:>7} "
                          f"wall={r['wall_s']:>7.2f}s total={r['events_per_s']:>7}/s "
                          f"per table min={r['per_table_min']:>6}/s median={r['per_table_median']:>6}/s "
                          f"count+checksum {'OK' if r['verified'] else 'FAILED ' + '; '.join(r['problems'])}",
                          flush=True)
    return 0 if ok else 1
