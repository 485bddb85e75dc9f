"""What the 够级 declarations (:mod:`.declares`) and the 冲点 plays (:mod:`.chongdian`) read
and change of a deal: :class:`GoujiDeal`, the part of the referee (:mod:`.referee`) they are
given, so that neither imports the referee."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from ..cards import Card
    from ..events import DealEvent
    from ..verdict import Fault
    from .burning import BurnState
    from .chongdian_state import ChongdianState
    from .hands import Hand
    from .outs import Progress
    from .points import Points
    from .settings import GoujiSettings
    from .shapes import Shape
    from .slips import Readings
    from .table import Current, Phase


class GoujiDeal(Protocol):
    deal: DealEvent
    s: GoujiSettings
    min_table: tuple[int, ...]
    phase: Phase
    hands: list[Hand | None]
    eaten: list[list[Card]]
    counts: list[int | None]
    progress: Progress
    points: Points
    burning: BurnState
    chong: ChongdianState
    revolts: list[int]
    head: dict[int, str]
    yaotou_left: dict[int, int]
    no_fours: set[int]
    thrown: dict[int, tuple[str, int | None]]
    prep_stage: int
    tribute_stage: int
    cur: Current | None
    passed: set[int]
    rang: int | None
    readings: Readings
    pending_observe: list[Fault]
    camera: bool    # the last play judged was a camera's (O10)
    slips: int      # observation slips flagged so far: counts are not trusted after one (O3)

    def _copy(self) -> GoujiDeal: ...
    def _play(self, i: int, seat: int, cards: tuple[Card, ...]) -> list[Fault]: ...
    def _durable_copy(self, i: int, seat: int, cards: tuple[Card, ...]) -> GoujiDeal | None: ...
    def _question(self, seat: int, cards: tuple[Any, ...], fault: Fault) -> Fault: ...
    def take(self, seat: int, cards: tuple[Card, ...], shape: Shape) -> None: ...
    def _charge_unseen(self, seat: int, n: int) -> None: ...
    def _asks(self, seat: int) -> bool: ...
    def finish(self, seat: int) -> None: ...
    def _presumed_out(self, seat: int) -> bool: ...
    def _back_in_play(self, seat: int) -> None: ...
    def is_wutou(self, seat: int) -> bool: ...
