"""Hand-written 升级-family deals for the judge's slip tests (tests/helpers is on pytest's pythonpath)."""
from __future__ import annotations


def deal_log(plays: list[tuple[int, str]], sizes: list[int], typed: bool = False, dealer: int = 0,
             game: str = "chaodipi-anchao") -> list[dict]:
    """A deal at level 2, spades trump, then ``plays`` ((seat, "cards ...")): camera plays,
    or, ``typed``, plays typed at the table (no ``source``)."""
    return [{"type": "deal", "game": game, "seats": 4, "level": "2", "trump": "S", "dealer": dealer,
             "hand_sizes": sizes},
            *({"type": "play", "seat": seat, "cards": cards.split(), **({} if typed else {"source": "camera"})}
              for seat, cards in plays)]
