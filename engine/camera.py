"""Event logs as a camera records them, and the slips a camera makes.

A camera sees the cards put on the table: it never sees a ``pass`` nor a seat's hand, it
may miss a play (a hand covers it) and it may read one card as another.  These pure
functions turn a complete log (a simulator's, or a person's) into such a log, so the judge
can be measured and tested on what a camera would give it.  Each returns a new list and
the index map ``kept[j] = index in the original log of event j`` where that is useful.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

from .cards import ALL_CARDS, Card
from .events import AnyEvent, HandEvent, PassEvent, PlayEvent


def camera_log(events: Sequence[AnyEvent]) -> tuple[list[AnyEvent], list[int]]:
    """``events`` without ``pass`` and ``hand`` events, each play marked ``source: "camera"``
    (where it names no source); returns the log and the kept indices."""
    kept = [k for k, ev in enumerate(events) if not isinstance(ev, PassEvent | HandEvent)]
    return [_seen(events[k]) for k in kept], kept


def _seen(ev: AnyEvent) -> AnyEvent:
    if not isinstance(ev, PlayEvent) or ev.source is not None:
        return ev
    return dataclasses.replace(ev, source="camera")


def play_indices(events: Sequence[AnyEvent]) -> list[int]:
    return [k for k, ev in enumerate(events) if isinstance(ev, PlayEvent)]


def drop_event(events: Sequence[AnyEvent], k: int) -> list[AnyEvent]:
    """The log with event ``k`` unseen."""
    return [ev for j, ev in enumerate(events) if j != k]


def misread(events: Sequence[AnyEvent], k: int, rng: random.Random,
            choices: Sequence[Card] = ALL_CARDS) -> list[AnyEvent]:
    """The log with one card of play ``k`` read as another card code (chosen by ``rng``)."""
    ev = events[k]
    assert isinstance(ev, PlayEvent)
    at = rng.randrange(len(ev.cards))
    old = ev.cards[at]
    new = rng.choice([c for c in choices if c != old])
    cards = ev.cards[:at] + (new,) + ev.cards[at + 1:]
    out = list(events)
    out[k] = dataclasses.replace(ev, cards=cards)
    return out
