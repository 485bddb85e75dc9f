"""A readable match report: each deal's plays, verdicts, corrections and scores.

``match_report`` gathers the facts once; ``write_html`` and ``write_csv`` render them.
Everything shown comes from the store (every value in the HTML is escaped).
"""

from __future__ import annotations

import csv
import html
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .recorder import table_rows
from .scoring import DEFAULT_SCORING, Scoring, score_deal
from .store import EventStore


def _cards(line: str) -> str:
    try:
        obj = json.loads(line)
    except (ValueError, RecursionError):
        return ""
    cards = obj.get("cards") if isinstance(obj, dict) else None
    return " ".join(str(c) for c in cards) if isinstance(cards, list) else ""


def match_report(store: EventStore, match_id: int, *, lang: str = "zh") -> dict[str, Any]:
    from .tournament import get_tournament, teams, tournament_of_match

    match = store.match(match_id)
    if match is None:
        raise KeyError(f"no match {match_id}")
    tid = tournament_of_match(store, match)
    scoring: Scoring = DEFAULT_SCORING
    team_names = {"a": "A (even seats)", "b": "B (odd seats)"}
    tournament = None
    if tid is not None:
        t = get_tournament(store, tid)
        tournament, scoring = t.name, t.scoring
        names = teams(store, tid)
        team_names = {"a": names.get(match.team_a, "A"), "b": names.get(match.team_b, "B")}
    rows = table_rows(store, match.table_id, lang=lang, match_id=match_id)
    # corrections recorded after the match (e.g. by the director) fix events of it too
    own = {r["seq"] for r in rows}
    trail = store.corrections(match.table_id)
    later = [c for c in trail if c["match_id"] == match_id and c["seq"] not in own]
    corrected_by: dict[int, list[dict[str, Any]]] = {}
    for c in trail:
        if c["match_id"] == match_id and c["status"] == "ok" and c["ref"] is not None and c["ref"] < c["seq"]:
            corrected_by.setdefault(c["ref"], []).append(c)
    deals_out = []
    totals = {"a": 0, "b": 0}
    deals = store.deals(match_id=match_id)
    for number, d in enumerate(deals, start=1):
        score = score_deal(d.game, d.summary, scoring)
        if score is not None:
            totals["a"] += score.a
            totals["b"] += score.b
        events = []
        for r in rows:
            if r["deal_id"] != d.id:
                continue
            fixes = corrected_by.get(r["seq"], [])
            events.append({**r, "cards": _cards(r["line"]),
                           "corrections": [{"seq": c["seq"], "who": c["who"], "why": c["why"], "at": c["recorded_at"],
                                            "cards": _cards(c["correction"])} for c in fixes]})
        deals_out.append({"number": number, "deal_id": d.id, "game": d.game, "summary": d.summary,
                          "score": None if score is None else {"a": score.a, "b": score.b, **score.detail},
                          "events": events})
    outside = [r for r in rows if r["deal_id"] is None]
    return {"match": match.__dict__, "tournament": tournament, "teams": team_names, "deals": deals_out,
            "outside_deals": outside, "later_corrections": later, "totals": totals,
            "faults": sum(1 for r in rows if r["ok"] is False)}


_CSV_COLUMNS = ("match", "deal", "game", "seq", "recorded_at", "t", "type", "seat", "cards", "status",
                "verdict", "code", "message", "proven_at", "corrected_by", "correction_who", "correction_why",
                "deal_score_a", "deal_score_b", "line")


def _cell(value: Any) -> Any:
    """Text a spreadsheet would run as a formula (=, +, -, @ first) is quoted."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


class _SafeWriter:
    def __init__(self, fh: Any) -> None:
        self._w = csv.writer(fh)

    def writerow(self, row: Any) -> None:
        self._w.writerow([_cell(v) for v in row])


def write_csv(report: Mapping[str, Any], path: str | Path) -> None:
    """One row per event (and per correction) with its verdict, plus one score row per deal.
    UTF-8 with a byte-order mark, so spreadsheet programs show the Chinese text."""
    mid = report["match"]["id"]
    with open(path, "w", encoding="utf-8-sig", newline="") as fh:
        w = _SafeWriter(fh)
        w.writerow(_CSV_COLUMNS)

        def event_row(deal: Mapping[str, Any] | None, e: Mapping[str, Any]) -> list[Any]:
            try:
                t = json.loads(e["line"]).get("t", "")
            except (ValueError, AttributeError, RecursionError):
                t = ""
            fixes = e.get("corrections", [])
            return [mid, deal["number"] if deal else "", deal["game"] if deal else "", e["seq"], e["recorded_at"], t,
                    e["type"] or "", "" if e["seat"] is None else e["seat"], e.get("cards", _cards(e["line"])),
                    e["status"], {True: "ok", False: "fault", None: ""}[e["ok"]], e["code"] or "",
                    e["message"] or e["reason"] or "", "" if e["proven_at"] is None else e["proven_at"],
                    " ".join(str(c["seq"]) for c in fixes), "; ".join(c["who"] or "" for c in fixes),
                    "; ".join(c["why"] or "" for c in fixes), "", "", e["line"]]

        for e in report["outside_deals"]:
            w.writerow(event_row(None, e))
        for deal in report["deals"]:
            for e in deal["events"]:
                w.writerow(event_row(deal, e))
            score = deal["score"] or {}
            w.writerow([mid, deal["number"], deal["game"], "", "", "", "deal_result", "", "", "", "", "", "",
                        "", "", "", "", score.get("a", ""), score.get("b", ""),
                        json.dumps(deal["summary"], ensure_ascii=False)])
        for c in report["later_corrections"]:
            w.writerow([mid, "", "", c["seq"], c["recorded_at"], "", "correct", "", _cards(c["correction"]),
                        c["status"], "", "", f"fixes event {c['ref']}", "", "", c["who"] or "", c["why"] or "",
                        "", "", c["correction"]])


_STYLE = """
body{font-family:system-ui,"Noto Sans CJK SC",sans-serif;margin:2em;color:#222}
table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left}
tr.fault td{background:#fde2e2}tr.rejected td{background:#fff1c2}tr.fixed td{background:#e3f2e1}
.muted{color:#777}.score{font-size:1.3em;font-weight:bold}
"""


def write_html(report: Mapping[str, Any], path: str | Path) -> None:
    e = html.escape
    m = report["match"]
    teams = report["teams"]
    parts = [f"<!doctype html><html lang='zh'><head><meta charset='utf-8'><title>cardref match {m['id']}</title>"
             f"<style>{_STYLE}</style></head><body>"]
    title = f"Match {m['id']}" + (f" — {e(str(m['name']))}" if m["name"] else "")
    parts.append(f"<h1>{title}</h1><p>Table <b>{e(str(m['table_id']))}</b>"
                 + (f" · tournament <b>{e(str(report['tournament']))}</b>" if report["tournament"] else "")
                 + f" · started {e(str(m['started_at']))}"
                 + (f" · confirmed by {e(str(m['confirmed_by']))} at {e(str(m['confirmed_at']))}"
                    if m["confirmed_at"] else " · <i>not confirmed</i>") + "</p>")
    totals = report["totals"]
    parts.append(f"<p class='score'>{e(teams['a'])} {totals['a']} : {totals['b']} {e(teams['b'])}</p>"
                 f"<p>{len(report['deals'])} deals, {report['faults']} faulty events.</p>")

    def table(events: list[Mapping[str, Any]]) -> str:
        out = ["<table><tr><th>#</th><th>seat</th><th>event</th><th>cards</th><th>verdict</th>"
               "<th>corrections</th></tr>"]
        for ev in events:
            cls = "rejected" if ev["status"] == "rejected" else "fault" if ev["ok"] is False else \
                "fixed" if ev.get("corrections") else ""
            verdict = "✓" if ev["ok"] else e(ev["message"] or ev["reason"] or "")
            if ev["proven_at"] is not None:
                verdict += f" <span class='muted'>(proven at {ev['proven_at']})</span>"
            fixes = "<br>".join(f"#{c['seq']} → {e(c['cards'])} by {e(c['who'] or '?')}: {e(c['why'] or '')} "
                                f"<span class='muted'>{e(c['at'])}</span>" for c in ev.get("corrections", []))
            shown = ev.get("cards") or (e(ev["line"][:120]) if ev["status"] == "rejected" else "")
            out.append(f"<tr class='{cls}'><td>{ev['seq']}</td><td>{'' if ev['seat'] is None else ev['seat']}</td>"
                       f"<td>{e(ev['type'] or '?')}</td><td>{e(shown) if ev.get('cards') else shown}</td>"
                       f"<td>{verdict}</td><td>{fixes}</td></tr>")
        out.append("</table>")
        return "".join(out)

    if report["outside_deals"]:
        parts.append("<h2>Before the first deal</h2>" + table(report["outside_deals"]))
    for deal in report["deals"]:
        score = deal["score"]
        head = f"<h2>Deal {deal['number']} · {e(str(deal['game']))}</h2>"
        if score is None:
            head += "<p class='muted'>not scored (the summary decides no result yet)</p>"
        else:
            head += f"<p>{e(teams['a'])} {score['a']} : {score['b']} {e(teams['b'])}</p>"
        head += f"<p class='muted'>summary: {e(json.dumps(deal['summary'], ensure_ascii=False))}</p>"
        parts.append(head + table(deal["events"]))
    if report["later_corrections"]:
        parts.append("<h2>Corrections recorded after the match</h2><ul>")
        for c in report["later_corrections"]:
            parts.append(f"<li>#{c['seq']} fixes #{c['ref']} by {e(c['who'] or '?')} at {e(c['recorded_at'])}: "
                         f"{e(c['why'] or '')}</li>")
        parts.append("</ul>")
    parts.append("</body></html>")
    Path(path).write_text("\n".join(parts), encoding="utf-8")
