"""O34 (docs/rules/chaodipi.md): a slip reading dropped only for one seat that a later play
skipped, and that has not played yet, leaves the choice tied when the log as read then needs
a flag too: the fault of the play that opened it is asked (O28), not charged.

Rules the cases rest on: seed 003 line 50 (the seats follow in turn) and 003:12 / 000:115 (the
trick's winner leads the next).  Seat 3's ♥6 is seen before seat 2's ♦J: either seat 3 played
out of turn and ♦J is seat 2's late follow (the log as read), or seat 2's follow was missed and
♦J leads the next trick (a slip reading, O10).  In the first case the camera missed seat 2's ♥A
(which won) and seat 3's ♦ follow of ♦J: the log as read then fits seat 0's next play, the slip
reading has seat 0 skip seat 3.
"""

from __future__ import annotations

import json

import pytest
from shengji_logs import deal_log

from cardref.engine.judge import judge_text

#: seat 0 leads ♦6 next: the slip reading's seat 3 is skipped, nothing else (O34: tied, asked)
SKIPPED_LATER = [(0, "QH"), (1, "9H"), (3, "6H"), (2, "JD"), (0, "6D"), (1, "KD"),
                 (1, "3C"), (2, "4C"), (3, "6C"), (0, "7C")]
#: seat 0 leads a ♦ pair: the slip reading also has seat 0 follow ♦J with two cards (a flag of
#: its own line besides the skip): the log as read is the only reading left, its fault stands
OWN_FLAG = [(0, "QH"), (1, "9H"), (3, "6H"), (2, "JD"), (0, "6D 6D"), (1, "KD QD"), (2, "3D 4D"), (3, "7D 8D")]
#: seat 1 (winning ♥Q as read) leads ♦K next: the slip reading has it skip seats 3 and 0, two
#: plays missed in a row, not what one slip looks like: its reading is dropped, the fault stands
TWO_SKIPPED = [(0, "9H"), (1, "QH"), (3, "6H"), (2, "JD"), (1, "KD"), (1, "8C"), (2, "3C"), (3, "6C"), (0, "7C")]
#: seat 3 answers a ♥ pair with a single ♥6 (a wrong count; the slip reading: it leads after
#: a missed follow) and seat 1, winning as read, leads ♣7, skipping seat 0 in the slip reading;
#: the log as read then needs no flag to the deal's end: not tied, the fault stands
AS_READ_CLEAN = [(0, "9H 9H"), (1, "QH QH"), (2, "JH JH"), (3, "6H"), (1, "7C"), (2, "8C"), (3, "9C"), (0, "JC")]


def _log(plays: list[tuple[int, str]], typed: bool) -> list[dict]:
    return deal_log(plays, [3, 3, 3, 2] if plays is AS_READ_CLEAN else [3, 3, 3, 3], typed)


@pytest.mark.parametrize("plays,typed,code,ask", [
    (SKIPPED_LATER, False, "observe.fault_or_slip", True),   # O34: the skip alone dropped the slip reading
    (SKIPPED_LATER, True, "shengji.out_of_turn", False),     # typed: no camera slip to ask about
    (OWN_FLAG, False, "shengji.out_of_turn", False),         # O34 does not apply: the slip reading needs more
    (TWO_SKIPPED, False, "shengji.out_of_turn", False),      # O34 does not apply: two seats skipped
    (AS_READ_CLEAN, False, "shengji.wrong_count", False),    # O34 does not apply: the log as read fits on
], ids=["camera-skip-asked", "typed-accused", "own-flag-accused", "two-skipped-accused", "as-read-clean-accused"])
def test_a_reading_dropped_for_a_later_skip_leaves_the_choice_tied(
        plays: list[tuple[int, str]], typed: bool, code: str, ask: bool) -> None:
    verdicts = judge_text(json.dumps(e) for e in _log(plays, typed)).verdicts
    faults = [v for v in verdicts if v.fault is not None]
    assert faults[0].i == (4 if plays is AS_READ_CLEAN else 3)
    assert faults[0].fault is not None and faults[0].fault.code == code
    assert faults[0].confirm is ask
    if ask:
        assert faults[0].fault.facts["fault"] == "shengji.out_of_turn"
    else:
        assert faults[0].accusation
