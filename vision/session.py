"""One table session: source → detector → segmenter → events → sink.

``cardref watch``, the dashboard's live source (:mod:`cardref.ui.sources`) and ``cardref
bench e2e`` all build a :class:`TableSession` from one :class:`PipelineConfig` and step it
frame by frame; they differ only in where frames come from and what they print.

* The per-frame steps (calibration, detector, table coordinates, play segmenter) are
  :class:`~cardref.vision.watch.Pipeline`; the detector's capabilities are the declared
  protocols of :mod:`cardref.vision.frame_detector`.
* A play is a :class:`PlayRecord`: its ``play`` event and, beside it, the segmenter's id
  of that play (a later :class:`CorrectionRecord` refers to it); the event itself holds
  only what the log holds.
* With a writer (:class:`~cardref.vision.logfile.JsonlWriter`, fsync per event) the session
  writes what it sees, and a play read again becomes a ``correct`` event of the line that
  play was written on.
* :func:`header_events` makes the events written before the first play.  A header of
  another game than the session's is an error (:class:`HeaderError`, code
  ``header.other_game``), for every caller: a log that starts with the wrong game's deal
  would be judged by the wrong rules, so nobody drops it silently.
* The first leader.  When neither the header nor the deal options say who leads (``leader``
  in 够级, ``dealer`` in the 升级 family, whose dealer leads the first trick), the session
  holds the deal back and writes it with the seat of the first play it sees
  (:attr:`TableSession.leader_from_play`), instead of assuming seat 0 and flagging the real
  leader's play.  A session that sees no play writes the deal as it was.
* Resuming a log (:meth:`TableSession.resume`).  A file source (video, image folder) goes
  on at the frame of the log's last ``t`` less :attr:`PipelineConfig.resume_warmup_s`, and
  plays resting at or before that ``t`` are the log's already: they are not written again
  (the warm-up frames show the segmenter the cards already on the table).  A live source
  goes on with ``t`` counted on from the log's last ``t``, and the cards on the table in its
  first frame are not a play.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, fields, replace
from typing import Any, Protocol

from cardref.engine.eventlog import read_lines
from cardref.engine.events import (
    GAME_SEATS,
    AnyEvent,
    CorrectEvent,
    DealEvent,
    EventError,
    PlayEvent,
    event_from_json,
)

from .calibration import Calibration
from .capture import Frame
from .detector.regions import DEFAULT_REGIONS, RegionSettings
from .frame_detector import FrameDetector
from .logfile import JsonlWriter, LogTail
from .plays import PlayObservation, PlayRevision, SegmenterSettings, for_game, tuned
from .watch import FrameResult, Pipeline, correction_event, play_event
from .zones import DEFAULT_TABLE_MM

#: The deal option that names who plays first, per game family (the 升级 dealer leads).
LEADER_OPTION = {"gouji": "leader", "shengji": "dealer"}


class ConfigError(ValueError):
    """A setting of the session that cannot work; ``code`` is stable, the message names it."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)


class HeaderError(ValueError):
    """A header log or deal options that cannot start this session's log."""

    def __init__(self, code: str, message: str) -> None:
        self.code = code
        super().__init__(message)


@dataclass(frozen=True)
class PipelineConfig:
    """Every setting of a table session (what ``watch``, the dashboard and the bench pass)."""

    game: str
    calibration: Calibration | None = None
    table_mm: tuple[float, float] = DEFAULT_TABLE_MM
    settle_s: float = 0.5  # seconds new cards stay put to be a play
    tune: tuple[str, ...] = ()  # KEY=VALUE play-segmenter settings
    stride: int = 1  # file sources: every Nth frame
    tiles: int = 0  # 0 whole frame, 1 table only, 2 or 4 tiles of it
    whole_frames: bool = False  # the finder looks at every whole frame (no stream detector)
    regions: RegionSettings = DEFAULT_REGIONS  # the stream detector's settings otherwise
    watch_bumps: bool = True  # recalibrate when the markers move
    fps: float | None = None  # frames without a time of their own are at index / fps
    resume_warmup_s: float = 4.0  # a resumed file goes back this far before the log's last t

    def __post_init__(self) -> None:
        if self.game not in GAME_SEATS:
            raise ConfigError("config.unknown_game", f"unknown game {self.game!r}; known: {', '.join(sorted(GAME_SEATS))}")
        if not (math.isfinite(self.settle_s) and self.settle_s > 0):
            raise ConfigError("config.bad_value", f"settle must be a positive number of seconds, got {self.settle_s}")
        if self.stride < 1:
            raise ConfigError("config.bad_value", f"stride must be 1 or more, got {self.stride}")
        if self.tiles not in (0, 1, 2, 4):
            raise ConfigError("config.bad_value", f"tiles must be 0, 1, 2 or 4, not {self.tiles}")
        if not all(math.isfinite(v) and v > 0 for v in self.table_mm):
            raise ConfigError("config.bad_value", f"table size must be two positive numbers of mm, got {self.table_mm}")
        if not (math.isfinite(self.resume_warmup_s) and self.resume_warmup_s >= 0):
            raise ConfigError("config.bad_value", f"resume warm-up must be 0 s or more, got {self.resume_warmup_s}")
        self.segmenter_settings()  # a bad --tune is an error now, not at the first frame

    @property
    def seats(self) -> int:
        return GAME_SEATS[self.game]

    def segmenter_settings(self) -> SegmenterSettings:
        """The play segmenter's settings: the game's decks, ``settle_s``, then ``tune``."""
        try:
            settings = tuned(for_game(SegmenterSettings(settle_s=self.settle_s), self.game), list(self.tune))
        except ValueError as exc:
            raise ConfigError("config.bad_tune", str(exc)) from None
        for f in fields(settings):
            v = getattr(settings, f.name)
            if isinstance(v, float) and not (math.isfinite(v) and v >= 0):
                raise ConfigError("config.bad_tune", f"setting {f.name} must be a finite number 0 or more, got {v}")
            if isinstance(v, int) and v < 0:
                raise ConfigError("config.bad_tune", f"setting {f.name} must be 0 or more, got {v}")
        return settings


# ---- the header ------------------------------------------------------------------------------

def deal_options(text: str, game: str) -> dict[str, Any]:
    """``--deal`` text: a JSON object of the deal's options (or a whole ``deal`` event of
    ``game``); raises :class:`HeaderError` for anything else (another event, another game,
    a value the log cannot hold)."""
    try:
        obj = json.loads(text)
    except ValueError as exc:
        raise HeaderError("deal.not_json", f"--deal must be a JSON object: {exc}") from None
    if not isinstance(obj, dict):
        raise HeaderError("deal.not_object", f"--deal must be a JSON object of deal options, not {type(obj).__name__}")
    kind = obj.pop("type", "deal")
    if kind != "deal":
        raise HeaderError("deal.not_a_deal", f"--deal must be the deal's options (e.g. "
                                             f"'{{\"level\":\"7\",\"trump\":\"H\",\"dealer\":0}}'), not a {kind!r} event")
    named = obj.pop("game", game)
    if named != game:
        raise HeaderError("deal.other_game", f"--deal is a deal of {named}, not {game}")
    seats = obj.pop("seats", GAME_SEATS[game])
    if seats != GAME_SEATS[game]:
        raise HeaderError("deal.bad_seats", f"--deal says {seats} seats; {game} is played by {GAME_SEATS[game]}")
    try:
        event_from_json({"type": "deal", "game": game, "seats": seats, **obj})
    except EventError as exc:
        raise HeaderError("deal.bad_value", f"--deal: {exc}") from None
    return obj


def header_events(game: str, *, deal_options: dict[str, Any] | None = None,
                  header_lines: Iterable[str] | None = None) -> list[AnyEvent]:
    """The events written before the first play: the header's events up to its first play
    (a ``deal`` and hands, declarations), or a ``deal`` of ``game`` with ``deal_options``.
    A bad header line, or a header dealt for another game, raises :class:`HeaderError`."""
    events: list[AnyEvent] = []
    if header_lines is not None:
        for line in read_lines(header_lines):
            if line.error is not None:
                raise HeaderError("header.bad_line", f"header line {line.lineno}: {line.error}")
            ev = line.event
            if isinstance(ev, PlayEvent):
                break
            events.append(ev)  # type: ignore[arg-type]
    deal = next((e for e in events if isinstance(e, DealEvent)), None)
    if deal is not None and deal.game != game:
        raise HeaderError("header.other_game", f"the header's deal is for {deal.game}, not {game}")
    if deal is None:
        events.insert(0, DealEvent(game=game, seats=GAME_SEATS[game], options=dict(deal_options or {})))
    return events


def read_header(path: str) -> list[str]:
    """The lines of a header log, read as UTF-8; raises :class:`HeaderError` naming the file."""
    try:
        with open(path, encoding="utf-8-sig") as fh:
            return fh.readlines()
    except UnicodeDecodeError as exc:
        raise HeaderError("header.not_utf8", f"cannot read header {path}: not UTF-8 text (byte {exc.start}); "
                                             "give the event log (JSON Lines) the deal comes from") from None
    except OSError as exc:
        raise HeaderError("header.unreadable", f"cannot read header {path}: {exc.strerror or exc}") from None


def leader_option(game: str) -> str | None:
    """The deal option that names who plays first in ``game`` (None: the game has none)."""
    from cardref.engine import registry

    rules = registry.get(game)
    return LEADER_OPTION.get(rules.family) if rules is not None else None


# ---- what a session reports ------------------------------------------------------------------

@dataclass(frozen=True)
class PlayRecord:
    """A play the session saw: the event for the log, and the segmenter's id of the play."""

    event: PlayEvent
    play: int
    observation: PlayObservation


@dataclass(frozen=True)
class CorrectionRecord:
    """A play read again: the segmenter's id of the play and what it now reads."""

    play: int
    revision: PlayRevision

    def event(self, ref: int) -> CorrectEvent:
        """The ``correct`` event of the play written at log line ``ref``."""
        return correction_event(self.revision, ref)


@dataclass
class SessionStep:
    """One frame through the session."""

    result: FrameResult
    plays: list[PlayRecord] = field(default_factory=list)
    corrections: list[CorrectionRecord] = field(default_factory=list)
    written: list[tuple[int, AnyEvent]] = field(default_factory=list)  # (log line, event) written this frame


class FrameSource(Protocol):
    """A source of :class:`~cardref.vision.capture.Frame` objects (capture's sources)."""

    live: bool

    def frames(self, start: int = 0) -> Iterator[Frame]: ...


class TableSession:
    """source → detector → segmenter → events → sink, built once from a :class:`PipelineConfig`."""

    def __init__(self, config: PipelineConfig, detector: FrameDetector, *, writer: JsonlWriter | None = None) -> None:
        self.config = config
        self.pipeline = Pipeline(detector, config.seats, config.calibration, settings=config.segmenter_settings(),
                                 table_mm=config.table_mm, watch_bumps=config.watch_bumps, tiles=config.tiles,
                                 regions=None if config.whole_frames else config.regions)
        self.writer = writer
        self.lines_of: dict[int, int] = {}  # the segmenter's play id -> its log line
        self.held: list[AnyEvent] = []  # a header held back until the first play names the leader
        self.leader_from_play: int | None = None  # the seat taken as the first leader, once it played
        self.start_frame = 0  # the first frame of a file source to read
        self.quiet_until: float | None = None  # plays resting at or before this t are the log's already
        self.t_offset = 0.0  # added to a live source's t (a resumed log counts on)
        self._live_resume = False
        self._frame_count = 0
        self.plays = 0  # plays reported (those a resumed log had already are not)
        self.known = 0  # plays the resumed log had already

    # ---- building it up --------------------------------------------------------------------
    @property
    def detector(self) -> FrameDetector:
        return self.pipeline.detector

    @property
    def calibration(self) -> Calibration | None:
        return self.pipeline.calibration

    def set_calibration(self, calibration: Calibration) -> None:
        self.pipeline.set_calibration(calibration)

    def prepare(self, frame_hw: tuple[int, int]) -> None:
        """Ready the detector for frames of ``frame_hw`` (height, width) before the first one."""
        self.pipeline.prepare(frame_hw)

    def start_log(self, head: list[AnyEvent]) -> list[tuple[int, AnyEvent]]:
        """Write the header events; when their deal does not say who leads, hold them until
        the first play does (module docstring).  Returns what was written."""
        deal = next((e for e in head if isinstance(e, DealEvent)), None)
        key = leader_option(self.config.game)
        if deal is not None and key is not None and key not in deal.options:
            self.held = list(head)
            return []
        return self._write_all(head)

    def resume(self, tail: LogTail, *, live: bool, fps: float | None) -> None:
        """Go on after the log ``tail`` holds (module docstring): where a file source starts,
        which plays are the log's already, and how a live source's ``t`` counts on."""
        if tail.last_t is None:
            return
        if live:
            self.t_offset = tail.last_t
            self._live_resume = True
            return
        rate = fps or self.config.fps
        if rate:
            self.start_frame = max(0, math.floor((tail.last_t - self.config.resume_warmup_s) * rate))
        self.quiet_until = tail.last_t

    def finish(self) -> list[tuple[int, AnyEvent]]:
        """Write a header still held (no play came to name the leader)."""
        held, self.held = self.held, []
        return self._write_all(held)

    # ---- the frames ----------------------------------------------------------------------------
    def wants(self, frame: Frame) -> bool:
        """Whether a file source's ``frame`` is one the stride keeps."""
        return self.config.stride <= 1 or frame.index % self.config.stride == 0

    def frames(self, source: FrameSource) -> Iterator[Frame]:
        """The frames of ``source`` this session processes: from :attr:`start_frame` and by
        the stride for a file; with ``t`` counted on from a resumed log's for a live one."""
        if source.live:
            for frame in source.frames():
                yield replace(frame, t=frame.t + self.t_offset) if self.t_offset else frame
            return
        for frame in source.frames(start=self.start_frame):
            if self.wants(frame):
                yield frame

    def step(self, frame: Frame) -> SessionStep:
        """Process one frame: its plays and corrections, written when the session has a writer."""
        if self._live_resume and self._frame_count == 0:
            self.quiet_until = frame.t  # the cards on the table when watching resumed are no play
        self._frame_count += 1
        result = self.pipeline.process(frame)
        out = SessionStep(result)
        for obs in result.plays:
            if self.quiet_until is not None and obs.t <= self.quiet_until + 1e-6:
                self.known += 1
                continue  # the log has it (or it lay there before the session resumed)
            out.plays.append(PlayRecord(play_event(obs), obs.play, obs))
            self.plays += 1
        out.corrections = [CorrectionRecord(rev.play, rev) for rev in result.revisions]
        if self.writer is not None:
            self._write_step(out)
        return out

    def pile(self) -> list[str]:
        """The cards in the centre pile (the zone without a seat), as the segmenter has them."""
        seg = self.pipeline.segmenter
        cal = self.pipeline.calibration
        if seg is None or cal is None or cal.layout is None:
            return []
        on_table = seg.on_table()
        for zone in cal.layout.zones:
            if zone.seat is None:
                return [str(c) for c in on_table.get(zone.name, [])]
        return []

    # ---- writing ---------------------------------------------------------------------------------
    def _write_all(self, events: Iterable[AnyEvent]) -> list[tuple[int, AnyEvent]]:
        assert self.writer is not None
        return [(self.writer.write(ev)[0], ev) for ev in events]

    def _write_step(self, out: SessionStep) -> None:
        for rec in out.plays:
            if self.held:
                out.written += self._release_held(rec.event.seat)
            index = self.writer.write(rec.event)[0]  # type: ignore[union-attr]
            self.lines_of[rec.play] = index
            out.written.append((index, rec.event))
        for fix in out.corrections:
            ref = self.lines_of.get(fix.play)
            if ref is None:  # a play not written by this session (the log's already)
                continue
            ev = fix.event(ref)
            out.written.append((self.writer.write(ev)[0], ev))  # type: ignore[union-attr]

    def _release_held(self, seat: int) -> list[tuple[int, AnyEvent]]:
        key = leader_option(self.config.game)
        assert key is not None
        head = [replace(e, options={**e.options, key: seat}) if isinstance(e, DealEvent) else e for e in self.held]
        self.held = []
        self.leader_from_play = seat
        return self._write_all(head)
