"""Property tests over random legal deals logged as a camera logs them (issue 34; observation.md).

Legal deals without passes and hands judge clean; one injected rule fault on the camera log is
caught; one dropped play or misread card costs few flags (at most ``FLAGS``, see the report in
``cardref bench verdicts`` for the measured median and maximum).

The examples are drawn from one fixed seed: every run, on CI or not, judges the same deals.
The ≤ 1 flag target of issue #34 holds on the bench (200 deals per game, seed 1,
2026-12-04: one dropped play or one misread card costs at most 1 flag in all six games) and
in these examples, so ``FLAGS`` is 1.  It is not a proof for every deal: with seeds 2 and 3
one 山东 deal in 200 still costs 2 flags (both questions: two slips' worth of divergence from
one missed play); the benchmark tracks the distribution."""

import random

from hypothesis import given, seed, settings
from hypothesis import strategies as st

from cardref.benchmarks.verdicts import inject_on_camera_log
from cardref.engine.camera import camera_log, drop_event, misread, play_indices
from cardref.engine.eventlog import dump_event, read_lines
from cardref.engine.gouji.simulate import simulate_deal as gouji_deal
from cardref.engine.judge import Judge
from cardref.engine.shengji.simulate import simulate_deal as shengji_deal

GAMES = ["gouji-yucheng", "gouji-shandong", "guafeng-zibo", "chaodipi-anchao", "chaodipi-kangqi",
         "chaodipi-mingchao"]
#: the most flags one slip may cost in these tests (the bench reports the real distribution)
FLAGS = 1


def judge(events):
    return Judge.judge(list(read_lines(dump_event(e) for e in events)))


def deal(game, seed):
    sim = gouji_deal if game.startswith("gouji") else shengji_deal
    return camera_log(sim(game, random.Random(seed)))[0]


@settings(max_examples=12, deadline=None, derandomize=False, database=None)
@seed(20261202)
@given(seed=st.integers(0, 2**32 - 1), game=st.sampled_from(GAMES))
def test_legal_deals_without_passes_judge_clean(seed, game) -> None:
    assert judge(deal(game, seed)).faults() == []


def test_chongdian_deals_without_passes_judge_clean() -> None:
    """004:11 冲点: the deals of the issue (seed 7) hold a 冲点 and judge clean without passes."""
    for game in ("gouji-yucheng", "gouji-shandong"):
        events = gouji_deal(game, random.Random(7))
        assert any(getattr(e, "what", None) == "chongdian" for e in events)
        assert judge(camera_log(events)[0]).faults() == [], game


@settings(max_examples=12, deadline=None, derandomize=False, database=None)
@seed(20261202)
@given(seed=st.integers(0, 2**32 - 1), game=st.sampled_from(GAMES))
def test_one_rule_fault_is_caught(seed, game) -> None:
    cam = deal(game, seed)
    bad, k = inject_on_camera_log(cam, random.Random(seed))
    if k is None:
        return
    verdicts = judge(bad).verdicts
    assert not verdicts[k].ok or any(v.fault is not None and v.fault.proven_at == k for v in verdicts[:k])
    assert all(v.ok or (v.fault.proven_at or 0) >= k for v in verdicts[:k])   # nothing flagged before it


@settings(max_examples=12, deadline=None, derandomize=False, database=None)
@seed(20261202)
@given(seed=st.integers(0, 2**32 - 1), game=st.sampled_from(GAMES), drop=st.booleans())
def test_one_slip_costs_few_flags(seed, game, drop) -> None:
    cam = deal(game, seed)
    rng = random.Random(seed)
    k = rng.choice(play_indices(cam))
    log = drop_event(cam, k) if drop else misread(cam, k, rng)
    result = judge(log)
    assert len(result.faults()) <= FLAGS
    assert all(v.ok or (v.fault.proven_at or 0) >= k for v in result.verdicts[:k])


@settings(max_examples=12, deadline=None, derandomize=False, database=None)
@seed(20261203)
@given(seed=st.integers(0, 2**32 - 1), game=st.sampled_from(["gouji-yucheng", "gouji-shandong"]))
def test_one_gouji_rule_fault_accuses_no_one_else(seed, game) -> None:
    """gouji.md D31: after one injected fault (another seat's play, or a card left out) the
    readings kept to the deal's end re-synchronise it: no legal play is accused (bench verdicts,
    200 deals per game, seed 1: 0.0 false accusations per deal)."""
    from cardref.engine.verdict_compare import compare

    cam = deal(game, seed)
    bad, k = inject_on_camera_log(cam, random.Random(seed))
    if k is None:
        return
    verdicts = judge(bad).verdicts
    score = compare(verdicts, judge(cam).verdicts, list(range(len(verdicts))), [k])
    assert score.injected == 1 and score.caught == 1
    assert score.false_accusations == 0, [(v.i, v.fault.code) for v in verdicts if v.accusation]


def test_one_gouji_slip_is_asked_not_charged() -> None:
    """gouji.md D33 (observation.md O10): on a camera log a fault that one slip explains is a
    question.  Over the first 40 deals of ``cardref bench verdicts`` (seed 1) per 够级 name, one
    play dropped and one card misread per deal (80 slips a name): before D33 about 36 of them
    accused a player; now at most 2 (measured 2026-12-04: 1 in 山东, 2 in 禹城)."""
    from cardref.benchmarks.verdicts import judge_log

    for game in ("gouji-shandong", "gouji-yucheng"):
        accused = []
        for n in range(40):
            rng = random.Random(100_003 + n)
            cam = camera_log(gouji_deal(game, rng))[0]
            plays = play_indices(cam)
            for log in (drop_event(cam, rng.choice(plays)), misread(cam, rng.choice(plays), rng)):
                accused += [(n, v.i, v.fault.code) for v in judge_log(log).verdicts if v.accusation]
        assert len(accused) <= 2, (game, accused)
