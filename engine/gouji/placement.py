"""Finishing order (头科 … 大落) from who went out, who was placed from the bottom (闷, 诈烧)
and who holds a fixed place (革命/冲点).  Pure function, recomputed on demand."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence


def finishing_order(finished: Sequence[int], bottom: Sequence[int], fixed: Mapping[int, int],
                    remaining: Iterable[int], complete: bool, seats: int = 6) -> list[int | None]:
    """Slots 0..5 (头科 first).  ``finished``: seats in the order they went out (走科);
    ``bottom``: seats placed from the bottom, worst first (诈烧 then 闷, 002:16-18, 004:27);
    ``fixed``: seat → slot index (革命 四科 = 3, 大拉 = 5 …); ``remaining`` fill the free slots
    in the order given once the deal is ``complete``."""
    slots: list[int | None] = [None] * seats
    for seat, slot in fixed.items():
        if slots[slot] is None:
            slots[slot] = seat
    k = 0
    for seat in finished:
        if seat in fixed:
            continue
        while k < seats and slots[k] is not None:
            k += 1
        if k < seats:
            slots[k] = seat
    j = seats - 1
    for seat in bottom:
        while j >= 0 and slots[j] is not None:
            j -= 1
        if j >= 0:
            slots[j] = seat
    if complete:
        free = [x for x in range(seats) if slots[x] is None]
        for x, seat in zip(free, remaining, strict=False):
            slots[x] = seat
    return slots
