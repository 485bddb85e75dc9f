"""A compact text notation for hand-written 够级 logs (tests, docs, bug reports).

One event per line; ``#`` starts a comment::

    deal gouji-yucheng leader=0 sizes=3,3,3,3,3,3
    hand 0 5H 5S 3H
    bottom 5H          (a bottom event; 够级 has none, it is a fault)
    0 5H 5S            a play by seat 0
    1 pass             (or ``1 -``)
    2 !burn target=1   a declare: ``!what``, then key=value args and cards
    2 !buy3 from=5 2H

:func:`parse_script` returns the events; :func:`expectations` reads, per line, the comment
``# code`` or ``# code @k`` (fault proven at line k) that tests use as the expected verdict.
"""

from __future__ import annotations

from ..cards import parse_card
from ..events import AnyEvent, BottomEvent, DealEvent, DeclareEvent, HandEvent, PassEvent, PlayEvent


def _lines(text: str) -> list[tuple[str, str]]:
    out = []
    for raw in text.strip().splitlines():
        body, _, comment = raw.partition("#")
        if body.strip():
            out.append((body.strip(), comment.strip()))
    return out


def _value(text: str) -> object:
    if text.lstrip("-").isdigit():
        return int(text)
    if "," in text:
        return [_value(x) for x in text.split(",") if x]
    if text in ("true", "false"):
        return text == "true"
    return text


def parse_script(text: str) -> list[AnyEvent]:
    events: list[AnyEvent] = []
    for body, _ in _lines(text):
        words = body.split()
        head = words[0]
        if head == "deal":
            opts = dict(w.split("=", 1) for w in words[2:])
            sizes = opts.pop("sizes", None)
            options = {k: _value(v) for k, v in opts.items()}
            hs = tuple(int(x) for x in sizes.split(",")) if sizes else None
            events.append(DealEvent(game=words[1], seats=6, options=options, hand_sizes=hs))
        elif head == "bottom":
            events.append(BottomEvent(cards=tuple(parse_card(w) for w in words[1:])))
        elif head == "hand":
            events.append(HandEvent(seat=int(words[1]), cards=tuple(parse_card(w) for w in words[2:])))
        else:
            seat = int(head)
            rest = words[1:]
            if rest and rest[0] in ("pass", "-"):
                events.append(PassEvent(seat=seat))
            elif rest and rest[0].startswith("!"):
                args = {}
                cards = []
                for w in rest[1:]:
                    if "=" in w:
                        k, v = w.split("=", 1)
                        args[k] = _value(v)
                    else:
                        cards.append(parse_card(w))
                events.append(DeclareEvent(seat=seat, what=rest[0][1:], cards=tuple(cards), args=args))
            else:
                events.append(PlayEvent(seat=seat, cards=tuple(parse_card(w) for w in rest)))
    return events


def expectations(text: str) -> list[tuple[str | None, int | None]]:
    """Per event: (expected fault code or None, proven_at or None) from the ``#`` comments.
    A comment that does not start with a dotted code is only a remark."""
    out: list[tuple[str | None, int | None]] = []
    for _, comment in _lines(text):
        words = comment.split()
        code = words[0] if words and "." in words[0] and not words[0].endswith(".") else None
        proven = None
        for w in words[1:]:
            if w.startswith("@") and w[1:].isdigit():
                proven = int(w[1:])
        out.append((code, proven if code else None))
    return out
