"""The events of the table event log (spec: shared/spec/event-log.md, version 1).

Each event is a frozen dataclass.  :func:`event_from_json` turns one decoded JSON
object into an event or raises :class:`EventError` with a stable ``code``; unknown keys
are kept in ``extra`` and written back out unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .cards import Card, CardCodeError, format_cards, parse_cards

#: Game names of the spec and their seat counts.
GAME_SEATS: dict[str, int] = {
    "gouji-shandong": 6,
    "gouji-yucheng": 6,
    "guafeng-zibo": 4,
    "chaodipi-anchao": 4,
    "chaodipi-kangqi": 4,
    "chaodipi-mingchao": 4,
}

_COMMON_KEYS = ("type", "t", "source", "conf")
SOURCES = ("camera", "manual", "import")


class EventError(ValueError):
    """One log line that is not a valid event.  ``code`` is stable; ``facts`` explain."""

    def __init__(self, code: str, message: str, **facts: Any) -> None:
        self.code = code
        self.facts = facts
        super().__init__(message)


@dataclass(frozen=True, kw_only=True)
class Event:
    """Fields every event may carry."""

    t: float | None = None
    source: str | None = None
    conf: float | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    type = "event"

    def payload(self) -> dict[str, Any]:
        """The type-specific keys, in spec order (overridden by each event)."""
        return {}

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        out.update(self.payload())
        for key in ("t", "source", "conf"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        for key, value in self.extra.items():
            out.setdefault(key, value)
        return out


@dataclass(frozen=True, kw_only=True)
class DealEvent(Event):
    game: str
    seats: int
    options: dict[str, Any] = field(default_factory=dict)
    hand_sizes: tuple[int, ...] | None = None
    type = "deal"

    def payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.game, "seats": self.seats, **self.options}
        if self.hand_sizes is not None:
            out["hand_sizes"] = list(self.hand_sizes)
        return out


@dataclass(frozen=True, kw_only=True)
class HandEvent(Event):
    seat: int
    cards: tuple[Card, ...]
    type = "hand"

    def payload(self) -> dict[str, Any]:
        return {"seat": self.seat, "cards": format_cards(self.cards)}


@dataclass(frozen=True, kw_only=True)
class BottomEvent(Event):
    cards: tuple[Card, ...]
    type = "bottom"

    def payload(self) -> dict[str, Any]:
        return {"cards": format_cards(self.cards)}


@dataclass(frozen=True, kw_only=True)
class PlayEvent(Event):
    """A play.  ``sure`` (camera only, optional): ``False`` when the reader doubts the cards
    (spec: "sure"); a fault on such a play is a question, not an accusation."""

    seat: int
    cards: tuple[Card, ...]
    sure: bool | None = None
    type = "play"

    def payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "cards": format_cards(self.cards)}
        if self.sure is not None:
            out["sure"] = self.sure
        return out


@dataclass(frozen=True, kw_only=True)
class PassEvent(Event):
    seat: int
    type = "pass"

    def payload(self) -> dict[str, Any]:
        return {"seat": self.seat}


@dataclass(frozen=True, kw_only=True)
class DeclareEvent(Event):
    """A spoken or hidden act entered by a person.  ``what`` names it; its other keys
    (``cards``, ``target`` …) stay in ``args`` with cards already parsed."""

    seat: int
    what: str
    cards: tuple[Card, ...] = ()
    args: dict[str, Any] = field(default_factory=dict)
    type = "declare"

    def payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "what": self.what}
        if self.cards:
            out["cards"] = format_cards(self.cards)
        out.update(self.args)
        return out


@dataclass(frozen=True, kw_only=True)
class CorrectEvent(Event):
    """Fixes the event at 0-based index ``ref``: its cards, its seat, or both."""

    ref: int
    cards: tuple[Card, ...] | None = None
    seat: int | None = None
    who: str | None = None
    why: str | None = None
    type = "correct"

    def payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ref": self.ref}
        if self.cards is not None:
            out["cards"] = format_cards(self.cards)
        if self.seat is not None:
            out["seat"] = self.seat
        if self.who is not None:
            out["who"] = self.who
        if self.why is not None:
            out["why"] = self.why
        return out


AnyEvent = DealEvent | HandEvent | BottomEvent | PlayEvent | PassEvent | DeclareEvent | CorrectEvent


def _int(obj: dict[str, Any], key: str, *, required: bool = True) -> int | None:
    if key not in obj:
        if required:
            raise EventError("event.missing_key", f"missing key {key!r}", key=key)
        return None
    value = obj[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise EventError("event.bad_value", f"{key!r} must be an integer, got {value!r}", key=key, value=value)
    return value


def _optional_cards(obj: dict[str, Any], key: str = "cards") -> tuple[Card, ...] | None:
    """The cards under ``key``, or ``None`` when the key is absent."""
    if key not in obj:
        return None
    value = obj[key]
    if not isinstance(value, list):
        raise EventError("event.bad_value", f"{key!r} must be a list of card codes, got {value!r}", key=key, value=value)
    try:
        return parse_cards(value)
    except CardCodeError as exc:
        raise EventError("event.bad_card", f"unknown card code {exc.text!r}", card=exc.text) from None


def _cards(obj: dict[str, Any], key: str = "cards") -> tuple[Card, ...]:
    """The cards under ``key``, which must be there."""
    cards = _optional_cards(obj, key)
    if cards is None:
        raise EventError("event.missing_key", f"missing key {key!r}", key=key)
    return cards


def _common(obj: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    t = obj.get("t")
    if t is not None:
        if isinstance(t, bool) or not isinstance(t, int | float):
            raise EventError("event.bad_value", f"'t' must be a number of seconds, got {t!r}", key="t", value=t)
        out["t"] = float(t)
    source = obj.get("source")
    if source is not None:
        if not isinstance(source, str):
            raise EventError("event.bad_value", f"'source' must be a string, got {source!r}", key="source", value=source)
        out["source"] = source
    conf = obj.get("conf")
    if conf is not None:
        if isinstance(conf, bool) or not isinstance(conf, int | float) or not 0 <= conf <= 1:
            raise EventError("event.bad_value", f"'conf' must be a number in 0..1, got {conf!r}", key="conf", value=conf)
        out["conf"] = float(conf)
    return out


def _extra(obj: dict[str, Any], known: tuple[str, ...]) -> dict[str, Any]:
    return {k: v for k, v in obj.items() if k not in known and k not in _COMMON_KEYS}


def _seat(obj: dict[str, Any]) -> int:
    seat = _int(obj, "seat")
    assert seat is not None
    if seat < 0:
        raise EventError("event.bad_seat", f"seat {seat} is negative", seat=seat)
    return seat


def _deal(obj: dict[str, Any]) -> DealEvent:
    game = obj.get("game")
    if not isinstance(game, str) or not game:
        raise EventError("event.missing_key", "a deal needs a 'game' name", key="game")
    seats = _int(obj, "seats", required=False)
    if seats is None:
        seats = GAME_SEATS.get(game, 0)
        if not seats:
            raise EventError("event.missing_key", "missing key 'seats'", key="seats")
    if seats < 2:
        raise EventError("event.bad_value", f"'seats' must be at least 2, got {seats}", key="seats", value=seats)
    hand_sizes = obj.get("hand_sizes")
    if hand_sizes is not None:
        if (not isinstance(hand_sizes, list) or len(hand_sizes) != seats
                or any(isinstance(n, bool) or not isinstance(n, int) or n < 0 for n in hand_sizes)):
            raise EventError("event.bad_value", f"'hand_sizes' must list {seats} non-negative counts, got {hand_sizes!r}",
                             key="hand_sizes", value=hand_sizes)
        hand_sizes = tuple(hand_sizes)
    options = {k: v for k, v in obj.items() if k not in ("game", "seats", "hand_sizes", *_COMMON_KEYS)}
    return DealEvent(game=game, seats=seats, options=options, hand_sizes=hand_sizes, **_common(obj))


def _declare(obj: dict[str, Any]) -> DeclareEvent:
    what = obj.get("what")
    if not isinstance(what, str) or not what:
        raise EventError("event.missing_key", "a declare event needs 'what'", key="what")
    cards = _optional_cards(obj) or ()
    args = _extra(obj, ("seat", "what", "cards"))
    return DeclareEvent(seat=_seat(obj), what=what, cards=cards, args=args, **_common(obj))


def _correct(obj: dict[str, Any]) -> CorrectEvent:
    ref = _int(obj, "ref")
    assert ref is not None
    if ref < 0:
        raise EventError("event.bad_value", f"'ref' must be a line index >= 0, got {ref}", key="ref", value=ref)
    cards = _optional_cards(obj)
    seat = _int(obj, "seat", required=False)
    if seat is not None and seat < 0:
        raise EventError("event.bad_seat", f"seat {seat} is negative", seat=seat)
    if cards is None and seat is None:
        raise EventError("event.missing_key", "a correct event needs 'cards' or 'seat'", key="cards")
    who = obj.get("who") if isinstance(obj.get("who"), str) else None
    why = obj.get("why") if isinstance(obj.get("why"), str) else None
    return CorrectEvent(ref=ref, cards=cards, seat=seat, who=who, why=why,
                        extra=_extra(obj, ("ref", "cards", "seat", "who", "why")), **_common(obj))


def event_from_json(obj: object) -> AnyEvent:
    """Build an event from one decoded JSON value; raises :class:`EventError`."""
    if not isinstance(obj, dict):
        raise EventError("log.not_object", f"a log line must be a JSON object, got {type(obj).__name__}")
    kind = obj.get("type")
    if kind == "deal":
        return _deal(obj)
    if kind == "hand":
        return HandEvent(seat=_seat(obj), cards=_cards(obj), extra=_extra(obj, ("seat", "cards")), **_common(obj))
    if kind == "bottom":
        return BottomEvent(cards=_cards(obj), extra=_extra(obj, ("cards",)), **_common(obj))
    if kind == "play":
        sure = obj.get("sure")
        if sure is not None and not isinstance(sure, bool):
            raise EventError("event.bad_value", f"'sure' must be true or false, got {sure!r}", key="sure", value=sure)
        return PlayEvent(seat=_seat(obj), cards=_cards(obj), sure=sure, extra=_extra(obj, ("seat", "cards", "sure")),
                         **_common(obj))
    if kind == "pass":
        return PassEvent(seat=_seat(obj), extra=_extra(obj, ("seat",)), **_common(obj))
    if kind == "declare":
        return _declare(obj)
    if kind == "correct":
        return _correct(obj)
    if kind is None:
        raise EventError("event.missing_key", "missing key 'type'", key="type")
    raise EventError("log.unknown_type", f"unknown event type {kind!r}", type=kind)


def correct_event(ref: int, *, cards: list[str] | tuple[Card, ...] | None = None, seat: int | None = None,
                  who: str | None = None, why: str | None = None, t: float | None = None,
                  source: str | None = "manual") -> CorrectEvent:
    """The one way to build a ``correct`` event (spec: "correct"): it fixes the event at 0-based
    index ``ref`` (its ``cards``, its ``seat``, or both; ``why="confirm"`` with the same cards
    confirms a reading).  Raises :class:`EventError` with the same codes as the log reader."""
    obj: dict[str, Any] = {"type": "correct", "ref": ref}
    if cards is not None:
        obj["cards"] = [c.code if isinstance(c, Card) else c for c in cards]
    if seat is not None:
        obj["seat"] = seat
    for key, value in (("who", who), ("why", why), ("t", t), ("source", source)):
        if value is not None:
            obj[key] = value
    event = event_from_json(obj)
    assert isinstance(event, CorrectEvent)
    return event
