"""TableLog.correct writes the one ``correct`` event of engine/events.py (issue 30)."""

from __future__ import annotations

import json

import pytest

from cardref.engine.cards import CardCodeError
from cardref.engine.events import EventError, correct_event, event_from_json
from cardref.ui.model import TableLog

LOG = [
    {"type": "deal", "game": "guafeng-zibo", "seats": 4},
    {"type": "play", "seat": 1, "cards": ["3S"], "source": "camera", "conf": 0.4},
]


def _log() -> TableLog:
    return TableLog.from_text("\n".join(json.dumps(x) for x in LOG))


@pytest.mark.parametrize(("kw", "expected"), [
    ({"cards": ["4s"], "who": "裁判", "why": "误读", "t": 1.23456},
     {"ref": 1, "cards": ["4S"], "who": "裁判", "why": "误读", "t": 1.235}),
    ({"seat": 2}, {"ref": 1, "seat": 2, "who": "referee"}),
    ({"cards": ["10h", "bj"], "seat": 0, "who": ""}, {"ref": 1, "cards": ["TH", "BJ"], "seat": 0, "who": "referee"}),
])
def test_a_correction_is_the_engine_builders_event(kw, expected):
    log = _log()
    i = log.correct(1, **kw)
    written = json.loads(log.lines[i])
    assert written.pop("at")  # when, by the clock, kept as an extra key
    want = correct_event(expected.pop("ref"), source="manual", **expected).to_json()
    assert written == want
    assert event_from_json(written) == event_from_json(want)


@pytest.mark.parametrize(("ref", "kw", "error", "words"), [
    (1, {}, ValueError, "needs cards or a seat"),
    (5, {"cards": ["3S"]}, ValueError, "there is no event 5"),
    (-1, {"cards": ["3S"]}, ValueError, "there is no event -1"),
    (1, {"cards": ["XX"]}, CardCodeError, "not a card code"),
    (1, {"seat": -2}, EventError, "negative"),
])
def test_a_bad_correction_is_refused_and_nothing_is_written(ref, kw, error, words):
    log = _log()
    with pytest.raises(error, match=words):
        log.correct(ref, **kw)
    assert len(log.lines) == len(LOG)


def test_a_confirmation_repeats_the_read_cards():
    log = _log()
    i = log.confirm(1, who="裁判")
    written = json.loads(log.lines[i])
    assert (written["cards"], written["why"], written["who"]) == (["3S"], "confirm", "裁判")
    assert log.pending() == []
