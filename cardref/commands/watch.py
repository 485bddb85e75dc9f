"""``cardref watch``: camera, stream or video → event log, with the referee's verdicts."""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time

from cardref.vision.resolution import DEFAULT_RESOLUTION, resolution_arg


def _seconds(positive: bool = False):  # noqa: ANN202 - an argparse type
    """An argparse type: a finite number of seconds, 0 or more (``positive``: more than 0)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
        if not math.isfinite(value) or value < 0 or (positive and value == 0):
            raise argparse.ArgumentTypeError(
                f"{text!r} must be a finite number of seconds {'above 0' if positive else '0 or more'}")
        return value

    return parse


def _count(least: int):  # noqa: ANN202 - an argparse type
    """An argparse type: a whole number ``least`` or more."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"{text!r} must be {least} or more")
        return value

    return parse


HELP = "watch a table (camera, stream URL, video or image folder) and write its event log as plays happen"


def add_arguments(p: argparse.ArgumentParser) -> None:
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--camera", type=int, metavar="N", help="camera index (0 = first webcam)")
    src.add_argument("--video", metavar="FILE", help="a video file (or a folder of images)")
    src.add_argument("--url", metavar="URL", help="an RTSP/HTTP stream")
    src.add_argument("--folder", metavar="DIR", help="a folder of images, in name order")
    p.add_argument("--resolution", type=resolution_arg, default=DEFAULT_RESOLUTION, metavar="WxH",
                   help="--camera: the resolution to ask the camera for (default 1280x720; a webcam left alone "
                        "often gives 640x480, too coarse to read cards)")
    p.add_argument("--game", required=True, help="game name (gouji-shandong, guafeng-zibo, chaodipi-anchao, …)")
    p.add_argument("--out", required=True, metavar="LOG.jsonl", help="event log to write (flushed per event)")
    p.add_argument("--calibration", metavar="FILE",
                   help="table calibration (JSON from calibrate/simulate); default: find the markers")
    p.add_argument("--save-calibration", metavar="FILE", help="write the calibration found from the markers here")
    p.add_argument("--overlay", metavar="PNG", help="save the first calibrated frame with the zones drawn on it")
    p.add_argument("--corners", metavar="'x,y x,y x,y x,y'",
                   help="manual calibration: table corners in the image, top-left, top-right, bottom-right, bottom-left")
    p.add_argument("--table-mm", default="1000x700", help="distance between the marker centres, WxH mm (default 1000x700)")
    p.add_argument("--deal", metavar="JSON", help='deal options, e.g. \'{"level":"7","trump":"H","dealer":0}\'')
    p.add_argument("--header", metavar="LOG", help="copy the deal and hand events of this log to the start")
    p.add_argument("--detector", choices=("model", "oracle"), default="model",
                   help="model: the card detector; oracle: replay a simulation's truth (frames.jsonl beside the video)")
    p.add_argument("--model", metavar="PATH", help="detector model file (default: the shipped one)")
    p.add_argument("--deck", metavar="DECK.npz",
                   help="the table's deck, enrolled with cardref enrol-deck: readings are weighed against it")
    p.add_argument("--backend", default="auto", help="detector backend: auto, openvino, onnx, torch")
    p.add_argument("--no-int8", action="store_true",
                   help="run the float finder and namer even where their INT8 copies are the fast ones (CPUs "
                        "without bf16: about 1.5x slower, about one point of card F1 better on real photos)")
    p.add_argument("--oracle-frames", metavar="FILE", help="frames.jsonl for --detector oracle")
    p.add_argument("--oracle-noise", default="none", help="oracle noise preset: none, mild, harsh")
    p.add_argument("--tiles", type=int, choices=(0, 1, 2, 4), default=0,
                   help="run the detector on the whole frame (0), the table only (1), or the table cut in 2 or 4 "
                        "overlapping parts (more pixels per card, 2-4x the time)")
    p.add_argument("--whole-frames", action="store_true",
                   help="have the finder look at every whole frame (by default, after the first frame it looks again "
                        "only at the parts of the table that changed and at the frame where they settle: about 1.5 "
                        "times the frames per second)")
    p.add_argument("--stride", type=_count(1), default=1,
                   help="files: process every Nth frame (live sources skip by themselves)")
    p.add_argument("--settle", type=_seconds(positive=True), default=0.5,
                   help="seconds new cards must stay put to be a play (0.5)")
    p.add_argument("--tune", action="append", default=[], metavar="KEY=VALUE",
                   help="a play-segmenter setting (e.g. min_hits=2, clear_s=1.0); repeatable")
    p.add_argument("--append", action="store_true",
                   help="continue an existing log instead of refusing: a video or image folder goes on after the "
                        "log's last t (plays already logged are not written again); a live source appends after "
                        "the last event, with t counted on")
    p.add_argument("--force", action="store_true", help="overwrite an existing log")
    p.add_argument("--calibrate-timeout", type=_seconds(), default=10.0,
                   help="seconds to look for the markers before giving up (default 10)")
    p.add_argument("--retries", type=_count(0), default=20,
                   help="live sources: reconnection attempts before giving up (default 20, with back-off)")
    p.add_argument("--stall", type=_seconds(positive=True), default=3.0,
                   help="live sources: seconds without a frame that count as a stall")
    p.add_argument("--progress", type=_seconds(), default=3.0, metavar="SECONDS",
                   help="print the progress (position, frames/s, plays) to stderr this often between plays "
                        "(default 3; 0: never)")
    p.add_argument("--lang", choices=("zh", "en"), default="en", help="language of verdict messages")
    p.add_argument("--quiet", action="store_true", help="print nothing but errors")
    p.add_argument("--json", action="store_true", help="print one JSON object per play instead of text")


def _parse_table(text: str) -> tuple[float, float]:
    try:
        w, h = (float(v) for v in text.lower().split("x"))
    except ValueError:
        raise SystemExit(f"cardref watch: --table-mm must look like 1000x700, got {text!r}") from None
    if not all(math.isfinite(v) and v > 0 for v in (w, h)):
        raise SystemExit(f"cardref watch: --table-mm must be two positive sizes in mm (1000x700), got {text!r}")
    return (w, h)


def _err(msg: str) -> None:
    print(f"cardref watch: {msg}", file=sys.stderr)


def _load_calibration(path: str):  # noqa: ANN202 - a Calibration
    """The calibration file, or a :class:`CalibrationError` naming it (a file that is not
    UTF-8 JSON is one too, never a traceback)."""
    from cardref.vision.calibration import CalibrationError, load_calibration

    try:
        return load_calibration(path)
    except CalibrationError:
        raise
    except UnicodeDecodeError as exc:
        raise CalibrationError("calibration.unreadable", f"cannot read calibration {path}: not UTF-8 text "
                               f"(byte {exc.start}); give the JSON file cardref calibrate or simulate wrote") from None
    except (OSError, ValueError, TypeError, KeyError) as exc:
        raise CalibrationError("calibration.unreadable", f"cannot read calibration {path}: {exc}") from None


class _Progress:
    """The progress line between plays (stderr, every ``every`` seconds): position in the
    video, frames per second, plays so far."""

    def __init__(self, every: float, duration: float, enabled: bool) -> None:
        self.every = every
        self.duration = duration
        self.enabled = enabled and every > 0
        self.t0 = time.monotonic()
        self.last = self.t0

    def tick(self, t: float, frames: int, plays: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.last < self.every:
            return
        self.last = now
        where = (f"{t:.1f} s of {self.duration:.1f} s ({100 * min(t / self.duration, 1):.0f}%)"
                 if self.duration > 0 else f"{t:.1f} s")
        rate = frames / max(now - self.t0, 1e-9)
        print(f"[progress] {where}, {frames} frames at {rate:.1f} frames/s, {plays} plays", file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> int:  # noqa: C901 - one command's steps, in order
    from cardref.engine.events import GAME_SEATS, CorrectEvent, PlayEvent
    from cardref.engine.judge import LiveJudge
    from cardref.vision.calibration import CalibrationError, calibrate_manual, parse_corners, save_calibration
    from cardref.vision.capture import SourceError, open_source
    from cardref.vision.logfile import JsonlWriter, LogFileError, read_tail
    from cardref.vision.session import (
        ConfigError,
        HeaderError,
        PipelineConfig,
        TableSession,
        deal_options,
        header_events,
        read_header,
    )
    from cardref.vision.watch import describe_play

    if args.game not in GAME_SEATS:
        _err(f"unknown game {args.game!r}; known: {', '.join(sorted(GAME_SEATS))}")
        return 2
    table_mm = _parse_table(args.table_mm)
    quiet = args.quiet

    def status(st: object, message: str) -> None:
        if not quiet:
            print(f"[capture] {getattr(st, 'value', st)}: {message}", file=sys.stderr, flush=True)

    # calibration given up front
    calibration = None
    try:
        if args.calibration:
            calibration = _load_calibration(args.calibration)
    except CalibrationError as exc:
        _err(f"{exc} [{exc.code}]")
        return 2
    # the header and deal
    try:
        options = deal_options(args.deal, args.game) if args.deal else None
        head = header_events(args.game, deal_options=options,
                             header_lines=read_header(args.header) if args.header else None)
    except HeaderError as exc:
        _err(f"{exc} [{exc.code}]")
        return 2
    # the detector
    try:
        if args.detector == "oracle":
            from cardref.vision.simulate.oracle import OracleDetector, OracleNoise

            if args.deck:
                _err("--deck goes with the model detector, not --detector oracle")
                return 2

            frames = args.oracle_frames or (os.path.join(os.path.dirname(os.path.abspath(args.video)), "frames.jsonl")
                                            if args.video else None)
            if frames is None:
                _err("--detector oracle needs --oracle-frames (or a --video from cardref simulate)")
                return 2
            detector = OracleDetector(frames, OracleNoise.named(args.oracle_noise))
        else:
            from cardref.vision.detector import load_detector

            detector = load_detector(args.backend, args.model, int8=not args.no_int8)
            if args.deck:
                from cardref.vision.detector.deck import DeckProfile

                deck = DeckProfile.load(args.deck)
                detector.use_deck(deck)
                if not args.quiet and not args.json:
                    print(f"deck: {deck.label} ({len(deck.enrolled)} cards enrolled, {args.deck})")
    except (FileNotFoundError, ValueError) as exc:
        _err(str(exc))
        return 2
    except Exception as exc:  # DetectorError and friends: a clear message, not a traceback
        _err(f"cannot load the card detector: {exc}")
        return 2
    # the source
    try:
        source = open_source(camera=args.camera, video=args.video, url=args.url, folder=args.folder,
                             on_status=status, stall_s=args.stall, max_retries=args.retries,
                             resolution=args.resolution)
    except SourceError as exc:
        _err(f"{exc} [{exc.code}]")
        return 2
    if calibration is None and args.corners:
        try:
            calibration = calibrate_manual(parse_corners(args.corners), source.size, table_mm)
        except CalibrationError as exc:
            _err(f"{exc} [{exc.code}]")
            source.close()
            return 2
    try:
        config = PipelineConfig(game=args.game, calibration=calibration, table_mm=table_mm, settle_s=args.settle,
                                tune=tuple(args.tune), stride=args.stride, tiles=args.tiles,
                                whole_frames=args.whole_frames)
        session = TableSession(config, detector)
    except ConfigError as exc:
        _err(f"{exc} [{exc.code}]")
        source.close()
        return 2
    except CalibrationError as exc:
        _err(f"{exc} [{exc.code}]")
        source.close()
        return 2
    width, height = source.size or (0, 0)
    session.prepare((height, width))  # the stream detector's compile, before the first frame
    # the log: never clobber what is there
    exists = os.path.exists(args.out) and os.path.getsize(args.out) > 0
    if exists and not (args.append or args.force):
        _err(f"{args.out} already holds a log; use --append to continue it or --force to overwrite it")
        source.close()
        return 2
    try:
        tail = read_tail(args.out) if (args.append and exists) else None
        writer = JsonlWriter(args.out, append=args.append, tail=tail)
    except LogFileError as exc:
        _err(f"{exc} [{exc.code}]")
        source.close()
        return 2
    session.writer = writer
    judge = LiveJudge()
    judge_broken = [False]

    def feed(item: object, text: bool = False) -> list:
        """The verdicts of one event; a referee failure is reported once and never stops the log."""
        if judge_broken[0]:
            return []
        try:
            return judge.feed_text(item) if text else judge.feed(item)  # type: ignore[arg-type]
        except Exception as exc:  # the log matters more than the live verdicts
            judge_broken[0] = True
            _err(f"the referee failed ({type(exc).__name__}: {exc}); logging continues without verdicts")
            return []

    def show(event: object, verdicts: list, text: str) -> None:
        """Print one written event: a JSON line with its verdicts, or ``text``."""
        if quiet:
            return
        if args.json:
            print(json.dumps({"event": event.to_json(), "verdicts": [v.to_json(args.lang) for v in verdicts]},  # type: ignore[attr-defined]
                             ensure_ascii=False), flush=True)
        else:
            print(text, flush=True)

    said_leader = [False]

    def shown(written: list, corrections: tuple | list = ()) -> None:
        """Feed each written event to the judge, and print the plays and corrections."""
        for index, event in written:
            verdicts = feed(event)
            if isinstance(event, PlayEvent):
                if session.leader_from_play is not None and not said_leader[0]:
                    said_leader[0] = True
                    if not quiet:
                        print(f"[watch] no {config.game} leader given (--header, --deal): seat "
                              f"{session.leader_from_play} played first and is written as the deal's "
                              "first leader", file=sys.stderr)
                show(event, verdicts, describe_play(event, verdicts, args.lang, index))
            elif isinstance(event, CorrectEvent):
                fix = next((c for c in corrections if session.lines_of.get(c.play) == event.ref), None)
                before = " ".join(fix.revision.before) if fix else "?"
                after = " ".join(c.code for c in event.cards or ())
                show(event, verdicts, f"{(event.t or 0.0):8.2f}s  correction of line {event.ref}: {before} → {after}")

    if tail is not None:
        for line in tail.lines:
            feed(line, text=True)
        if tail.torn is not None:
            _err(f"warning: line {tail.torn} of {args.out} is cut off (a crash while writing?); it is kept as it "
                 "is and the new events start on the next line")
        session.resume(tail, live=source.live, fps=source.fps)
        if not quiet and tail.last_t is not None:
            where = (f"from frame {session.start_frame} (t={session.start_frame / source.fps:.1f} s)"
                     if not source.live else f"with t counted on from {tail.last_t:.2f} s")
            print(f"[watch] continuing {args.out} after its last event at t={tail.last_t:.2f} s: {where}; "
                  "plays already logged are not written again", file=sys.stderr)
    else:
        shown(session.start_log(head))
    rc = 0
    failures = 0
    waited_since = time.monotonic()
    t_start = time.monotonic()
    progress = _Progress(args.progress, getattr(source, "duration", 0.0), not quiet)
    pipeline = session.pipeline
    try:
        for frame in session.frames(source):
            try:
                step = session.step(frame)
                failures = 0
            except CalibrationError as exc:
                _err(f"{exc} [{exc.code}]")
                rc = 2
                break
            except OSError as exc:  # the log cannot be written: stop, the lines so far are on disk
                _err(f"cannot write {args.out}: {exc.strerror or exc}; the log so far is kept")
                rc = 3
                break
            except Exception as exc:  # a detector failing on a frame must not lose the log
                failures += 1
                if failures == 1:
                    _err(f"frame {frame.index} could not be processed ({type(exc).__name__}: {exc}); skipping it")
                if failures >= 50:
                    _err(f"50 frames in a row failed; stopping. The log so far is kept in {args.out}")
                    rc = 3
                    break
                continue
            progress.tick(frame.t, pipeline.stats.frames, session.plays)
            if pipeline.calibration is None:
                if time.monotonic() - waited_since > args.calibrate_timeout and frame.t > 1.0:
                    err = pipeline.last_calibration_error
                    _err(f"{err} [{getattr(err, 'code', '')}]" if err else "cannot calibrate")
                    rc = 2
                    break
                continue
            result = step.result
            if result.recalibrated and not quiet:
                print(f"[calibration] camera moved at {frame.t:.1f}s: recalibrated from the markers", file=sys.stderr)
            if pipeline.stats.frames == 1 and pipeline.calibration is not None:
                from cardref.vision.detector.scale import scale_advice

                h, w = frame.image.shape[:2]
                check = scale_advice(pipeline.calibration.card_height_px(), (w, h))
                if not check.ok:
                    _err(f"warning: {check.message}")
                elif not quiet:
                    print(f"[camera] {check.message}", file=sys.stderr)
                if args.save_calibration:
                    save_calibration(pipeline.calibration, args.save_calibration)
                if args.overlay:
                    import cv2

                    from cardref.vision.calibration import draw_calibration

                    if not cv2.imwrite(args.overlay, draw_calibration(frame.image, pipeline.calibration)):
                        _err(f"cannot write {args.overlay}")
            shown(step.written, step.corrections)
            if not quiet and not args.json:
                for c in result.cleared:
                    print(f"{c.t:8.2f}s  {c.zone}: cleared ({len(c.cards)} cards collected)", flush=True)
    except SourceError as exc:  # an empty or unreadable file source
        _err(f"{exc} [{exc.code}]; the log so far is kept in {args.out}")
        rc = 2
    except KeyboardInterrupt:
        rc = 130
    finally:
        try:
            shown(session.finish())  # a header held for the first leader, when no play came
        except OSError as exc:
            _err(f"cannot write {args.out}: {exc.strerror or exc}")
        writer.close()
        source.close()
    st = pipeline.stats
    if not quiet:
        wall = time.monotonic() - t_start
        known = f", {session.known} already in the log" if session.known else ""
        print(f"[watch] {st.frames} frames, {session.plays} plays{known} ({st.confirm} to confirm, "
              f"{st.revisions} corrected), "
              f"{st.fps:.1f} frames/s processing, {wall:.1f}s wall, recalibrations: {st.bumps}; log: {args.out}",
              file=sys.stderr)
        if pipeline.looks is not None and pipeline.looks.frames:
            print(f"[watch] the finder looked at {100 * pipeline.looks.share:.0f}% of the frames' pixels "
                  f"({pipeline.looks.whole} whole frames, {pipeline.looks.tiles} tiles where the table changed)",
                  file=sys.stderr)
    why = source.message or getattr(getattr(source, "status", None), "value", "")
    if pipeline.calibration is None and rc == 0:
        err = pipeline.last_calibration_error
        if err is not None:
            _err(f"never calibrated: {err} [{err.code}]")
        else:
            _err(f"the source gave no frames ({why}); the log so far is kept in {args.out}")
        rc = 2
    elif getattr(getattr(source, "status", None), "value", "") == "failed" and rc == 0:
        _err(f"the source failed ({why}); the log so far is kept in {args.out}")
        rc = 3
    return rc
