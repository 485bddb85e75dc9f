"""D47 (docs/rules/gouji.md): 闷 proven by a camera 3 once the counts are not trusted.

Rules the cases rest on: 004:5-7 and 002:16 (闷: a seat whose play was beaten while its one
card left is a 3), 004:27 (a 3 is a seat's last play) and observation.md O3 (after a flagged
slip the judge's counts are not trusted).  Seat 0's 5H is beaten by seat 5's 6H; seat 5 goes
out on its 3S and seat 0 leads its 3H on 接风 (004:27): with nothing of seat 0 seen between,
seat 0 held only the 3 when it was beaten.  A play of seat 0 the camera missed in between
would make it no 闷, and once a slip was flagged the counts cannot say.
"""

from __future__ import annotations

import json

import pytest
from slips_bench import slips_deal

from cardref.engine.judge import judge_text

DEAL = {"type": "deal", "game": "gouji-yucheng", "seats": 6, "leader": 0}
MEN = "gouji.men_out"


def _play(seat: int, cards: str, camera: bool) -> dict:
    return {"type": "play", "seat": seat, "cards": cards.split(), **({"source": "camera"} if camera else {})}


def _flags(camera: bool, slip: bool) -> list[tuple[str, str | None, bool]]:
    # slip: seat 2's pair on seat 0's single, a camera slip flagged as a question (O10)
    log = [_play(0, "5H", camera), *([_play(2, "5C 5D", camera)] if slip else []),
           _play(5, "6H", camera), _play(5, "3S", camera), _play(0, "3H", camera)]
    verdicts = judge_text(json.dumps(e) for e in [DEAL, *log]).verdicts
    return [(v.fault.code, v.fault.facts.get("fault"), v.accusation) for v in verdicts if v.fault is not None]


@pytest.mark.parametrize("camera,slip,want", [
    (True, True, [("observe.fault_or_slip", "gouji.count_mismatch", False), ("observe.fault_or_slip", MEN, False)]),
    (True, False, [(MEN, None, True)]),       # no slip flagged: the counts hold, 闷 stands
    (False, True, [("gouji.count_mismatch", None, True), (MEN, None, True)]),   # typed: what the person saw
], ids=["camera-after-a-slip", "camera-no-slip", "typed"])
def test_men_proven_by_a_camera_three_after_a_slip_is_asked(camera: bool, slip: bool, want: list) -> None:
    assert _flags(camera, slip) == want


#: ``cardref bench verdicts --slips 0.03 0.02`` deals where 闷 was accused after a slip: the
#: seat's own play before its 3 was dropped (game, seed, deal, line of the 3)
BENCH = [
    ("gouji-yucheng", 5, 9, 98),       # seat 4's 8S dropped (and its JS 2S earlier)
    ("gouji-shandong", 9, 75, 122),    # seat 4's 10D and 10H dropped
]


@pytest.mark.parametrize("game,seed,n,line", BENCH, ids=[f"{g} seed {s} deal {n}" for g, s, n, _ in BENCH])
def test_bench_men_after_a_dropped_play_is_asked(game: str, seed: int, n: int, line: int) -> None:
    verdicts, false_at = slips_deal(game, n, 0.03, 0.02, seed=seed)
    fault = verdicts[line].fault
    assert fault is not None and fault.code == "observe.fault_or_slip" and fault.facts["fault"] == MEN
    assert line not in false_at
