"""Tributes owed in the next deal: 点、烧、闷、落 in that order (004:19, 002:29).  The check that
a tribute card is the largest the giver may give is ``declares._tribute`` (with ``Hand.largest``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .settings import GoujiSettings

KIND_ORDER = {"dian": 0, "shao": 1, "men": 2, "luo": 3, "chuan": 3}


def tributes(settings: GoujiSettings, *, xuandian: set[int], kaidian: set[int],
             burns: Iterable[tuple[int, int]], men: Iterable[tuple[int, int]],
             order: Sequence[int | None], complete: bool, chuan: bool) -> list[dict[str, Any]]:
    """``burns``: (burner, burned) of successful burns; ``men``: (闷ed seat, by seat)."""
    out: list[dict[str, Any]] = []
    table = dict(settings.dian_table)
    for a in range(3):
        b = a + 3
        ab, ba = table.get((a in xuandian, b in xuandian, a in kaidian, b in kaidian), (0, 0))
        if ab:
            out.append({"from": a, "to": b, "count": ab, "kind": "dian"})
        if ba:
            out.append({"from": b, "to": a, "count": ba, "kind": "dian"})
    for burner, burned in burns:
        out.append({"from": burned, "to": burner, "count": 1, "kind": "shao"})
    for seat, by in men:
        out.append({"from": seat, "to": by, "count": 1, "kind": "men"})
    if complete:
        if chuan and settings.chuan:
            winners = {s for s in order[:3] if s is not None}
            for seat in range(6):
                if seat not in winners:
                    out.append({"from": seat, "to": (seat + 3) % 6, "count": 1, "kind": "chuan"})
        else:
            for loser, winner, count in ((order[5], order[0], 2), (order[4], order[1], 1)):
                if loser is None or winner is None:
                    continue
                item: dict[str, Any] = {"from": loser, "to": winner, "count": count, "kind": "luo"}
                if settings.luo_same_team_waivable and loser % 2 == winner % 2:
                    item["waivable"] = True
                out.append(item)
    return out
