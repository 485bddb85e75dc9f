"""``cardref tournament …``: create tournaments, teams, rounds, tables and matches; confirm
results with the director PIN; show standings."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

HELP = "tournaments: create, teams, rounds, tables, matches, confirm results (PIN), standings"


def add_arguments(p: argparse.ArgumentParser) -> None:
    from cardref.recorder.cliutil import add_db_argument

    from ._pin import add_pin_arguments

    sub = p.add_subparsers(dest="action", metavar="ACTION", required=True)

    def sp(name: str, help: str) -> argparse.ArgumentParser:
        q = sub.add_parser(name, help=help, description=help)
        add_db_argument(q)
        return q

    c = sp("create", "create a tournament (the director PIN from --pin-file, $CARDREF_PIN or a prompt)")
    c.add_argument("name")
    c.add_argument("--family", choices=("gouji", "shengji"), required=True,
                   help="gouji (够级) or shengji (升级: 刮风, 炒地皮)")
    add_pin_arguments(c)
    sp("list", "list tournaments")
    t = sp("team", "add a team with its players")
    t.add_argument("tournament", help="tournament id or name")
    t.add_argument("name")
    t.add_argument("--players", nargs="*", default=[])
    r = sp("round", "add a round")
    r.add_argument("tournament")
    r.add_argument("--number", type=int)
    r.add_argument("--name")
    tb = sp("table", "add a table to the tournament")
    tb.add_argument("tournament")
    tb.add_argument("table")
    tb.add_argument("--name")
    m = sp("match", "seat two teams at a table for a round (team A on even seats, B on odd)")
    m.add_argument("tournament")
    m.add_argument("--round", type=int, required=True, help="round number")
    m.add_argument("--table", required=True)
    m.add_argument("--team-a", required=True, help="team name (even seats 0, 2, 4)")
    m.add_argument("--team-b", required=True, help="team name (odd seats 1, 3, 5)")
    pr = sp("pair", "create the next round and its matches at the tournament's tables: needs the director PIN")
    pr.add_argument("tournament")
    pr.add_argument("--method", choices=("swiss", "round-robin"), default="swiss",
                    help="swiss: by current standings, no rematches (default); round-robin: circle method")
    add_pin_arguments(pr)
    pr.add_argument("--force", action="store_true", help="pair even though some results are not confirmed")
    cf = sp("confirm", "confirm (lock) a match result: needs the director PIN")
    cf.add_argument("match", type=int)
    cf.add_argument("--director", required=True)
    add_pin_arguments(cf)
    s = sp("standings", "standings of a tournament")
    s.add_argument("tournament")
    s.add_argument("--matches", action="store_true", help="also list every match")


def _pin(args: argparse.Namespace) -> str:
    """The PIN from --pin-file, --pin (warned: visible to other users), $CARDREF_PIN or the
    terminal's prompt; "" when none (the PIN check then refuses)."""
    from ._pin import read_pin

    return read_pin(args) or ""


def _print(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, default=str) + "\n")


def _team_id(store, tid: int, name: str) -> int:  # type: ignore[no-untyped-def]
    """The id of the team of tournament ``tid`` named ``name`` (or whose id it is); a team
    it does not hold is the recorder's typed refusal (``recorder.no_team``)."""
    from cardref.recorder import NotFound
    from cardref.recorder import tournament as tm

    for team_id, team in tm.teams(store, tid).items():
        if team == name or str(team_id) == name:
            return team_id
    raise NotFound("team", name)


def _round_id(store, tid: int, number: int) -> int:  # type: ignore[no-untyped-def]
    """The id of round ``number`` of tournament ``tid``; a round it does not hold is the
    recorder's typed refusal (``recorder.no_round``)."""
    from cardref.recorder import NotFound
    from cardref.recorder import tournament as tm

    round_id = next((rid for rid, n, _ in tm.rounds(store, tid) if n == number), None)
    if round_id is None:
        raise NotFound("round", number)
    return round_id


def run(args: argparse.Namespace) -> int:
    from cardref.recorder import tournament as tm
    from cardref.recorder.cliutil import CommandError, fail, opened

    from ._pin import cli_session

    try:
        with opened(args) as store:
            if args.action == "create":
                _print({"tournament": tm.create_tournament(store, args.name, args.family, _pin(args))})
            elif args.action == "list":
                for t in tm.tournaments(store):
                    _print({"id": t.id, "name": t.name, "family": t.family, "created_at": t.created_at})
            else:
                if args.action == "confirm":
                    tm.confirm_result(store, args.match, _pin(args), director=args.director, session=cli_session())
                    _print({"confirmed": args.match})
                    return 0
                tid = tm.get_tournament(store, args.tournament).id
                if args.action == "team":
                    _print({"team": tm.add_team(store, tid, args.name, args.players)})
                elif args.action == "round":
                    _print({"round": tm.add_round(store, tid, args.number, args.name)})
                elif args.action == "table":
                    tm.add_table(store, tid, args.table, args.name)
                    _print({"table": args.table})
                elif args.action == "match":
                    _print({"match": tm.start_match(store, _round_id(store, tid, args.round), args.table,
                                                    _team_id(store, tid, args.team_a),
                                                    _team_id(store, tid, args.team_b))})
                elif args.action == "pair":
                    tm.require_pin(store, tid, _pin(args), "pair_round", None, session=cli_session())
                    round_id, matches = tm.pair_round(store, tid, args.method, force=args.force)
                    for row in tm.match_rows(store, tid):
                        if row["match"] in matches:
                            _print(row)
                elif args.action == "standings":
                    for row in tm.standings_rows(store, tid):
                        _print(row)
                    if args.matches:
                        for row in tm.match_rows(store, tid):
                            _print(row)
    except (CommandError, KeyError, ValueError, PermissionError) as exc:
        return fail("tournament", exc)
    except Exception as exc:  # a constraint violation (duplicate name …) is a user error here
        if type(exc).__name__ in ("IntegrityError", "UniqueViolation"):
            return fail("tournament", f"already exists: {exc}")
        raise
    return 0
