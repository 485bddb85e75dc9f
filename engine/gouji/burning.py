"""烧牌 (burning): who may burn whose 够级 play, and who goes first when several declare.

Rules: 004:11 (烧牌), 004:25-27 (烧牌条件, priority, 解烧); 002:11-14 (反烧, 解烧, 诈烧, 烧队友).
The referee calls :func:`burn_fault` with the facts it holds; the function only reads them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .settings import GoujiSettings


@dataclass
class Burn:
    """A burn in progress: ``seat`` took ``target``'s 够级 play at event ``i``."""

    seat: int
    target: int
    i: int
    plays: int = 0          # plays led by the burner after the take
    #: D42: the play burned is a 够级 only by one card a camera read (a single 2 or joker, or
    #: the one joker that brings it to its count): the burn rests on that card
    on_one_card: bool = False
    #: D46: the take and the 够级 it took are camera plays, and one play not seen between them
    #: would make the take a plain answer (the 够级's owner led again, or the taker's 对门 took
    #: it first): the burn rests on the camera having seen every play
    after_unseen: bool = False


@dataclass
class BurnState:
    """The burning of a deal: the burn in progress, the seats that declared one on the play on
    the table, whether 解烧 closed burning for the round, the burns that succeeded, and the
    seats that burned before they were seen to play their 4s (004:25 cond. 4)."""

    current: Burn | None = None
    declared: list[int] = field(default_factory=list)           # 烧牌 declared, in order
    closed: bool = False                                        # 解烧之后此轮不可再烧 (004:11)
    done: list[tuple[int, int]] = field(default_factory=list)   # (burner, target): 烧牌成功
    #: (seat, event, asked) to prove; asked (D51): the burn rests on one card read (``Burn.on_one_card``)
    pending_four: list[tuple[int, int, bool]] = field(default_factory=list)
    fours_played: set[int] = field(default_factory=set)


def burn_fault(settings: GoujiSettings, *, seat: int, owner: int, luanchan: bool, owner_active: bool,
               passed: bool, closed: bool, seat_wutou: bool, owner_wutou: bool,
               holds_four: bool | None) -> tuple[str, dict] | None:
    """The first burning rule ``seat`` would break by burning ``owner``'s play, or ``None``.

    ``holds_four`` is ``None`` when the seat's hand is unknown (checked later by proof)."""
    facts = {"seat": seat, "target": owner}
    if luanchan:
        return "gouji.burn_in_luanchan", facts            # 004:11 四户乱缠后不可烧牌
    if not owner_active:
        return "gouji.burn_finished", facts               # 004:27 接风: only the 对家 answers
    if passed:
        return "gouji.burn_after_pass", facts             # 004:23, 004:25 cond. 1; 002:14
    if closed:
        return "gouji.burn_after_jieshao", facts          # 004:11 解烧之后此轮不可再烧
    if settings.wutou_no_burn and (seat_wutou or owner_wutou):
        return "gouji.burn_wutou", facts                  # 004:25 cond. 2
    if not settings.burn_teammates and seat % 2 == owner % 2:
        return "gouji.burn_teammate", facts
    if settings.burn_needs_four_out and holds_four:
        return "gouji.burn_before_four", facts            # 004:25 cond. 4
    return None


def priority(declared: Iterable[int], owner: int, seats: int = 6) -> list[int]:
    """Declared burners best first: the 够级 player's own team first (004:25-27 "同一方联邦的
    玩家优先", read as the team of the player being burned, decision D9), then play order
    from the 够级 player."""
    return sorted(declared, key=lambda s: (s % 2 != owner % 2, (s - owner) % seats))
