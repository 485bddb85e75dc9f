"""Random complete 够级 deals for tests, benchmarks and the table video simulator.

:func:`simulate_deal` deals 196 cards (four seats from the leader get 33, two get 32; decision
D1), buys 3s (and sometimes 4s) by the rules, may 宣点, then plays the deal to its end with
random legal plays chosen by asking a :class:`GoujiReferee` itself (one source of truth for
legality).  Burning, 开点, 认点, 闷, 让牌-free passes and 接风 arise naturally.
:func:`simulate_deal_with_faults` then mutates ``illegal`` plays into illegal ones and returns
their indices.
"""

from __future__ import annotations

import random
from collections import Counter

from .. import registry
from ..cards import ALL_CARDS, Card, Rank
from ..events import AnyEvent, DealEvent, DeclareEvent, HandEvent, PassEvent, PlayEvent
from ..referee import GameRules
from .declare_names import Declare
from .hands import Hand
from .referee import GoujiReferee
from .shapes import BJ, FOUR, ORDER, SJ, THREE, TWO, Shape, beats, parse_shape
from .table import Phase

SEATS = 6
#: Mutated plays lie at least this many events apart: each is one slip the judge must catch,
#: and the re-synchronisation after one (docs/rules/observation.md) settles before the next.
SPACING = 6


def gouji_deck() -> list[Card]:
    """The 196 cards: four decks with six 3s and six 4s left (004:17)."""
    deck: list[Card] = []
    kept = {Rank.THREE: 0, Rank.FOUR: 0}
    for _ in range(4):
        for card in ALL_CARDS:
            if card.rank in kept:
                if kept[card.rank] >= 6:
                    continue
                kept[card.rank] += 1
            deck.append(card)
    return deck


def _by_order(hand: Counter[Card]) -> dict[int, list[Card]]:
    out: dict[int, list[Card]] = {}
    for card, n in hand.items():
        if n > 0:
            out.setdefault(ORDER[card.rank], []).extend([card] * n)
    return out


def _buy(hands: list[Counter[Card]], rank: int, buyer: int, buy_with_joker: bool) -> DeclareEvent | None:
    opp = (buyer + 3) % SEATS
    mates = [(buyer + 2) % SEATS, (buyer + 4) % SEATS]
    others = [s for s in range(SEATS) if s % 2 != buyer % 2 and s != opp]

    def spare(seat: int) -> bool:
        return sum(n for c, n in hands[seat].items() if ORDER[c.rank] == rank) >= 2

    seller = next((s for s in [opp, *mates, *others] if spare(s)), None)
    if seller is None:
        return None
    groups = _by_order(hands[buyer])
    pay: list[Card] = []
    if TWO in groups:
        pay = [groups[TWO][0]]
    elif buy_with_joker and seller not in mates and (SJ in groups or BJ in groups):
        pay = [groups.get(SJ, groups.get(BJ))[0]]  # type: ignore[index]
    card = next(c for c, n in hands[seller].items() if n > 0 and ORDER[c.rank] == rank)
    hands[seller][card] -= 1
    hands[buyer][card] += 1
    for c in pay:
        hands[buyer][c] -= 1
        hands[seller][c] += 1
    what = Declare.BUY3 if rank == THREE else Declare.BUY4
    return DeclareEvent(seat=buyer, what=what, cards=tuple(pay), args={"from": seller})


class _Sim:
    def __init__(self, game: str, rng: random.Random, with_hands: bool) -> None:
        rules = registry.get(game)
        if rules is None or rules.family != "gouji":
            raise ValueError(f"not a 够级 game: {game!r}")
        self.rules: GameRules = rules
        self.rng = rng
        self.with_hands = with_hands
        self.events: list[AnyEvent] = []

    def deal(self) -> None:
        rng = self.rng
        deck = gouji_deck()
        rng.shuffle(deck)
        leader = rng.randrange(SEATS)
        sizes = [33 if (s - leader) % SEATS < 4 else 32 for s in range(SEATS)]
        if rng.random() < 0.4:
            # a joker-rich seat (all eight jokers moved to one hand) makes 烧牌 happen in play
            rich = rng.randrange(SEATS)
            lo = sum(sizes[:rich])
            slots = [x for x in range(lo, lo + sizes[rich]) if not deck[x].is_joker]
            for x in range(len(deck)):
                if deck[x].is_joker and not lo <= x < lo + sizes[rich] and slots:
                    y = slots.pop(rng.randrange(len(slots)))
                    deck[x], deck[y] = deck[y], deck[x]
        hands: list[Counter[Card]] = []
        at = 0
        for s in range(SEATS):
            hands.append(Counter(deck[at:at + sizes[s]]))
            at += sizes[s]
        dealt = [tuple(sorted(h.elements(), key=lambda c: (ORDER[c.rank], c.code))) for h in hands]
        settings = self.rules.settings
        pre: list[DeclareEvent] = []
        shielded: set[int] = set()
        for seat in range(SEATS):                   # 扛贡 (004:19, 002:41)
            big = sum(n for c, n in hands[seat].items() if ORDER[c.rank] == BJ)
            small = sum(n for c, n in hands[seat].items() if ORDER[c.rank] == SJ)
            have = {BJ: big, SJ: small}
            if big >= settings.kangong_team_big or any(have[ORDER[r]] >= n for r, n in settings.kangong_self):
                if rng.random() < 0.5:
                    pre.append(DeclareEvent(seat=seat, what="kangong"))
                    team = big >= settings.kangong_team_big
                    shielded |= {s for s in range(SEATS) if s % 2 == seat % 2} if team else {seat}
        # 宣点 comes before 买3买4 in the Shandong order (002:52); any order works in 禹城
        pre += [DeclareEvent(seat=s, what="xuandian") for s in range(SEATS) if rng.random() < 0.15]
        eaten: set[int] = set()
        for _what, rank in ((Declare.BUY3, THREE), (Declare.BUY4, FOUR)):
            for k in range(SEATS):
                buyer = (leader + k) % SEATS
                has = any(ORDER[c.rank] == rank and n > 0 for c, n in hands[buyer].items())
                if has or (rank == FOUR and rng.random() < 0.5):
                    continue
                buy = _buy(hands, rank, buyer, settings.buy_with_joker)
                if buy is not None:
                    pre.append(buy)
                    if buy.cards:
                        eaten.add(buy.args["from"])
        for giver in range(SEATS):                  # a few 点贡 paid from the last deal (004:19)
            if giver in eaten or giver in shielded or rng.random() > 0.15:
                continue
            card = max((c for c, n in hands[giver].items() if n > 0), key=lambda c: ORDER[c.rank])
            if settings.tribute_min is not None and ORDER[card.rank] < ORDER[settings.tribute_min]:
                continue
            target = (giver + 3) % SEATS
            hands[giver][card] -= 1
            hands[target][card] += 1
            eaten.add(target)
            pre.append(DeclareEvent(seat=giver, what="tribute", cards=(card,),
                                    args={"target": target, "kind": "dian"}))
        self.chong_seats: list[int] = []
        self.heads: list[DeclareEvent] = []
        calm = [s for s in range(SEATS)
                if not any(n > 0 and ORDER[c.rank] >= TWO for c, n in hands[s].items())]
        if calm and rng.random() < 0.8:
            seat = rng.choice(calm)
            counts = Counter(ORDER[c.rank] for c in hands[seat].elements())
            sets = sum(counts[o] // n for o, n in ((7, 5), (8, 4), (9, 3), (10, 2), (11, 2)))
            chong = sets >= 3 and rng.random() < 0.6
            if settings.revolution:
                pre.append(DeclareEvent(seat=seat, what="revolution"))
                if not chong and rng.random() < 0.3:
                    self.heads.append(DeclareEvent(seat=(seat + 3) % SEATS, what=Declare.YAOTOU))
            if chong:
                pre.append(DeclareEvent(seat=seat, what="chongdian"))
                self.chong_seats.append(seat)
        start = [sum(h.values()) for h in hands]
        self.start = [h.copy() for h in hands]
        deal = DealEvent(game=self.rules.name, seats=SEATS, options={"leader": leader}, hand_sizes=tuple(start))
        self.events.append(deal)
        self.ref = GoujiReferee(deal, 0, self.rules)
        for s in range(SEATS):
            hand = HandEvent(seat=s, cards=dealt[s])
            self.ref.feed(len(self.events), hand)
            if self.with_hands:
                self.events.append(hand)
        for declare in pre:
            faults = self.ref.feed(len(self.events), declare)
            assert not faults, (declare, faults)
            self.events.append(declare)

    def dealt_fours(self, seat: int) -> list[Card]:
        """The 4s a seat held before the referee threw them (its start hand less its plays)."""
        return [c for c in self.start[seat].elements() if ORDER[c.rank] == FOUR]

    def chongdian(self) -> None:
        """The three 纯够级 plays of a 冲点 seat, each answered or let stand by its 对门."""
        rng = self.rng
        for seat in self.chong_seats:
            opp = (seat + 3) % SEATS
            for _ in range(3):
                groups = self._hand(seat).by_order()
                o, n = next((o, n) for o, n in ((7, 5), (8, 4), (9, 3), (10, 2), (11, 2))
                            if len(groups.get(o, ())) >= n)
                play = groups[o][:n]
                self._emit(PlayEvent(seat=seat, cards=tuple(play)))
                shape = parse_shape(play, self.ref.min_table)
                assert isinstance(shape, Shape)
                answers = [a for a in self._answers(opp, shape)
                           if isinstance(p := parse_shape(a, self.ref.min_table), Shape) and beats(p, shape)]
                if answers and rng.random() < 0.6:
                    self._emit(PlayEvent(seat=opp, cards=tuple(rng.choice(answers))))
                else:
                    self._emit(PassEvent(seat=opp))
            if self.ref.thrown.get(opp):
                fours = [c for c in self.dealt_fours(opp)]
                self._emit(DeclareEvent(seat=opp, what="throw4", cards=tuple(fours)))
            if not self.rules.settings.revolution and rng.random() < 0.5:
                self.heads.append(DeclareEvent(seat=opp, what=rng.choice([Declare.YOUTOU, Declare.WUTOU])))
        for ev in self.heads:
            self._emit(ev)

    # ------------------------------------------------------------------ choosing plays
    def _hand(self, seat: int) -> Hand:
        hand = self.ref.hands[seat]
        assert hand is not None
        return hand

    def _ok(self, seat: int, cards: list[Card]) -> bool:
        return bool(cards) and self.ref.check_play(seat, tuple(cards)) is None

    def _leads(self, seat: int) -> list[list[Card]]:
        groups = self._hand(seat).by_order()
        faces = [o for o in groups if o != THREE]
        if not faces:
            return [groups[THREE]]
        rng = self.rng
        burn = self.ref.burning.current
        burning = burn is not None and burn.seat == seat
        jokers = groups.get(BJ, []) + groups.get(SJ, [])
        if burning:
            plain = [o for o in faces if o < SJ]
            if plain and jokers:
                o = rng.choice(plain)
                return [list(groups[o]) + [jokers[-1]]]
            if jokers:
                return [jokers]
        out = []
        for _ in range(3):
            o = min(faces) if rng.random() < 0.6 else rng.choice(faces)   # keep strong cards for last
            cards = groups[o]
            k = rng.randint(1, len(cards)) if rng.random() < 0.5 else len(cards)
            play = list(cards[:k])
            if o < TWO and o != FOUR:
                if burning and jokers and o < SJ:
                    play.append(jokers[-1])
                elif TWO in groups and rng.random() < 0.15:
                    play.append(groups[TWO][0])
                elif jokers and rng.random() < 0.08:
                    play.append(jokers[-1])
            out.append(play)
        return out

    def _answers(self, seat: int, cur: Shape) -> list[list[Card]]:
        groups = self._hand(seat).by_order()
        n = cur.n
        jokers = sorted(groups.get(BJ, []) + groups.get(SJ, []), key=lambda c: -ORDER[c.rank])
        twos = groups.get(TWO, [])
        need_j = len(cur.jokers)
        out = []
        for o, cards in groups.items():
            if o <= cur.base or o == THREE or o >= SJ:
                continue
            play = list(jokers[:need_j]) if need_j else []
            room = n - len(play)
            take = cards[:room]
            play += take
            room -= len(take)
            if room and o != FOUR and o != TWO:
                play += twos[:room]
                room = n - len(play)
            if room and o != FOUR:
                extra = [j for j in jokers if j not in play][:room] if not need_j else jokers[need_j:need_j + room]
                play += extra
            if len(play) == n:
                out.append(play)
        if len(jokers) >= n:
            out.append(jokers[len(jokers) - n:] if not need_j else jokers[:n])
        return out

    def _burn_ready(self, seat: int, play: list[Card]) -> bool:
        """Only burn when the rest of the hand can be played with a joker each (no 4s)."""
        left = self._hand(seat).copy()
        left.remove(play)
        groups = left.by_order()
        if FOUR in groups and not self.rules.settings.zhashao_places_last:
            return False
        jokers = len(groups.get(SJ, [])) + len(groups.get(BJ, []))
        plain = [o for o in groups if o not in (THREE, SJ, BJ)]
        if self.rules.settings.zhashao_places_last and self.rng.random() < 0.04:
            return True                       # dare a 诈烧
        return len(plain) <= jokers

    def play_out(self, limit: int = 4000) -> None:
        rng = self.rng
        ref = self.ref
        steps = 0
        while ref.phase not in (Phase.OVER, Phase.VOID):
            steps += 1
            if steps > limit:
                raise RuntimeError("simulated 够级 deal did not end")
            cur = ref.cur
            answered = False
            if cur is not None:
                start = ref.last_actor if ref.last_actor is not None else cur.seat
                s = start
                for _ in range(SEATS - 1):
                    s = (s + 1) % SEATS
                    if s == cur.seat:
                        break
                    if s not in ref.progress.active:
                        continue
                    if (ref.s.rangpai and cur.seat == (s + 3) % SEATS and not cur.restricted
                            and not ref.progress.luanchan and s not in ref.passed and ref.rang is None
                            and rng.random() < 0.08):
                        self._emit(DeclareEvent(seat=s, what="rangpai"))     # 让牌 (004:25)
                        continue
                    if self._try_answer(s, cur):
                        answered = True
                        break
                    if s in ref.may_answer() and rng.random() < 0.3:
                        self._emit(PassEvent(seat=s))
            if answered:
                continue
            leader = ref.to_lead()
            if leader is None:
                leader = next(iter(ref.progress.active))
            for play in self._leads(leader) + [self._fallback(leader)]:
                if self._ok(leader, play):
                    self._emit(PlayEvent(seat=leader, cards=tuple(play)))
                    break
            else:
                raise RuntimeError(f"no legal lead for seat {leader}")

    def _fallback(self, seat: int) -> list[Card]:
        groups = self._hand(seat).by_order()
        for o in sorted(groups):
            if o != THREE:
                return groups[o]
        return groups.get(THREE, [])

    def _try_answer(self, seat: int, cur: object) -> bool:
        ref = self.ref
        rng = self.rng
        shape = ref.cur.shape  # type: ignore[union-attr]
        p = 0.35 if ref.cur.restricted else 0.55  # type: ignore[union-attr]
        owner = ref.cur.seat  # type: ignore[union-attr]
        may_burn = (ref.cur.restricted and seat != (owner + 3) % SEATS  # type: ignore[union-attr]
                    and not ref.is_wutou(seat))
        if not may_burn and rng.random() > p:
            return False
        options = self._answers(seat, shape)
        rng.shuffle(options)
        for play in options:
            parsed = parse_shape(play, ref.min_table)
            if not isinstance(parsed, Shape) or not beats(parsed, shape):
                continue
            if not self._ok(seat, play):
                continue
            if may_burn and not self._burn_ready(seat, play):
                continue
            self._emit(PlayEvent(seat=seat, cards=tuple(play)))
            return True
        return False

    def _emit(self, ev: AnyEvent) -> None:
        faults = self.ref.feed(len(self.events), ev)
        assert not faults, (len(self.events), ev, faults)
        self.events.append(ev)


def simulate_deal(game: str, rng: random.Random, *, illegal: int = 0, with_hands: bool = True) -> list[AnyEvent]:
    """A complete random deal log of ``game`` (see module doc); ``illegal`` plays mutated."""
    return simulate_deal_with_faults(game, rng, illegal=illegal, with_hands=with_hands)[0]


def simulate_deal_with_faults(game: str, rng: random.Random, *, illegal: int = 0,
                              with_hands: bool = True) -> tuple[list[AnyEvent], list[int]]:
    """Like :func:`simulate_deal`; also returns the indices of the ``illegal`` mutated plays.

    A mutation replaces one play by a play of the same or fewer cards (another seat playing it,
    a card dropped from it, or all its cards but one played by the same seat) that the referee
    rejects at that point, and the judge too, given the mutations before it; so no card is ever
    seen more often than the decks hold.
    Events before a mutation are legal; events after it may suffer from it."""
    sim = _Sim(game, rng, with_hands)
    sim.deal()
    sim.chongdian()
    sim.play_out()
    events = sim.events
    if illegal <= 0:
        return events, []
    plays = [k for k, ev in enumerate(events) if isinstance(ev, PlayEvent)]
    plays = sorted(rng.sample(plays, min(len(plays), 6 * illegal)))    # ascending: each mutation
    done: list[int] = []                                                 # sees the ones before it
    for k in plays:
        if len(done) >= illegal:
            break
        if any(abs(k - d) < SPACING for d in done):
            continue
        bad = _mutation(sim.rules, events, k, rng)
        if bad is not None:
            events[k] = bad
            done.append(k)
    return events, sorted(done)


def _mutation(rules: GameRules, events: list[AnyEvent], k: int, rng: random.Random) -> PlayEvent | None:
    deal = events[0]
    assert isinstance(deal, DealEvent)
    ref = GoujiReferee(deal, 0, rules)
    for x in range(1, k):
        ref.feed(x, events[x])
    if ref.phase != Phase.PLAY:
        return None
    ev = events[k]
    assert isinstance(ev, PlayEvent)
    candidates: list[tuple[int, tuple[Card, ...]]] = []
    others = [s for s in range(SEATS) if s != ev.seat]
    rng.shuffle(others)
    candidates += [(s, ev.cards) for s in others]
    if len(ev.cards) > 1:
        candidates.append((ev.seat, ev.cards[1:]))
        candidates.append((ev.seat, ev.cards[:-1]))
    rng.shuffle(candidates)
    from ..eventlog import dump_event, read_lines
    from ..judge import Judge

    for seat, cards in candidates[:4]:
        if ref.check_play(seat, cards) is None:
            continue
        bad = PlayEvent(seat=seat, cards=cards)
        # illegal as the judge sees the log so far, earlier mutations and their re-synchronisation included
        verdict = Judge.judge(list(read_lines(dump_event(e) for e in [*events[:k], bad]))).verdicts[k]
        if not verdict.ok:
            return bad
    return None
