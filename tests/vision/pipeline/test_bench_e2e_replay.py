"""``cardref bench e2e``: a deal's model detections kept and replayed (``--detections DIR``),
and frames handed over as a live camera would (``--realtime``)."""

from __future__ import annotations

import numpy as np
import pytest

from cardref.vision.bench_e2e import ReplayDetector, detections_key, main, newest_frames
from cardref.vision.detector.merge import merge_corners
from cardref.vision.types import CornerDetection


class CountingDetector:
    """Finds one corner per frame (a little further right each time)."""

    def __init__(self) -> None:
        self.calls = 0
        self.merged_with_frame = 0

    def detect_corners(self, frame_bgr):
        self.calls += 1
        # numbers a few digits long would survive rounding: these come back whole only unrounded
        return [CornerDetection("QH", 0.8123456789, (10.0 + self.calls / 3, 20.123456, 22.0, 44.0),
                                alts=(("QH", 0.9123456789), ("QD", 0.08)))]

    def merge_cards(self, corners, frame_bgr=None):
        self.merged_with_frame += frame_bgr is not None
        return merge_corners(corners)

    def detect(self, frame_bgr):
        return self.merge_cards(self.detect_corners(frame_bgr), frame_bgr)


def test_corners_are_kept_and_replayed(tmp_path) -> None:
    frame = np.zeros((72, 128, 3), np.uint8)
    path = tmp_path / "dets" / "deal.jsonl"
    live = CountingDetector()
    first = ReplayDetector(live, path)
    seen = [first.detect_indexed(frame, i) for i in range(3)]
    assert live.calls == 3 and all(len(f) == 1 and f[0].card == "QH" for f in seen)
    first.save()
    again = CountingDetector()
    replay = ReplayDetector(again, path)
    replayed = [replay.detect_indexed(frame, i) for i in range(3)]
    assert again.calls == 0  # every frame came from the file, merged again
    assert again.merged_with_frame == 3  # with the frame: the suit reader reads the faces again
    assert replayed == seen  # the corners (with the namer's readings) came back whole, to the bit
    replay.detect_indexed(frame, 3)  # a frame the file lacks is detected and added
    assert again.calls == 1
    replay.save()
    assert len(path.read_text().splitlines()) == 4


def test_the_session_asks_a_replay_by_frame_index(tmp_path) -> None:
    """The live session calls an indexed detector by index (``DetectCall.INDEXED``): a replay
    must be one, or ``bench e2e --detections`` fails on its first frame."""
    from cardref.vision.frame_detector import DetectCall, IndexedDetector, detect_call

    replay = ReplayDetector(CountingDetector(), tmp_path / "deal.jsonl")
    assert isinstance(replay, IndexedDetector)
    assert detect_call(replay, tiles=2) is DetectCall.INDEXED
    assert [c.card for c in replay.detect(np.zeros((8, 8, 3), np.uint8))] == ["QH"]
    assert replay.frames == {}  # a frame without its index is not kept


def test_the_key_names_the_deal_and_changes_with_the_model(tmp_path) -> None:
    model = tmp_path / "m.onnx"
    model.write_bytes(b"one")
    a = detections_key("guafeng-zibo", 3, pile=False, design="aisleriot-plastic", max_plays=30, model=str(model), backend="onnx")
    assert a.startswith("guafeng-zibo-3-aisleriot-plastic-") and a.endswith(".jsonl")
    assert a != detections_key("guafeng-zibo", 4, pile=False, design="aisleriot-plastic", max_plays=30, model=str(model),
                               backend="onnx")
    at_1080p = detections_key("guafeng-zibo", 3, pile=False, design="aisleriot-plastic", max_plays=30,
                              model=str(model), backend="onnx", resolution=(1920, 1080))
    assert a != at_1080p and "-1920x1080-" in at_1080p  # another camera, other frames
    floats = detections_key("guafeng-zibo", 3, pile=False, design="aisleriot-plastic", max_plays=30,
                            model=str(model), backend="onnx", int8=False)
    assert a != floats and "-float-" in floats  # --no-int8: the float files, not their INT8 copies
    model.write_bytes(b"retrained")
    assert a != detections_key("guafeng-zibo", 3, pile=False, design="aisleriot-plastic", max_plays=30, model=str(model),
                               backend="onnx")


def test_detections_need_the_model_detector(capsys) -> None:
    assert main(["--detections", "x", "--detector", "oracle"]) == 2
    assert "--detections goes with --detector model" in capsys.readouterr().err


def test_deals_go_round_the_card_designs(capsys) -> None:
    """A short run sees several designs (not one design picked by a shared seed), and with
    perfect detections every play is exact."""
    import json

    assert main(["--deals", "1", "--games", "guafeng-zibo,chaodipi-anchao", "--max-plays", "2",
                 "--noise", "none", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert len(summary["by_design"]) == 2
    assert summary["total"]["exact"] == summary["total"]["plays"] == 4


def test_a_damaged_detections_file_is_detected_again(tmp_path, capsys) -> None:
    path = tmp_path / "deal.jsonl"
    path.write_text('{"i": 0, "corners": []}\n{"i": 1, "corn')
    live = CountingDetector()
    replay = ReplayDetector(live, path)
    assert "unreadable" in capsys.readouterr().err
    replay.detect_indexed(np.zeros((8, 8, 3), np.uint8), 0)
    assert live.calls == 1  # not taken from the damaged file
    replay.save()
    assert len(path.read_text().splitlines()) == 1


def test_errors_are_split_into_flagged_and_unflagged() -> None:
    """A wrong play the pipeline flagged for confirmation is caught by the referee; one it
    did not flag is a silent error.  Right plays flagged are counted apart."""
    from cardref.vision.bench_e2e import compare, summarize
    from cardref.vision.plays import PlayObservation

    def obs(t: float, seat: int, cards: tuple[str, ...], confirm: bool) -> PlayObservation:
        return PlayObservation(seat, cards, t, t + 0.4, 0.5 if confirm else 0.9, confirm, "seat")

    truth = [(1.0, 0, ("7C",)), (3.0, 1, ("7C", "7C")), (5.0, 2, ("QH",)), (7.0, 3, ("AS",))]
    produced = [obs(1.1, 0, ("7C",), True),           # right, flagged for nothing
                obs(3.1, 1, ("7S", "7C"), True),      # wrong, flagged: caught
                obs(5.1, 2, ("QD",), False),          # wrong, not flagged: silent
                obs(7.0, 3, ("AS",), False),          # right
                obs(9.0, 4, ("2H",), False)]          # phantom, not flagged: silent
    score = compare(truth, produced)
    assert (score.exact, score.wrong, score.phantom) == (2, 2, 1)
    assert (score.exact_flagged, score.wrong_flagged, score.phantom_flagged) == (1, 1, 0)
    total = summarize([score])["total"]
    assert total["unflagged_errors"] == 2 and total["flagged_exact"] == 1 and total["confirm_flags"] == 2


def test_a_camera_resolution_is_width_x_height(capsys) -> None:
    from cardref.vision.resolution import resolution_arg

    assert resolution_arg("1920x1080") == (1920, 1080)
    assert resolution_arg("1280X720") == (1280, 720)
    with pytest.raises(SystemExit):
        main(["--resolution", "1080p"])
    assert "WIDTHxHEIGHT (e.g. 1920x1080), not '1080p'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--resolution", "100000x10"])
    assert "outside 320x180 .. 3840x2160" in capsys.readouterr().err


def test_a_kept_simulation_is_read_back_only_when_it_is_that_deal_whole(tmp_path) -> None:
    """``bench e2e --keep DIR`` twice: the second run reads the deal back (its true plays and
    design) instead of drawing it again; another deal, camera size or play count, or a file
    missing, and it is drawn again."""
    from cardref.vision.simulate import CameraStyle, kept_simulation, simulate_to_dir

    out = tmp_path / "guafeng-zibo-11"
    size = (320, 180)
    sim = simulate_to_dir("guafeng-zibo", 11, out, max_plays=1, split="heldout", style=CameraStyle(size=size))
    kept = kept_simulation(out, "guafeng-zibo", 11, max_plays=1, pile=False, size=size)
    assert kept is not None and kept.design == sim.design
    assert [(round(t, 3), seat, cards) for t, seat, cards in kept.plays] == [
        (round(p.t, 3), p.seat, tuple(p.cards)) for p in sim.timeline.plays]
    assert kept_simulation(out, "guafeng-zibo", 11, max_plays=1, pile=False, size=size, design=sim.design)
    assert kept_simulation(out, "guafeng-zibo", 12, max_plays=1, pile=False, size=size) is None
    assert kept_simulation(out, "guafeng-zibo", 11, max_plays=2, pile=False, size=size) is None
    assert kept_simulation(out, "guafeng-zibo", 11, max_plays=1, pile=False, size=(1280, 720)) is None
    assert kept_simulation(out, "guafeng-zibo", 11, max_plays=1, pile=False, size=size, design="other") is None
    (out / "video.mp4").unlink()
    assert kept_simulation(out, "guafeng-zibo", 11, max_plays=1, pile=False, size=size) is None


class _Frame:
    def __init__(self, i: int) -> None:
        self.index, self.t = i, i / 10  # a 10 fps video


def _live(busy_s: list[float], n: int) -> list[tuple[int, int]]:
    """(frame index, frames skipped before it) that a pipeline busy ``busy_s[k]`` on its k-th
    frame gets from a live 10 fps camera over ``n`` frames."""
    free_at = [0.0]
    got = []
    for frame, skipped in newest_frames((_Frame(i) for i in range(n)), lambda: free_at[0]):
        got.append((frame.index, skipped))
        free_at[0] = max(free_at[0], frame.t) + busy_s[len(got) - 1]
    return got


def test_realtime_hands_over_the_newest_frame_that_arrived_while_busy() -> None:
    """--realtime: a pipeline a little slower than the camera (0.11 s a frame at 10 fps)
    takes the frame that arrived while it was busy (the newest one), skipping none until
    the delay adds up to a whole frame; one twice as slow skips every other frame; one faster
    than the camera takes every frame as it arrives."""
    # free at 0.11, 0.22, ..., 0.99, then 1.10: frames 10 (t=1.0) and 11 (t=1.1) arrive
    # while it is busy with frame 9, and the newer one is taken
    assert _live([0.11] * 20, 12) == [(i, 0) for i in range(10)] + [(11, 1)]
    # free at 0.25: frames 1 and 2 arrived, 2 is taken; free at 0.5: frame 5 arrives then
    assert _live([0.25] * 20, 9) == [(0, 0), (2, 1), (5, 2), (7, 1), (8, 0)]
    assert _live([0.05] * 20, 6) == [(i, 0) for i in range(6)]


def test_the_plays_marked_sure_are_scored_and_silent_errors_counted() -> None:
    """The log's ``sure`` on camera plays (issue #33, item 5), scored live: how many plays are
    marked sure, how many of them are wrong, and which errors nothing warns of (neither
    flagged to confirm nor marked unsure).  A play the detector said nothing about
    (``sure`` None) is neither sure nor a warning."""
    from cardref.vision.bench_e2e import compare, summarize
    from cardref.vision.plays import PlayObservation

    def obs(t: float, seat: int, cards: tuple[str, ...], confirm: bool, sure: bool | None) -> PlayObservation:
        return PlayObservation(seat, cards, t, t + 0.4, 0.5 if confirm else 0.9, confirm, "seat", sure=sure)

    truth = [(1.0, 0, ("7C",)), (3.0, 1, ("7C", "7C")), (5.0, 2, ("QH",)), (7.0, 3, ("AS",)), (9.0, 0, ("3D",))]
    produced = [obs(1.1, 0, ("7C",), False, True),         # right, sure
                obs(3.1, 1, ("7C",), False, True),         # wrong (a card lost), sure: silent
                obs(5.1, 2, ("QD",), False, False),        # wrong, marked unsure: warned
                obs(7.0, 3, ("AS",), False, False),        # right, unsure
                obs(9.0, 0, ("3D",), False, None),         # right, the detector did not say
                obs(11.0, 4, ("2H",), True, True),         # phantom, flagged to confirm (and sure)
                obs(13.0, 5, ("2S",), False, None)]        # phantom, nothing said: silent
    score = compare(truth, produced)
    assert (score.sure_exact, score.sure_errors, score.silent_errors) == (1, 2, 2)
    total = summarize([score])["total"]
    assert total["sure_plays"] == 3 and total["sure_wrong"] == 2
    assert total["sure_precision"] == round(1 / 3, 4) and total["sure_share_of_true"] == 0.2
    assert total["silent_errors"] == 2
    assert any("UNFLAGGED, marked sure" in e for e in score.errors)
    assert any("unflagged, marked unsure" in e for e in score.errors)


def test_a_slower_cpu_is_estimated_by_counting_each_frame_longer(capsys) -> None:
    """--cpu-slowdown K counts the pipeline's time on each frame K times (a CPU K times
    slower): with --realtime it then takes fewer of the video's frames and skips the rest."""
    import json

    def run(*extra: str) -> dict:
        assert main(["--deals", "1", "--games", "guafeng-zibo", "--max-plays", "2", "--noise", "none",
                     "--realtime", "--json", *extra]) == 0
        return json.loads(capsys.readouterr().out)["total"]

    fast, slow = run(), run("--cpu-slowdown", "2000")
    assert slow["frames_skipped"] > fast["frames_skipped"] + 10
    assert slow["pipeline_fps"] < fast["pipeline_fps"] / 100


@pytest.mark.parametrize("args", [["--cpu-slowdown", "3"], ["--realtime", "--cpu-slowdown", "0"],
                                  ["--realtime", "--cpu-slowdown", "nan"]])
def test_a_cpu_slowdown_is_a_positive_number_with_realtime(args, capsys) -> None:
    assert main(args) == 2
    assert "--cpu-slowdown is a number above 0 and goes with --realtime" in capsys.readouterr().err


def test_a_set_frame_cost_makes_a_slow_cpu_repeatable(capsys) -> None:
    """--frame-seconds S counts every frame S seconds (give or take --frame-jitter, drawn from
    the frame's index), whatever it took: two runs skip the same frames and read the same."""
    import json

    def run(*extra: str) -> dict:
        assert main(["--deals", "1", "--games", "guafeng-zibo", "--max-plays", "2", "--noise", "none",
                     "--realtime", "--json", *extra]) == 0
        return json.loads(capsys.readouterr().out)["total"]

    one, two = run("--frame-seconds", "0.3", "--frame-jitter", "0.1"), run("--frame-seconds", "0.3",
                                                                          "--frame-jitter", "0.1")
    assert one["frames_skipped"] == two["frames_skipped"] > 0
    assert {k: one[k] for k in ("exact", "missed", "phantom")} == {k: two[k] for k in ("exact", "missed", "phantom")}
    assert 2.5 < one["pipeline_fps"] < 4.0  # about 1 / 0.3 s
    assert run("--frame-seconds", "0.6")["frames_skipped"] > one["frames_skipped"]


def test_a_frame_cost_is_drawn_from_the_frame_index_alone() -> None:
    from cardref.vision.bench_e2e import frame_cost

    costs = [frame_cost(i, 0.33, 0.12) for i in range(200)]
    assert costs == [frame_cost(i, 0.33, 0.12) for i in range(200)]
    assert all(0.21 <= c <= 0.45 for c in costs) and max(costs) - min(costs) > 0.2
    assert frame_cost(7, 0.5, 0.0) == 0.5


@pytest.mark.parametrize("args", [["--frame-seconds", "0.3"], ["--realtime", "--frame-seconds", "-1"],
                                  ["--realtime", "--frame-jitter", "0.1"],
                                  ["--realtime", "--frame-seconds", "0.3", "--frame-jitter", "0.5"],
                                  ["--realtime", "--frame-seconds", "0.3", "--cpu-slowdown", "2"]])
def test_a_frame_cost_is_checked_before_any_deal_is_drawn(args, capsys) -> None:
    assert main(args) == 2
    assert "--frame-seconds is 0 or more and goes with --realtime" in capsys.readouterr().err
