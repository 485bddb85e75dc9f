"""Where a simulated deal's events come from.

The rules engine's own simulators (``cardref.engine.gouji.simulate`` and
``cardref.engine.shengji.simulate``, ``simulate_deal(game, rng, illegal=k,
with_hands=True)``) deal legal games and can inject illegal plays; they are always used
when present.  :func:`fallback_deal` is a stand-in that only makes a *plausible* play
sequence (right seats and card counts, no rule checking) for when they are missing; the
result says which source it used.
"""

from __future__ import annotations

import importlib
import random
from collections import Counter
from dataclasses import dataclass

from cardref.engine.cards import ALL_CARDS, Card
from cardref.engine.decks import GOUJI_DECKS, TWO_DECKS, DeckComposition
from cardref.engine.events import GAME_SEATS, AnyEvent, DealEvent, HandEvent, PassEvent, PlayEvent
from cardref.engine.registry import is_gouji


@dataclass
class SimulatedDeal:
    events: list[AnyEvent]
    source: str  # "engine:<module>" or "fallback"


def _engine_module(game: str) -> str:
    return "cardref.engine.gouji.simulate" if is_gouji(game) else "cardref.engine.shengji.simulate"


def engine_simulator_available(game: str) -> bool:
    try:
        mod = importlib.import_module(_engine_module(game))
    except ImportError:
        return False
    return hasattr(mod, "simulate_deal")


def simulate_events(game: str, seed: int, *, illegal: int = 0, use_engine: bool = True) -> SimulatedDeal:
    """The events of one deal of ``game`` (deterministic in ``seed``)."""
    if game not in GAME_SEATS:
        raise ValueError(f"unknown game {game!r}; known: {', '.join(sorted(GAME_SEATS))}")
    if use_engine:
        name = _engine_module(game)
        try:
            mod = importlib.import_module(name)
        except ImportError:
            mod = None
        if mod is not None and hasattr(mod, "simulate_deal"):
            rng = random.Random(seed)
            events = list(mod.simulate_deal(game, rng, illegal=illegal, with_hands=True))
            return SimulatedDeal(events, f"engine:{name}")
    return SimulatedDeal(fallback_deal(game, seed, illegal=illegal), "fallback")


def _deck(comp: DeckComposition) -> list[Card]:
    cards = [c for c in ALL_CARDS for _ in range(comp.copies(c))]
    for rank, limit in comp.rank_limits:
        same = [c for c in cards if c.rank == rank]
        for c in same[limit:]:
            cards.remove(c)
    return cards


def fallback_deal(game: str, seed: int, *, illegal: int = 0) -> list[AnyEvent]:
    """FALLBACK ONLY: a plausible (not rule-checked) deal: hands, then plays in turn order.

    4 seats: tricks where the leader plays 1–3 cards and each seat follows with as many.
    6 seats: rounds where the leader plays a group of one rank and the others beat it with
    a higher group of the same size or pass.  ``illegal`` plays get a card the seat does
    not hold (the judge can see that only with ``hand`` events).
    """
    rng = random.Random(seed)
    seats = GAME_SEATS[game]
    comp = GOUJI_DECKS if is_gouji(game) else TWO_DECKS
    deck = _deck(comp)
    rng.shuffle(deck)
    per = 32 if seats == 6 else 25
    hands = [deck[i * per:(i + 1) * per] for i in range(seats)]
    events: list[AnyEvent] = []
    if seats == 6:
        events.append(DealEvent(game=game, seats=6, options={"leader": 0}, hand_sizes=tuple([per] * 6)))
    else:
        events.append(DealEvent(game=game, seats=4, options={"level": "2", "trump": "H", "dealer": 0},
                                hand_sizes=tuple([per] * 4)))
    for s in range(seats):
        events.append(HandEvent(seat=s, cards=tuple(hands[s])))
    plays: list[PlayEvent] = []
    if seats == 4:
        leader = 0
        while all(len(h) >= 3 for h in hands):
            k = rng.choice((1, 1, 1, 2, 2, 3))
            for off in range(4):
                s = (leader + off) % 4
                pick = rng.sample(hands[s], k)
                for c in pick:
                    hands[s].remove(c)
                plays.append(PlayEvent(seat=s, cards=tuple(pick)))
            leader = rng.randrange(4)
    else:
        leader = 0
        while sum(1 for h in hands if h) > 1:
            groups = _groups(hands[leader])
            if not groups:
                leader = (leader + 1) % 6
                continue
            size = rng.choice((1, 1, 2, 2, 3, 4))
            rank, cards = _pick_group(groups, size, rng, above=0)
            last_seat, last_rank, last_size = leader, rank, len(cards)
            _play(plays, hands, leader, cards)
            passes = 0
            s = (leader + 1) % 6
            while passes < 5:
                if hands[s] and rng.random() < 0.45:
                    g = _groups(hands[s])
                    choice = _pick_group(g, last_size, rng, above=last_rank, exact=True)
                    if choice is not None:
                        _play(plays, hands, s, choice[1])
                        last_seat, last_rank = s, choice[0]
                        passes = 0
                        s = (s + 1) % 6
                        continue
                passes += 1
                s = (s + 1) % 6
            leader = last_seat if hands[last_seat] else next(
                (x % 6 for x in range(last_seat + 1, last_seat + 7) if hands[x % 6]), 0)
    for _ in range(min(illegal, len(plays))):
        i = rng.randrange(len(plays))
        p = plays[i]
        foreign = rng.choice(deck)
        plays[i] = PlayEvent(seat=p.seat, cards=(*p.cards[:-1], foreign))
    events.extend(plays)
    return events


def _play(plays: list[PlayEvent], hands: list[list[Card]], seat: int, cards: list[Card]) -> None:
    for c in cards:
        hands[seat].remove(c)
    plays.append(PlayEvent(seat=seat, cards=tuple(cards)))


def _groups(hand: list[Card]) -> dict[int, list[Card]]:
    by: dict[int, list[Card]] = {}
    for c in hand:
        by.setdefault(int(c.rank), []).append(c)
    return by


def _pick_group(groups: dict[int, list[Card]], size: int, rng: random.Random, *, above: int,
                exact: bool = False) -> tuple[int, list[Card]] | None:
    ranks = [r for r, cs in groups.items() if r > above and (len(cs) >= size)]
    if not ranks:
        if exact:
            return None
        r = rng.choice(list(groups))
        return r, groups[r][:max(1, min(size, len(groups[r])))]
    r = min(ranks) if rng.random() < 0.6 else rng.choice(ranks)
    return r, groups[r][:size]


def plays_of(events: list[AnyEvent]) -> list[PlayEvent]:
    return [e for e in events if isinstance(e, PlayEvent)]


def passes_between(events: list[AnyEvent]) -> Counter[int]:
    """How many pass events follow each play (index into the plays list)."""
    out: Counter[int] = Counter()
    k = -1
    for e in events:
        if isinstance(e, PlayEvent):
            k += 1
        elif isinstance(e, PassEvent) and k >= 0:
            out[k] += 1
    return out

