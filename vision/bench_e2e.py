"""``cardref bench e2e``: simulated deals → video → watch pipeline → log, compared with the truth.

For every game name, ``--deals`` deals are simulated (``cardref simulate``), the video is
read back through the same pipeline ``cardref watch`` uses, and the produced plays are
matched with the true ones:

* exact: same seat and same multiset of cards;
* wrong: a play by the right seat at the right time with other cards;
* missed: a true play with no produced play; phantom: a produced play with no true one;
* latency: from the moment a play came to rest in the video to the frame at which the
  pipeline reported it, plus that frame's processing time;
* frames per second of the pipeline (decode, detector, mapping, segmentation);
* verdicts: the true log (as a camera logs it: no passes, no hands) and the watched log
  the pipeline wrote (after the same head: the deal a referee types in) are both judged,
  and the watched verdicts are set against the true ones through the play matching above
  (:mod:`cardref.engine.verdict_compare`): false accusations (a rule fault on a play that
  was legal, or on a phantom), observation flags, confirmations asked, and with
  ``--inject N`` the share of illegal plays caught.

What reaches the referee: a wrong or phantom play is *flagged* when the pipeline asked for
it to be confirmed (``confirm``: low confidence), and *marked unsure* when the log's
``"sure"`` is false (a card not read surely: the judge then asks rather than accuses).
The plays marked sure are scored (how many, and the share of them right); an error neither
flagged nor marked unsure is *silent* (``--verbose`` says which each error was).

``--drop-rate P`` and ``--misread-rate P`` put a worse detector's slips into the watched
log before it is judged (a play left out; one card of a play read as another card code),
seeded from the deal so that a run repeats; they are counted apart (``slips_dropped``,
``slips_misread``) and do not change the play figures above.  ``--inject N`` makes N true
plays illegal AT THE LOG LEVEL, as ``cardref bench verdicts`` does on a camera log
(another seat, or one card left out, such that the judge faults it); each is carried into
the watched play matched with it (the camera is taken to see the illegal play as it saw
the legal one).  The video still shows the legal play: the detector never sees an illegal
play drawn, and an injected play the pipeline missed (or that was dropped) is not caught.

The deals go round the card designs (the held-out ones for ``--detector model``), one
design per deal in turn, so that a short run sees each of them; the figures are also given
per design.  ``--detections DIR`` keeps the model's named corners of each deal and replays
them on later runs with the same models (merged again each time), for tuning the merge
and the play segmenter; replayed deals leave the detector out of latency and fps.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardref.engine.camera import camera_log, misread, play_indices
from cardref.engine.eventlog import read_log
from cardref.engine.events import GAME_SEATS, AnyEvent, PlayEvent
from cardref.engine.registry import is_gouji
from cardref.engine.verdict_compare import VerdictScore
from cardref.engine.verdict_compare import compare as compare_verdicts
from cardref.vision.resolution import DEFAULT_RESOLUTION, resolution_arg

if TYPE_CHECKING:
    from cardref.vision.simulate.faces import DesignPool

MATCH_WINDOW_S = 2.0


@dataclass
class DealScore:
    game: str
    seed: int
    truth: int = 0
    exact: int = 0
    wrong: int = 0
    missed: int = 0
    phantom: int = 0
    confirm: int = 0
    exact_flagged: int = 0  # right plays flagged for confirmation (a referee checks them for nothing)
    wrong_flagged: int = 0  # wrong plays flagged (the error is caught by the confirmation)
    phantom_flagged: int = 0
    # the plays' ``sure`` (every card read surely; the log's ``"sure": true``): right and wrong
    sure_exact: int = 0  # right plays marked sure
    sure_errors: int = 0  # wrong or phantom plays marked sure
    silent_errors: int = 0  # wrong or phantom plays neither flagged to confirm nor unsure
    dropped: int = 0  # frames skipped in --realtime mode
    decoded: int = 0  # frames of the video
    revised: int = 0  # plays corrected by a later ``correct`` event (counted after correction)
    latencies: list[float] = field(default_factory=list)
    frames: int = 0
    det_truth: int = 0  # visible cards over all frames (oracle truth)
    det_found: int = 0  # … of them found by the detector with the right code
    det_reported: int = 0  # detections reported
    det_wrong_code: int = 0  # detections at a true card's place with another code
    busy_s: float = 0.0
    design: str = ""
    decode_s: float = 0.0
    video_s: float = 0.0
    errors: list[str] = field(default_factory=list)
    enrol_failed: int = 0  # --enrol: the layout could not be read (the deal ran without a profile)
    looked: float = 0.0  # the finder's pixels, in whole frames (a frame looked at whole: 1)
    looked_frames: int = 0  # frames whose finder pixels were counted (not those replayed from --detections)
    rules: list[Any] = field(default_factory=list)  # the segmenter's rule trace (printed per rule by --verbose)
    matched: list[int | None] = field(default_factory=list)  # per produced play: the index of its true play
    verdicts: VerdictScore = field(default_factory=VerdictScore)  # the watched log's verdicts against the truth's
    true_faults: int = 0  # flags on the true log as a camera logs it (a legal deal: 0)
    slips_dropped: int = 0  # --drop-rate: watched plays left out before judging
    slips_misread: int = 0  # --misread-rate: watched plays with one card read as another before judging


def _flag_note(p: Any) -> str:
    """How a wrong or phantom play reached the log (``--verbose``): flagged for the referee to
    confirm; unflagged but marked unsure (the judge asks rather than accuses); or unflagged
    and not marked unsure (an error nothing warns the referee of)."""
    if p.confirm:
        return " (flagged to confirm)"
    if p.sure is False:
        return " (unflagged, marked unsure)"
    return " (UNFLAGGED, marked sure)" if p.sure else " (UNFLAGGED)"


def _count_error(score: DealScore, p: Any) -> None:
    """A wrong or phantom play ``p``: is it marked sure, and does anything warn of it?"""
    score.sure_errors += p.sure is True
    score.silent_errors += not p.confirm and p.sure is not False


def compare(truth: list[tuple[float, int, tuple[str, ...]]], produced: list[Any]) -> DealScore:
    """Match produced :class:`PlayObservation` objects with true ``(t, seat, cards)``."""
    score = DealScore("", 0, truth=len(truth), matched=[None] * len(produced))
    free = list(range(len(produced)))
    for i, (t, seat, cards) in enumerate(truth):
        best = None
        for k in free:
            p = produced[k]
            if p.seat != seat or abs(p.t - t) > MATCH_WINDOW_S:
                continue
            key = (Counter(p.cards) != Counter(cards), abs(p.t - t))
            if best is None or key < best[0]:
                best = (key, k)
        if best is None:
            score.missed += 1
            score.errors.append(f"missed t={t:.2f} seat {seat} {' '.join(cards)}")
            continue
        k = best[1]
        free.remove(k)
        score.matched[k] = i
        p = produced[k]
        if Counter(p.cards) == Counter(cards):
            score.exact += 1
            score.exact_flagged += p.confirm
            score.sure_exact += p.sure is True
            score.latencies.append(p.t_emit - t)
        else:
            score.wrong += 1
            score.wrong_flagged += p.confirm
            _count_error(score, p)
            score.errors.append(f"wrong t={t:.2f} seat {seat}: true {' '.join(cards)} got {' '.join(p.cards)}"
                                f"{_flag_note(p)}")
    for k in free:
        p = produced[k]
        score.phantom += 1
        score.phantom_flagged += p.confirm
        _count_error(score, p)
        score.errors.append(f"phantom t={p.t:.2f} seat {p.seat} {' '.join(p.cards)}{_flag_note(p)}")
    score.confirm = sum(1 for p in produced if p.confirm)
    return score


# ---- verdicts: the watched log judged against the true one ---------------------------------

def judge_events(events: list[AnyEvent]) -> list[Any]:
    """The judge's verdicts, one per event, on ``events`` written out as a log."""
    from cardref.benchmarks.injection import judge_log

    return judge_log(events).verdicts


def true_camera_log(truth_path: Path) -> list[AnyEvent]:
    """A simulation's ``truth.jsonl`` as a camera logs it (no hands, no passes): the head's
    events, then one play per true play, in order."""
    events = [line.event for line in read_log(str(truth_path)) if line.event is not None]
    return camera_log(events)[0]


def watched_log(true_log: list[AnyEvent], produced: list[Any],
                matched: list[int | None]) -> tuple[list[AnyEvent], list[int | None]]:
    """The log the pipeline wrote (``produced`` plays, corrections applied, after the true
    log's head: the deal a referee types in) and ``origin``: per watched event, the index in
    ``true_log`` of its true event (``matched`` gives true play numbers; ``None``: a phantom)."""
    from cardref.vision.watch import play_event

    plays_at = play_indices(true_log)
    head = len(true_log) if not plays_at else plays_at[0]
    events: list[AnyEvent] = [*true_log[:head], *(play_event(p) for p in produced)]
    origin: list[int | None] = [*range(head), *(None if m is None else plays_at[m] for m in matched)]
    return events, origin


def carry_injection(seen: PlayEvent, true: PlayEvent, bad: PlayEvent) -> PlayEvent:
    """The watched play ``seen`` of a true play made illegal (``true`` → ``bad``): the
    camera sees the illegal play as it saw the legal one (its other seat, its cards less
    those the illegal play left out)."""
    left_out = list(true.cards)
    for c in bad.cards:
        if c in left_out:
            left_out.remove(c)
    cards = list(seen.cards)
    for c in left_out:  # where the camera saw them
        if c in cards and len(cards) > 1:
            cards.remove(c)
    seat = bad.seat if bad.seat != true.seat else seen.seat
    return PlayEvent(seat=seat, cards=tuple(cards), t=seen.t, source=seen.source, conf=seen.conf,
                     extra=dict(seen.extra))


def inject_illegal(true_log: list[AnyEvent], watched: list[AnyEvent], origin: list[int | None], n: int,
           rng: random.Random) -> tuple[list[AnyEvent], list[AnyEvent], list[int]]:
    """``n`` true plays made illegal as the camera shows them (``cardref bench verdicts``'
    injection on a camera log), each carried into the watched play matched with it: the
    illegal play is made at the log level, not drawn into the video.  Returns the true log,
    the watched log and the true indices of the illegal plays (fewer than ``n`` when the
    deal has too few plays that can be made illegal)."""
    from cardref.benchmarks.injection import inject_on_camera_log

    true_log, watched = list(true_log), list(watched)
    done: list[int] = []
    for _ in range(4 * n):
        if len(done) == n or not play_indices(true_log):
            break
        bad_log, k = inject_on_camera_log(true_log, rng)
        if k is None:
            break
        if k in done:
            continue
        before, bad = true_log[k], bad_log[k]
        assert isinstance(before, PlayEvent) and isinstance(bad, PlayEvent)
        true_log = bad_log
        done.append(k)
        for j, o in enumerate(origin):
            seen = watched[j]
            if o == k and isinstance(seen, PlayEvent):
                watched[j] = carry_injection(seen, before, bad)
    return true_log, watched, sorted(done)


def degrade(watched: list[AnyEvent], origin: list[int | None], drop_rate: float, misread_rate: float,
            rng: random.Random) -> tuple[list[AnyEvent], list[int | None], int, int]:
    """The watched log with the slips of a worse detector: each play left out with
    probability ``drop_rate``, else one of its cards read as another card code
    (:func:`cardref.engine.camera.misread`) with probability ``misread_rate``.  Returns the
    log, its origin map, plays dropped and plays misread."""
    events: list[AnyEvent] = []
    kept: list[int | None] = []
    dropped = misreads = 0
    for ev, o in zip(watched, origin, strict=True):
        if isinstance(ev, PlayEvent):
            drop, mis = rng.random() < drop_rate, rng.random() < misread_rate  # two draws a play, always
            if drop:
                dropped += 1
                continue
            if mis:
                ev = misread([ev], 0, rng)[0]
                misreads += 1
        events.append(ev)
        kept.append(o)
    return events, kept, dropped, misreads


def score_verdicts(score: DealScore, true_log: list[AnyEvent], produced: list[Any], *, drop_rate: float = 0.0,
                   misread_rate: float = 0.0, injected: int = 0) -> None:
    """Judge the true log and the watched one (degraded and injected as asked, seeded from
    the deal) and put the verdict figures into ``score``."""
    watched, origin = watched_log(true_log, produced, score.matched)
    score.true_faults = sum(1 for v in judge_events(true_log) if not v.ok)
    bad: list[int] = []
    if injected:
        true_log, watched, bad = inject_illegal(true_log, watched, origin, injected,
                                        random.Random(f"inject:{score.game}:{score.seed}"))
    watched, origin, score.slips_dropped, score.slips_misread = degrade(
        watched, origin, drop_rate, misread_rate, random.Random(f"degrade:{score.game}:{score.seed}"))
    verdicts = judge_events(watched)
    score.verdicts = compare_verdicts(verdicts, judge_events(true_log), origin, bad)
    for j in score.verdicts.false_at:  # --verbose: what the judge accused, and on which play
        ev = watched[j]
        what = (f"seat {ev.seat} {' '.join(map(str, ev.cards))} at t={ev.t or 0:.2f}" if isinstance(ev, PlayEvent)
                else type(ev).__name__)
        fault = verdicts[j].fault
        score.errors.append(f"false accusation: {fault.code if fault else '?'} on {what}")


def newest_frames(frames: Iterable[Any], free_at: Callable[[], float]) -> Iterator[tuple[Any, int]]:
    """``frames`` (each with its video time ``t``) as a live camera's newest-frame reader
    hands them to a pipeline that is free again at video time ``free_at()``: when it becomes
    free, the newest frame that has arrived meanwhile (the frames before it are skipped),
    or, when none has, the next one to arrive.  Yields ``(frame, frames skipped before it)``."""
    held = None
    skipped = 0
    for frame in frames:
        while True:
            if frame.t <= free_at():  # arrived while the pipeline was busy: the newest so far
                skipped += held is not None
                held = frame
                break
            if held is None:  # the pipeline was idle: it takes this frame as it arrives
                yield frame, skipped
                skipped = 0
                break
            # the pipeline became free before this frame arrived: it took the one held
            yield held, skipped
            held, skipped = None, 0
    if held is not None:
        yield held, skipped


def frame_cost(index: int, seconds: float, jitter: float) -> float:
    """``--frame-seconds S --frame-jitter J``: the time frame ``index`` of a video takes, S give
    or take up to J, drawn from the index alone (the same frame costs the same in every run,
    whatever frames came before it): a slow CPU made repeatable."""
    return seconds + jitter * (2.0 * random.Random(index * 7919 + 13).random() - 1.0)


def run_deal(game: str, seed: int, workdir: Path, *, detector_kind: str, noise: str, max_plays: int | None,
             model: str | None, backend: str, settle: float, keep_video: bool = False,
             pile: bool = False, tiles: int = 0, stride: int = 1, split: str | None = None,
             realtime: bool = False, tune: list[str] | None = None,
             detections_dir: Path | None = None, design: str | None = None, enrol: bool = False,
             adapt_steps: int = 0,
             resolution: tuple[int, int] = DEFAULT_RESOLUTION, int8: bool = True,
             stream: bool = True, drop_rate: float = 0.0, misread_rate: float = 0.0,
             inject: int = 0, slowdown: float = 1.0,
             frame_seconds: tuple[float, float] | None = None) -> DealScore:
    from cardref.vision.capture import VideoFileSource
    from cardref.vision.detector.regions import DEFAULT_REGIONS, StreamDetector
    from cardref.vision.session import PipelineConfig, TableSession
    from cardref.vision.simulate import CameraStyle, KeptSimulation, kept_simulation, simulate_to_dir

    out = workdir / f"{game}-{seed}{'-pile' if pile else ''}"
    style = CameraStyle(size=resolution)
    # a simulation kept by an earlier run (--keep) is read back instead of drawn again
    kept = kept_simulation(out, game, seed, max_plays=max_plays, pile=pile, size=style.size,
                           design=design) if keep_video else None
    if kept is None:
        sim = simulate_to_dir(game, seed, out, max_plays=max_plays, pile=pile, split=split, design=design,
                              style=style)
        kept = KeptSimulation(out, sim.design, [(p.t, p.seat, p.cards) for p in sim.timeline.plays])
    truth = kept.plays
    enrol_problem = None
    regions = DEFAULT_REGIONS if stream and not tiles else None
    looks = None
    if detector_kind == "oracle":
        from cardref.vision.simulate.oracle import OracleDetector, OracleNoise

        detector: Any = OracleDetector(out / "frames.jsonl", OracleNoise.named(noise), seed=seed)
    else:
        detector = _model_detector(model, backend, int8)
        enrolled, enrol_problem = (_enrol(detector, game, seed, kept.design, split, style, adapt_steps) if enrol
                                   else (None, None))
        detector.use_deck(enrolled)
        if regions is not None:  # a fresh stream per deal: its first frame is looked at whole
            detector = StreamDetector(detector, regions)
            detector.prepare((resolution[1], resolution[0]))  # compiled before the video's clock starts
            looks = detector.stats
        if detections_dir is not None:
            detector = ReplayDetector(detector, detections_dir / detections_key(
                game, seed, pile=pile, design=kept.design, max_plays=max_plays, model=model, backend=backend,
                enrolled=enrol, resolution=resolution, int8=int8, adapt_steps=adapt_steps if enrol else 0,
                regions=regions))
    source = VideoFileSource(str(out / "video.mp4"))
    # the session cardref watch runs (the stream detector, when used, is wrapped above: per deal,
    # under the replay of kept detections)
    session = TableSession(PipelineConfig(game=game, settle_s=settle, tune=tuple(tune or []), stride=stride,
                                          tiles=tiles, whole_frames=regions is None), detector)
    pipe = session.pipeline
    produced = []
    revised = 0
    clock = 0.0  # --realtime: the video time at which the pipeline is free again
    decoded = 0
    dropped = 0
    score_det = [0, 0, 0, 0]
    truth_frames = None
    if detector_kind != "oracle":
        from cardref.vision.simulate.oracle import detection_from_row

        truth_frames = {}
        with open(out / "frames.jsonl", encoding="utf-8") as fh:
            for line in fh:
                obj = json.loads(line)
                truth_frames[int(obj["i"])] = [detection_from_row(r) for r in obj["dets"]]
    frames = 0
    busy = 0.0
    decode = 0.0

    def decoded_frames():  # noqa: ANN202 - a generator of frames
        nonlocal decode, decoded
        it = source.frames()
        while True:
            t0 = time.perf_counter()
            frame = next(it, None)
            decode += time.perf_counter() - t0
            if frame is None:
                return
            decoded += 1
            if session.wants(frame):
                yield frame

    feed = newest_frames(decoded_frames(), lambda: clock) if realtime else ((f, 0) for f in decoded_frames())
    for frame, skipped in feed:
        dropped += skipped  # a live camera moved on while the pipeline was busy
        step = session.step(frame)
        r = step.result
        # --cpu-slowdown: as a CPU that many times slower would take; --frame-seconds: a set cost
        seconds = frame_cost(frame.index, *frame_seconds) if frame_seconds else r.seconds * slowdown
        clock = max(clock, frame.t) + seconds
        done_after = clock - frame.t if realtime else seconds
        frames += 1
        if truth_frames is not None:
            _score_detections(score_det, truth_frames.get(frame.index, []), r.detections,
                              tol_px=12.0 * resolution[0] / DEFAULT_RESOLUTION[0])
        busy += seconds
        for rec in step.plays:
            # the event exists once this frame is processed: add its processing time
            produced.append(_Emitted(rec.observation, done_after))
        for fix in step.corrections:
            rev = fix.revision
            for e in produced:
                if e.obs.play == rev.play:
                    # the play is right only from the correction on: that is its latency
                    e.obs = replace(e.obs, cards=rev.cards, t_emit=rev.t)
                    e.proc_s = done_after
                    revised += 1
    if isinstance(detector, ReplayDetector):
        detector.save()
    score = compare(truth, [e.view() for e in produced])
    score.game, score.seed, score.design = game, seed, kept.design
    score_verdicts(score, true_camera_log(out / "truth.jsonl"), [e.view() for e in produced],
                   drop_rate=drop_rate, misread_rate=misread_rate, injected=inject)
    score.det_truth, score.det_found, score.det_reported, score.det_wrong_code = score_det
    score.revised = revised
    score.rules = list(pipe.segmenter.trace) if pipe.segmenter is not None else []
    if enrol_problem:
        score.errors.insert(0, enrol_problem)
        score.enrol_failed = 1
    score.dropped = dropped
    score.frames, score.busy_s, score.decode_s = frames, busy, decode
    if looks is not None:
        score.looked, score.looked_frames = looks.pixels, looks.frames
    score.video_s = decoded / source.fps
    score.decoded = decoded
    if pipe.calibration is None:
        score.errors.insert(0, f"never calibrated: {pipe.last_calibration_error}")
    if not keep_video:
        for name in ("video.mp4", "frames.jsonl"):
            (out / name).unlink(missing_ok=True)
    return score


def _enrol(detector: Any, game: str, seed: int, design: str, split: str | None,
           style: Any = None, adapt_steps: int = 0) -> tuple[Any, str | None]:
    """The deck of the deal enrolled from a simulated layout frame of it (same table and
    camera, another moment), as a referee would before the game (``--enrol``; the namer
    adapted to it for ``adapt_steps``), or why not."""
    from cardref.vision.detector.deck import DeckProfileError, enrol_layout
    from cardref.vision.simulate.layout import render_layout

    frame, _truth, drawn = render_layout(GAME_SEATS[game], seed, design=design, split=split, style=style)
    try:
        return enrol_layout(detector, frame, drawn, source=f"simulated layout, seed {seed}",
                            adapt_steps=adapt_steps).profile, None
    except DeckProfileError as exc:  # a referee would lay the cards out again; the deal is played without
        return None, f"enrolment failed (played without a deck profile): {exc}"


def _centres(d: Any) -> list[tuple[float, float]]:
    return [((c.box[0] + c.box[2]) / 2, (c.box[1] + c.box[3]) / 2) for c in d.corners] or [d.center]


def _score_detections(acc: list[int], truth: list[Any], found: list[Any], tol_px: float = 12.0) -> None:
    """Per frame: true cards found with the right code (a shared index centre within
    ``tol_px``), detections reported, and detections on a true card with another code."""
    acc[0] += len(truth)
    acc[2] += len(found)
    free = list(range(len(found)))
    for t in truth:
        tc = _centres(t)
        hit = None
        wrong = None
        for k in free:
            d = found[k]
            near = min(abs(a[0] - b[0]) + abs(a[1] - b[1]) for a in tc for b in _centres(d)) <= tol_px
            if near and d.card == t.card:
                hit = k
                break
            if near and wrong is None:
                wrong = k
        if hit is not None:
            acc[1] += 1
            free.remove(hit)
        elif wrong is not None:
            acc[3] += 1
            free.remove(wrong)


@dataclass
class _Emitted:
    obs: Any
    proc_s: float

    def view(self) -> Any:
        return replace(self.obs, t_emit=self.obs.t_emit + self.proc_s)


_MODEL_CACHE: dict[tuple[str | None, str, bool], Any] = {}


def _model_detector(model: str | None, backend: str, int8: bool = True) -> Any:
    key = (model, backend, int8)
    if key not in _MODEL_CACHE:
        from cardref.vision.detector import load_detector

        _MODEL_CACHE[key] = load_detector(backend, model, int8=int8)
    return _MODEL_CACHE[key]


def detections_key(game: str, seed: int, *, pile: bool, design: str, max_plays: int | None,
                   model: str | None, backend: str, enrolled: bool = False,
                   resolution: tuple[int, int] = DEFAULT_RESOLUTION, int8: bool = True, adapt_steps: int = 0,
                   regions: Any = None) -> str:
    """The name of a deal's cached corners: the deal, what drew its frames (the simulator's
    code) and what found and named them (model files, backend, and with ``regions`` the
    stream detector's settings and code: where the finder looked again).  The merge runs
    again at every replay."""
    from cardref.vision import simulate
    from cardref.vision.detector import default_model_paths
    from cardref.vision.detector.int8 import int8_sibling
    from cardref.vision.detector.namer import NAMER_STEM
    from cardref.vision.fingerprint import files_digest

    files = [Path(model)] if model else [p for ps in default_model_paths().values() for p in ps]
    namers = [p.parent / f"{NAMER_STEM}.onnx" for p in files[:1]]
    files += [*namers, *(int8_sibling(p) for p in namers)]  # the namer's INT8 copy runs where it is fresh
    files += sorted(Path(simulate.__file__).parent.glob("*.py"))  # what drew the frames
    if enrolled:  # the kept corners are named with the profile: its code is part of what made them
        from cardref.vision.detector import deck, namer, namer_core

        files += [Path(deck.__file__), Path(namer.__file__), Path(namer_core.__file__)]
    if adapt_steps:  # … and with the namer adapted to the deck: how it was trained too
        from cardref.datasets import namer_train, patch_training
        from cardref.vision.detector import deck_adapt, namer_finetune

        files += [Path(deck_adapt.__file__), Path(namer_finetune.__file__), Path(namer_train.__file__),
                  Path(patch_training.__file__)]
    extra = []
    if regions is not None:
        from cardref.vision.detector import regions as regions_module

        files.append(Path(regions_module.__file__))
        extra.append(repr(regions))
    digest = files_digest([f for f in files if f.is_file()], backend, str(max_plays), *extra, length=10)
    size = "" if resolution == DEFAULT_RESOLUTION else f"-{resolution[0]}x{resolution[1]}"
    floats = "" if int8 else "-float"  # the float files only (--no-int8), where INT8 copies would run
    enrolled_as = ("-enrolled" + (f"-adapted{adapt_steps}" if adapt_steps else "")) if enrolled else ""
    return f"{game}-{seed}{'-pile' if pile else ''}-{design}{enrolled_as}{size}{floats}-{digest}.jsonl"


def _corner_row(c: Any) -> list[Any]:
    # full precision: a replay must see the very numbers the live run merged (rounded to
    # 0.01 px, a joker's piece in one of 24 deals fell the other side of a segmenter margin)
    return [c.card, float(c.conf), *(float(v) for v in c.box), [[a[0], float(a[1])] for a in c.alts]]


def _corner_from_row(row: list[Any]) -> Any:
    from cardref.vision.types import CornerDetection

    return CornerDetection(str(row[0]), float(row[1]), (float(row[2]), float(row[3]), float(row[4]), float(row[5])),
                           alts=tuple((str(a[0]), float(a[1])) for a in row[6]))


class ReplayDetector:
    """The model's named corners of a deal, kept per frame in a file and replayed on later
    runs (``--detections DIR``), merged into cards again each time: tuning the merge or the
    play segmenter then costs seconds, not a detector run.  Frames not in the file are
    detected and added to it (:meth:`save`)."""

    def __init__(self, detector: Any, path: Path) -> None:
        self.detector = detector
        self.path = path
        self.frames: dict[int, list[Any]] = {}
        self.added = 0
        if path.is_file():
            try:
                with open(path, encoding="utf-8") as fh:
                    for line in fh:
                        if line.strip():
                            obj = json.loads(line)
                            self.frames[int(obj["i"])] = [_corner_from_row(r) for r in obj["corners"]]
            except (OSError, ValueError, KeyError, IndexError, TypeError) as exc:
                # a damaged file is detected again (and rewritten), never half used
                print(f"cardref bench e2e: {path} is unreadable ({exc}); detecting that deal again", file=sys.stderr)
                self.frames = {}

    def detect(self, frame_bgr: Any) -> list[Any]:
        """A frame without its index (not one of the deal's): detected, not kept.  With
        :meth:`detect_indexed` this makes the replay an ``IndexedDetector``, which the live
        session asks by index."""
        return self.detector.detect(frame_bgr)

    def detect_indexed(self, frame_bgr: Any, index: int) -> list[Any]:
        if index not in self.frames:
            self.frames[index] = self.detector.detect_corners(frame_bgr)
            self.added += 1
        return self.detector.merge_cards(self.frames[index], frame_bgr)

    def save(self) -> None:
        if not self.added:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".part")
        with open(tmp, "w", encoding="utf-8") as fh:
            for i in sorted(self.frames):
                fh.write(json.dumps({"i": i, "corners": [_corner_row(c) for c in self.frames[i]]}) + "\n")
        tmp.replace(self.path)


def design_pool(split: str | None) -> DesignPool | None:
    """The card designs the deals go round (those with jokers when there are any, as the
    simulator prefers), found as the run needs them; ``None`` without the face library (the
    simulator then draws faces)."""
    from cardref.vision.simulate.faces import DesignPool

    try:
        pool = DesignPool(split)
        pool.pick(0)
    except Exception:  # noqa: BLE001 - no card packages: drawn faces
        return None
    return pool


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    v = sorted(values)
    k = min(len(v) - 1, max(0, int(round(q * (len(v) - 1)))))
    return v[k]


def _verdict_figures(ss: list[DealScore]) -> dict[str, Any]:
    """The judge's verdicts on the watched logs against the true logs': totals and per deal."""
    vs = VerdictScore()
    for s in ss:
        vs.add(s.verdicts)
    n = len(ss)

    def per_deal(x: int) -> float | None:
        return round(x / n, 3) if n else None

    return {
        "false_accusations": vs.false_accusations, "false_accusations_per_deal": per_deal(vs.false_accusations),
        "injected": vs.injected, "caught": vs.caught,
        "caught_share": round(vs.caught / vs.injected, 4) if vs.injected else None,
        "observation_flags": vs.observation_flags, "observation_flags_per_deal": per_deal(vs.observation_flags),
        "verdict_confirmations": vs.confirmations, "verdict_confirmations_per_deal": per_deal(vs.confirmations),
        "verdict_flags": vs.flags, "true_log_flags": sum(s.true_faults for s in ss),
        # the slips put in on purpose (--drop-rate, --misread-rate), apart from the pipeline's own errors
        "slips_dropped": sum(s.slips_dropped for s in ss), "slips_misread": sum(s.slips_misread for s in ss),
    }


def summarize(scores: list[DealScore]) -> dict[str, Any]:
    def agg(ss: list[DealScore]) -> dict[str, Any]:
        truth = sum(s.truth for s in ss)
        lat = [x for s in ss for x in s.latencies]
        frames = sum(s.frames for s in ss)
        busy = sum(s.busy_s for s in ss)
        decode = sum(s.decode_s for s in ss)
        video = sum(s.video_s for s in ss)
        sure_exact, sure_wrong = sum(s.sure_exact for s in ss), sum(s.sure_errors for s in ss)
        return {
            "deals": len(ss), "plays": truth, "exact": sum(s.exact for s in ss),
            "exact_rate": round(sum(s.exact for s in ss) / truth, 4) if truth else None,
            "wrong": sum(s.wrong for s in ss), "missed": sum(s.missed for s in ss),
            "phantom": sum(s.phantom for s in ss), "confirm_flags": sum(s.confirm for s in ss),
            "corrected": sum(s.revised for s in ss),
            # what reaches the log unflagged although wrong: the errors a referee would not see
            "unflagged_errors": sum(s.wrong - s.wrong_flagged + s.phantom - s.phantom_flagged for s in ss),
            "flagged_exact": sum(s.exact_flagged for s in ss),
            # the plays marked sure ("sure": true in the log): how many, and how many of them wrong
            "sure_plays": sure_exact + sure_wrong, "sure_wrong": sure_wrong,
            "sure_precision": round(sure_exact / (sure_exact + sure_wrong), 4) if sure_exact + sure_wrong else None,
            "sure_share_of_true": round(sure_exact / truth, 4) if truth else None,
            # errors the log neither flags for confirmation nor marks unsure: nothing warns the referee
            "silent_errors": sum(s.silent_errors for s in ss),
            "enrolments_failed": sum(s.enrol_failed for s in ss),
            "latency_median_s": round(statistics.median(lat), 3) if lat else None,
            "latency_p95_s": round(_pct(lat, 0.95), 3) if lat else None,
            "latency_max_s": round(max(lat), 3) if lat else None,
            "pipeline_fps": round(frames / busy, 1) if busy else None,
            "with_decode_fps": round(frames / (busy + decode), 1) if busy + decode else None,
            "video_fps": round(sum(s.decoded for s in ss) / video, 1) if video else None,
            "frames": frames,
            "frames_skipped": sum(s.dropped for s in ss),
            "detector_recall": round(sum(s.det_found for s in ss) / sum(s.det_truth for s in ss), 4)
            if sum(s.det_truth for s in ss) and sum(s.det_reported for s in ss) else None,
            "detector_precision": round(sum(s.det_found for s in ss) / sum(s.det_reported for s in ss), 4)
            if sum(s.det_reported for s in ss) else None,
            "detector_wrong_code": sum(s.det_wrong_code for s in ss),
            # the finder's pixels per frame against the whole frame's (looking again where the table changed)
            "finder_share": round(sum(s.looked for s in ss) / sum(s.looked_frames for s in ss), 3)
            if sum(s.looked_frames for s in ss) else None,
            **_verdict_figures(ss),
        }

    games = sorted({s.game for s in scores})
    designs = sorted({s.design for s in scores})
    return {"total": agg(scores), "games": {g: agg([s for s in scores if s.game == g]) for g in games},
            "by_design": {d: agg([s for s in scores if s.design == d]) for d in designs}}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="cardref bench e2e", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=4, help="deals per game (default 4: 24 deals)")
    ap.add_argument("--games", default=",".join(sorted(GAME_SEATS)), help="comma-separated game names")
    ap.add_argument("--detector", choices=("oracle", "model"), default="oracle")
    ap.add_argument("--noise", default="mild", help="oracle noise preset: none, mild, harsh (default mild)")
    ap.add_argument("--model", help="model file for --detector model (default: the shipped one)")
    ap.add_argument("--backend", default="auto")
    ap.add_argument("--no-int8", action="store_true",
                    help="run the float finder and namer even where their INT8 copies are the fast ones")
    ap.add_argument("--max-plays", type=int, default=30, help="plays per deal (default 30; 0 = whole deal)")
    ap.add_argument("--seed", type=int, default=1000, help="first seed")
    ap.add_argument("--settle", type=float, default=0.5)
    ap.add_argument("--resolution", type=resolution_arg, default=DEFAULT_RESOLUTION, metavar="WxH",
                    help="camera resolution of the simulated videos (default 1280x720; see cardref simulate)")
    ap.add_argument("--tiles", type=int, choices=(0, 1, 2, 4), default=0, help="detector tiling (see cardref watch)")
    ap.add_argument("--stride", type=int, default=1, help="process every Nth frame")
    ap.add_argument("--whole-frames", action="store_true",
                    help="the finder looks at every whole frame (default: again only where the table changed)")
    ap.add_argument("--tune", action="append", default=[], metavar="KEY=VALUE",
                    help="a play-segmenter setting (see cardref watch --tune); repeatable")
    ap.add_argument("--realtime", action="store_true",
                    help="play the video at its own speed, as a live camera: when the pipeline is free "
                         "again it takes the newest frame that arrived meanwhile (the others are skipped), "
                         "and latency includes the waiting")
    ap.add_argument("--cpu-slowdown", type=float, default=1.0, metavar="K",
                    help="with --realtime: count the pipeline's time on each frame K times, as a CPU K times "
                         "slower than this one would take (an estimate for a slower machine; default 1)")
    ap.add_argument("--frame-seconds", type=float, default=None, metavar="S",
                    help="with --realtime: each frame takes S seconds (give or take --frame-jitter, drawn "
                         "from the frame's index) instead of the time it took: a slow CPU made repeatable, "
                         "for tuning the play segmenter with the oracle or kept --detections")
    ap.add_argument("--frame-jitter", type=float, default=0.0, metavar="J",
                    help="with --frame-seconds: up to J seconds more or less a frame (default 0)")
    ap.add_argument("--designs", choices=("heldout", "train", "all"), default=None,
                    help="card designs to render (default: heldout for --detector model, all for the oracle)")
    ap.add_argument("--no-pile", action="store_true",
                    help="never use the centre pile (by default every second 够级 deal plays onto it)")
    ap.add_argument("--keep", metavar="DIR", help="keep the simulations (videos, logs) in DIR; a later run with "
                    "the same DIR reads a deal back instead of drawing it again (when the simulator is unchanged)")
    ap.add_argument("--detections", metavar="DIR",
                    help="with --detector model: keep the model's detections of each deal in DIR and replay "
                         "them on later runs with the same models (to tune the play segmenter in seconds; "
                         "replayed frames leave the detector's time out of latency and fps)")
    ap.add_argument("--enrol", action="store_true",
                    help="with --detector model: before each deal, enrol its deck from a simulated layout "
                         "frame (cardref enrol-deck), as a referee does before a game")
    ap.add_argument("--adapt-steps", type=int, default=None, metavar="N",
                    help="with --enrol: steps of adapting the corner namer to each deal's deck (default "
                         "that of cardref enrol-deck; 0: the deck profile alone)")
    ap.add_argument("--drop-rate", type=float, default=0.0, metavar="P",
                    help="before judging, leave each watched play out with probability P (a fraction, default "
                         "0), seeded from the deal: a worse detector's missed plays, counted as slips_dropped")
    ap.add_argument("--misread-rate", type=float, default=0.0, metavar="P",
                    help="before judging, read one card of each watched play as another card code with "
                         "probability P (default 0), seeded from the deal; counted as slips_misread")
    ap.add_argument("--inject", type=int, default=0, metavar="N",
                    help="make N true plays of each deal illegal (another seat, or a card left out) at the LOG "
                         "level, as cardref bench verdicts does, and carry each into the watched play matched "
                         "with it; the video still shows the legal play.  caught = injected plays flagged")
    ap.add_argument("--json", action="store_true", help="print the summary as JSON")
    ap.add_argument("--verbose", action="store_true", help="list every wrong, missed and phantom play")
    args = ap.parse_args(argv)
    for name in ("drop_rate", "misread_rate"):
        rate = getattr(args, name)
        if not 0.0 <= rate <= 1.0:  # also NaN
            print(f"cardref bench e2e: --{name.replace('_', '-')} is a fraction from 0 to 1, not {rate}",
                  file=sys.stderr)
            return 2
    if not (args.cpu_slowdown > 0 and math.isfinite(args.cpu_slowdown)) or (args.cpu_slowdown != 1
                                                                             and not args.realtime):
        print(f"cardref bench e2e: --cpu-slowdown is a number above 0 and goes with --realtime, not "
              f"{args.cpu_slowdown}", file=sys.stderr)
        return 2
    frame_seconds = None
    if args.frame_seconds is not None or args.frame_jitter:
        fs, fj = args.frame_seconds, args.frame_jitter
        if (fs is None or not args.realtime or args.cpu_slowdown != 1 or not (math.isfinite(fs) and fs >= 0)
                or not (math.isfinite(fj) and 0 <= fj <= fs)):
            print(f"cardref bench e2e: --frame-seconds is 0 or more and goes with --realtime (not with "
                  f"--cpu-slowdown); --frame-jitter goes with it, from 0 to --frame-seconds: not {fs}, {fj}",
                  file=sys.stderr)
            return 2
        frame_seconds = (fs, fj)
    if args.inject < 0:
        print(f"cardref bench e2e: --inject is 0 or more, not {args.inject}", file=sys.stderr)
        return 2
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    bad = [g for g in games if g not in GAME_SEATS]
    if bad:
        print(f"cardref bench e2e: unknown game(s) {', '.join(bad)}", file=sys.stderr)
        return 2
    try:
        from cardref.vision.session import PipelineConfig

        for g in games:  # a bad --settle, --stride or --tune is an error before any deal is drawn
            PipelineConfig(game=g, settle_s=args.settle, tune=tuple(args.tune), stride=args.stride, tiles=args.tiles)
    except ValueError as exc:
        print(f"cardref bench e2e: {exc}", file=sys.stderr)
        return 2
    if args.detections and (args.detector != "model" or args.tiles):
        print("cardref bench e2e: --detections goes with --detector model, without --tiles", file=sys.stderr)
        return 2
    if args.enrol and args.detector != "model":
        print("cardref bench e2e: --enrol goes with --detector model", file=sys.stderr)
        return 2
    if args.adapt_steps is not None and (not args.enrol or args.adapt_steps < 0):
        print("cardref bench e2e: --adapt-steps goes with --enrol, 0 or more", file=sys.stderr)
        return 2
    if args.adapt_steps is None:
        from cardref.vision.detector.deck_adapt import ADAPT_STEPS

        args.adapt_steps = ADAPT_STEPS if args.enrol else 0
    if args.detector == "model":
        try:
            _model_detector(args.model, args.backend, not args.no_int8)
        except Exception as exc:
            print(f"cardref bench e2e: cannot load the card detector: {exc}", file=sys.stderr)
            return 2
    tmp = None
    if args.keep:
        workdir = Path(args.keep)
        workdir.mkdir(parents=True, exist_ok=True)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="cardref-e2e-")
        workdir = Path(tmp.name)
    scores: list[DealScore] = []
    designs = args.designs or ("heldout" if args.detector == "model" else "all")
    split = None if designs == "all" else designs
    pool = design_pool(split)
    t0 = time.time()
    try:
        for d in range(args.deals):
            for gi, g in enumerate(games):
                # the deals go round the designs, so a short run sees every one of them
                design = pool.pick(d * len(games) + gi) if pool is not None else None
                seed = args.seed + d
                pile = is_gouji(g) and d % 2 == 1 and not args.no_pile
                s = run_deal(g, seed, workdir, detector_kind=args.detector, noise=args.noise,
                             max_plays=args.max_plays or None, model=args.model, backend=args.backend,
                             int8=not args.no_int8,
                             settle=args.settle, keep_video=bool(args.keep), pile=pile, tiles=args.tiles,
                             stride=args.stride, split=split, realtime=args.realtime, tune=args.tune,
                             detections_dir=Path(args.detections) if args.detections else None, design=design,
                             enrol=args.enrol, adapt_steps=args.adapt_steps, resolution=args.resolution,
                             stream=not args.whole_frames, drop_rate=args.drop_rate,
                             misread_rate=args.misread_rate, inject=args.inject,
                             slowdown=args.cpu_slowdown, frame_seconds=frame_seconds)
                scores.append(s)
                if not args.json:
                    v = s.verdicts
                    print(f"{g:18s} seed {seed}{' pile' if pile else '     '} {s.design:32s}: "
                          f"{s.exact}/{s.truth} exact, {s.wrong} wrong, {s.missed} missed, "
                          f"{s.phantom} phantom, {s.frames} frames, {s.frames / max(s.busy_s, 1e-9):.0f} fps; "
                          f"verdicts: {v.false_accusations} false acc., {v.caught}/{v.injected} caught, "
                          f"{v.observation_flags} obs., {v.confirmations} confirm"
                          + (f" ({s.slips_dropped} dropped, {s.slips_misread} misread)"
                             if args.drop_rate or args.misread_rate else ""),
                          flush=True)
                    if args.verbose:
                        for e in s.errors:
                            print(f"    {e}")
    finally:
        if tmp is not None:
            tmp.cleanup()
    summary = summarize(scores)
    summary["detector"] = args.detector
    if args.detector == "oracle":
        summary["noise"] = args.noise
    summary["wall_s"] = round(time.time() - t0, 1)
    summary["designs"] = designs
    summary["enrolled"] = args.enrol
    summary["adapt_steps"] = args.adapt_steps
    summary["resolution"] = f"{args.resolution[0]}x{args.resolution[1]}"
    summary["drop_rate"], summary["misread_rate"], summary["inject"] = args.drop_rate, args.misread_rate, args.inject
    if args.verbose:  # one row per segmenter rule: cards it decided about, plays it changed
        from cardref.vision.segmenter import format_summary, summarise
        rows = summarise(*(s.rules for s in scores))
        summary["rules"] = {r.rule: {"fired": r.fired, "plays": r.plays} for r in rows}
        if not args.json:
            print("\nsegmenter rules over all deals:\n" + "\n".join(format_summary(rows)))
    if args.json:
        print(json.dumps(summary, indent=1))
    else:
        tot = summary["total"]
        how = args.detector + ("/" + args.noise if args.detector == "oracle" else "") + (", deck enrolled" if args.enrol else "")
        how += f", namer adapted {args.adapt_steps} steps" if args.adapt_steps else ""
        how += f", {summary['resolution']}"
        print(f"\nTOTAL over {tot['deals']} deals ({how}): "
              f"{tot['exact']}/{tot['plays']} plays exact ({100 * (tot['exact_rate'] or 0):.2f}%), "
              f"{tot['wrong']} wrong, {tot['missed']} missed, {tot['phantom']} phantom, "
              f"{tot['confirm_flags']} flagged for confirmation, {tot['corrected']} corrected by a later correct event")
        print(f"unflagged errors (wrong or phantom plays not flagged for confirmation): {tot['unflagged_errors']}; "
              f"right plays flagged: {tot['flagged_exact']}")
        sure_prec = "n/a" if tot["sure_precision"] is None else f"{100 * tot['sure_precision']:.1f}% right"
        print(f"plays marked sure: {tot['sure_plays']} ({sure_prec}, {tot['sure_wrong']} wrong or phantom), "
              f"{100 * (tot['sure_share_of_true'] or 0):.1f}% of true plays read right and marked sure; "
              f"silent errors (neither flagged nor marked unsure): {tot['silent_errors']}")
        caught = f"{tot['caught']}/{tot['injected']} injected illegal plays caught" + (
            f" ({100 * tot['caught_share']:.1f}%)" if tot["caught_share"] is not None else "")
        print(f"verdicts on the watched logs: {tot['false_accusations']} false accusations "
              f"({tot['false_accusations_per_deal']} per deal), {caught}, {tot['observation_flags']} observation "
              f"flags ({tot['observation_flags_per_deal']} per deal), {tot['verdict_confirmations']} confirmations "
              f"asked ({tot['verdict_confirmations_per_deal']} per deal); {tot['true_log_flags']} flags on the true logs")
        if args.drop_rate or args.misread_rate:
            print(f"slips put in before judging (--drop-rate {args.drop_rate}, --misread-rate {args.misread_rate}): "
                  f"{tot['slips_dropped']} plays dropped, {tot['slips_misread']} plays with a card misread")
        if args.enrol:
            print(f"deck enrolments that failed (deal played without a profile): {tot['enrolments_failed']}")
        print(f"latency after a play settles: median {tot['latency_median_s']} s, p95 {tot['latency_p95_s']} s, "
              f"max {tot['latency_max_s']} s")
        if tot.get("detector_recall") is not None:
            print(f"detector per frame: recall {tot['detector_recall']}, precision {tot['detector_precision']}, "
                  f"{tot['detector_wrong_code']} wrong codes on true cards (visible cards, 12 px)")
        if len(summary["by_design"]) > 1:
            print("by card design: " + ", ".join(f"{d} {v['exact']}/{v['plays']}"
                                                  for d, v in summary["by_design"].items()))
        skipped = f", {tot['frames_skipped']} frames skipped (--realtime)" if args.realtime else ""
        print(f"pipeline {tot['pipeline_fps']} frames/s ({tot['with_decode_fps']} with video decoding{skipped}) "
              f"for {tot['video_fps']} fps video; wall {summary['wall_s']} s")
        if tot.get("finder_share") is not None:
            print(f"the finder looked at {100 * tot['finder_share']:.1f}% of the pixels of the frames it saw "
                  "(again only where the table changed; --whole-frames: 100%)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
