"""``cardref judge LOG.jsonl``: one verdict line per log line, then a summary line.

``--format json`` (default, for tools) writes the spec's JSON lines, whose ``i`` counts log
lines from 0.  ``--format table`` writes a summary for a person: the faulty lines (numbered
from 1, as an editor shows them), the questions to confirm, and one line per deal.
"""

from __future__ import annotations

import argparse
import json
import sys

HELP = "judge an event log (JSON Lines; '-' reads stdin) and print verdicts and a summary"

_WORDS = {
    "zh": {"line": "行", "fault": "违规", "observe": "观察", "confirm": "待确认", "proven": "由第 {n} 行证实",
           "total": "共 {lines} 行：{faults} 处违规，{observe} 处观察问题，{confirm} 处待确认",
           "deal": "第 {n} 局（第 {line} 行起）{game}"},
    "en": {"line": "line", "fault": "FAULT", "observe": "SEEN?", "confirm": "CONFIRM?", "proven": "proven at line {n}",
           "total": "{lines} lines: {faults} faults, {observe} observation flags, {confirm} to confirm",
           "deal": "deal {n} (from line {line}) {game}"},
}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("log", help="event log file, or - for standard input")
    p.add_argument("--lang", choices=("zh", "en"), default="zh", help="language of messages (default zh)")
    p.add_argument("--format", choices=("json", "table"), default="json",
                   help="json: one JSON line per log line and a summary (default); table: a summary for a person")
    p.add_argument("--strict", action="store_true", help="exit 1 when any event is faulty")


#: summary keys the table leaves out: the log's bookkeeping, or facts said another way
_QUIET = {"game", "i", "complete", "tricks", "slots", "places", "levels_after"}
#: summary points, in this order, by their words (engine/names.SHARED_WORDS "score.<key>")
_POINTS = ("attacker_points", "penalty_points", "bonus_points", "bottom_points", "bottom_multiplier", "final_points")


def _deal_words(summary: dict, seats: int, lang: str) -> str:  # type: ignore[type-arg]
    """A deal's summary in the words the dashboard and the report use (打6 · 主♥ · 庄家 北 ·
    最终得分 115 · 升级 东/西 +2; 够级 出完顺序 2号位 → …); a fact without words follows as
    ``key value``; "" when the summary says nothing."""
    from cardref.engine.cards import Suit
    from cardref.engine.names import SHARED_WORDS, TRIBUTE_KINDS, seat_name

    def word(key: str, **facts: object) -> str:
        return SHARED_WORDS[key][1 if lang == "en" else 0].format(**facts)

    def seat(x: object) -> str:
        return seat_name(x, seats, lang) if isinstance(x, int) and not isinstance(x, bool) else str(x)

    parts: list[str] = []
    if summary.get("level") is not None:
        parts.append(word("deal.level", level=summary["level"]))
    if "trump" in summary:
        trump = summary["trump"]
        parts.append(word("deal.no_trump") if trump in (None, "", "NT", "N") else
                     word("deal.trump", suit=Suit(trump).symbol if trump in ("S", "H", "D", "C") else trump))
    if summary.get("dealer") is not None:
        parts.append(word("deal.dealer", seat=seat(summary["dealer"])))
    parts += [f"{word('score.' + key)} {summary[key]}" for key in _POINTS if summary.get(key) is not None]
    change = summary.get("level_change")
    if isinstance(change, dict) and isinstance(change.get("team"), list):
        parts.append(f"{word('score.level_change')} {'/'.join(seat(x) for x in change['team'])} +{change.get('levels')}")
        if isinstance(change.get("next_dealer"), int):
            parts.append(f"{word('score.next_dealer')} {seat(change['next_dealer'])}")
    if isinstance(summary.get("order"), list) and summary["order"]:
        parts.append(f"{word('score.order')} {' → '.join(seat(x) for x in summary['order'] if x is not None)}")
    if isinstance(summary.get("kaidian"), list) and summary["kaidian"]:
        parts.append(f"{word('score.kaidian')} {' '.join(seat(x) for x in summary['kaidian'])}")
    if isinstance(summary.get("tributes"), list) and summary["tributes"]:
        owed = [f"{seat(t.get('from'))}→{seat(t.get('to'))} {t.get('count')} {TRIBUTE_KINDS.get(str(t.get('kind')), t.get('kind'))}"
                for t in summary["tributes"] if isinstance(t, dict)]
        parts.append(f"{word('score.tributes')} {', '.join(owed)}")
    done = {"level", "trump", "dealer", "level_change", "order", "kaidian", "tributes", *_POINTS, *_QUIET}
    parts += [f"{k} {v}" for k, v in summary.items() if k not in done and v is not None
              and not isinstance(v, dict | list)]
    return ("：" if lang == "zh" else ": ") + " · ".join(parts) if parts else ""


def _table(result, lines, lang: str) -> str:
    # the report's own: "座位 2" written as 西, as the dashboard writes it
    from cardref.recorder.report import name_seats

    w = _WORDS[lang]
    lineno = {line.i: line.lineno for line in lines}       # the file's own line numbers, from 1
    rows = []
    counts = {"fault": 0, "observe": 0, "confirm": 0}

    def seats_at(i: int) -> int | None:
        """The seat count of the deal line ``i`` belongs to (None before the first deal)."""
        return next((run.deal.seats for run in reversed(result.deals) if run.index <= i), None)

    for v in result.verdicts:
        if v.ok:
            continue
        kind = "observe" if v.observation else "confirm" if v.confirm else "fault"
        counts[kind] += 1
        out = v.to_json(lang)
        note = ""
        if v.fault.proven_at is not None:
            note = " (" + w["proven"].format(n=lineno.get(v.fault.proven_at, v.fault.proven_at + 1)) + ")"
        message = name_seats(out["message"], seats_at(v.i), lang)
        rows.append(f"{lineno.get(v.i, v.i + 1):>5}  {w[kind]:<8} {out['code']}: {message}{note}")
    deals = [w["deal"].format(n=n, line=lineno.get(run.index, run.index + 1), game=game_title(run.deal.game, lang))
             + _deal_words(run.summary(), run.deal.seats, lang) for n, run in enumerate(result.deals, 1)]
    total = w["total"].format(lines=len(result.verdicts), faults=counts["fault"], observe=counts["observe"],
                              confirm=counts["confirm"])
    return "\n".join([f"{w['line']:>5}", *rows, "", *deals, total]) + "\n"


def game_title(game: str, lang: str) -> str:
    from cardref.engine.names import game_title as title

    return title(game, lang)


def run(args: argparse.Namespace) -> int:
    from cardref.engine.eventlog import read_lines
    from cardref.engine.judge import Judge

    if args.log == "-":
        lines = list(read_lines(sys.stdin))
    else:
        try:
            with open(args.log, encoding="utf-8", errors="replace") as fh:
                lines = list(read_lines(fh))
        except OSError as exc:
            print(f"cardref judge: cannot read {args.log}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    result = Judge.judge(lines)
    out = sys.stdout
    if getattr(args, "format", "json") == "table":
        out.write(_table(result, lines, args.lang))
    else:
        for verdict in result.verdicts:
            out.write(json.dumps(verdict.to_json(args.lang), ensure_ascii=False) + "\n")
        out.write(json.dumps(result.summary(), ensure_ascii=False) + "\n")
    out.flush()
    return 1 if args.strict and result.faults() else 0
