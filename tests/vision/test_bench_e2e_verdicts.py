"""``cardref bench e2e`` measures verdicts: the watched log is judged against the true log
through the play matching (origin map), with slips put in on purpose (``--drop-rate``,
``--misread-rate``) and illegal plays injected at the log level (``--inject``)."""

from __future__ import annotations

import json
import random
from collections import Counter

from cardref.engine.cards import parse_cards
from cardref.engine.events import DealEvent, PlayEvent
from cardref.engine.verdict import Fault, Verdict
from cardref.engine.verdict_compare import compare as compare_verdicts
from cardref.vision.bench_e2e import (
    DealScore,
    carry_injection,
    compare,
    degrade,
    main,
    summarize,
    watched_log,
)
from cardref.vision.segmenter.records import PlayObservation


def _obs(t: float, seat: int, cards: tuple[str, ...], confirm: bool = False) -> PlayObservation:
    return PlayObservation(seat, cards, t, t + 0.4, 0.5 if confirm else 0.9, confirm, "seat")


def _play(seat: int, cards: str) -> PlayEvent:
    return PlayEvent(seat=seat, cards=tuple(parse_cards(cards.split())), source="camera")


TRUTH = [(1.0, 0, ("7C",)), (3.0, 1, ("8C",)), (5.0, 2, ("QH",)), (7.0, 3, ("AS",)), (9.0, 0, ("2H",))]
TRUE_LOG = [DealEvent(game="guafeng-zibo", seats=4, options={"level": "2", "trump": "H", "dealer": 0}),
            *(_play(seat, " ".join(cards)) for _t, seat, cards in TRUTH)]


def test_the_origin_map_follows_the_play_matching_and_the_verdicts_are_set_against_the_truth() -> None:
    """Five true plays; the pipeline saw play 0 (flagged for confirmation), missed play 1,
    read play 2 wrong, saw plays 3 and 4, and saw a phantom between them.  The watched log
    keeps the emit order; its origin map points each play at its true line (deal at 0)."""
    produced = [_obs(1.1, 0, ("7C",), confirm=True), _obs(5.1, 2, ("QD",)), _obs(6.0, 1, ("5S",)),
                _obs(7.0, 3, ("AS",)), _obs(9.1, 0, ("2H",))]
    score = compare(TRUTH, produced)
    assert score.matched == [0, 2, None, 3, 4]
    assert (score.exact, score.wrong, score.missed, score.phantom) == (3, 1, 1, 1)
    watched, origin = watched_log(TRUE_LOG, produced, score.matched)
    assert origin == [0, 1, 3, None, 4, 5]
    assert watched[0] is TRUE_LOG[0]
    assert [(e.seat, [c.code for c in e.cards]) for e in watched[1:]] == [
        (0, ["7C"]), (2, ["QD"]), (1, ["5S"]), (3, ["AS"]), (0, ["2H"])]
    assert watched[1].extra.get("confirm") is True  # the segmenter's mark reaches the judge

    rule = Fault("follow.must_follow_suit")
    true_verdicts = [Verdict(0), Verdict(1), Verdict(2), Verdict(3), Verdict(4, rule), Verdict(5, rule)]
    watched_verdicts = [
        Verdict(0),
        Verdict(1, rule, confirm=True),      # asked, not accused: a confirmation
        Verdict(2, rule),                    # the wrong read of legal play 2: a false accusation
        Verdict(3, rule),                    # the phantom: a false accusation
        Verdict(4, rule),                    # true play 3 was a fault too: no false accusation
        Verdict(5, Fault("deck.too_many_copies")),  # injected play 4, flagged (as an observation): caught
    ]
    got = compare_verdicts(watched_verdicts, true_verdicts, origin, injected=[2, 5])
    # injected true line 2 (play 1) was missed by the camera: not caught
    assert (got.false_accusations, got.confirmations, got.observation_flags) == (2, 1, 0)
    assert got.false_at == [2, 3]  # the watched lines accused (bench e2e --verbose lists them)
    assert (got.injected, got.caught, got.flags) == (2, 1, 5)
    assert got.accused == 0     # injected play 4 was caught as an observation, not accused
    # had true line 4 (play 3, a fault) been injected: caught and accused (a rule fault, not asked)
    alt = compare_verdicts(watched_verdicts, true_verdicts, origin, injected=[4])
    assert (alt.caught, alt.accused) == (1, 1)

    score.verdicts = got
    total = summarize([score, DealScore("guafeng-zibo", 2)])["total"]
    assert total["false_accusations"] == 2 and total["false_accusations_per_deal"] == 1.0
    assert total["caught"] == 1 and total["injected"] == 2 and total["caught_share"] == 0.5
    assert total["verdict_confirmations_per_deal"] == 0.5 and total["observation_flags"] == 0


def test_degrading_drops_or_misreads_plays_at_the_rates_asked_and_repeats_with_its_seed() -> None:
    watched = [TRUE_LOG[0], *(_play(s, c) for s, c in [(0, "7C 7D"), (1, "8C"), (2, "QH QS JH"), (3, "AS")] * 25)]
    origin = list(range(len(watched)))
    none = degrade(watched, origin, 0.0, 0.0, random.Random(1))
    assert none == (watched, origin, 0, 0)

    kept, kept_origin, dropped, misread = degrade(watched, origin, 1.0, 0.0, random.Random(1))
    assert (kept, kept_origin, dropped, misread) == ([watched[0]], [0], 100, 0)

    read, read_origin, dropped, misread = degrade(watched, origin, 0.0, 1.0, random.Random(1))
    assert (dropped, misread, read_origin) == (0, 100, origin)
    for before, after in zip(watched[1:], read[1:], strict=True):
        assert after.seat == before.seat and len(after.cards) == len(before.cards)
        assert sum((Counter(before.cards) - Counter(after.cards)).values()) == 1  # one card read as another

    half = degrade(watched, origin, 0.2, 0.2, random.Random("degrade:guafeng-zibo:7"))
    assert half == degrade(watched, origin, 0.2, 0.2, random.Random("degrade:guafeng-zibo:7"))
    _, half_origin, dropped, misread = half
    assert 5 <= dropped <= 40 and 5 <= misread <= 40  # 20 % of 100 plays each, far from 0 and from all
    assert len(half_origin) == len(watched) - dropped and half_origin == sorted(half_origin)


def test_an_injected_play_is_seen_as_the_camera_saw_the_legal_one() -> None:
    true, seen = _play(1, "7C 7D"), PlayEvent(seat=1, cards=tuple(parse_cards(["7C", "7S"])), t=3.2, conf=0.8,
                                               source="camera", extra={"confirm": True})
    other_seat = carry_injection(seen, true, _play(2, "7C 7D"))
    assert other_seat.seat == 2 and [c.code for c in other_seat.cards] == ["7C", "7S"]
    assert other_seat.t == 3.2 and other_seat.conf == 0.8 and other_seat.extra == {"confirm": True}
    left_out = carry_injection(seen, true, _play(1, "7D"))
    assert left_out.seat == 1 and [c.code for c in left_out.cards] == ["7S"]  # 7C left out, as the camera read it


def _run(capsys, tmp_path, *extra: str) -> dict:
    assert main(["--deals", "1", "--games", "guafeng-zibo", "--max-plays", "4", "--noise", "none",
                 "--resolution", "640x360", "--keep", str(tmp_path), "--json", *extra]) == 0
    return json.loads(capsys.readouterr().out)


def test_bench_e2e_reports_verdicts_slips_and_injected_plays_caught(capsys, tmp_path) -> None:
    """With perfect detections every play is exact and the watched log is the true one: no
    flag.  Every play misread: 4 slips counted apart from the play figures; every play
    dropped: 4 dropped; one illegal play injected: caught, with no false accusation."""
    clean = _run(capsys, tmp_path)["total"]
    assert clean["exact"] == clean["plays"] == 4
    assert (clean["verdict_flags"], clean["false_accusations"], clean["true_log_flags"]) == (0, 0, 0)
    assert (clean["slips_dropped"], clean["slips_misread"], clean["injected"], clean["caught_share"]) == (0, 0, 0, None)

    misread = _run(capsys, tmp_path, "--misread-rate", "1")
    tot = misread["total"]
    assert misread["misread_rate"] == 1.0 and tot["exact"] == 4  # a slip is measured as a slip
    assert (tot["slips_misread"], tot["slips_dropped"]) == (4, 0)
    assert tot["verdict_flags"] >= 1  # four cards misread do not pass unseen
    assert tot["verdict_flags"] == (tot["false_accusations"] + tot["observation_flags"]
                                    + tot["verdict_confirmations"])
    again = _run(capsys, tmp_path, "--misread-rate", "1")["total"]  # seeded from the deal: the same slips
    keys = ("slips_misread", "verdict_flags", "false_accusations", "observation_flags", "verdict_confirmations")
    assert [again[k] for k in keys] == [tot[k] for k in keys]

    dropped = _run(capsys, tmp_path, "--drop-rate", "1")["total"]
    assert (dropped["slips_dropped"], dropped["slips_misread"], dropped["exact"]) == (4, 0, 4)

    injected = _run(capsys, tmp_path, "--inject", "1")["total"]
    assert (injected["injected"], injected["caught"], injected["caught_share"]) == (1, 1, 1.0)
    assert injected["false_accusations"] == 0 and injected["true_log_flags"] == 0


def test_the_rates_are_fractions(capsys) -> None:
    assert main(["--drop-rate", "1.5"]) == 2
    assert "--drop-rate is a fraction from 0 to 1" in capsys.readouterr().err
    assert main(["--misread-rate", "nan"]) == 2
    assert main(["--inject", "-1"]) == 2


def test_bench_verdicts_slips_judges_whole_camera_logs_at_set_rates(capsys) -> None:
    """``cardref bench verdicts --slips DROP MISREAD``: bench e2e's slips and injection without
    video.  Without slips every injected play is caught and no legal play is accused; with
    every play dropped nothing is left to catch; rates outside [0, 1] are refused."""
    from cardref.benchmarks.slip_rates import measure_slips
    from cardref.benchmarks.verdicts import main as verdicts_main

    clean = measure_slips("guafeng-zibo", 2, 1, 0.0, 0.0)
    assert (clean["dropped"], clean["misread"], clean["false_accusations_per_deal"]) == (0, 0, 0.0)
    assert clean["injected"] == 2 and clean["caught"] == 2
    blind = measure_slips("guafeng-zibo", 1, 1, 1.0, 0.0)
    assert blind["dropped"] == blind["plays"] and blind["caught"] == 0
    assert verdicts_main(["--games", "guafeng-zibo", "--deals", "1", "--slips", "0.01", "0.01", "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["game"] == "guafeng-zibo" and row["deals"] == 1 and row["injected"] == 1
    assert verdicts_main(["--slips", "2", "0"]) == 2
    assert "must lie in [0, 1]" in capsys.readouterr().out
    assert clean["false_accusations_by_code"] == {}


def test_bench_verdicts_slips_names_the_rules_it_accused_wrongly() -> None:
    """The false accusations are counted by the rule they named, so that the next fix knows
    where to look; they add up to the false accusations, and none is a question.  (Slips at
    15 %: at 5 % these 20 deals no longer give any false accusation.)"""
    from cardref.benchmarks.slip_rates import format_row, measure_slips

    row = measure_slips("chaodipi-kangqi", 20, 1, 0.15, 0.15)
    by_code = row["false_accusations_by_code"]
    assert sum(by_code.values()) == round(row["false_accusations_per_deal"] * 20) > 0
    assert all(not code.startswith(("observe.", "deck.")) for code in by_code)
    assert "false accusations by rule: " + ", ".join(f"{c} {n}" for c, n in by_code.items()) in format_row(row)


def test_bench_verdicts_slips_marks_plays_sure_as_the_live_path_does(capsys) -> None:
    """``--sure-marks RIGHT WRONG``: plays read right are marked sure with probability RIGHT,
    misread ones with WRONG (docs/rules/observation.md C1, C2: the judge asks rather than
    accuses on those marked unsure); the drops and misreads drawn stay the same."""
    from cardref.benchmarks.slip_rates import measure_slips, slip_deal
    from cardref.benchmarks.verdicts import main as verdicts_main
    from cardref.engine.events import PlayEvent

    plain = slip_deal("guafeng-zibo", 3, 5, 0.05, 0.1)
    sharp = slip_deal("guafeng-zibo", 3, 5, 0.05, 0.1, sure_marks=(1.0, 0.0))
    assert sharp.origin == plain.origin and (sharp.dropped, sharp.misread) == (plain.dropped, plain.misread)
    plays = [(ev, o) for ev, o in zip(sharp.watched, sharp.origin, strict=True) if isinstance(ev, PlayEvent)]
    assert all(getattr(ev, "sure", None) is None for ev in plain.watched)
    right = [ev.sure for ev, o in plays if ev.cards == sharp.true_log[o].cards]
    wrong = [ev.sure for ev, o in plays if ev.cards != sharp.true_log[o].cards]
    assert right and wrong and all(right) and not any(wrong)
    # every play marked unsure: nobody is accused of anything, the injected plays are still asked
    unsure = measure_slips("guafeng-zibo", 5, 5, 0.03, 0.02, sure_marks=(0.0, 0.0))
    trusted = measure_slips("guafeng-zibo", 5, 5, 0.03, 0.02)
    assert unsure["accused"] == 0 and unsure["false_accusations_per_deal"] == 0
    assert unsure["caught"] == trusted["caught"] > 0 and trusted["accused"] <= trusted["caught"]
    assert verdicts_main(["--sure-marks", "0.5", "0.1"]) == 2
    assert "needs --slips" in capsys.readouterr().out
    assert verdicts_main(["--slips", "0", "0", "--sure-marks", "1.5", "0"]) == 2
    assert "--sure-marks rates must lie in [0, 1]" in capsys.readouterr().out
