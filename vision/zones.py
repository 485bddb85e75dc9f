"""Seat zones: where on the table each seat puts its plays, in table coordinates (mm).

Table coordinates come from the calibration (see :mod:`cardref.vision.calibration`): the
origin is the centre of marker 0 (the table corner at the top left of the camera image),
``x`` runs towards marker 1 and ``y`` towards marker 3, in millimetres.

Seats are numbered in the order of play, counter-clockwise seen from above (spec: 逆时针).
Seat 0 sits at the bottom edge of the camera image.  With 4 seats: 0 bottom, 1 right,
2 top, 3 left.  With 6 seats (two on each long side, one on each short side): 0 bottom
left, 1 bottom right, 2 right, 3 top right, 4 top left, 5 left, so that the seat opposite
``s`` (对门) is ``(s+3) % 6`` across the table.

A layout also has a shared centre pile (``kind="pile"``, no seat) as 够级 tables use it:
new cards there belong to the seat whose zone they came through.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .types import CardDetection

Point = tuple[float, float]

#: Default table size in mm: the rectangle spanned by the four marker centres.
DEFAULT_TABLE_MM: tuple[float, float] = (1000.0, 700.0)


class ZoneError(ValueError):
    """A zone description that cannot be used (bad polygon, duplicate seat, …)."""


def point_in_polygon(p: Point, polygon: Sequence[Point]) -> bool:
    """Even-odd ray casting; points on an edge may fall either way."""
    x, y = p
    inside = False
    n = len(polygon)
    j = n - 1
    for i in range(n):
        xi, yi = polygon[i]
        xj, yj = polygon[j]
        if (yi > y) != (yj > y):
            x_cross = xi + (y - yi) * (xj - xi) / (yj - yi)
            if x < x_cross:
                inside = not inside
        j = i
    return inside


def distance_to_polygon(p: Point, polygon: Sequence[Point]) -> float:
    """0 inside, else the distance to the nearest edge."""
    if point_in_polygon(p, polygon):
        return 0.0
    best = float("inf")
    n = len(polygon)
    for i in range(n):
        ax, ay = polygon[i]
        bx, by = polygon[(i + 1) % n]
        vx, vy = bx - ax, by - ay
        L2 = vx * vx + vy * vy
        s = 0.0 if L2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * vx + (p[1] - ay) * vy) / L2))
        best = min(best, ((p[0] - ax - s * vx) ** 2 + (p[1] - ay - s * vy) ** 2) ** 0.5)
    return best


def polygon_centroid(polygon: Sequence[Point]) -> Point:
    """Area centroid (falls back to the vertex mean for degenerate polygons)."""
    a = cx = cy = 0.0
    n = len(polygon)
    for i in range(n):
        x0, y0 = polygon[i]
        x1, y1 = polygon[(i + 1) % n]
        cross = x0 * y1 - x1 * y0
        a += cross
        cx += (x0 + x1) * cross
        cy += (y0 + y1) * cross
    if abs(a) < 1e-9:
        return (sum(p[0] for p in polygon) / n, sum(p[1] for p in polygon) / n)
    a *= 0.5
    return (cx / (6 * a), cy / (6 * a))


@dataclass(frozen=True)
class Zone:
    """One region of the table.

    ``kind`` is ``"seat"`` (plays here belong to ``seat``) or ``"pile"`` (a shared pile;
    ``seat`` is ``None``).  ``facing`` is the rotation in degrees of a card laid down
    upright by the seat (0 for the bottom seat, 180 for the top one): the simulator uses
    it, the pipeline does not need it.
    """

    name: str
    polygon: tuple[Point, ...]
    seat: int | None = None
    kind: str = "seat"
    facing: float = 0.0

    def __post_init__(self) -> None:
        if len(self.polygon) < 3:
            raise ZoneError(f"zone {self.name!r} needs a polygon of at least 3 points")
        if self.kind not in ("seat", "pile"):
            raise ZoneError(f"zone {self.name!r}: kind must be 'seat' or 'pile', got {self.kind!r}")
        if self.kind == "seat" and (self.seat is None or self.seat < 0):
            raise ZoneError(f"zone {self.name!r}: a seat zone needs a seat number >= 0")

    def contains(self, p: Point) -> bool:
        return point_in_polygon(p, self.polygon)

    @property
    def center(self) -> Point:
        return polygon_centroid(self.polygon)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "kind": self.kind,
                               "polygon": [[round(x, 1), round(y, 1)] for x, y in self.polygon]}
        if self.seat is not None:
            out["seat"] = self.seat
        out["facing"] = self.facing
        return out

    @classmethod
    def from_json(cls, obj: Any) -> Zone:
        if not isinstance(obj, dict):
            raise ZoneError(f"a zone must be a JSON object, got {type(obj).__name__}")
        try:
            poly = tuple((float(p[0]), float(p[1])) for p in obj["polygon"])
            seat = obj.get("seat")
            return cls(name=str(obj.get("name") or f"seat{seat}"), polygon=poly,
                       seat=None if seat is None else int(seat), kind=str(obj.get("kind", "seat")),
                       facing=float(obj.get("facing", 0.0)))
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            if isinstance(exc, ZoneError):
                raise
            raise ZoneError(f"bad zone {obj!r}: {exc}") from None


@dataclass(frozen=True)
class SeatLayout:
    """All zones of one table.  The first zone containing a point wins (seat zones first)."""

    seats: int
    zones: tuple[Zone, ...]
    table_mm: tuple[float, float] = DEFAULT_TABLE_MM
    _by_seat: dict[int, Zone] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        seen: dict[int, Zone] = {}
        names: set[str] = set()
        for z in self.zones:
            if z.name in names:
                raise ZoneError(f"two zones are named {z.name!r}")
            names.add(z.name)
            if z.kind == "seat":
                assert z.seat is not None
                if z.seat >= self.seats:
                    raise ZoneError(f"zone {z.name!r} has seat {z.seat} but the table has {self.seats} seats")
                if z.seat in seen:
                    raise ZoneError(f"seat {z.seat} has two zones ({seen[z.seat].name!r}, {z.name!r})")
                seen[z.seat] = z
        missing = [s for s in range(self.seats) if s not in seen]
        if missing:
            raise ZoneError(f"no zone for seat(s) {missing}")
        self._by_seat.update(seen)

    def zone_of(self, p: Point, tolerance: float = 0.0) -> Zone | None:
        """The zone holding ``p``; with ``tolerance``, else the nearest zone at most that far."""
        for z in self.zones:
            if z.kind == "seat" and z.contains(p):
                return z
        for z in self.zones:
            if z.kind == "pile" and z.contains(p):
                return z
        if tolerance > 0:
            best, best_d = None, tolerance
            for z in self.zones:
                d = distance_to_polygon(p, z.polygon)
                if d <= best_d:
                    best, best_d = z, d
            return best
        return None

    def seat_zone(self, seat: int) -> Zone:
        return self._by_seat[seat]

    @property
    def pile(self) -> Zone | None:
        return next((z for z in self.zones if z.kind == "pile"), None)

    def nearest_seat(self, p: Point, seats: Iterable[int] | None = None) -> int:
        """The seat whose zone centre is closest to ``p`` (among ``seats``, default all)."""
        best, best_d = 0, float("inf")
        for s in (sorted(self._by_seat) if seats is None else seats):
            z = self._by_seat[s]
            cx, cy = z.center
            d = (cx - p[0]) ** 2 + (cy - p[1]) ** 2
            if d < best_d:
                best, best_d = s, d
        return best

    def seat_in_front(self, p: Point, seats: Iterable[int] | None = None, min_off: float = 10.0) -> int:
        """The seat in front of which a pile card lying at ``p`` lies: players put their
        cards on the part of the pile before them, so the seat whose zone centre is the
        smallest angle off the line from the pile's centre through ``p`` (among ``seats``,
        default all).  Without a pile, or with ``p`` on its centre, the nearest seat."""
        pool = list(self._by_seat) if seats is None else list(seats)
        pile = self.pile
        if pile is None:
            return self.nearest_seat(p, pool)
        cx, cy = pile.center
        vx, vy = p[0] - cx, p[1] - cy
        if vx * vx + vy * vy < min_off * min_off:
            return self.nearest_seat(p, pool)
        here = math.degrees(math.atan2(vy, vx))

        def off(s: int) -> float:
            z = self._by_seat[s]
            return _off_mod(math.degrees(math.atan2(z.center[1] - cy, z.center[0] - cx)), here, 360.0)

        return min(pool, key=off)

    def seats_lying_as(self, axes: Sequence[float], diagonal_deg: float, tolerance_deg: float) -> list[int]:
        """The seats a pile play's cards lie as if put down by: ``axes`` are the angles (in
        degrees, table frame) of the line through each card's two index corners; a card put
        down by a seat facing ``f`` lies with that line at ``diagonal_deg + f`` (modulo 180).
        Seats that most of the cards agree with (within ``tolerance_deg``); every seat when
        ``axes`` is empty or no seat agrees."""
        every = sorted(self._by_seat)
        if not axes:
            return every
        agree = []
        for s in every:
            want = (diagonal_deg + self._by_seat[s].facing) % 180.0
            near = sum(1 for a in axes if _off_mod(a, want, 180.0) <= tolerance_deg)
            if near * 2 > len(axes):
                agree.append(s)
        return agree or every

    def seat_towards(self, rest: Point, first: Point, min_move: float = 6.0, *,
                     seats: Iterable[int] | None = None, in_front: bool = False) -> int:
        """The seat a pile play came from (among ``seats``, default all): cards slide in
        from their player, so the seat whose zone lies closest to the line from where they
        stopped (``rest``) back through where they were first seen (``first``).  Cards that
        moved less than ``min_move`` give no direction: then the seat in front of which they
        lie (``in_front``, V23), else the seat nearest to them."""
        pool = sorted(self._by_seat) if seats is None else sorted(seats)
        dx, dy = first[0] - rest[0], first[1] - rest[1]
        d = (dx * dx + dy * dy) ** 0.5
        if d < min_move:
            return self.seat_in_front(rest, pool) if in_front else self.nearest_seat(rest, pool)
        ux, uy = dx / d, dy / d
        best, best_key = None, None
        for s in pool:
            z = self._by_seat[s]
            vx, vy = z.center[0] - rest[0], z.center[1] - rest[1]
            along = vx * ux + vy * uy
            if along <= 0:
                continue
            off = abs(vx * uy - vy * ux)
            key = off / along  # the smallest angle off the line
            if best_key is None or key < best_key:
                best, best_key = s, key
        return self.nearest_seat(first, pool) if best is None else best

    def to_json(self) -> dict[str, Any]:
        return {"seats": self.seats, "table_mm": list(self.table_mm), "zones": [z.to_json() for z in self.zones]}

    @classmethod
    def from_json(cls, obj: Any) -> SeatLayout:
        if not isinstance(obj, dict):
            raise ZoneError("zones must be a JSON object with 'seats' and 'zones'")
        try:
            seats = int(obj["seats"])
            zones_raw = obj["zones"]
            table = obj.get("table_mm", DEFAULT_TABLE_MM)
            table_mm = (float(table[0]), float(table[1]))
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise ZoneError(f"bad zones: {exc}") from None
        if not isinstance(zones_raw, list):
            raise ZoneError("'zones' must be a list")
        return cls(seats=seats, zones=tuple(Zone.from_json(z) for z in zones_raw), table_mm=table_mm)


def _rect(x0: float, y0: float, x1: float, y1: float) -> tuple[Point, ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


def default_layout(seats: int, table_mm: tuple[float, float] = DEFAULT_TABLE_MM, *,
                   margin: float = 30.0, depth: float = 170.0, with_pile: bool = True) -> SeatLayout:
    """The standard zones for a 4- or 6-seat table of ``table_mm`` (width, height).

    Each seat zone is a band ``depth`` mm deep starting ``margin`` mm in from the seat's
    edge; the centre pile fills what is left in the middle.
    """
    w, h = table_mm
    if w < 4 * depth or h < 3 * depth:
        raise ZoneError(f"table {w:.0f}x{h:.0f} mm is too small for {depth:.0f} mm deep zones")
    side_len = min(h - 2 * (margin + depth) - 20, 360.0)
    zones: list[Zone] = []
    bottom = (h - margin - depth, h - margin)
    top = (margin, margin + depth)
    sy0, sy1 = h / 2 - side_len / 2, h / 2 + side_len / 2
    if seats == 4:
        edge = min(w * 0.4, 380.0)
        zones += [
            Zone("seat0", _rect(w / 2 - edge / 2, bottom[0], w / 2 + edge / 2, bottom[1]), 0, facing=0),
            Zone("seat1", _rect(w - margin - depth, sy0, w - margin, sy1), 1, facing=270),
            Zone("seat2", _rect(w / 2 - edge / 2, top[0], w / 2 + edge / 2, top[1]), 2, facing=180),
            Zone("seat3", _rect(margin, sy0, margin + depth, sy1), 3, facing=90),
        ]
    elif seats == 6:
        inner0, inner1 = margin + depth + 10, w - margin - depth - 10
        gap = 20.0
        mid = w / 2
        zones += [
            Zone("seat0", _rect(inner0, bottom[0], mid - gap, bottom[1]), 0, facing=0),
            Zone("seat1", _rect(mid + gap, bottom[0], inner1, bottom[1]), 1, facing=0),
            Zone("seat2", _rect(w - margin - depth, sy0, w - margin, sy1), 2, facing=270),
            Zone("seat3", _rect(mid + gap, top[0], inner1, top[1]), 3, facing=180),
            Zone("seat4", _rect(inner0, top[0], mid - gap, top[1]), 4, facing=180),
            Zone("seat5", _rect(margin, sy0, margin + depth, sy1), 5, facing=90),
        ]
    else:
        raise ZoneError(f"default zones exist for 4 and 6 seats, not {seats}")
    if with_pile:
        px0, px1 = margin + depth + 40, w - margin - depth - 40
        py0, py1 = margin + depth + 30, h - margin - depth - 30
        zones.append(Zone("pile", _rect(px0, py0, px1, py1), None, kind="pile"))
    return SeatLayout(seats=seats, zones=tuple(zones), table_mm=table_mm)


def assign(points: Iterable[Point], layout: SeatLayout, tolerance: float = 0.0) -> list[Zone | None]:
    """The zone of each point (``None`` when it lies outside every zone)."""
    return [layout.zone_of(p, tolerance) for p in points]


@dataclass(frozen=True)
class TableCard:
    """One detected card mapped onto the table: the observation the play segmenter reads.

    ``points`` are its visible corner indices (table mm); ``quad`` the detection box
    mapped to the table (used when the detector gives no corners); ``zone`` the name of
    the zone it lies in (``None``: outside every zone).
    """

    card: str
    conf: float
    points: tuple[Point, ...]
    zone: str | None = None
    quad: tuple[Point, ...] = ()
    sure: bool | None = None  # the detector read it surely (None: it does not say)

    @property
    def xy(self) -> Point:
        n = len(self.points)
        return (sum(p[0] for p in self.points) / n, sum(p[1] for p in self.points) / n)


def to_table(detections: Sequence[CardDetection], to_table_fn: Callable[[list[Point]], list[Point]],
             layout: SeatLayout, tolerance: float = 40.0) -> list[TableCard]:
    """Map detector output (:class:`~cardref.vision.types.CardDetection`) onto the table.

    ``to_table_fn`` maps image pixels to table mm (``Calibration.to_table``).  One call
    maps every point of the frame at once.
    """
    pts: list[Point] = []
    spans: list[tuple[int, int, int]] = []
    for d in detections:
        start = len(pts)
        corners = getattr(d, "corners", ()) or ()
        if corners:
            for c in corners:
                x1, y1, x2, y2 = c.box
                pts.append(((x1 + x2) / 2, (y1 + y2) / 2))
        else:
            x1, y1, x2, y2 = d.box
            pts.append(((x1 + x2) / 2, (y1 + y2) / 2))
        n_points = len(pts) - start
        x1, y1, x2, y2 = d.box
        pts.extend([(x1, y1), (x2, y1), (x2, y2), (x1, y2)])
        spans.append((start, n_points, 4))
    if not pts:
        return []
    mapped = [(float(x), float(y)) for x, y in to_table_fn(pts)]
    out = []
    for d, (start, n, q) in zip(detections, spans, strict=True):
        points = tuple(mapped[start:start + n])
        quad = tuple(mapped[start + n:start + n + q])
        cx = sum(p[0] for p in points) / n
        cy = sum(p[1] for p in points) / n
        zone = layout.zone_of((cx, cy), tolerance)
        out.append(TableCard(d.card, float(d.conf), points, None if zone is None else zone.name, quad,
                             d.sure))
    return out


def _off_mod(a: float, b: float, period: float) -> float:
    """How far apart two angles are, modulo ``period`` (degrees)."""
    d = (a - b) % period
    return min(d, period - d)
