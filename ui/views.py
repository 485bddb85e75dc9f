"""What the screens show, computed from a judged log (no Streamlit here, so it is testable).

Every function reads the judge's output (:class:`JudgeResult`) and the raw lines.  The
rules engines' ``state()`` and ``summary()`` dicts are read *defensively*: a key a game
does not provide is shown as "—", never an error, so the dashboard keeps working while
the engines grow.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from cardref.engine.cards import Card, Rank, Suit
from cardref.engine.eventlog import read_lines
from cardref.engine.events import (
    AnyEvent,
    BottomEvent,
    CorrectEvent,
    DealEvent,
    DeclareEvent,
    HandEvent,
    PassEvent,
    PlayEvent,
)
from cardref.engine.judge import DealRun, JudgeResult
from cardref.engine.names import TRIBUTE_KINDS as TRIBUTE_KINDS
from cardref.engine.names import name_seats as name_seats
from cardref.engine.registry import is_gouji
from cardref.engine.verdict import Verdict

from .i18n import declare_title, game_title, keys, seat_title, tr

NONE = "—"


def family_of(game: str) -> str:
    """``gouji`` for the 够级 games, ``shengji`` for the 升级 family (刮风, 炒地皮)."""
    return "gouji" if is_gouji(game) else "shengji"


def pick(d: Any, *keys: str, default: Any = None) -> Any:
    """The first of ``keys`` present (and not None) in dict ``d``."""
    if not isinstance(d, dict):
        return default
    for k in keys:
        if d.get(k) is not None:
            return d[k]
    return default


def show(value: Any) -> str:
    """A value for a person: None → "—", lists joined, cards by code."""
    if value is None or value == "" or value == []:
        return NONE
    if isinstance(value, bool):
        return "✓" if value else "✗"
    if isinstance(value, list | tuple):
        return " ".join(show(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{k}: {show(v)}" for k, v in value.items())
    if isinstance(value, float):
        return f"{value:g}"
    return str(getattr(value, "code", value))


def card_points(codes: list[str]) -> int:
    """升级 points: each 5 counts 5, each 10 and K count 10."""
    total = 0
    for c in codes:
        rank = c[:-1] if c not in ("SJ", "BJ") else c
        total += {"5": 5, "10": 10, "K": 10}.get(rank, 0)
    return total


def codes_of(cards: Any) -> list[str]:
    if not cards:
        return []
    out = []
    for c in cards:
        if isinstance(c, Card):
            out.append(c.code)
        elif isinstance(c, str):
            out.append(c)
    return out


def sort_codes(codes: list[str]) -> list[str]:
    """Cards in a stable, readable order (jokers first, then by rank high to low, suit)."""
    def key(code: str) -> tuple[int, int, str]:
        if code == "BJ":
            return (0, -Rank.BIG_JOKER, "")
        if code == "SJ":
            return (0, -Rank.SMALL_JOKER, "")
        rank = {"A": 14, "K": 13, "Q": 12, "J": 11}.get(code[:-1])
        value = rank if rank is not None else int(code[:-1]) if code[:-1].isdigit() else 0
        return (1, -value, code[-1])
    return sorted(codes, key=key)


# ---- events ------------------------------------------------------------------------------

@dataclass
class Row:
    """One log line as the referee panel shows it."""

    i: int
    kind: str
    t: float | None
    seat: int | None
    cards: list[str]
    original_cards: list[str] | None
    original_seat: int | None
    conf: float | None
    source: str | None
    ok: bool
    code: str | None
    message: str
    proven_at: int | None
    text: str
    corrected_by: list[int] = field(default_factory=list)
    confirmed_by: list[int] = field(default_factory=list)
    deal: int | None = None


def suit_symbol(suit: Any) -> str | None:
    """The symbol of a suit letter ("H" → "♥", the engine's :attr:`Suit.symbol`); None for
    anything that is no suit."""
    try:
        return Suit(str(suit)).symbol
    except ValueError:
        return None


#: deal options the 开局 row names in words, in this order (others follow as ``name value``).
_DEAL_WORDS = ("level", "trump", "dealer", "leader")
#: deal options that are the log's bookkeeping, not the deal's settings.
_DEAL_QUIET = {"names", "source", "hand_sizes"}


def deal_text(event: DealEvent, lang: str = "zh") -> str:
    """The 开局 line in words: the game's title, then 打4 · 主♥ · 庄家 东 · 首出 南 (catalogue
    ``deal.*``); ``trump`` null is 无主.  An option the catalogue has no words for follows as
    ``name value``."""
    opts = event.options
    parts = [game_title(event.game, lang)]
    if "level" in opts:
        parts.append(tr("deal.level", lang, level=show(opts["level"])))
    if "trump" in opts:
        suit = opts["trump"]
        parts.append(tr("deal.no_trump", lang) if suit in (None, "", "NT", "N")
                     else tr("deal.trump", lang, suit=suit_symbol(suit) or show(suit)))
    for key in ("dealer", "leader"):
        seat = opts.get(key)
        if isinstance(seat, int) and not isinstance(seat, bool):
            parts.append(tr(f"deal.{key}", lang, seat=seat_title(seat, event.seats, lang)))
        elif key in opts:
            parts.append(tr(f"deal.{key}", lang, seat=show(seat)))
    parts += [f"{k} {show(v)}" for k, v in opts.items() if k not in _DEAL_WORDS and k not in _DEAL_QUIET]
    return " · ".join(parts)


def _describe(event: AnyEvent | None, lang: str, seats: int = 4) -> str:
    if isinstance(event, DealEvent):
        return deal_text(event, lang)
    if isinstance(event, DeclareEvent):
        extra = " ".join(codes_of(event.cards))
        return f"{declare_title(event.what, lang)} {extra}".strip()
    if isinstance(event, CorrectEvent):
        parts = [f"#{event.ref}"]
        if event.cards is not None:
            parts.append(" ".join(codes_of(event.cards)))
        if event.seat is not None:
            parts.append(seat_title(event.seat, seats, lang))
        if event.who:
            parts.append(f"({event.who}{': ' + event.why if event.why else ''})")
        return " ".join(parts)
    return ""


def rows(lines: list[str], result: JudgeResult, lang: str = "zh") -> list[Row]:
    """One :class:`Row` per judged line, with the corrected values and who fixed them;
    messages name seats as the screen does (:func:`seat_names`)."""
    parsed = list(read_lines(lines[: len(result.verdicts)]))
    out: list[Row] = []
    deal_index: int | None = None
    names: list[str] = []
    seats = 4
    for line, verdict in zip(parsed, result.verdicts, strict=False):
        eff = result.effective[line.i] if line.i < len(result.effective) else line.event
        orig = line.event
        if isinstance(orig, DealEvent):
            deal_index = line.i
            seats = orig.seats
            names = seat_names(eff if isinstance(eff, DealEvent) else orig, lang)
        kind = "error" if orig is None else orig.type
        vj = verdict.to_json(lang)
        seat = getattr(eff, "seat", None)
        cards = codes_of(getattr(eff, "cards", None))
        o_cards = codes_of(getattr(orig, "cards", None))
        o_seat = getattr(orig, "seat", None)
        out.append(Row(
            i=line.i, kind=kind, t=getattr(orig, "t", None), seat=seat, cards=cards,
            original_cards=o_cards if o_cards != cards else None,
            original_seat=o_seat if o_seat != seat else None,
            conf=getattr(orig, "conf", None), source=getattr(orig, "source", None),
            ok=verdict.ok, code=vj.get("code"), message=name_seats(vj.get("message", ""), names, lang),
            proven_at=vj.get("proven_at"), text=_describe(eff, lang, seats), deal=deal_index,
        ))
    by_i = {r.i: r for r in out}
    for line in parsed:
        ev = line.event
        if isinstance(ev, CorrectEvent) and ev.ref in by_i and ev.ref < line.i:
            target = by_i[ev.ref]
            (target.confirmed_by if ev.why == "confirm" else target.corrected_by).append(line.i)
    return out


def faults(all_rows: list[Row]) -> list[Row]:
    return [r for r in all_rows if not r.ok]


# ---- banners -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Banner:
    level: str  # "error" | "warning" | "info"
    text: str


def log_banners(lines: list[str], result: JudgeResult, lang: str = "zh", empty: str | None = None) -> list[Banner]:
    """Problems of the log as a whole: unreadable lines, unknown or unsupported games.
    ``empty`` replaces the "the log is empty" sentence (a replay at its start)."""
    out: list[Banner] = []
    if not lines:
        return [Banner("info", empty or tr("banner.empty_log", lang))]
    error = getattr(result, "engine_error", None)
    if error:
        out.append(Banner("error", tr("banner.engine_error", lang, detail=error)))
    bad = [v for v in result.verdicts if v.fault is not None and v.fault.code.startswith(("log.bad_json",
           "log.not_object", "log.unknown_type", "event."))]
    if bad:
        first = bad[0].to_json(lang)["message"]
        out.append(Banner("error", tr("banner.bad_lines", lang, n=len(bad), first=first)))
    for v in result.verdicts:
        if v.fault is not None and v.fault.code in ("log.unknown_game", "log.seats_mismatch"):
            out.append(Banner("error", tr("banner.unknown_game", lang, detail=v.to_json(lang)["message"])))
    unsupported = sorted({d.deal.game for d in result.deals if not d.judged and d.referee is not None
                          and getattr(d.referee, "rules", None) is not None}) if not error else []
    for game in unsupported:
        out.append(Banner("warning", tr("banner.unsupported", lang, game=game)))
    if not result.deals:
        out.append(Banner("info", tr("banner.no_deal", lang)))
    return out


# ---- the deal being played -----------------------------------------------------------------

@dataclass
class SeatView:
    seat: int
    name: str
    team: int
    played: int  # cards played so far in this deal
    last: list[str]  # the seat's play in the current trick/round
    last_ok: bool
    passed: bool
    out_place: int | None  # 1 = 头科 …
    is_leader: bool
    to_play: bool


@dataclass
class DealView:
    """The current deal at a glance: seats, current trick, plays in order."""

    index: int
    game: str
    family: str
    seats: int
    names: list[str]
    options: dict[str, Any]
    judged: bool
    state: dict[str, Any]
    summary: dict[str, Any]
    plays: list[tuple[int, int, list[str], bool]]  # (i, seat, cards, ok)
    trick: list[tuple[int, list[str], bool]]  # (seat, cards, ok) of the current trick/round
    seat_views: list[SeatView]
    bottom: list[str]
    declares: list[tuple[int, str, list[str]]]
    to_play: int | None = None
    over: bool = False


def seat_names(deal: DealEvent, lang: str = "zh", overrides: dict[int, str] | None = None) -> list[str]:
    """Each seat as the screen names it everywhere: its table name (东 南 西 北; 1号位 …
    for 够级, :data:`cardref.ui.i18n.SEAT_NAMES`), then the player's name when one is given
    and differs ("南·张三")."""
    names = deal.options.get("names")
    out = []
    for s in range(deal.seats):
        player = None
        if overrides and overrides.get(s):
            player = overrides[s]
        elif isinstance(names, list) and s < len(names) and isinstance(names[s], str) and names[s].strip():
            player = names[s].strip()
        title = seat_title(s, deal.seats, lang)
        out.append(title if not player or player == title else f"{title}·{player}")
    return out


def safe_summary(run: DealRun) -> dict[str, Any]:
    try:
        out = run.summary()
    except Exception:  # an engine bug must not take the screen down
        return {"game": run.deal.game, "i": run.index, "judged": False}
    return out if isinstance(out, dict) else {}


def _deal_events(result: JudgeResult, run: DealRun) -> list[tuple[int, AnyEvent | None, Verdict]]:
    end = run.end if run.end is not None else len(result.verdicts)
    return [(i, result.effective[i], result.verdicts[i]) for i in range(run.index + 1, min(end, len(result.verdicts)))]


def _state_trick(state: dict[str, Any], ok_by_i: dict[int, bool] | None = None) -> list[tuple[int, list[str], bool]] | None:
    """The engine's current trick; a play whose verdict (by its line ``i``) is a fault is
    marked not ok, so the trick and the table from above frame it red."""
    trick = pick(state, "trick", "current_trick", "round", "table")
    if isinstance(trick, dict):
        trick = pick(trick, "plays", "cards")
    if not isinstance(trick, list):
        return None
    ok_by_i = ok_by_i or {}
    out = []
    for p in trick:
        if isinstance(p, dict) and isinstance(p.get("seat"), int):
            i = p.get("i")
            out.append((p["seat"], codes_of(p.get("cards")), ok_by_i.get(i, True) if isinstance(i, int) else True))
    return out


def _mark_by_play(trick: list[tuple[int, list[str], bool]],
                  plays: list[tuple[int, int, list[str], bool]]) -> list[tuple[int, list[str], bool]]:
    """A trick whose entries carry no line number: each entry is the latest play of that
    seat with those cards (walking back from the end), and takes that play's verdict."""
    used: set[int] = set()
    out = []
    for seat, cards, ok in reversed(trick):
        hit = next((k for k in range(len(plays) - 1, -1, -1) if k not in used and plays[k][1] == seat
                    and sorted(plays[k][2]) == sorted(cards)), None)
        if hit is not None:
            used.add(hit)
            ok = ok and plays[hit][3]
        out.append((seat, cards, ok))
    return list(reversed(out))


def _fallback_trick(plays: list[tuple[int, int, list[str], bool]], passes: list[tuple[int, int]],
                    seats: int, family: str) -> list[tuple[int, list[str], bool]]:
    """Without the engine's word: 升级 tricks are ``seats`` plays each; a 够级 round ends when
    every other seat has passed since the last play."""
    if not plays:
        return []
    if family == "shengji":
        start = (len(plays) - 1) // seats * seats
        return [(s, c, ok) for _, s, c, ok in plays[start:]]
    # 够级: a seat that plays again right after its own play (everyone else passed) leads a
    # new round; the round shown is the one since the last such lead.
    start = 0
    for k in range(1, len(plays)):
        if plays[k][1] == plays[k - 1][1]:
            start = k
    return [(s, c, ok) for _, s, c, ok in plays[start:]]


def deal_view(lines: list[str], result: JudgeResult, lang: str = "zh", deal_no: int = -1) -> DealView | None:
    """The view of one deal (the last one by default)."""
    if not result.deals:
        return None
    run = result.deals[deal_no]
    deal = run.deal
    fam = family_of(deal.game)
    events = _deal_events(result, run)
    plays: list[tuple[int, int, list[str], bool]] = []
    passes: list[tuple[int, int]] = []
    bottom: list[str] = []
    declares: list[tuple[int, str, list[str]]] = []
    played = [0] * deal.seats
    hand_sizes = list(deal.hand_sizes) if deal.hand_sizes else None
    for i, ev, v in events:
        if isinstance(ev, PlayEvent) and 0 <= ev.seat < deal.seats:
            plays.append((i, ev.seat, codes_of(ev.cards), v.ok))
            if v.ok or fam == "shengji":  # a 够级 play the judge refused never left the hand
                played[ev.seat] += len(ev.cards)
        elif isinstance(ev, PassEvent) and 0 <= ev.seat < deal.seats:
            passes.append((i, ev.seat))
        elif isinstance(ev, BottomEvent):
            bottom = codes_of(ev.cards)
        elif isinstance(ev, DeclareEvent):
            declares.append((ev.seat, ev.what, codes_of(ev.cards)))
        elif isinstance(ev, HandEvent) and hand_sizes is None:
            hand_sizes = [0] * deal.seats
        if isinstance(ev, HandEvent) and hand_sizes is not None and 0 <= ev.seat < deal.seats:
            hand_sizes[ev.seat] = len(ev.cards)
    try:
        state = run.referee.state() if run.judged else {}
    except Exception:  # an engine bug must not take the screen down
        state = {}
    state = state if isinstance(state, dict) else {}
    summary = safe_summary(run)
    given = state.get("played")
    if isinstance(given, list) and len(given) == deal.seats and all(isinstance(n, int) for n in given):
        played = list(given)  # the engine's count: refused plays never left the hand
    ok_by_i = {i: ok for i, _, _, ok in plays}
    trick = _state_trick(state, ok_by_i)
    if trick:
        trick = _mark_by_play(trick, plays)
    if trick == [] and isinstance(state.get("tricks"), list) and state["tricks"]:
        last = state["tricks"][-1]  # between tricks: keep showing the one just won
        trick = _state_trick({"trick": last.get("plays")}, ok_by_i) if isinstance(last, dict) else None
    if trick is None:
        trick = _fallback_trick(plays, passes, deal.seats, fam)
    names = seat_names(deal, lang)
    order = pick(summary, "order") or pick(state, "order", "finished", "out_order") or []
    order = [s for s in order if isinstance(s, int)]
    for seat, what, _ in declares:
        if what == "out" and seat not in order:
            order.append(seat)
    if hand_sizes:
        for s in range(deal.seats):
            if hand_sizes[s] and played[s] >= hand_sizes[s] and s not in order:
                order.append(s)
    leader = pick(state, "leader", "lead")
    if leader is None:
        leader = trick[0][0] if trick else pick(deal.options, "leader", "dealer")
    to_play = pick(state, "to_play", "turn", "next")
    in_trick = {s: (c, ok) for s, c, ok in trick}
    last_play_i = plays[-1][0] if plays else -1
    recent_pass = {s for i, s in passes if i > last_play_i}
    seat_views = []
    for s in range(deal.seats):
        c, ok = in_trick.get(s, ([], True))
        seat_views.append(SeatView(
            seat=s, name=names[s], team=s % 2, played=played[s], last=c, last_ok=ok,
            passed=s in recent_pass,
            out_place=(order.index(s) + 1) if s in order and fam == "gouji" else None,  # 刮风 has no places
            is_leader=isinstance(leader, int) and leader == s,
            to_play=isinstance(to_play, int) and to_play == s,
        ))
    over = bool(state.get("complete")) or pick(summary, "final_points") is not None \
        or (fam == "gouji" and isinstance(summary.get("order"), list) and bool(summary.get("order"))
            and None not in summary["order"])
    return DealView(
        index=run.index, game=deal.game, family=fam, seats=deal.seats, names=names,
        options=dict(deal.options), judged=run.judged, state=state, summary=summary,
        plays=plays, trick=trick, seat_views=seat_views, bottom=bottom, declares=declares,
        to_play=to_play if isinstance(to_play, int) and 0 <= to_play < deal.seats else None, over=over,
    )


def turn_text(view: DealView, lang: str = "zh") -> str | None:
    """Whose turn it is, in words ("轮到 南"), "the deal is over", or None when the engine
    does not say."""
    if view.to_play is not None:
        return tr("score.to_play", lang, name=view.names[view.to_play])
    if view.over:
        return tr("table.deal_over", lang)
    return None


# ---- scoreboards ----------------------------------------------------------------------------

@dataclass
class Trick:
    n: int
    plays: list[tuple[int, list[str], bool]]
    winner: int | None
    points: int
    attacker_points: int | None  # running total after this trick, when the engine says


def tricks(view: DealView) -> list[Trick]:
    """The deal's trick history: the engine's when it gives one, else plays grouped by seat count."""
    out: list[Trick] = []
    given = pick(view.state, "tricks", "trick_history", "history")
    if isinstance(given, list) and given and all(isinstance(t, dict) for t in given):
        running = 0
        attackers = _attackers(view)
        ok_by_i = {i: ok for i, _, _, ok in view.plays}
        for n, t in enumerate(given, start=1):
            plays = [(p.get("seat"), codes_of(p.get("cards")), ok_by_i.get(p.get("i"), True))
                     for p in t.get("plays", []) if isinstance(p, dict)]
            pts = t.get("points")
            if not isinstance(pts, int):
                pts = card_points([c for _, cs, _ in plays for c in cs])
            winner = t.get("winner")
            if isinstance(winner, int) and attackers is not None and winner in attackers:
                running += pts
            out.append(Trick(n, plays, winner if isinstance(winner, int) else None, pts,
                             running if attackers is not None else None))
        return out
    plays = view.plays
    for n, start in enumerate(range(0, len(plays), view.seats), start=1):
        chunk = plays[start:start + view.seats]
        cards = [c for _, _, cs, _ in chunk for c in cs]
        out.append(Trick(n, [(s, cs, ok) for _, s, cs, ok in chunk], None, card_points(cards), None))
    return out


def _attackers(view: DealView) -> set[int] | None:
    given = view.state.get("attackers")
    if isinstance(given, list) and all(isinstance(x, int) for x in given):
        return set(given)
    dealer = pick(view.state, "dealer") if pick(view.state, "dealer") is not None else view.options.get("dealer")
    if not isinstance(dealer, int):
        return None
    return {s for s in range(view.seats) if s % 2 != dealer % 2}


def points_series(view: DealView) -> list[dict[str, Any]]:
    """Rows for the points-over-tricks chart: trick number, points in it, attacker total."""
    return [{"trick": t.n, "points": t.points, "attacker_points": t.attacker_points} for t in tricks(view)]


@dataclass
class Item:
    label_key: str
    value: str


def shengji_board(view: DealView, lang: str = "zh") -> dict[str, Any]:
    """升级 family: attacker points, trump/level/dealer, both teams' levels, bottom at the end."""
    s, st = view.summary, view.state
    attacker = pick(st, "attacker_points", "points")
    if attacker is None:
        attacker = pick(s, "attacker_points")
    dealer = pick(st, "dealer")
    if dealer is None:
        dealer = view.options.get("dealer")
    levels = pick(st, "levels", "team_levels")
    if levels is None:
        levels = view.options.get("team_levels")
    team_levels: dict[str, str] = {}
    for team in (0, 1):
        seats = [x for x in range(view.seats) if x % 2 == team]
        label = "/".join(view.names[x] for x in seats)
        value = None
        if isinstance(levels, dict):
            value = levels.get(str(team), levels.get(team))  # type: ignore[call-overload]
        elif isinstance(levels, list) and team < len(levels):
            value = levels[team]
        if value is None and isinstance(dealer, int) and dealer % 2 == team:
            value = view.options.get("level")
        team_levels[label] = show(value)
    trump_given = "trump" in st or "trump" in view.options
    trump = st.get("trump", view.options.get("trump")) if trump_given else NONE
    if trump_given and trump is None:
        trump = tr("setup.no_trump", lang)
    elif isinstance(trump, str) and suit_symbol(trump) is not None:
        trump = f"{suit_symbol(trump)}{trump}"
    level_change = pick(s, "level_change")
    if isinstance(level_change, dict):
        team = level_change.get("team")
        who = "/".join(view.names[x] for x in team if isinstance(x, int) and x < view.seats) if isinstance(team, list) else NONE
        lv = level_change.get("levels")
        level_change_text = f"{who} +{lv}" if lv is not None else who
        nxt = level_change.get("next_dealer", level_change.get("dealer"))
        if isinstance(nxt, int):
            level_change_text += f" · {tr('score.next_dealer', lang)} {_name(view, nxt)}"
        if level_change.get("next_level") is not None:
            level_change_text += f" · {tr('score.next_level', lang)} {show(level_change.get('next_level'))}"
    else:
        level_change_text = show(level_change)
    return {
        "attacker_points": show(attacker),
        "penalty_points": show(pick(st, "penalty_points")),
        "bonus_points": show(pick(st, "bonus_points")),
        "trump": show(trump),
        "level": show(pick(st, "level") or view.options.get("level")),
        "dealer": view.names[dealer] if isinstance(dealer, int) and 0 <= dealer < view.seats else NONE,
        "team_levels": team_levels,
        "bottom": view.bottom or codes_of(pick(st, "bottom")),
        "bottom_points": show(pick(s, "bottom_points")),
        "bottom_multiplier": show(pick(s, "bottom_multiplier")),
        "final_points": show(pick(s, "final_points")),
        "level_change": level_change_text + (f" · {shangtian_text(s.get('shangtian'), lang)}" if s.get("shangtian") else ""),
        "ended": pick(s, "final_points") is not None or bool(view.bottom),
    }


def shangtian_text(side: Any, lang: str = "zh") -> str:
    """上天入地 in words: which side earned it (the summary's ``shangtian``, "attackers" or
    "dealer"), from the catalogue; another value follows 上天 as is."""
    key = f"score.shangtian_{side}"
    return tr(key, lang) if key in keys() else tr("score.shangtian", lang, side=show(side))


def _seat_list(value: Any, view: DealView) -> str:
    if isinstance(value, list) and value and all(isinstance(x, int) for x in value):
        return " → ".join(view.names[x] if 0 <= x < view.seats else str(x) for x in value)
    if isinstance(value, int) and 0 <= value < view.seats:
        return view.names[value]
    return show(value)


def _name(view: DealView, seat: Any) -> str:
    return view.names[seat] if isinstance(seat, int) and 0 <= seat < view.seats else show(seat)


def gouji_board(view: DealView, lang: str = "zh") -> dict[str, Any]:
    """够级: cards played per seat, 够级 and 烧牌 in progress, finishing order, 开点, tributes."""
    s, st = view.summary, view.state
    cur = st.get("current_play") if isinstance(st.get("current_play"), dict) else None
    gouji = pick(st, "gouji", "gouji_in_progress")
    if cur is not None and cur.get("gouji"):
        gouji_text = f"{_name(view, cur.get('seat'))} {' '.join(codes_of(cur.get('cards')))}"
        owner = st.get("gouji_owner")
        if isinstance(owner, int):
            gouji_text += " · " + tr("score.gouji_owner", lang)
    elif isinstance(gouji, dict):
        gouji_text = ", ".join(f"{k}: {_seat_list(v, view)}" for k, v in gouji.items())
    else:
        gouji_text = _seat_list(gouji, view) if gouji not in (None, False) else NONE
    answer = pick(st, "may_answer", "answer", "can_answer")
    burning = pick(st, "burning", "shao", "burn")
    if isinstance(burning, dict):
        burning_text = f"{_name(view, burning.get('seat'))} → {_name(view, burning.get('target'))}"
        if burning.get("plays") is not None:
            burning_text += f" ({show(burning.get('plays'))})"
    else:
        burning_text = _seat_list(burning, view) if burning not in (None, False, []) else NONE
    order = pick(s, "order")
    if order is None:
        order = pick(st, "order", "finished")
    places = st.get("place_names") if isinstance(st.get("place_names"), list) else None
    if isinstance(order, list) and any(x is None for x in order):  # six slots, some undecided
        order_text = " · ".join(f"{places[k] if places and k < len(places) else k + 1}: {_name(view, x)}"
                                for k, x in enumerate(order) if x is not None) or NONE
    else:
        if not order:
            order = [sv.seat for sv in sorted((sv for sv in view.seat_views if sv.out_place),
                                              key=lambda x: x.out_place or 0)]
        order_text = _seat_list(list(order), view) if order else NONE
    kaidian = pick(s, "kaidian")
    if kaidian is None:
        kaidian = pick(st, "kaidian")
    tributes = pick(s, "tributes")
    if tributes is None:
        tributes = pick(st, "tributes")
    trib_rows = []
    if isinstance(tributes, list):
        for t in tributes:
            if isinstance(t, dict):
                trib_rows.append({
                    "from": _seat_list(t.get("from"), view), "to": _seat_list(t.get("to"), view),
                    "count": show(t.get("count")), "kind": TRIBUTE_KINDS.get(str(t.get("kind")), show(t.get("kind"))),
                })
    remaining = st.get("remaining") if isinstance(st.get("remaining"), list) else None
    return {
        "played": {view.names[sv.seat]: sv.played for sv in view.seat_views},
        "remaining": {view.names[k]: show(n) for k, n in enumerate(remaining[: view.seats])} if remaining else {},
        "gouji": gouji_text,
        "may_answer": (", ".join(_name(view, x) for x in answer) if isinstance(answer, list)
                       else _seat_list(answer, view)) if answer not in (None, []) else NONE,
        "burning": burning_text,
        "order": order_text,
        "kaidian": _seat_list(kaidian, view) if kaidian else NONE,
        "tributes": trib_rows,
    }


def match_history(lines: list[str], result: JudgeResult, lang: str = "zh") -> list[dict[str, Any]]:
    """One row per deal of the log: game, result and fault count."""
    out = []
    for n, run in enumerate(result.deals, start=1):
        end = run.end if run.end is not None else len(result.verdicts)
        faults_n = sum(1 for v in result.verdicts[run.index:end] if not v.ok)
        summ = safe_summary(run)
        names = seat_names(run.deal, lang)
        if not run.judged:
            outcome = tr("score.unjudged", lang)
        elif family_of(run.deal.game) == "shengji":
            parts = []
            if summ.get("final_points") is not None:
                parts.append(f"{tr('score.final_points', lang)} {summ['final_points']}")
            elif summ.get("attacker_points") is not None:
                parts.append(f"{tr('score.attacker_points', lang)} {summ['attacker_points']}")
            lc = summ.get("level_change")
            if isinstance(lc, dict) and isinstance(lc.get("team"), list):
                who = "/".join(names[x] for x in lc["team"] if isinstance(x, int) and x < len(names))
                parts.append(f"{tr('score.level_change', lang)} {who} +{show(lc.get('levels'))}")
            outcome = " · ".join(parts) or NONE
        else:
            order = summ.get("order")
            outcome = (tr("score.order", lang) + " " + " → ".join(names[x] for x in order
                       if isinstance(x, int) and x < len(names))) if isinstance(order, list) and order else NONE
        out.append({"deal": n, "i": run.index, "game": run.deal.game, "outcome": outcome, "faults": faults_n})
    return out


def steps(lines: list[str]) -> list[int]:
    """Indices of the lines a replay steps between (plays, passes, deals, declarations, bottoms)."""
    out = []
    for line in read_lines(lines):
        if line.event is None or not isinstance(line.event, CorrectEvent | HandEvent):
            out.append(line.i)
    return out


def event_time(lines: list[str], k: int) -> float | None:
    """The ``t`` of the last event among the first ``k`` lines (None when none has one)."""
    for text in reversed(lines[:k]):
        try:
            obj = json.loads(text)
        except (json.JSONDecodeError, RecursionError):
            continue
        if isinstance(obj, dict) and isinstance(obj.get("t"), int | float) and not isinstance(obj.get("t"), bool):
            return float(obj["t"])
    return None


def replay_lines(lines: list[str], k: int, n0: int) -> list[str]:
    """The log as it stood after ``k`` of its ``n0`` recorded lines, plus the corrections this
    replay session appended afterwards (lines ``n0…``) that fix one of those ``k`` events."""
    out = list(lines[:k])
    for text in lines[n0:]:
        try:
            obj = json.loads(text)
        except (json.JSONDecodeError, RecursionError):
            continue
        if isinstance(obj, dict) and obj.get("type") == "correct" and isinstance(obj.get("ref"), int) and obj["ref"] < k:
            out.append(text)
    return out
