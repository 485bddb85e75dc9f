"""Hostile logs for the reader (issue #32 items 3-5): a byte-order mark is stripped;
non-finite numbers, integers beyond Python's 4,300-digit limit and duplicate keys are each
one bad line with a stable code; the lines around them are still read.  Spec: event-log.md
"Encoding" (UTF-8, one JSON object per line; a bad line never crashes the judge)."""

from __future__ import annotations

import json

import pytest

from cardref.cli import main as cli
from cardref.engine.eventlog import LogFileError, loads_line, read_lines, read_log, text_lines
from cardref.engine.events import DealEvent, EventError, PlayEvent

DEAL = '{"type":"deal","game":"gouji-shandong","seats":6,"leader":0}'
PLAY = '{"type":"play","seat":0,"cards":["3S"],"t":1.5}'
HUGE = "9" * 5000  # past Python's int-string limit (sys.get_int_max_str_digits() == 4300)

# (case, bad line, stable code): every number a float cannot hold, every repeated key.
HOSTILE = [
    ("NaN in t", '{"type":"play","seat":0,"cards":["3S"],"t":NaN}', "log.bad_number"),
    ("Infinity in t", '{"type":"play","seat":0,"cards":["3S"],"t":Infinity}', "log.bad_number"),
    ("-Infinity in t", '{"type":"play","seat":0,"cards":["3S"],"t":-Infinity}', "log.bad_number"),
    ("1e999 in t", '{"type":"play","seat":0,"cards":["3S"],"t":1e999}', "log.bad_number"),
    ("-1e999 in conf", '{"type":"play","seat":0,"cards":["3S"],"conf":-1e999}', "log.bad_number"),
    ("NaN as leader", '{"type":"deal","game":"gouji-shandong","seats":6,"leader":NaN}', "log.bad_number"),
    ("NaN in an unknown key", '{"type":"pass","seat":0,"extra":[1,{"x":NaN}]}', "log.bad_number"),
    ("5000-digit seat", '{"type":"play","seat":' + HUGE + ',"cards":["3S"]}', "log.bad_number"),
    ("5000-digit t", '{"type":"play","seat":0,"cards":["3S"],"t":' + HUGE + '}', "log.bad_number"),
    ("5000-digit ref", '{"type":"correct","ref":' + HUGE + ',"seat":1,"who":"a","why":"b"}', "log.bad_number"),
    ("seat twice", '{"type":"play","seat":0,"seat":1,"cards":["3S"]}', "log.duplicate_key"),
    ("type twice", '{"type":"pass","type":"play","seat":0,"cards":["3S"]}', "log.duplicate_key"),
    ("nested key twice", '{"type":"pass","seat":0,"meta":{"a":1,"a":2}}', "log.duplicate_key"),
]


@pytest.mark.parametrize(("case", "text", "code"), HOSTILE, ids=[c for c, _, _ in HOSTILE])
def test_each_hostile_line_is_one_bad_line(case: str, text: str, code: str) -> None:
    lines = list(read_lines([DEAL, text, PLAY]))
    assert [ln.i for ln in lines] == [0, 1, 2]
    assert isinstance(lines[0].event, DealEvent) and isinstance(lines[2].event, PlayEvent)
    bad = lines[1]
    assert bad.event is None and bad.error is not None and bad.error.code == code, case
    assert str(bad.error).startswith("line 2: ") and len(str(bad.error)) < 300


@pytest.mark.parametrize(("case", "text", "code"), HOSTILE, ids=[c for c, _, _ in HOSTILE])
def test_judge_command_reports_the_line_and_goes_on(tmp_path, capsys, case: str, text: str, code: str) -> None:
    log = tmp_path / "hostile.jsonl"
    log.write_text("\n".join([DEAL, text, PLAY]) + "\n", encoding="utf-8")
    assert cli(["judge", str(log), "--lang", "en"]) == 0
    out, err = capsys.readouterr()
    verdicts = [json.loads(x) for x in out.splitlines()][:-1]
    assert [v["i"] for v in verdicts] == [0, 1, 2]
    assert verdicts[1]["ok"] is False and verdicts[1]["code"] == code
    assert verdicts[1]["message"].startswith("line 2") and HUGE not in verdicts[1]["message"]
    assert verdicts[0]["ok"] is True and verdicts[2]["ok"] is True
    assert "Traceback" not in err


def test_zh_sentences_exist_for_the_new_codes() -> None:
    from cardref.engine.judge import judge_text

    result = judge_text([DEAL, HOSTILE[0][1], HOSTILE[10][1]])
    zh = [v.to_json("zh")["message"] for v in result.verdicts[1:]]
    assert zh[0].startswith("第 2 行") and "NaN" in zh[0]
    assert zh[1].startswith("第 3 行") and "'seat'" in zh[1]


def test_loads_line_is_the_strict_reader() -> None:
    assert loads_line('{"a":[1,2.5,{"b":null}]}') == {"a": [1, 2.5, {"b": None}]}
    assert loads_line('\ufeff{"a":1}') == {"a": 1}
    for text, code in [("{", "log.bad_json"), ('{"a":NaN}', "log.bad_number"), ('{"a":1,"a":1}', "log.duplicate_key"),
                       ('[' * 100_000, "log.bad_json"), (HUGE, "log.bad_number")]:
        with pytest.raises(EventError) as err:
            loads_line(text)
        assert err.value.code == code


# A UTF-8 byte-order mark before the deal line (Windows Notepad writes one).
def test_a_byte_order_mark_is_stripped_from_text_bytes_and_files(tmp_path) -> None:
    for first in ("\ufeff" + DEAL, ("\ufeff" + DEAL).encode("utf-8"), "\ufeff  " + DEAL + "\n"):
        lines = list(read_lines([first, PLAY]))
        assert lines[0].error is None and isinstance(lines[0].event, DealEvent)
        assert not lines[0].raw.startswith("\ufeff")
    path = tmp_path / "bom.jsonl"
    path.write_text(DEAL + "\n" + PLAY + "\n", encoding="utf-8-sig")
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")
    assert [ln.error for ln in read_log(str(path))] == [None, None]
    only_bom = list(read_lines(["\ufeff\n", DEAL]))  # a mark alone on the first line is a blank line
    assert [(ln.i, ln.lineno, ln.error) for ln in only_bom] == [(0, 2, None)]


def test_judge_command_accepts_a_log_with_a_byte_order_mark(tmp_path, capsys) -> None:
    path = tmp_path / "bom.jsonl"
    path.write_text(DEAL + "\n" + PLAY + "\n", encoding="utf-8-sig")
    assert cli(["judge", str(path)]) == 0
    verdicts = [json.loads(x) for x in capsys.readouterr().out.splitlines()][:-1]
    assert verdicts == [{"i": 0, "ok": True}, {"i": 1, "ok": True}]


# text_lines: the reader for files that must be a log as a whole (a --header).
def test_text_lines_reads_utf8_and_strips_the_mark(tmp_path) -> None:
    path = tmp_path / "h.jsonl"
    path.write_text(DEAL + "\n" + PLAY + "\n", encoding="utf-8-sig")
    assert [ln.strip() for ln in text_lines(str(path))] == [DEAL, PLAY]


@pytest.mark.parametrize(("content", "words"), [
    ('{"type":"deal","game":"gouji-shandong","note":"北"}'.encode("gbk"), "not UTF-8"),
    (bytes(range(256)) * 4, "not UTF-8"),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "not UTF-8"),
    (b'{"type":"deal"}\n\x00\x00\x00\x01', "binary"),
], ids=["gbk", "random-bytes", "png", "nul-bytes"])
def test_text_lines_names_a_file_that_is_not_a_text_log(tmp_path, content: bytes, words: str) -> None:
    path = tmp_path / "header.bin"
    path.write_bytes(content)
    with pytest.raises(LogFileError) as err:
        text_lines(str(path))
    assert str(path) in str(err.value) and words in str(err.value)
    assert isinstance(err.value, OSError)  # callers that catch OSError for the file still catch it


def test_text_lines_names_a_missing_file(tmp_path) -> None:
    with pytest.raises(LogFileError, match="cannot read .*missing.jsonl"):
        text_lines(str(tmp_path / "missing.jsonl"))


@pytest.mark.parametrize(("case", "text", "code"), HOSTILE, ids=[c for c, _, _ in HOSTILE])
def test_a_correction_of_a_hostile_line_is_a_bad_ref_not_a_traceback(tmp_path, capsys, case: str, text: str,
                                                                     code: str) -> None:
    """A ``correct`` naming a rejected line does not bring it back: the judge reads the
    target as strictly as the line itself was read (correct.bad_ref, spec "correct")."""
    fix = '{"type":"correct","ref":1,"seat":1,"who":"ref","why":"misread"}'
    log = tmp_path / "hostile.jsonl"
    log.write_text("\n".join([DEAL, text, PLAY, fix]) + "\n", encoding="utf-8")
    assert cli(["judge", str(log), "--lang", "en"]) == 0
    out, err = capsys.readouterr()
    verdicts = [json.loads(x) for x in out.splitlines()][:-1]
    assert [v["i"] for v in verdicts] == [0, 1, 2, 3]
    assert verdicts[1]["code"] == code and verdicts[3]["code"] == "correct.bad_ref", case
    assert "Traceback" not in err
