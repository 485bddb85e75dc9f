"""A deal's plays as motion on the table: where every card and hand is at time ``t``.

Every play slides into its seat's zone in a player's hand, the hand lets go and
withdraws; the true event time is the moment the cards come to rest.  Four-seat games
collect each trick (the next leader sweeps the cards off the table); 够级 rounds stay on
the table (later plays by the same seat overlap its earlier ones) until everybody else
passed.  Now and then a hand passes over cards already down without playing anything.
All positions are table millimetres (see :mod:`cardref.vision.zones`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field

from cardref.engine.events import AnyEvent, PassEvent, PlayEvent

from ..zones import SeatLayout, Zone

CARD_W_MM = 63.0
CARD_H_MM = 88.0
FAN_STEP_MM = 17.0


@dataclass(frozen=True)
class Timing:
    """Seconds of each motion (defaults give about 1.9 s per play)."""

    lead_in: float = 1.0  # empty table at the start (calibration)
    reach: float = 0.25  # hand from the edge to where the slide starts
    slide: float = 0.45  # cards slide to rest
    linger: float = 0.1  # hand stays on the cards
    withdraw: float = 0.3  # hand back to the edge
    think: tuple[float, float] = (0.4, 1.0)  # pause before the next play
    collect_wait: float = 0.7  # a finished trick stays this long before it is swept
    sweep: float = 0.5
    distract_p: float = 0.25  # chance that a hand passes over the table between plays
    nudge_p: float = 0.1  # chance that a player straightens their play (pushes it 2-5 cm) between plays
    distract: float = 1.0  # duration of such a pass
    tail: float = 1.5  # table stays still after the last play


@dataclass
class CardPath:
    code: str
    play: int
    z: int
    start: tuple[float, float, float]  # x, y, angle (deg) when the slide starts
    rest: tuple[float, float, float]
    t_in: tuple[float, float]
    t_out: tuple[float, float] = (math.inf, math.inf)
    out: tuple[float, float] = (0.0, 0.0)
    nudge: tuple[float, float, float, float] | None = None  # t0, t1, dx, dy: straightened later

    def pose(self, t: float) -> tuple[float, float, float] | None:
        """Position at ``t`` or ``None`` when the card is not on the table."""
        t0, t1 = self.t_in
        if t < t0 or t >= self.t_out[1]:
            return None
        if t < t1:
            a = _ease((t - t0) / (t1 - t0))
            return tuple(s + (r - s) * a for s, r in zip(self.start, self.rest, strict=True))  # type: ignore[return-value]
        x, y, ang = self.rest
        if self.nudge is not None and t >= self.nudge[0]:
            n0, n1, dx, dy = self.nudge
            a = _ease((t - n0) / (n1 - n0)) if t < n1 else 1.0
            x, y = x + dx * a, y + dy * a
        if t < self.t_out[0]:
            return (x, y, ang)
        a = _ease((t - self.t_out[0]) / (self.t_out[1] - self.t_out[0]))
        return (x + (self.out[0] - x) * a, y + (self.out[1] - y) * a, ang)


@dataclass
class HandPath:
    """A hand (and its arm back to ``shoulder``) moving through keyframes (t, x, y)."""

    keys: list[tuple[float, float, float]]
    shoulder: tuple[float, float]
    seat: int
    radius: tuple[float, float] = (48.0, 58.0)

    def position(self, t: float) -> tuple[float, float] | None:
        if t < self.keys[0][0] or t > self.keys[-1][0]:
            return None
        for (ta, xa, ya), (tb, xb, yb) in zip(self.keys, self.keys[1:], strict=False):
            if ta <= t <= tb:
                a = 0.0 if tb == ta else _ease((t - ta) / (tb - ta))
                return (xa + (xb - xa) * a, ya + (yb - ya) * a)
        return None


@dataclass
class TruePlay:
    t: float  # the cards come to rest
    t_clear: float  # the playing hand is gone
    seat: int
    cards: tuple[str, ...]
    event: PlayEvent
    card_ids: list[int] = field(default_factory=list)


@dataclass
class Timeline:
    cards: list[CardPath]
    hands: list[HandPath]
    plays: list[TruePlay]
    duration: float
    head: list[AnyEvent]  # deal / hand events before the first play

    def cards_at(self, t: float) -> list[tuple[CardPath, tuple[float, float, float]]]:
        out = []
        for c in self.cards:
            p = c.pose(t)
            if p is not None:
                out.append((c, p))
        return out

    def hands_at(self, t: float) -> list[tuple[HandPath, tuple[float, float]]]:
        out = []
        for h in self.hands:
            p = h.position(t)
            if p is not None:
                out.append((h, p))
        return out


def _ease(a: float) -> float:
    a = min(max(a, 0.0), 1.0)
    return a * a * (3 - 2 * a)


def _axes(zone: Zone) -> tuple[tuple[float, float], tuple[float, float]]:
    """(along the seat's edge, inward from the seat) unit vectors for a zone's facing."""
    f = math.radians(zone.facing)
    inward = (math.sin(f), -math.cos(f))  # facing 0 (bottom seat) → inward is -y
    along = (math.cos(f), math.sin(f))
    return along, inward


def _edge_point(layout: SeatLayout, zone: Zone, dist: float) -> tuple[float, float]:
    _, inward = _axes(zone)
    cx, cy = zone.center
    return (cx - inward[0] * dist, cy - inward[1] * dist)


def build_timeline(events: list[AnyEvent], layout: SeatLayout, rng: random.Random, *,
                   timing: Timing | None = None, max_plays: int | None = None,
                   collect: str = "auto", pile: bool = False,
                   index_mm: Callable[[str], float] | None = None) -> Timeline:
    """Lay out ``events`` in time.  ``collect``: ``"trick"`` (sweep every ``seats`` plays),
    ``"round"`` (sweep when a round of 够级 ends), ``"auto"`` (by seat count).  With
    ``pile`` every play goes onto the shared centre pile (as many 够级 tables do), pushed
    in from the player's side and overlapping what is already there.  ``index_mm(code)``:
    how far (mm) the top-left index of a face reaches into the card, so a fan is spread
    wide enough for every index to show, as players do."""
    if pile and layout.pile is None:
        raise ValueError("this layout has no centre pile")
    tm = timing or Timing()
    seats = layout.seats
    mode = collect if collect != "auto" else ("trick" if seats == 4 else "round")
    plays_in = [e for e in events if isinstance(e, PlayEvent)]
    first_play = next((i for i, e in enumerate(events) if isinstance(e, PlayEvent)), len(events))
    head = list(events[:first_play])
    # passes after each play, to find the end of a 够级 round
    passes_after: list[int] = []
    for e in events[first_play:]:
        if isinstance(e, PlayEvent):
            passes_after.append(0)
        elif isinstance(e, PassEvent) and passes_after:
            passes_after[-1] += 1
    if max_plays is not None:
        plays_in = plays_in[:max_plays]
    cards: list[CardPath] = []
    hands: list[HandPath] = []
    truth: list[TruePlay] = []
    on_table: list[int] = []  # card indices not yet collected
    stack: dict[int, int] = {}  # plays per seat in the current round
    t = tm.lead_in
    z = 0
    for k, play in enumerate(plays_in):
        seat = play.seat
        if seat >= seats:
            raise ValueError(f"play {k} is by seat {seat} but the table has {seats} seats")
        zone = layout.seat_zone(seat)
        along, inward = _axes(zone)
        level = stack.get(seat, 0)
        stack[seat] = level + 1
        cx, cy = zone.center
        shift_in = (level % 3 - 1) * 18.0
        shift_al = (level % 3 - 1) * 22.0
        slide_mm = 110.0
        slide_dir = inward
        if pile:
            assert layout.pile is not None
            px, py = layout.pile.center
            # a player pushes the cards into the part of the pile in front of them
            cx = px + (cx - px) * 0.3 + rng.uniform(-30, 30)
            cy = py + (cy - py) * 0.3 + rng.uniform(-25, 25)
            sx0, sy0 = zone.center
            dist = math.hypot(cx - sx0, cy - sy0)
            slide_dir = ((cx - sx0) / dist, (cy - sy0) / dist)
            shift_in = shift_al = 0.0
            slide_mm = 170.0
        n = len(play.cards)
        step = FAN_STEP_MM
        if index_mm is not None and n > 1:
            step = max(step, max(index_mm(c.code) for c in play.cards[:-1]) + 4.0)
        width = CARD_W_MM + step * (n - 1)
        base_x = cx + inward[0] * shift_in + along[0] * shift_al + rng.uniform(-6, 6)
        base_y = cy + inward[1] * shift_in + along[1] * shift_al + rng.uniform(-6, 6)
        base_ang = zone.facing + rng.uniform(-6, 6)
        t_reach, t_start = t, t + tm.reach
        t_rest = t_start + tm.slide
        ids = []
        for j, card in enumerate(play.cards):
            off = -width / 2 + CARD_W_MM / 2 + step * j
            rx = base_x + along[0] * off + rng.uniform(-1.5, 1.5)
            ry = base_y + along[1] * off + rng.uniform(-1.5, 1.5)
            ang = base_ang + rng.uniform(-2, 2)
            sx, sy = rx - slide_dir[0] * slide_mm, ry - slide_dir[1] * slide_mm
            cards.append(CardPath(card.code, k, z, (sx, sy, ang + rng.uniform(-8, 8)), (rx, ry, ang),
                                  (t_start, t_rest)))
            ids.append(len(cards) - 1)
            on_table.append(len(cards) - 1)
            z += 1
        # the hand holds the cards from the seat's side
        grip = 55.0
        hx0, hy0 = base_x - inward[0] * (slide_mm + grip), base_y - inward[1] * (slide_mm + grip)
        edge = _edge_point(layout, zone, 150)
        shoulder = _edge_point(layout, zone, 420)
        if pile:
            edge = (hx0 - slide_dir[0] * 100, hy0 - slide_dir[1] * 100)
            shoulder = (hx0 - slide_dir[0] * 400, hy0 - slide_dir[1] * 400)
        hx1, hy1 = base_x - inward[0] * grip, base_y - inward[1] * grip
        t_clear = t_rest + tm.linger + tm.withdraw
        hands.append(HandPath([(t_reach, *edge), (t_start, hx0, hy0), (t_rest, hx1, hy1),
                               (t_rest + tm.linger, hx1, hy1), (t_clear, *edge)], shoulder, seat))
        truth.append(TruePlay(t_rest, t_clear, seat, tuple(c.code for c in play.cards), play, ids))
        t = t_clear + rng.uniform(*tm.think)
        # a player straightening the cards just played: a hand pushes them a few cm
        if rng.random() < tm.nudge_p and not pile:
            d = rng.uniform(20, 50)
            ang = rng.uniform(0, 2 * math.pi)
            dx, dy = d * math.cos(ang) * 0.6, d * math.sin(ang) * 0.6
            n0 = t + 0.3
            for ci in ids:
                cards[ci].nudge = (n0, n0 + 0.4, dx, dy)
            hx, hy = base_x - inward[0] * grip, base_y - inward[1] * grip
            hands.append(HandPath([(t, *edge), (n0, hx, hy), (n0 + 0.4, hx + dx, hy + dy), (n0 + 0.8, *edge)],
                                  shoulder, seat))
            t = n0 + 1.0
        # a hand passing over cards already on the table, touching nothing
        if on_table and rng.random() < tm.distract_p:
            target = cards[rng.choice(on_table)]
            who = rng.randrange(seats)
            wz = layout.seat_zone(who)
            e = _edge_point(layout, wz, 150)
            tx, ty = target.rest[0] + rng.uniform(-20, 20), target.rest[1] + rng.uniform(-20, 20)
            d = tm.distract
            hands.append(HandPath([(t, *e), (t + d * 0.4, tx, ty), (t + d * 0.6, tx + 15, ty - 10), (t + d, *e)],
                                  _edge_point(layout, wz, 420), who))
            t += d + 0.2
        # collection
        end_of_group = False
        if mode == "trick":
            end_of_group = (k + 1) % seats == 0
        else:
            nxt = plays_in[k + 1] if k + 1 < len(plays_in) else None
            end_of_group = (k < len(passes_after) and passes_after[k] >= seats - 1) or (
                nxt is not None and nxt.seat == seat)
        if end_of_group and on_table and k + 1 < len(plays_in):
            t += tm.collect_wait
            who = plays_in[k + 1].seat
            wz = layout.seat_zone(who)
            out = _edge_point(layout, wz, 260)
            for ci in on_table:
                cards[ci].t_out = (t, t + tm.sweep)
                cards[ci].out = out
            mx = sum(cards[ci].rest[0] for ci in on_table) / len(on_table)
            my = sum(cards[ci].rest[1] for ci in on_table) / len(on_table)
            hands.append(HandPath([(t - 0.3, *_edge_point(layout, wz, 150)), (t, mx, my), (t + tm.sweep, *out)],
                                  _edge_point(layout, wz, 420), who))
            on_table.clear()
            stack.clear()
            t += tm.sweep + 0.4
    return Timeline(cards, hands, truth, t + tm.tail, head)
