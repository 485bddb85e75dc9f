"""Random legal 升级-family deals, for property tests, ``cardref bench judge`` and the table video.

:func:`simulate_deal` returns a complete event list (``deal`` with level/trump/dealer and
``hand_sizes``, ``hand`` events if asked, every trick's plays, the ``bottom``) that the
referee judges all-legal.  :func:`simulate_deal_with_faults` also breaks some follows (a
seat discards while it still holds the led suit) and says which events it broke.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence

from ..cards import ALL_CARDS, Card, Rank, Suit
from ..events import AnyEvent, BottomEvent, DealEvent, HandEvent, PlayEvent
from .combos import Combo, Kind, classify, structure
from .compare import contest_key
from .follow import _lei_rank, follow_fault
from .order import TRUMP, TrumpOrder
from .settings import ALL_SETTINGS, ShengjiSettings
from .throws import throw_failure


def _deal_cards(settings: ShengjiSettings, rng: random.Random, dealer: int,
                flag: bool = False) -> tuple[list[list[Card]], list[Card]]:
    deck = [c for c in ALL_CARDS for _ in range(2)]
    rng.shuffle(deck)
    n = settings.hand_size + (settings.bottom_size // 4 if flag else 0)
    hands = [deck[k * n:(k + 1) * n] for k in range(4)]
    bottom = deck[4 * n:]
    if settings.bury_all_jokers:  # 000 line 187: the dealer buries every joker it holds
        hand = hands[dealer]
        for idx, card in enumerate(hand):
            if card.is_joker:
                swap = next(j for j, b in enumerate(bottom) if not b.is_joker)
                hand[idx], bottom[swap] = bottom[swap], card
    return hands, bottom


def _group(cards: Sequence[Card], group: str | None, order: TrumpOrder) -> list[Card]:
    return [c for c in cards if order.group[c] == group]


def _minus(cards: Sequence[Card], taken: Sequence[Card]) -> list[Card]:
    left = Counter(cards)
    left.subtract(taken)
    return list(left.elements())


def choose_lead(hand: list[Card], others: dict[int, list[Card]], order: TrumpOrder, rng: random.Random) -> list[Card]:
    """A random legal lead: single, pair, tractor, 雷牌, 5-10-K or a throw that cannot fail."""
    st = structure(hand, order)
    roll = rng.random()
    groups: dict[str, list[Card]] = {}
    for c in hand:
        groups.setdefault(order.group[c], []).append(c)
    if order.settings.has_lei_shan and roll < 0.05:
        for rank in {c.rank for c in hand if not c.is_joker}:
            same = [c for c in hand if c.rank == rank]
            picked: dict[Suit | None, Card] = {}
            for c in same:
                picked.setdefault(c.suit, c)
            if len(picked) == 4 and _lei_rank(list(picked.values()), order) is not None:
                return list(picked.values())
    if order.settings.has_wushik and roll < 0.08:
        for suit in Suit:
            want = [Card(r, suit) for r in (Rank.FIVE, Rank.TEN, Rank.KING)]
            if all(w in hand for w in want) and classify(want, order).kind == Kind.WUSHIK:
                return want
    if st.tractors and roll < 0.25:
        t = rng.choice(st.tractors)
        return [c for p in t.pairs for c in (p, p)]
    pairs = [*st.pairs, *(p for t in st.tractors for p in t.pairs)]
    if pairs and roll < 0.55:
        p = rng.choice(pairs)
        return [p, p]
    if order.settings.throws and roll > 0.9:
        group = rng.choice(sorted(groups))
        cards = sorted(set(groups[group]), key=order.strength.__getitem__, reverse=True)[:2]
        if len(cards) == 2:
            combo = classify(cards, order)
            if combo.kind == Kind.THROW and throw_failure(combo, others, order) is None:
                return cards
    return [rng.choice(hand)]


def choose_follow(lead: Combo, hand: list[Card], order: TrumpOrder, rng: random.Random) -> list[Card]:
    """A random follow that keeps every following rule."""
    n = lead.size
    held = _group(hand, lead.group, order)
    strength = order.strength
    if len(held) <= n:
        rest = _minus(hand, held)
        return held + rng.sample(rest, n - len(held))
    if n == 1:
        return [rng.choice(held)]
    if lead.kind in (Kind.LEI, Kind.SHAN):
        for rank in {c.rank for c in held if not c.is_joker}:
            same = [c for c in held if c.rank == rank]
            if len(same) >= n:
                by_suit: dict[Suit | None, list[Card]] = {}
                for c in same:
                    by_suit.setdefault(c.suit, []).append(c)
                if len(by_suit) == 4:
                    pick = [v[0] for v in by_suit.values()]
                    pick += _minus(same, pick)[: n - 4]
                    if _lei_rank(pick, order) is not None:
                        return pick
        return sorted(held, key=strength.__getitem__, reverse=True)[:n]
    if lead.kind in (Kind.WUSHIK, Kind.WUSHIK_PAIRS) and lead.group == TRUMP:
        if lead.kind == Kind.WUSHIK and order.trump is not None:
            want = [Card(r, order.trump) for r in (Rank.FIVE, Rank.TEN, Rank.KING)]
            if all(w in held for w in want):
                return want
        return sorted(held, key=strength.__getitem__, reverse=True)[:n]
    chosen: list[Card] = []
    pool = list(held)
    longest = lead.tractor_lengths[0] if lead.tractor_lengths else 0
    if longest:
        st = structure(pool, order)
        if st.tractors:
            t = max(st.tractors, key=lambda t: t.length)
            take = t.pairs[: min(longest, t.length)]
            chosen += [c for p in take for c in (p, p)]
            pool = _minus(pool, chosen)
    need = lead.pairs
    got = len(chosen) // 2
    while got < need and len(chosen) + 2 <= n:
        st = structure(pool, order)
        pairs = [*st.pairs, *(p for t in st.tractors for p in t.pairs)]
        if not pairs:
            break
        p = rng.choice(pairs)
        chosen += [p, p]
        pool = _minus(pool, [p, p])
        got += 1
    if order.settings.largest_first and (got < need or (longest and not _has_tractor(chosen, order, longest))):
        pool.sort(key=strength.__getitem__, reverse=True)  # 从大到小 (000 lines 59, 73)
        chosen += pool[: n - len(chosen)]
    else:
        chosen += rng.sample(pool, n - len(chosen))
    return chosen


def _has_tractor(cards: Sequence[Card], order: TrumpOrder, length: int) -> bool:
    return any(t.length >= length for t in structure(cards, order).tractors)


def _options(settings: ShengjiSettings, rng: random.Random) -> tuple[Rank, Suit | None, int]:
    level = rng.choice(settings.level_sequence)
    suits: list[Suit | None] = list(Suit)
    if settings.allow_no_trump:
        suits.append(None)
    return level, rng.choice(suits), rng.randrange(4)


def simulate_deal_with_faults(game: str, rng: random.Random, *, illegal: int = 0, with_hands: bool = True,
                              level: Rank | None = None, dealer: int | None = None,
                              flag: bool = False) -> tuple[list[AnyEvent], list[int]]:
    """A complete deal; ``illegal`` follows are broken (a discard while holding the led suit).

    ``level``/``dealer`` fix those options (random otherwise); ``flag`` makes a 扛旗 deal
    (炒地皮·扛旗 only: no trump, no level cards, no bottom).
    """
    settings = ALL_SETTINGS[game]
    rand_level, trump, rand_dealer = _options(settings, rng)
    level = rand_level if level is None else level
    dealer = rand_dealer if dealer is None else dealer
    flag = flag and settings.flag_deal
    if flag:
        trump = None
    order = TrumpOrder(settings, None if flag else level, trump)
    hands, bottom = _deal_cards(settings, rng, dealer, flag)
    options: dict[str, object] = {"level": level.code, "trump": trump.value if trump else None, "dealer": dealer}
    if flag:
        options["flag"] = True
    events: list[AnyEvent] = [DealEvent(game=game, seats=4, options=options, hand_sizes=tuple(len(h) for h in hands))]
    if with_hands:
        events += [HandEvent(seat=s, cards=tuple(hands[s])) for s in range(4)]
    tricks = settings.hand_size
    budget = illegal
    candidates = max(1, tricks * 3)
    faulty: list[int] = []
    leader = dealer
    while any(hands):
        seat = leader
        others = {s: hands[s] for s in range(4) if s != seat}
        cards = choose_lead(hands[seat], others, order, rng)
        lead = classify(cards, order)
        plays = [(seat, cards)]
        best_key = contest_key(lead, lead, order)
        best = seat
        _remove(hands[seat], cards)
        events.append(PlayEvent(seat=seat, cards=tuple(cards)))
        for k in range(1, 4):
            s = (leader + k) % 4
            hand = hands[s]
            play = choose_follow(lead, hand, order, rng)
            assert follow_fault(s, lead, play, hand, order) is None, (lead, play, hand)
            if budget and rng.random() < max(0.15, budget / candidates):
                broken = _break(lead, play, hand, order, rng)
                if broken is not None and follow_fault(s, lead, broken, hand, order) is not None:
                    play = broken
                    budget -= 1
                    faulty.append(len(events))
            _remove(hand, play)
            events.append(PlayEvent(seat=s, cards=tuple(play)))
            combo = classify(play, order)
            key = contest_key(combo, lead, order)
            if key is not None and best_key is not None and key > best_key:
                best_key, best = key, s
            plays.append((s, play))
        leader = best
    if bottom:
        events.append(BottomEvent(cards=tuple(bottom)))
    return events, faulty


def _break(lead: Combo, play: list[Card], hand: list[Card], order: TrumpOrder,
           rng: random.Random) -> list[Card] | None:
    """Break a legal follow: split a pair it had to play, or swap one led-group card for a card
    of another group (a revoke)."""
    if lead.pairs and rng.random() < 0.5:
        broken = _split_pair(lead, play, hand, order, rng)
        if broken is not None:
            return broken
    group_cards = [c for c in play if order.group[c] == lead.group]
    outside = [c for c in _minus(hand, play) if order.group[c] != lead.group]
    if not group_cards or not outside:
        return None
    out = list(play)
    out.remove(rng.choice(group_cards))
    out.append(rng.choice(outside))
    return out


def _split_pair(lead: Combo, play: list[Card], hand: list[Card], order: TrumpOrder,
                rng: random.Random) -> list[Card] | None:
    """Replace one card of a played pair by a led-group card the play does not hold."""
    counts = Counter(play)
    pairs = [c for c, n in counts.items() if n >= 2 and order.group[c] == lead.group]
    spare = [c for c in _minus(hand, play) if order.group[c] == lead.group and c not in counts]
    if not pairs or not spare:
        return None
    out = list(play)
    out.remove(rng.choice(pairs))
    out.append(rng.choice(spare))
    return out


def _remove(hand: list[Card], cards: Sequence[Card]) -> None:
    for c in cards:
        hand.remove(c)


def simulate_deal(game: str, rng: random.Random, *, illegal: int = 0, with_hands: bool = True) -> list[AnyEvent]:
    return simulate_deal_with_faults(game, rng, illegal=illegal, with_hands=with_hands)[0]


def simulate_match(game: str, rng: random.Random, deals: int = 3, *, with_hands: bool = True) -> list[AnyEvent]:
    """Several legal deals in one log, each dealt by the seat and at the level the previous
    deal's result gives (both teams start at the first level)."""
    from ..eventlog import read_lines
    from ..judge import Judge

    settings = ALL_SETTINGS[game]
    ranks = {r.code: r for r in Rank}
    level, dealer, flag = settings.level_sequence[0], rng.randrange(4), False
    events: list[AnyEvent] = []
    for _ in range(deals):
        events += simulate_deal_with_faults(game, rng, with_hands=with_hands, level=level, dealer=dealer,
                                            flag=flag)[0]
        result = Judge.judge(read_lines(json.dumps(e.to_json()) for e in events))
        change = result.deals[-1].summary()["level_change"]
        dealer, flag = change["next_dealer"], bool(change.get("flag_next"))
        level = ranks[change["next_level"]] if change.get("next_level") else settings.level_sequence[0]
    return events
