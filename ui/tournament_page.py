"""The tournament page of the dashboard: standings, rounds, tables, and the director's
actions (confirm a result, correct an event after confirmation) behind the PIN.

``render_tournament_page(store)`` draws it on a recorder store (SQLite or the shared
PostgreSQL).  Every write action asks for the tournament's director PIN.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

_FAMILY = {"gouji": "够级 Gouji", "shengji": "升级 (刮风 / 炒地皮)"}


def _table(rows: list[dict[str, Any]], empty: str) -> None:
    if rows:
        st.dataframe(rows, hide_index=True, width="stretch")
    else:
        st.caption(empty)


def _create_form(store: Any) -> None:
    from cardref.recorder import tournament as tm

    with st.form("tp_create"):
        st.markdown("**New tournament**")
        name = st.text_input("Name", key="tp_new_name")
        family = st.selectbox("Game", list(_FAMILY), format_func=_FAMILY.get, key="tp_new_family")
        pin = st.text_input("Director PIN (at least 4 characters)", type="password", key="tp_new_pin")
        if st.form_submit_button("Create"):
            try:
                tm.create_tournament(store, name, family, pin)
                st.success(f"Tournament {name!r} created.")
            except Exception as exc:  # noqa: BLE001 - shown to the director
                st.error(f"Not created: {exc}")


def _setup_forms(store: Any, t: Any) -> None:
    from cardref.recorder import tournament as tm

    teams = tm.teams(store, t.id)
    rounds = tm.rounds(store, t.id)
    with st.form("tp_pair"):
        st.markdown("**Pair the next round** at the tournament's tables")
        method = st.selectbox("Pairing", ["swiss", "round-robin"], key="tp_pair_method",
                              format_func={"swiss": "Swiss (by standings, no rematches)",
                                           "round-robin": "Round robin"}.get)
        pin = st.text_input("Director PIN", type="password", key="tp_pair_pin")
        if st.form_submit_button("Pair round"):
            try:
                tm.require_pin(store, t.id, pin, "pair_round", None)
                _, made = tm.pair_round(store, t.id, method)
                st.success(f"Round paired: {len(made)} match{'es' if len(made) != 1 else ''} "
                           f"({', '.join(str(m) for m in made)}).")
            except Exception as exc:  # noqa: BLE001 - PinError, ValueError: shown to the director
                st.error(f"Not paired: {exc}")
    with st.expander("Teams, rounds, tables, matches (director)"):
        with st.form("tp_setup"):
            what = st.selectbox("Add", ["team", "round", "table", "match"], key="tp_add_what")
            name = st.text_input("Team name / table id / round name", key="tp_add_name")
            players = st.text_input("Players (team: comma separated)", key="tp_add_players")
            rnd = st.selectbox("Round (match)", [r[1] for r in rounds] or [0], key="tp_add_round")
            table = st.selectbox("Table (match)", [x.id for x in store.tables(t.id)] or [""], key="tp_add_table")
            team_ids = list(teams)
            a = st.selectbox("Team A, even seats (match)", team_ids or [0], format_func=lambda i: teams.get(i, "-"),
                             key="tp_add_a")
            b = st.selectbox("Team B, odd seats (match)", team_ids or [0], format_func=lambda i: teams.get(i, "-"),
                             key="tp_add_b")
            pin = st.text_input("Director PIN", type="password", key="tp_add_pin")
            if st.form_submit_button("Add"):
                try:
                    tm.require_pin(store, t.id, pin, f"add_{what}", None)
                except tm.PinError as exc:
                    st.error(f"Nothing changed: {exc}.")
                    return
                try:
                    if what == "team":
                        tm.add_team(store, t.id, name, [p for p in players.split(",") if p.strip()])
                    elif what == "round":
                        tm.add_round(store, t.id, None, name or None)
                    elif what == "table":
                        tm.add_table(store, t.id, name.strip())
                    else:
                        round_id = next(r[0] for r in rounds if r[1] == rnd)
                        tm.start_match(store, round_id, table, int(a), int(b))
                    store.log_action(f"add_{what}", "ok", tournament_id=t.id, detail={"name": name})
                    st.success(f"Added {what}.")
                except Exception as exc:  # noqa: BLE001 - shown to the director
                    st.error(f"Not added: {exc}")


def _confirm_form(store: Any, t: Any, matches: list[dict[str, Any]]) -> None:
    from cardref.recorder import tournament as tm

    open_ones = [m for m in matches if m["status"] != "confirmed"]
    with st.form("tp_confirm"):
        st.markdown("**Confirm a result** (locks it; corrections then need the PIN)")
        choice = st.selectbox("Match", [m["match"] for m in open_ones] or [None], key="tp_confirm_match",
                              format_func=lambda i: next((f"#{m['match']} round {m['round']} table {m['table']}: "
                                                          f"{m['team_a']} {m['score']} {m['team_b']}"
                                                          for m in open_ones if m["match"] == i), "—"))
        director = st.text_input("Director", key="tp_confirm_director")
        pin = st.text_input("Director PIN", type="password", key="tp_confirm_pin")
        if st.form_submit_button("Confirm result"):
            if choice is None:
                st.warning("No result is waiting for confirmation.")
            else:
                try:
                    tm.confirm_result(store, int(choice), pin, director=director)
                    st.success(f"Match {choice} confirmed by {director}.")
                except Exception as exc:  # noqa: BLE001 - PinError, ValueError: shown to the director
                    st.error(f"Not confirmed: {exc}")


def _correct_form(store: Any, t: Any) -> None:
    from cardref.recorder import tournament as tm
    from cardref.ui.model import parse_card_text

    tables = [x.id for x in store.tables(t.id)]
    with st.form("tp_correct"):
        st.markdown("**Correct an event** (a confirmed result needs the PIN)")
        table = st.selectbox("Table", tables or [""], key="tp_fix_table")
        seq = st.number_input("Event number (seq)", min_value=0, step=1, key="tp_fix_seq")
        cards = st.text_input("Right cards (e.g. 10H QS BJ; empty to keep)", key="tp_fix_cards")
        seat = st.text_input("Right seat (empty to keep)", key="tp_fix_seat")
        who = st.text_input("Who corrects", key="tp_fix_who")
        why = st.text_input("Why", key="tp_fix_why")
        pin = st.text_input("Director PIN", type="password", key="tp_fix_pin")
        if st.form_submit_button("Record correction"):
            try:
                codes = parse_card_text(cards) if cards.strip() else None
                seat_no = int(seat) if seat.strip() else None
                done = tm.correct_with_pin(store, table, int(seq), who=who, why=why, cards=codes, seat=seat_no,
                                           pin=pin or None)
                st.success(f"Correction recorded as event {done.seq}.")
            except Exception as exc:  # noqa: BLE001 - LockedError, PinError, bad cards: shown to the director
                st.error(f"Not recorded: {exc}")


def render_tournament_page(store: Any) -> None:
    """Draw the tournament page on ``store`` (a :class:`cardref.recorder.EventStore`)."""
    from cardref.recorder import tournament as tm

    st.header("Tournament")
    found = tm.tournaments(store)
    if not found:
        st.info("No tournament yet.")
        _create_form(store)
        return
    names = {t.id: t for t in found}
    tid = st.selectbox("Tournament", list(names), index=len(found) - 1, key="tp_tournament",
                       format_func=lambda i: f"{names[i].name} · {_FAMILY.get(names[i].family, names[i].family)}")
    t = names[tid]
    standings = tm.standings_rows(store, t.id)
    matches = tm.match_rows(store, t.id)
    st.subheader("Standings")
    _table(standings, "No scored match yet.")
    if any(m["status"] != "confirmed" for m in matches):
        st.caption("Provisional: some results are not confirmed yet.")
    st.subheader("Rounds and tables")
    _table(matches, "No match yet.")
    teams = tm.teams(store, t.id)
    _table([{"team": name, "players": ", ".join(tm.players(store, team_id))} for team_id, name in teams.items()],
           "No team yet.")
    st.subheader("Director")
    _confirm_form(store, t, matches)
    _correct_form(store, t)
    _setup_forms(store, t)
    with st.expander("Audit log"):
        _table([{k: a[k] for k in ("at", "actor", "action", "outcome", "table_id", "match_id")}
                for a in store.audit_log(tournament_id=t.id)], "Nothing yet.")
        _table([{k: c[k] for k in ("table_id", "seq", "ref", "who", "why", "recorded_at")}
                for c in store.corrections() if c["table_id"] in {x.id for x in store.tables(t.id)}],
               "No correction yet.")
    with st.expander("New tournament"):
        _create_form(store)
