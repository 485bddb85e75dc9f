"""Distances and shapes on the table (table mm): the arithmetic the segmenter's rules share."""

from __future__ import annotations

import math
from collections.abc import Sequence

from cardref.vision.zones import Point, point_in_polygon


def dist(a: Point, b: Point) -> float:
    """Euclidean distance."""
    return math.hypot(a[0] - b[0], a[1] - b[1])


def nearest(p: Point, points: Sequence[Point]) -> float:
    """Distance from ``p`` to the nearest of ``points`` (non-empty)."""
    return min(dist(p, q) for q in points)


def gap(a: Sequence[Point], b: Sequence[Point]) -> float:
    """The smallest distance between a point of ``a`` and one of ``b`` (both non-empty)."""
    return min(dist(p, q) for p in a for q in b)


def card_lie(points: Sequence[Point], min_mm: float) -> float | None:
    """How a card seen by exactly two indices lies: the angle (degrees, modulo 180) of the
    line through them, or ``None`` for a card seen by one index, by more than two (a
    four-index card: which corners is not known), or by two nearer than ``min_mm`` (one
    side of such a card, not its diagonal)."""
    if len(points) != 2 or dist(points[0], points[1]) < min_mm:
        return None
    (x0, y0), (x1, y1) = points
    return math.degrees(math.atan2(y1 - y0, x1 - x0)) % 180.0


def within(p: Point, points: Sequence[Point], margin: float) -> bool:
    """Does ``p`` lie inside the box around ``points``, widened by ``margin`` on every side?"""
    xs, ys = [q[0] for q in points], [q[1] for q in points]
    return min(xs) - margin <= p[0] <= max(xs) + margin and min(ys) - margin <= p[1] <= max(ys) + margin


def inward(p: Point, points: Sequence[Point], cos_min: float = 0.5) -> bool:
    """Does ``p`` lie inward of the card indexed at ``points`` (two or more): from the index
    nearest it, within acos(``cos_min``) of the way to the index farthest from that one (the
    card's face stretches from each index towards the other)?  A lower card of a fan shows
    its index beyond the upper card's edge, outward."""
    if len(points) < 2:
        return False
    near = min(points, key=lambda q: dist(p, q))
    far = max(points, key=lambda q: dist(near, q))
    v, w = (far[0] - near[0], far[1] - near[1]), (p[0] - near[0], p[1] - near[1])
    norm = math.hypot(*v) * math.hypot(*w)
    return norm > 0 and (v[0] * w[0] + v[1] * w[1]) >= cos_min * norm


def own_index(points: Sequence[Point], others: Sequence[Point], near_mm: float) -> bool:
    """Does one of ``points`` lie further than ``near_mm`` from all of ``others``?"""
    return any(min(dist(p, q) for q in others) > near_mm for p in points)


def in_quad(p: Point, quad: Sequence[Point]) -> bool:
    """Does ``p`` lie inside the polygon ``quad`` (three or more corners)?"""
    return len(quad) >= 3 and point_in_polygon(p, quad)


def mean(points: Sequence[Point]) -> Point:
    """The mean of ``points`` (non-empty)."""
    return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))
