"""Export / import round trips reproduce the verdicts, corrections and bad lines included."""

from __future__ import annotations

import csv
import json

import sample_logs as logs  # tests/helpers (pytest pythonpath)

from cardref.cli import main as cli
from cardref.engine.judge import judge_text
from cardref.recorder import Recorder, open_store
from cardref.recorder.exchange import export_deal, export_match, export_table, import_lines


def _record_two_matches(store):
    rec = Recorder(store)
    first = store.start_match("T1", "first")
    for line in logs.DEAL_GOUJI:
        rec.record("T1", line)
    second = store.start_match("T1", "second")
    for line in logs.DEAL_GUAFENG[:3]:
        rec.record("T1", line)
    # the director fixes a play of the first match while the second is being played
    late = rec.correct("T1", 2, who="director Wang", why="video review", cards=["6D", "6C"])
    rec.record("T1", '{"type":"correct","ref":9999,"cards":["3S"]}')
    for line in logs.DEAL_GUAFENG[3:]:
        rec.record("T1", line)
    return first, second, late.seq


def _comparable(v, seq_of):
    out = v.to_json("en")
    out.pop("message", None)
    if not v.ok:
        out["facts"] = {k: x for k, x in v.fault.facts.items() if k not in ("lineno", "detail", "i", "ref")}  # indexes differ
    out["i"] = seq_of(out["i"])
    if "proven_at" in out:
        out["proven_at"] = seq_of(out["proven_at"])
    return out


def _assert_same_verdicts(store, exported, new_store, table, first_seq=0):
    original = store.verdicts(exported.table_id)
    imported = new_store.verdicts(table, first_seq)
    assert len(imported) == len(exported.lines)
    for k, seq in enumerate(exported.seqs):
        mine = _comparable(imported[first_seq + k], lambda i: exported.seqs[i - first_seq])
        theirs = _comparable(original[seq], lambda i: i)
        assert mine == theirs, (k, seq)


def test_export_match_carries_its_later_corrections(store, tmp_path):
    first, second, late_seq = _record_two_matches(store)
    exported = export_match(store, first)
    assert exported.seqs == [*range(len(logs.DEAL_GOUJI)), late_seq]
    assert json.loads(exported.lines[-1])["ref"] == 2  # same index in a log that starts with the match
    assert exported.lines[3] == "not json at all"
    offline = judge_text(exported.lines)
    stored = store.verdict_json("T1", "en")
    for k, v in enumerate(offline.verdicts):
        mine = v.to_json("en")
        mine["i"] = exported.seqs[mine["i"]]
        if "proven_at" in mine:
            mine["proven_at"] = exported.seqs[mine["proven_at"]]
        assert mine == stored[exported.seqs[k]]
    assert any(not v["ok"] for v in stored.values())

    other = open_store(str(tmp_path / "imported.db"))
    try:
        result = import_lines(other, exported.lines, "copy")
        assert result.count == len(exported.lines) and result.rejected == 2
        _assert_same_verdicts(store, exported, other, "copy")
        # importing after other events shifts the refs so they still fix the same lines
        again = import_lines(other, exported.lines, "copy")
        assert again.first_seq == len(exported.lines)
        _assert_same_verdicts(store, exported, other, "copy", again.first_seq)
        assert [c["ref"] for c in other.corrections("copy")] == [4, 6, 2, 15, 17, 13]
    finally:
        other.close()


def test_export_second_match_and_deal_and_table(store, tmp_path):
    first, second, late_seq = _record_two_matches(store)
    match2 = export_match(store, second)
    assert late_seq not in match2.seqs
    assert json.loads(match2.lines[3])["ref"] > 3  # the dangling correction stays dangling
    deal = store.deals(match_id=second)[0]
    assert export_deal(store, deal.id).seqs == match2.seqs
    whole = export_table(store, "T1")
    assert whole.lines == store.lines("T1")
    other = open_store(str(tmp_path / "whole.db"))
    try:
        import_lines(other, logs.DEAL_GOUJI, "T9")  # a one-match table: its export is its log
        assert export_table(other, "T9").lines == logs.DEAL_GOUJI
        import_lines(other, export_table(other, "T9").lines, "T7")
        assert other.verdict_json("T7", "en") == other.verdict_json("T9", "en")
        import_lines(other, match2.lines, "T8")
        _assert_same_verdicts(store, match2, other, "T8")
    finally:
        other.close()


def test_cli_export_import_report(store_url, tmp_path, capsys):
    with open_store(store_url) as store:
        first, second, _ = _record_two_matches(store)
        store.start_match("T1", "hostile")
        for line in ('<script>alert(1)</script>', '=HYPERLINK("http://x")'):
            store.append("T1", line)
        hostile = store.matches(table_id="T1")[-1].id
    out = tmp_path / "m1.jsonl"
    assert cli(["export", "--db", store_url, "--match", str(first), "--out", str(out)]) == 0
    assert cli(["judge", str(out)]) == 0
    judged = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    db2 = str(tmp_path / "b.db")
    assert cli(["import", str(out), "--db", db2, "--table", "replay"]) == 0
    info = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert info["lines"] == len(out.read_text().splitlines()) and info["rejected"] == 2
    with open_store(db2) as s2:
        assert list(s2.verdict_json("replay").values()) == judged[:-1]
    html, csv_path = tmp_path / "r.html", tmp_path / "r.csv"
    assert cli(["report", "--db", store_url, "--match", str(first), "--html", str(html), "--csv", str(csv_path),
                "--lang", "en"]) == 0
    page = html.read_text(encoding="utf-8")
    assert "video review" in page and "director Wang" in page and "not JSON" in page
    rows = list(csv.DictReader(csv_path.open(encoding="utf-8-sig")))
    assert {r["type"] for r in rows} >= {"deal", "play", "correct", "deal_result"}
    fixed = next(r for r in rows if r["seq"] == "2")
    assert fixed["correction_who"] == "director Wang" and fixed["correction_why"] == "video review"
    bad = next(r for r in rows if r["seq"] == "3")
    assert bad["status"] == "rejected" and bad["verdict"] == "fault"
    assert cli(["report", "--db", store_url, "--match", str(hostile), "--html", str(html), "--csv",
                str(csv_path)]) == 0
    page = html.read_text(encoding="utf-8")
    assert "<script>alert" not in page and "&lt;script&gt;alert" in page
    rows = list(csv.DictReader(csv_path.open(encoding="utf-8-sig")))
    assert any(r["line"] == "'=HYPERLINK(\"http://x\")" for r in rows)  # no formula in a spreadsheet
    assert cli(["export", "--db", store_url, "--match", "999", "--out", str(out)]) == 2
    assert cli(["report", "--db", store_url, "--match", str(first)]) == 2
