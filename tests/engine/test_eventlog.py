"""Reading event logs: every bad line reported with its line number, the rest still read."""

import io
import json

import pytest

from cardref.engine.eventlog import read_lines, write_events
from cardref.engine.events import CorrectEvent, DealEvent, DeclareEvent, PlayEvent

GOOD = [
    ('{"type":"deal","game":"gouji-yucheng","seats":6,"leader":2}', DealEvent),
    ('{"type":"play","seat":1,"cards":["10H","th"],"t":1.5,"source":"camera","conf":0.9}', PlayEvent),
    ('{"type":"declare","seat":3,"what":"xuandian","target":0}', DeclareEvent),
    ('{"type":"correct","ref":1,"cards":["JH"],"who":"ref","why":"misread"}', CorrectEvent),
]


@pytest.mark.parametrize(("text", "kind"), GOOD)
def test_good_lines_parse(text: str, kind: type) -> None:
    (line,) = read_lines([text])
    assert line.error is None and isinstance(line.event, kind)


# (line text, expected stable code) — spec "Encoding": not JSON, not an object, unknown type, bad card code.
BAD = [
    ("{not json", "log.bad_json"),
    ("[1, 2]", "log.not_object"),
    ('"play"', "log.not_object"),
    ('{"type":"shuffle"}', "log.unknown_type"),
    ('{"seat":1}', "event.missing_key"),
    ('{"type":"play","seat":1,"cards":["1H"]}', "event.bad_card"),
    ('{"type":"play","seat":1,"cards":"AS"}', "event.bad_value"),
    ('{"type":"play","cards":["AS"]}', "event.missing_key"),
    ('{"type":"play","seat":"1","cards":["AS"]}', "event.bad_value"),
    ('{"type":"play","seat":-1,"cards":["AS"]}', "event.bad_seat"),
    ('{"type":"play","seat":true,"cards":["AS"]}', "event.bad_value"),
    ('{"type":"play","seat":1,"cards":["AS"],"conf":1.5}', "event.bad_value"),
    ('{"type":"play","seat":1,"cards":["AS"],"t":"soon"}', "event.bad_value"),
    ('{"type":"deal","seats":4}', "event.missing_key"),
    ('{"type":"deal","game":"guafeng-zibo","seats":4,"hand_sizes":[1,2]}', "event.bad_value"),
    ('{"type":"declare","seat":1}', "event.missing_key"),
    ('{"type":"correct","ref":0}', "event.missing_key"),
    ('{"type":"correct","ref":-3,"seat":1}', "event.bad_value"),
]


@pytest.mark.parametrize(("text", "code"), BAD)
def test_bad_lines_give_stable_codes_and_line_numbers(text: str, code: str) -> None:
    lines = list(read_lines(["", '{"type":"pass","seat":0}', text]))
    assert lines[0].error is None
    bad = lines[1]
    assert bad.error is not None and bad.error.code == code
    assert bad.lineno == 3 and bad.i == 1
    assert "line 3" in str(bad.error)


def test_blank_lines_are_not_counted() -> None:
    lines = list(read_lines(["\n", '{"type":"pass","seat":0}\n', "   \n", '{"type":"pass","seat":1}\n']))
    assert [(ln.i, ln.lineno) for ln in lines] == [(0, 2), (1, 4)]


def test_unknown_keys_are_kept_and_written_back() -> None:
    (line,) = read_lines(['{"type":"play","seat":1,"cards":["AS"],"frame":77}'])
    out = io.StringIO()
    write_events([line.event], out)
    assert json.loads(out.getvalue()) == {"type": "play", "seat": 1, "cards": ["AS"], "frame": 77}


def test_round_trip_of_every_event_kind() -> None:
    events = [ln.event for ln in read_lines(t for t, _ in GOOD)]
    out = io.StringIO()
    write_events(events, out)
    again = [ln.event for ln in read_lines(out.getvalue().splitlines())]
    assert again == events


def test_invalid_utf8_does_not_crash() -> None:
    lines = list(read_lines([b'{"type":"pass","seat":0}', b"\xff\xfe{"]))
    assert lines[0].error is None and lines[1].error.code == "log.bad_json"
