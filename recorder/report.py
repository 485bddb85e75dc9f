"""A readable match report: each deal's plays, verdicts, corrections and scores.

``match_report`` gathers the facts once; ``write_html`` and ``write_csv`` render them.
Everything shown comes from the store (every value in the HTML is escaped).  The HTML speaks
the report's language (``lang``, zh or en) with the words of :mod:`.report_words`: seats by
name, deal settings and results in words (never as JSON), timestamps to the second, and each
deal's score as the deal decides it (够级 places and points, 升级 final points and level change).
The CSV stays a table for tools: raw codes and the summary's JSON.
"""

from __future__ import annotations

import csv
import html
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from cardref.engine.names import name_seats as names_in_text

from . import report_words as words
from .recorder import NotFound, table_rows
from .scoring import DEFAULT_SCORING, Scoring, family_of, score_deal
from .store import EventStore


def _cards(line: str) -> str:
    try:
        obj = json.loads(line)
    except (ValueError, RecursionError):
        return ""
    cards = obj.get("cards") if isinstance(obj, dict) else None
    return " ".join(str(c) for c in cards) if isinstance(cards, list) else ""


def match_report(store: EventStore, match_id: int, *, lang: str = "zh") -> dict[str, Any]:
    from .tournament import get_tournament, team_name, teams, tournament_of_match

    match = store.match(match_id)
    if match is None:
        raise NotFound("match", match_id)
    tid = tournament_of_match(store, match)
    scoring: Scoring = DEFAULT_SCORING
    team_names = {"a": words.word("team.a", lang), "b": words.word("team.b", lang)}
    tournament = None
    if tid is not None:
        t = get_tournament(store, tid)
        tournament, scoring = t.name, t.scoring
        names = teams(store, tid)
        team_names = {"a": team_name(names, match.team_a, "A"), "b": team_name(names, match.team_b, "B")}
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
    return {"lang": lang, "match": match.__dict__, "tournament": tournament, "teams": team_names, "deals": deals_out,
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


def _json_obj(line: Any) -> dict[str, Any]:
    try:
        obj = json.loads(line) if isinstance(line, str) else None
    except (ValueError, RecursionError):
        return {}
    return obj if isinstance(obj, dict) else {}


#: deal options the deal line names in words; the others follow as ``name value``.
_DEAL_WORDS = ("level", "trump", "dealer", "leader")
#: the deal line's bookkeeping, not the deal's settings.
_DEAL_QUIET = {"type", "game", "seats", "names", "source", "hand_sizes", "t"}


def deal_line(deal: Mapping[str, Any], lang: str = "zh") -> str:
    """A deal event in words: 刮风 · 淄博 · 打4 · 主♥ · 庄家 西 (the dashboard's 开局 row)."""
    seats = deal.get("seats") if isinstance(deal.get("seats"), int) else None
    parts = [words.game_title(deal.get("game"), lang)]
    if "level" in deal:
        parts.append(words.word("deal.level", lang, level=words.value_text(deal["level"], lang)))
    if "trump" in deal:
        suit = deal["trump"]
        parts.append(words.word("deal.no_trump", lang) if suit in (None, "", "NT", "N")
                     else words.word("deal.trump", lang, suit=words.SUITS.get(str(suit), str(suit))))
    for key in ("dealer", "leader"):
        if key in deal:
            parts.append(words.word(f"deal.{key}", lang, seat=words.seat_title(deal[key], seats, lang)))
    parts += [f"{k} {words.value_text(v, lang)}" for k, v in deal.items() if k not in _DEAL_WORDS
              and k not in _DEAL_QUIET]
    return " · ".join(parts)


def name_seats(text: str, seats: int | None, lang: str = "zh") -> str:
    """A rules message with each "座位 N" / "seat N" (0-based) written as the seat's name, as
    the dashboard writes it (:func:`cardref.engine.names.name_seats`)."""
    names = words.SEAT_NAMES.get(seats or 0)
    return text if not names else names_in_text(text, names[1 if lang == "en" else 0], lang)


def _seat_list(value: Any, seats: int | None, lang: str) -> str:
    if isinstance(value, list):
        return "/".join(words.seat_title(s, seats, lang) for s in value) or words.word("none", lang)
    return words.seat_title(value, seats, lang)


#: summary keys the result list leaves out: bookkeeping, or shown in the score line.
_SUMMARY_QUIET = {"game", "i", "slots", "places", "levels_after", "level_change", "final_points"}
#: summary keys shown as seats.
_SUMMARY_SEATS = {"dealer", "leader", "kaidian", "order"}


def _summary_value(key: str, value: Any, seats: int | None, lang: str) -> str:
    w = words.word
    if key in _SUMMARY_SEATS:
        sep = " → " if key == "order" else " "
        if isinstance(value, list):
            return sep.join(words.seat_title(s, seats, lang) for s in value) or w("none", lang)
        return words.seat_title(value, seats, lang)
    if key == "trump":
        return w("deal.no_trump", lang) if value in (None, "", "NT", "N") else words.SUITS.get(str(value), str(value))
    if key == "tributes" and isinstance(value, list):
        return ("；" if lang != "en" else "; ").join(w("score.tribute", lang, giver=words.seat_title(t.get("from"), seats, lang),
                          taker=words.seat_title(t.get("to"), seats, lang), count=words.value_text(t.get("count"), lang),
                          kind=words.TRIBUTE_KINDS.get(str(t.get("kind")), words.value_text(t.get("kind"), lang)))
                        for t in value if isinstance(t, Mapping)) or w("none", lang)
    if key == "men" and isinstance(value, list):
        return " ".join(w("score.men_by", lang, seat=words.seat_title(m.get("seat"), seats, lang),
                          by=words.seat_title(m.get("by"), seats, lang))
                        for m in value if isinstance(m, Mapping)) or w("none", lang)
    if key == "burns" and isinstance(value, list):
        return " ".join(w("score.burn", lang, seat=words.seat_title(b.get("seat"), seats, lang),
                          target=words.seat_title(b.get("target"), seats, lang))
                        for b in value if isinstance(b, Mapping)) or w("none", lang)
    return words.value_text(value, lang)


def summary_items(summary: Mapping[str, Any], seats: int | None, lang: str = "zh") -> list[tuple[str, str]]:
    """The deal's summary as (label, value) pairs in words, in the summary's order; a key the
    catalogue has no label for keeps its own name."""
    out = []
    for key, value in summary.items():
        if key in _SUMMARY_QUIET:
            continue
        if key == "complete":
            out.append((words.word("score.complete" if value else "score.incomplete", lang), ""))
            continue
        label = words.word(f"score.{key}", lang) if f"score.{key}" in words.WORDS else key
        out.append((label, _summary_value(key, value, seats, lang)))
    return out


def score_lines(deal: Mapping[str, Any], teams: Mapping[str, str], seats: int | None, lang: str = "zh") -> list[str]:
    """What the deal scores, in words: 够级 the places and the team points (place points and
    tribute points); 升级 the final points and the level change (who goes up how many, the next
    dealer and level).  Empty when the summary decides nothing yet."""
    w = words.word
    summary = deal["summary"] if isinstance(deal.get("summary"), Mapping) else {}
    score = deal.get("score")
    out = []
    if score is not None and isinstance(score.get("order"), list):  # 够级
        out.append(" · ".join(f"{words.PLACES[k]} {words.seat_title(s, seats, lang)}"
                              for k, s in enumerate(score["order"]) if k < len(words.PLACES)))
        line = w("score.teams", lang, a=teams["a"], b=teams["b"], pa=score["a"], pb=score["b"])
        parts = [f"{w('score.places', lang)} {score['places']['a']} : {score['places']['b']}"
                 for _ in [0] if isinstance(score.get("places"), Mapping)]
        parts += [f"{w('score.tribute_points', lang)} {score['tributes']['a']} : {score['tributes']['b']}"
                  for _ in [0] if isinstance(score.get("tributes"), Mapping)]
        out.append(line + (w("score.parts", lang, parts=" · ".join(parts)) if parts else ""))
        return out
    parts = []
    if summary.get("final_points") is not None:
        parts.append(f"{w('score.final_points', lang)} {words.value_text(summary['final_points'], lang)}")
    elif summary.get("attacker_points") is not None:
        parts.append(f"{w('score.attacker_points', lang)} {words.value_text(summary['attacker_points'], lang)}")
    change = summary.get("level_change")
    if isinstance(change, Mapping):
        who = _seat_list(change.get("team"), seats, lang)
        parts.append(f"{w('score.level_change', lang)} {who} +{words.value_text(change.get('levels'), lang)}")
        if change.get("dealer_keeps"):
            parts.append(w("score.dealer_keeps", lang))
        if change.get("next_dealer") is not None:
            parts.append(f"{w('score.next_dealer', lang)} {words.seat_title(change['next_dealer'], seats, lang)}")
        if change.get("next_level") is not None:
            parts.append(f"{w('score.next_level', lang)} {words.value_text(change['next_level'], lang)}")
        if change.get("match_won"):
            parts.append(f"{_seat_list(change['match_won'], seats, lang)} {w('score.match_won', lang)}")
    if parts:
        out.append(" · ".join(parts))
    elif score is not None:
        out.append(w("score.teams", lang, a=teams["a"], b=teams["b"], pa=score["a"], pb=score["b"]))
    return out


def write_html(report: Mapping[str, Any], path: str | Path) -> None:
    """The report as one HTML page in the report's language (``report["lang"]``)."""
    e = html.escape
    lang = "en" if report.get("lang") == "en" else "zh"
    w = words.word
    m = report["match"]
    teams = report["teams"]
    parts = [f"<!doctype html><html lang='{lang}'><head><meta charset='utf-8'>"
             f"<title>{e(w('page.title', lang, id=m['id']))}</title><style>{_STYLE}</style></head><body>"]
    title = e(w("match.title", lang, id=m["id"])) + (f" — {e(str(m['name']))}" if m["name"] else "")
    parts.append(f"<h1>{title}</h1><p>{e(w('match.table', lang))} <b>{e(str(m['table_id']))}</b>"
                 + (f" · {e(w('match.tournament', lang))} <b>{e(str(report['tournament']))}</b>"
                    if report["tournament"] else "")
                 + f" · {e(w('match.started', lang))} {e(words.timestamp(m['started_at']))}"
                 + (f" · {e(w('match.confirmed', lang, who=words.value_text(m['confirmed_by'], lang), at=words.timestamp(m['confirmed_at'])))}"  # noqa: E501
                    if m["confirmed_at"] else f" · <i>{e(w('match.not_confirmed', lang))}</i>") + "</p>")
    totals = report["totals"]
    parts.append(f"<p class='score'>{e(w('score.teams', lang, a=teams['a'], b=teams['b'], pa=totals['a'], pb=totals['b']))}"
                 f"</p><p>{e(w('match.counts', lang, deals=len(report['deals']), faults=report['faults']))}</p>")

    def table(events: list[Mapping[str, Any]], seats: int | None) -> str:
        cols = ("col.seq", "col.time", "col.seat", "col.event", "col.cards", "col.verdict", "col.corrections")
        out = ["<table><tr>" + "".join(f"<th>{e(w(c, lang))}</th>" for c in cols) + "</tr>"]
        for ev in events:
            cls = "rejected" if ev["status"] == "rejected" else "fault" if ev["ok"] is False else \
                "fixed" if ev.get("corrections") else ""
            verdict = "✓" if ev["ok"] else e(name_seats(ev["message"] or ev["reason"] or "", seats, lang))
            if ev["proven_at"] is not None:
                verdict += f" <span class='muted'>{e(w('verdict.proven_at', lang, i=ev['proven_at']))}</span>"
            fixes = "<br>".join(e(w("correction.line", lang, seq=c["seq"], cards=c["cards"], who=c["who"] or "?",
                                    why=c["why"] or "")) + f" <span class='muted'>{e(words.timestamp(c['at']))}</span>"
                                for c in ev.get("corrections", []))
            kind = ev["type"] or ""
            if kind == "deal":
                shown = e(deal_line(_json_obj(ev["line"]), lang))
            elif ev.get("cards"):
                shown = e(ev["cards"])
            elif ev["status"] == "rejected":
                shown = f"<code>{e(ev['line'][:120])}</code>"
            else:
                shown = ""
            kind_text = w(f"type.{kind}", lang) if f"type.{kind}" in words.WORDS else (kind or w("unknown", lang))
            seat = "" if ev["seat"] is None else words.seat_title(ev["seat"], seats, lang)
            out.append(f"<tr class='{cls}'><td>{ev['seq']}</td><td>{e(words.timestamp(ev['recorded_at']))}</td>"
                       f"<td>{e(seat)}</td><td>{e(kind_text)}</td><td>{shown}</td>"
                       f"<td>{verdict}</td><td>{fixes}</td></tr>")
        out.append("</table>")
        return "".join(out)

    if report["outside_deals"]:
        parts.append(f"<h2>{e(w('section.before', lang))}</h2>" + table(report["outside_deals"], None))
    for deal in report["deals"]:
        head_event = next((_json_obj(ev["line"]) for ev in deal["events"] if ev["type"] == "deal"), {})
        seats = head_event.get("seats") if isinstance(head_event.get("seats"), int) else \
            {"gouji": 6, "shengji": 4}.get(family_of(deal["game"]) or "")
        head = f"<h2>{e(w('section.deal', lang, n=deal['number'], game=words.game_title(deal['game'], lang)))}</h2>"
        scored = score_lines(deal, teams, seats, lang)
        if scored:
            head += "".join(f"<p class='score'>{e(s)}</p>" for s in scored)
        else:
            head += f"<p class='muted'>{e(w('score.not_scored', lang))}</p>"
        items = summary_items(deal["summary"] if isinstance(deal["summary"], Mapping) else {}, seats, lang)
        if items:
            head += (f"<h3>{e(w('section.summary', lang))}</h3><ul class='summary'>"
                     + "".join(f"<li>{e(k)}{'：' if lang == 'zh' else ': '}{e(v)}</li>" if v else f"<li>{e(k)}</li>"
                               for k, v in items) + "</ul>")
        parts.append(head + table(deal["events"], seats))
    if report["later_corrections"]:
        parts.append(f"<h2>{e(w('section.later', lang))}</h2><ul>")
        for c in report["later_corrections"]:
            parts.append("<li>" + e(w("later.line", lang, seq=c["seq"], ref=c["ref"], who=c["who"] or "?",
                                      at=words.timestamp(c["recorded_at"]), why=c["why"] or "")) + "</li>")
        parts.append("</ul>")
    parts.append("</body></html>")
    Path(path).write_text("\n".join(parts), encoding="utf-8")
