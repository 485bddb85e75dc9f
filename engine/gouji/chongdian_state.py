"""The state of the 冲点 of a 够级 deal (004:11-13, 004:21-23; 002:46-50): each 冲点
declared (:class:`Chong`) and which one is being played (:class:`ChongdianState`); the plays
are judged by :mod:`.chongdian`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..cards import Card
    from .shapes import Shape


@dataclass
class Chong:
    """One 冲点 declared: its seat, the rank of its previous 冲点 (``prev_rank``, 002:47), the
    sets played (``[beaten, beaten by a 纯够级]`` each), whether the 对门 is to answer the last
    one (``last``: its shape and cards; ``last_i``: the event index of that play), whether it is
    over, and whether it succeeded."""

    seat: int
    prev: int | None = None
    sets: list[list[bool]] = field(default_factory=list)
    awaiting: bool = False
    done: bool = False
    last: tuple[Shape, tuple[Card, ...]] | None = None
    last_i: int | None = None
    success: bool | None = None


@dataclass
class ChongdianState:
    """The 冲点 of a deal: those declared, in order, the one being played (``at``), and the
    seats a 冲点 took out of play."""

    declared: list[Chong] = field(default_factory=list)
    at: int = 0
    out: set[int] = field(default_factory=set)
