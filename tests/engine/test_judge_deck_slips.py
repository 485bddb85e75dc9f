"""A copy too many of a card whose earlier play was already doubted is the same slip, not a
second flag (issue 34: one misread card costs one flag; docs/rules/observation.md).

The deals are the bench's own draws (``cardref bench verdicts``: deal n of seed 1 is
``Random(100003 + n)``, one play dropped, then one card misread), where a misread card cost
an observation flag on the next trick's lead and, when the card itself turned up, a
``deck.too_many_copies`` as well."""

from __future__ import annotations

import random

import pytest

from cardref.engine.camera import camera_log, drop_event, misread, play_indices
from cardref.engine.eventlog import dump_event
from cardref.engine.judge import judge_text
from cardref.engine.shengji.simulate import simulate_deal


def _misread_deal(n: int) -> list[str]:
    rng = random.Random(100_003 + n)
    cam, _ = camera_log(simulate_deal("guafeng-zibo", rng))
    plays = play_indices(cam)
    drop_event(cam, rng.choice(plays))  # drawn as the bench draws it; this log keeps every play
    return [dump_event(e) for e in misread(cam, rng.choice(plays), rng)]


@pytest.mark.parametrize("n", [4, 5, 10])
def test_a_misread_card_seen_again_as_itself_costs_one_flag(n):
    flags = [v.to_json()["code"] for v in judge_text(_misread_deal(n)).verdicts if not v.ok]
    assert flags == ["observe.unexpected_lead"]


DEAL = '{"type":"deal","game":"guafeng-zibo","seats":4,"level":"7","trump":"S","dealer":0}'


def test_a_fault_seen_on_the_play_itself_does_not_explain_a_copy_too_many():
    """The dealer's BJ BJ lead breaks 刮风's bury-the-jokers rule; a third BJ is still a card
    the decks do not hold."""
    result = judge_text([DEAL, '{"type":"play","seat":0,"cards":["BJ","BJ"]}',
                         '{"type":"play","seat":1,"cards":["BJ"]}', '{"type":"play","seat":2,"cards":["BJ"]}'])
    codes = [v.to_json()["code"] if not v.ok else None for v in result.verdicts]
    assert codes[1] == "guafeng.jokers_not_buried"
    assert "deck.too_many_copies" in codes[2:]
