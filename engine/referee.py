"""The referee core every game plugs into.

A game provides a :class:`GameRules` (its name, seats, decks, settings and a factory for
its :class:`DealReferee`).  The referee of one deal consumes events one at a time; for
each it returns the faults it finds (the event's own, and earlier events' faults that
this event proves, with ``proven_at``).  It never reads files, clocks or cameras.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .cards import Card
from .decks import DeckComposition
from .events import AnyEvent, DealEvent
from .verdict import Fault


class DealReferee(ABC):
    """Judges one deal.  Subclasses keep their own state; ``feed`` must never raise on
    any well-formed event (bad events are faults, not exceptions)."""

    def __init__(self, deal: DealEvent, index: int, rules: GameRules) -> None:
        self.deal = deal
        self.deal_index = index
        self.rules = rules

    @abstractmethod
    def feed(self, i: int, event: AnyEvent) -> list[Fault]:
        """Judge event ``i``.  Faults without ``i`` belong to event ``i``; faults about an
        earlier event carry that event's ``i`` and ``proven_at=i``."""

    @abstractmethod
    def summary(self) -> dict[str, Any]:
        """The deal's summary object for the judge output (spec: "Judge output")."""

    def opening_faults(self, previous: DealReferee | None) -> list[Fault]:
        """Faults of the ``deal`` event itself, given the deal before it in the same log
        (``None`` for the first): bad options, or a level/dealer the previous deal's result
        contradicts in a match of several deals.  Default: deals are independent."""
        return []

    def close(self) -> list[Fault]:
        """Faults that waited on later events, said because the log ends (or the next deal
        starts) before the deal is over; each carries its event's ``i``.  Default: none."""
        return []

    def returned_cards(self) -> list[Card]:
        """Cards the last fed event put back into a hand (a failed 甩牌's cards other than the
        unit that must be played); the judge no longer counts them as shown.  Default: none."""
        return []

    def state(self) -> dict[str, Any]:
        """A JSON-able snapshot for the dashboard (who is to play, scores …)."""
        return {"game": self.deal.game}


@dataclass(frozen=True)
class GameRules:
    """Everything the core needs to know about one game name."""

    name: str
    seats: int
    composition: DeckComposition
    settings: Any
    referee: Callable[[DealEvent, int, GameRules], DealReferee] | None
    family: str = ""
    title_zh: str = ""
    title_en: str = ""

    def new_deal(self, deal: DealEvent, index: int) -> DealReferee | None:
        return None if self.referee is None else self.referee(deal, index, self)


class UnjudgedDeal(DealReferee):
    """Stands in for a game whose rules are not implemented: judges nothing, says so."""

    def feed(self, i: int, event: AnyEvent) -> list[Fault]:
        return []

    def summary(self) -> dict[str, Any]:
        return {"judged": False}
