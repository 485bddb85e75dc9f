"""O10 (docs/rules/observation.md; decision D33 in docs/rules/gouji.md): a camera play's fault
that one camera slip explains is a question, ``observe.fault_or_slip`` naming the fault; the
same play typed by a person (no ``source``) stays an accusation.  O12 (decision D35): a camera
play that fails to answer a table play an earlier camera play already failed is asked too.

Rules the cases rest on (/work/shared/seeds/): ``004:23`` 「上牌：出一手大过玩家上一手的牌」 (a play
must beat the last one, with as many cards); ``004:15-17`` a play is cards of one rank (2s and
jokers aside); ``004:27`` a 3 only comes last (憋3).  Each row: the script, then the exact flags when its plays are typed and when
they are a camera's.
"""

from __future__ import annotations

import dataclasses

import pytest

from cardref.engine.eventlog import dump_event, read_lines
from cardref.engine.events import PlayEvent
from cardref.engine.gouji.notation import parse_script
from cardref.engine.judge import Judge

ASKED = "observe.fault_or_slip"

CASES = [
    ("004:23: a single lower than the table: a card misread, or the round's winner led again unseen", """
deal gouji-shandong leader=0
0 KH
1 9H
2 AH
""", [(2, "gouji.does_not_beat")], [(2, ASKED, "gouji.does_not_beat")]),
    ("004:23: another count than the table: the round's winner led a pair, not seen", """
deal gouji-yucheng leader=0 sizes=6,6,6,6,6,6
0 5H
1 8H 8S
2 9H 9S
""", [(2, "gouji.count_mismatch")], [(2, ASKED, "gouji.count_mismatch")]),
    ("004:15-17: a pair of two ranks: one card misread", """
deal gouji-shandong leader=0
0 5H 5S
1 9H 10S
2 JH JS
""", [(2, "gouji.mixed_ranks")], [(2, ASKED, "gouji.mixed_ranks")]),
    ("004:27 憋3: a 3 seen as a seat's last play, and the seat plays again: the 3 may be misread", """
deal gouji-shandong leader=0
0 3H
1 5H
2 6H
0 7H
""", [(1, "gouji.three_not_last")], [(1, ASKED, "gouji.three_not_last")]),
    ("play.after_out: a seat that went out plays again: a seat misread or a play missed", """
deal gouji-shandong leader=0 sizes=1,5,5,5,5,5
0 5H
1 6H
0 7H
""", [(3, "play.after_out")], [(3, ASKED, "play.after_out")]),
    ("004:23 O12: three seats in turn fail the count of one table play: the table is doubted, "
     "the third is asked too (it was accused)", """
deal gouji-shandong leader=0
0 5H 5S 5D 5C
5 AH AD
2 2H JC
4 QS
""", [(2, "gouji.count_mismatch"), (3, "gouji.count_mismatch"), (4, "gouji.count_mismatch")],
     [(2, ASKED, "gouji.count_mismatch"), (3, ASKED, "gouji.count_mismatch"), (4, ASKED, "gouji.count_mismatch")]),
    ("004:23 O12: three plays in turn fail to beat or match one single: the third is asked too", """
deal gouji-shandong leader=0
0 KH
1 9H
2 2C 2D
3 10H
""", [(2, "gouji.does_not_beat"), (3, "gouji.count_mismatch"), (4, "gouji.does_not_beat")],
     [(2, ASKED, "gouji.does_not_beat"), (3, ASKED, "gouji.count_mismatch"), (4, ASKED, "gouji.does_not_beat")]),
    ("004:25 让牌 on the 对门's play the camera did not see: the gap is the flag (D35)", """
deal gouji-yucheng leader=0
0 10C 10C 10D 10D 10S
3 !rangpai
4 JC
""", [(2, "gouji.rangpai_bad")], [(2, "observe.missing_play", None)]),
    ("004:23: with the seat's hand known its cards are not doubted: the fault stays", """
deal gouji-shandong leader=0
hand 1 9H 3H AS
0 KH
1 9H
""", [(3, "gouji.does_not_beat")], [(3, "gouji.does_not_beat", None)]),
]


def _flags(text: str, camera: bool) -> list[tuple]:
    events = parse_script(text)
    if camera:
        events = [dataclasses.replace(e, source="camera") if isinstance(e, PlayEvent) else e for e in events]
    result = Judge.judge(list(read_lines(dump_event(e) for e in events)))
    if not camera:
        return [(v.i, v.fault.code) for v in result.verdicts if v.fault is not None]
    return [(v.i, v.fault.code, v.fault.facts.get("fault")) for v in result.verdicts if v.fault is not None]


@pytest.mark.parametrize("cite,text,typed,seen", CASES, ids=[c[0] for c in CASES])
def test_camera_fault_a_slip_explains_is_asked(cite: str, text: str, typed: list, seen: list) -> None:
    assert _flags(text, camera=False) == typed
    assert _flags(text, camera=True) == seen


def test_the_question_names_the_fault_and_is_listed_to_confirm() -> None:
    events = [dataclasses.replace(e, source="camera") if isinstance(e, PlayEvent) else e
              for e in parse_script(CASES[0][1])]
    verdict = Judge.judge(list(read_lines(dump_event(e) for e in events))).verdicts[2]
    out = verdict.to_json("en")
    assert (out["code"], out["confirm"], verdict.accusation) == (ASKED, True, False)
    assert out["message"].startswith("seat 1") and "please confirm" in out["message"]
    assert "KH" in out["message"] and "9H" in out["message"]


def test_only_the_opposite_names_whose_gouji_it_is() -> None:
    """004:27 接风 after a 够级 last play: only the 对家 may answer it (004:23 「有人出够级牌，只有对家
    可以上」).  The message names the seat that played the 够级, typed and asked alike (it read
    "seat ?" when the fault came from the burning rules)."""
    text = """
deal gouji-yucheng leader=0 sizes=2,9,9,9,9,9
0 KH KS
2 AH AS
"""
    for camera in (False, True):
        events = parse_script(text)
        if camera:
            events = [dataclasses.replace(e, source="camera") if isinstance(e, PlayEvent) else e for e in events]
        result = Judge.judge(list(read_lines(dump_event(e) for e in events)))
        flagged = [v.to_json("en") for v in result.verdicts if v.fault is not None]
        assert len(flagged) == 1
        assert "only the 对门 may answer seat 0's 够级 play; seat 2 may not" in flagged[0]["message"]
