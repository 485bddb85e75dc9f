"""Tournaments: teams, rounds, tables, matches, standings, and the director's PIN.

A tournament plays one game family (够级 or 升级).  Each round pairs two teams at a
table in a match; the table's laptop records the match (:class:`~.recorder.Recorder`).
A director confirms a result with the tournament PIN; a confirmed match is locked and a
correction of it needs the PIN again.  Every confirmation, correction and refusal is in
the audit log.  The PIN is never stored: only a salted scrypt hash.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from .recorder import LockedError, NotFound, Recorded, Recorder
from .scoring import DEFAULT_SCORING, FAMILIES, MatchScore, Scoring, level_name, score_match
from .store import EventStore, MatchInfo, now_iso

_SCRYPT = {"n": 2**14, "r": 8, "p": 1}


class TournamentError(ValueError):
    """A refused tournament action: a stable ``code`` (``tournament.<what>``), the
    ``facts`` of the refusal, and an English message.  The dashboard shows the code's
    sentence from its catalogue (``tp.err.<what>`` in :mod:`cardref.ui.i18n`) in the
    user's language; the code stays in the data."""

    def __init__(self, code: str, message: str, **facts: Any) -> None:
        super().__init__(message)
        self.code = code
        self.facts = facts


class PinError(PermissionError):
    """A wrong or missing director PIN (``code`` ``tournament.pin_wrong``) or a session
    locked out after too many (``tournament.pin_locked``, ``facts["minutes"]``)."""

    def __init__(self, message: str, code: str = "tournament.pin_wrong", **facts: Any) -> None:
        super().__init__(message)
        self.code = code
        self.facts = facts


def hash_pin(pin: str, salt: bytes | None = None) -> tuple[str, str]:
    """``(salt_hex, hash)`` of a PIN (scrypt, n=2^14, r=8, p=1)."""
    if not isinstance(pin, str) or len(pin.strip()) < 4:
        raise TournamentError("tournament.pin_short", "a director PIN needs at least 4 characters")
    salt = salt or secrets.token_bytes(16)
    digest = hashlib.scrypt(pin.strip().encode(), salt=salt, dklen=32, **_SCRYPT)
    return salt.hex(), f"scrypt:{_SCRYPT['n']}:{_SCRYPT['r']}:{_SCRYPT['p']}:{digest.hex()}"


def pin_matches(pin: str | None, salt_hex: str | None, stored: str | None) -> bool:
    if not pin or not salt_hex or not stored:
        return False
    try:
        _, n, r, p, digest = stored.split(":")
        got = hashlib.scrypt(pin.strip().encode(), salt=bytes.fromhex(salt_hex), dklen=32,
                             n=int(n), r=int(r), p=int(p))
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got.hex(), digest)


@dataclass(frozen=True)
class Tournament:
    id: int
    name: str
    family: str
    created_at: str
    scoring: Scoring = DEFAULT_SCORING


def create_tournament(store: EventStore, name: str, family: str, pin: str, *,
                      scoring: Scoring = DEFAULT_SCORING) -> int:
    if family not in FAMILIES:
        raise TournamentError("tournament.bad_family", f"family must be one of {sorted(FAMILIES)}, got {family!r}",
                              family=family)
    if not name.strip():
        raise TournamentError("tournament.no_name", "a tournament needs a name")
    salt, digest = hash_pin(pin)
    with store.transaction() as run:
        row = run("INSERT INTO tournaments (name, family, pin_salt, pin_hash, settings, created_at) "
                  "VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                  (name.strip(), family, salt, digest, json.dumps(scoring.__dict__), now_iso())).fetchone()
    tid = int(row[0])
    store.log_action("create_tournament", "ok", tournament_id=tid, detail={"name": name, "family": family})
    return tid


def _scoring(settings: str | None) -> Scoring:
    try:
        raw = json.loads(settings or "{}")
        if "place_points" in raw:
            raw["place_points"] = tuple(raw["place_points"])
        return Scoring(**raw)
    except (TypeError, ValueError):
        return DEFAULT_SCORING


def tournaments(store: EventStore) -> list[Tournament]:
    return [Tournament(r[0], r[1], r[2], r[3], _scoring(r[4])) for r in
            store.query("SELECT id, name, family, created_at, settings FROM tournaments ORDER BY id")]


def get_tournament(store: EventStore, ref: int | str) -> Tournament:
    """A tournament by id or name."""
    for t in tournaments(store):
        if t.id == ref or t.name == ref or str(t.id) == str(ref):
            return t
    raise NotFound("tournament", ref)


def verify_pin(store: EventStore, tournament_id: int, pin: str | None) -> bool:
    row = store.query_one("SELECT pin_salt, pin_hash FROM tournaments WHERE id = ?", (tournament_id,))
    return row is not None and pin_matches(pin, row[0], row[1])


WRONG_PIN = "refused: wrong or missing director PIN"
#: After this many wrong PINs within ``PIN_LOCKOUT_S`` seconds *from one session*, that
#: session's PINs are not even checked.  Other sessions (the real director's) are not
#: affected: a stranger's wrong PINs must never lock the director out.
PIN_ATTEMPTS = 5
PIN_LOCKOUT_S = 600
#: The session of a caller that names none: the command line, as this machine's user.
DEFAULT_SESSION = "cli"


def _session_detail(session: str | None) -> dict[str, str]:
    return {"session": session or DEFAULT_SESSION}


def _recent_failures(store: EventStore, tournament_id: int, session: str | None = None) -> int:
    since = (datetime.now(UTC) - timedelta(seconds=PIN_LOCKOUT_S)).isoformat(timespec="microseconds")
    detail = json.dumps(_session_detail(session), ensure_ascii=False, default=str)
    row = store.query_one("SELECT COUNT(*) FROM audit WHERE tournament_id = ? AND outcome = ? AND at > ? "
                          "AND detail = ?", (tournament_id, WRONG_PIN, since, detail))
    return int(row[0]) if row else 0


def require_pin(store: EventStore, tournament_id: int, pin: str | None, action: str, actor: str | None, *,
                session: str | None = None, **ids: Any) -> None:
    """Raise :class:`PinError` (and log the refusal) unless ``pin`` is the director's.

    ``session`` names who is asking (a browser session of the dashboard, the command
    line's user): ``PIN_ATTEMPTS`` wrong PINs lock that session alone for ``PIN_LOCKOUT_S``.
    """
    detail = _session_detail(session)
    if _recent_failures(store, tournament_id, session) >= PIN_ATTEMPTS:
        store.log_action(action, "refused: too many wrong PINs", actor=actor, tournament_id=tournament_id,
                         detail=detail, **ids)
        raise PinError(f"too many wrong PINs: try again in {PIN_LOCKOUT_S // 60} minutes", "tournament.pin_locked",
                       minutes=PIN_LOCKOUT_S // 60)
    if not verify_pin(store, tournament_id, pin):
        store.log_action(action, WRONG_PIN, actor=actor, tournament_id=tournament_id, detail=detail, **ids)
        raise PinError("wrong or missing director PIN")


def change_pin(store: EventStore, tournament_id: int, old_pin: str, new_pin: str, *, director: str) -> None:
    require_pin(store, tournament_id, old_pin, "change_pin", director)
    salt, digest = hash_pin(new_pin)
    with store.transaction() as run:
        run("UPDATE tournaments SET pin_salt = ?, pin_hash = ? WHERE id = ?", (salt, digest, tournament_id))
    store.log_action("change_pin", "ok", actor=director, tournament_id=tournament_id)


def add_team(store: EventStore, tournament_id: int, name: str, players: Sequence[str] = ()) -> int:
    if not name.strip():
        raise TournamentError("tournament.no_team_name", "a team needs a name")
    with store.transaction() as run:
        row = run("INSERT INTO teams (tournament_id, name) VALUES (?, ?) RETURNING id",
                  (tournament_id, name.strip())).fetchone()
        team_id = int(row[0])
        for player in players:
            if player.strip():
                run("INSERT INTO players (team_id, name) VALUES (?, ?)", (team_id, player.strip()))
    return team_id


def teams(store: EventStore, tournament_id: int) -> dict[int, str]:
    return {r[0]: r[1] for r in store.query("SELECT id, name FROM teams WHERE tournament_id = ? ORDER BY id",
                                            (tournament_id,))}


def players(store: EventStore, team_id: int) -> list[str]:
    return [r[0] for r in store.query("SELECT name FROM players WHERE team_id = ? ORDER BY id", (team_id,))]


def add_round(store: EventStore, tournament_id: int, number: int | None = None, name: str | None = None) -> int:
    with store.transaction() as run:
        if number is None:
            row = run("SELECT COALESCE(MAX(number), 0) + 1 FROM rounds WHERE tournament_id = ?",
                      (tournament_id,)).fetchone()
            number = int(row[0])
        row = run("INSERT INTO rounds (tournament_id, number, name, created_at) VALUES (?, ?, ?, ?) RETURNING id",
                  (tournament_id, number, name, now_iso())).fetchone()
    return int(row[0])


def rounds(store: EventStore, tournament_id: int) -> list[tuple[int, int, str | None]]:
    return [(r[0], r[1], r[2]) for r in store.query(
        "SELECT id, number, name FROM rounds WHERE tournament_id = ? ORDER BY number", (tournament_id,))]


def add_table(store: EventStore, tournament_id: int, table_id: str, name: str | None = None) -> None:
    store.ensure_table(table_id, name, tournament_id)


def start_match(store: EventStore, round_id: int, table_id: str, team_a: int, team_b: int, *,
                seats: dict[str, str] | None = None, name: str | None = None) -> int:
    """Seat team A on the even seats and team B on the odd seats of a table for a round."""
    row = store.query_one("SELECT tournament_id, number FROM rounds WHERE id = ?", (round_id,))
    if row is None:
        raise NotFound("round", round_id)
    tid, number = row
    known = teams(store, tid)
    if team_a not in known or team_b not in known or team_a == team_b:
        raise TournamentError("tournament.bad_teams", "a match needs two different teams of this tournament")
    table = store.table(table_id)
    if table is None or table.tournament_id != tid:
        raise TournamentError("tournament.bad_table", f"table {table_id!r} is not a table of this tournament "
                              "(add it first)", table=table_id)
    return store.start_match(table_id, name or f"round {number}: {known[team_a]} v {known[team_b]}",
                             round_id=round_id, team_a=team_a, team_b=team_b, seats=seats)


def tournament_of_match(store: EventStore, match: MatchInfo) -> int | None:
    if match.round_id is None:
        return None
    row = store.query_one("SELECT tournament_id FROM rounds WHERE id = ?", (match.round_id,))
    return int(row[0]) if row else None


def confirm_result(store: EventStore, match_id: int, pin: str, *, director: str, session: str | None = None) -> None:
    """Confirm (and lock) a match's result; needs the director PIN of its tournament."""
    match = store.match(match_id)
    if match is None:
        raise NotFound("match", match_id)
    tid = tournament_of_match(store, match)
    if tid is None:
        raise TournamentError("tournament.not_in_round", f"match {match_id} is not part of a tournament round",
                              match=match_id)
    if not director.strip():
        raise TournamentError("tournament.no_director", "say who confirms the result")
    require_pin(store, tid, pin, "confirm", director, session=session, match_id=match_id, table_id=match.table_id)
    if match.confirmed:
        raise TournamentError("tournament.already_confirmed", f"match {match_id} was already confirmed by "
                              f"{match.confirmed_by} at {match.confirmed_at}", match=match_id,
                              who=match.confirmed_by, at=(match.confirmed_at or "")[:19].replace("T", " "))
    store.confirm_match(match_id, director.strip())
    score = match_score(store, match_id)
    store.log_action("confirm", "ok", actor=director, tournament_id=tid, match_id=match_id, table_id=match.table_id,
                     detail={"a": score.a, "b": score.b, "deals": score.scored_deals})


def correct_with_pin(store: EventStore, table_id: str, ref: int, *, who: str, why: str,
                     cards: Sequence[str] | None = None, seat: int | None = None, pin: str | None = None,
                     recorder: Recorder | None = None, session: str | None = None) -> Recorded:
    """Correct event ``ref`` at a table.  An event of a tournament's match, confirmed or
    not, needs the director PIN of that tournament (:class:`PinError` without it); an event
    of a table that plays no tournament match needs none."""
    recorder = recorder or Recorder(store)
    target = store.event(table_id, ref)
    if target is None:
        raise TournamentError("tournament.no_event", f"table {table_id} has no event {ref} to correct",
                              table=table_id, seq=ref)
    match = store.match(target.match_id) if target.match_id is not None else None
    authorized = None
    tid = tournament_of_match(store, match) if match is not None else None
    if match is not None and match.confirmed and tid is None:
        raise LockedError(f"match {match.id} is confirmed and belongs to no tournament: it cannot be corrected",
                          "recorder.locked_no_tournament", match=match.id)
    if match is not None and tid is not None:
        require_pin(store, tid, pin, "correct", who, session=session, match_id=match.id, table_id=table_id)
        authorized = who
    return recorder.correct(table_id, ref, who=who, why=why, cards=cards, seat=seat, authorized_by=authorized)


def match_score(store: EventStore, match_id: int) -> MatchScore:
    match = store.match(match_id)
    tid = tournament_of_match(store, match) if match else None
    scoring = get_tournament(store, tid).scoring if tid is not None else DEFAULT_SCORING
    return score_match(((d.game, d.summary) for d in store.deals(match_id=match_id)), scoring)


@dataclass
class Standing:
    team_id: int
    team: str
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    match_points: int = 0
    points_for: int = 0
    points_against: int = 0
    confirmed: int = 0
    parts: dict[str, int] = field(default_factory=dict)

    @property
    def diff(self) -> int:
        return self.points_for - self.points_against

    def row(self, family: str, scoring: Scoring) -> dict[str, Any]:
        out: dict[str, Any] = {"team": self.team, "played": self.played, "won": self.won, "drawn": self.drawn,
                               "lost": self.lost, "match_points": self.match_points}
        if family == "shengji":
            out.update(levels_gained=self.points_for, levels_conceded=self.points_against, diff=self.diff)
        else:
            out.update(points_for=self.points_for, points_against=self.points_against, diff=self.diff,
                       place_points=self.parts.get("places", 0), tributes_net=self.parts.get("tributes", 0))
        out["confirmed"] = f"{self.confirmed}/{self.played}"
        return out


def standings(store: EventStore, tournament_id: int) -> list[Standing]:
    """Teams ordered by match points, then point (level) difference, then points for."""
    t = get_tournament(store, tournament_id)
    table = {tid: Standing(tid, name) for tid, name in teams(store, tournament_id).items()}
    for match in store.matches(tournament_id=tournament_id):
        if match.team_a not in table or match.team_b not in table:
            continue
        score = match_score(store, match.id)
        if score.scored_deals == 0:
            continue
        a, b = table[match.team_a], table[match.team_b]
        for me, mine, theirs, side in ((a, score.a, score.b, "a"), (b, score.b, score.a, "b")):
            me.played += 1
            me.points_for += mine
            me.points_against += theirs
            me.confirmed += match.confirmed
            for key, value in (score.parts or {}).get(side, {}).items():
                me.parts[key] = me.parts.get(key, 0) + value
            winner = score.winner()
            if winner == side:
                me.won += 1
                me.match_points += t.scoring.win_points
            elif winner is None:
                me.drawn += 1
                me.match_points += t.scoring.draw_points
            else:
                me.lost += 1
                me.match_points += t.scoring.loss_points
    return sorted(table.values(), key=lambda s: (-s.match_points, -s.diff, -s.points_for, s.team))


def standings_rows(store: EventStore, tournament_id: int) -> list[dict[str, Any]]:
    t = get_tournament(store, tournament_id)
    rows = []
    for place, s in enumerate(standings(store, tournament_id), start=1):
        rows.append({"place": place, **s.row(t.family, t.scoring)})
    return rows


def team_name(names: dict[int, str], team: int | None, unknown: str = "?") -> str:
    """A match's team by name; a match without that team (no tournament's) is ``unknown``."""
    return unknown if team is None else names.get(team, unknown)


def match_rows(store: EventStore, tournament_id: int) -> list[dict[str, Any]]:
    """Every match of the tournament with its round, table, teams, score and status."""
    t = get_tournament(store, tournament_id)
    names = teams(store, tournament_id)
    numbers = {rid: number for rid, number, _ in rounds(store, tournament_id)}
    rows = []
    for m in store.matches(tournament_id=tournament_id):
        score = match_score(store, m.id)
        row: dict[str, Any] = {"match": m.id, "round": None if m.round_id is None else numbers.get(m.round_id),
                               "table": m.table_id, "team_a": team_name(names, m.team_a),
                               "team_b": team_name(names, m.team_b),
                               "score": f"{score.a}-{score.b}", "deals": score.scored_deals + score.unscored_deals,
                               "unscored_deals": score.unscored_deals}
        if t.family == "shengji":
            row["levels"] = (f"{level_name(t.scoring.start_level, score.a)}-"
                             f"{level_name(t.scoring.start_level, score.b)}")
        row["status"] = ("confirmed" if m.confirmed else "finished" if m.ended_at else "playing")
        row["confirmed_by"] = m.confirmed_by
        rows.append(row)
    return rows


def _played_pairs(store: EventStore, tournament_id: int) -> set[frozenset[int]]:
    return {frozenset((m.team_a, m.team_b)) for m in store.matches(tournament_id=tournament_id)
            if m.team_a is not None and m.team_b is not None}


def swiss_pairs(order: list[int], played: set[frozenset[int]]) -> list[tuple[int, int]] | None:
    """Pair teams in standings order, each with the next team it has not met yet
    (backtracking when that leaves someone without an opponent); ``None`` if impossible."""
    if not order:
        return []
    first, rest = order[0], order[1:]
    for k, other in enumerate(rest):
        if frozenset((first, other)) in played:
            continue
        tail = swiss_pairs(rest[:k] + rest[k + 1:], played)
        if tail is not None:
            return [(first, other), *tail]
    return None


def round_robin_pairs(teams_in_order: list[int], round_index: int) -> list[tuple[int, int]]:
    """Round ``round_index`` (0-based) of the circle method: every team meets every other once
    in ``n - 1`` rounds (``n`` even; with an odd count one team sits out each round)."""
    ids: list[int | None] = list(teams_in_order)
    if len(ids) % 2:
        ids.append(None)
    n = len(ids)
    r = round_index % (n - 1)
    rotated = [ids[0], *(ids[1:][-r:] + ids[1:][:-r] if r else ids[1:])]
    pairs = []
    for k in range(n // 2):
        a, b = rotated[k], rotated[n - 1 - k]
        if a is not None and b is not None:
            pairs.append((a, b) if k % 2 == 0 else (b, a))
    return pairs


def pair_round(store: EventStore, tournament_id: int, method: str = "swiss",
               tables: list[str] | None = None, *, force: bool = False) -> tuple[int, list[int]]:
    """Create the next round and its matches (Swiss by current standings without rematches,
    or round robin), one match per table in order.  Returns (round id, match ids).

    Every earlier result must be confirmed first (a new match at a table ends the one
    being played there); ``force`` pairs anyway."""
    team_ids = list(teams(store, tournament_id))
    if len(team_ids) < 2:
        raise TournamentError("tournament.too_few_teams", "pairing needs at least two teams")
    open_ones = [m.id for m in store.matches(tournament_id=tournament_id) if not m.confirmed]
    if open_ones and not force:
        raise TournamentError("tournament.unconfirmed", f"confirm the results of matches "
                              f"{', '.join(map(str, open_ones))} before pairing the next round",
                              matches=", ".join(map(str, open_ones)))
    tables = tables or [t.id for t in store.tables(tournament_id)]
    number = len(rounds(store, tournament_id)) + 1
    if method == "swiss":
        order = [s.team_id for s in standings(store, tournament_id)]
        if len(order) % 2:
            order = order[:-1]  # the last team sits out (a bye) this round
        pairs = swiss_pairs(order, _played_pairs(store, tournament_id))
        if pairs is None:
            raise TournamentError("tournament.swiss_exhausted",
                                  "every possible pairing repeats a match: the Swiss rounds are exhausted")
    elif method == "round-robin":
        pairs = round_robin_pairs(sorted(team_ids), number - 1)
    else:
        raise TournamentError("tournament.bad_method", f"method must be 'swiss' or 'round-robin', got {method!r}",
                              method=method)
    if len(tables) < len(pairs):
        raise TournamentError("tournament.too_few_tables", f"{len(pairs)} matches need {len(pairs)} tables; "
                              f"the tournament has {len(tables)}", need=len(pairs), have=len(tables))
    round_id = add_round(store, tournament_id, number)
    matches = [start_match(store, round_id, table, a, b) for table, (a, b) in zip(tables, pairs, strict=False)]
    store.log_action("pair_round", "ok", tournament_id=tournament_id,
                     detail={"round": number, "method": method, "pairs": pairs})
    return round_id, matches
