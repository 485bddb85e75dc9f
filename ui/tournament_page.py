"""The tournament page of the dashboard: standings, rounds, tables, and the director's
actions (confirm a result, correct an event, pair a round, add teams …) behind the PIN.

``render_tournament_page(store)`` draws it on a recorder store (SQLite or the shared
PostgreSQL), in the session's language (``lang_en`` in the session state; Chinese by
default).  Every write action checks the tournament's director PIN on the server
(:func:`cardref.recorder.tournament.require_pin`), with this browser session named, so
wrong PINs lock this session only.  Every word shown comes from :mod:`cardref.ui.i18n`.
"""

from __future__ import annotations

import uuid
from typing import Any

import streamlit as st

from .i18n import refusal, seat_title, tr

#: Column names of the recorder's standings and match rows, by their catalogue key.
COLUMNS = {k: f"tp.col.{k}" for k in (
    "place", "team", "played", "won", "drawn", "lost", "match_points", "levels_gained", "levels_conceded", "diff",
    "points_for", "points_against", "place_points", "tributes_net", "confirmed", "match", "round", "table", "team_a",
    "team_b", "score", "deals", "unscored_deals", "levels", "status", "confirmed_by", "players", "at", "actor",
    "action", "outcome", "table_id", "match_id", "seq", "ref", "who", "why", "recorded_at")}
STATUS = ("confirmed", "finished", "playing")
OUTCOMES = {"ok": "tp.outcome.ok", "refused: wrong or missing director PIN": "pin.wrong",
            "refused: too many wrong PINs": "tp.too_many"}


def _lang() -> str:
    return "en" if st.session_state.get("lang_en") else "zh"


def _session() -> str:
    """This browser session, for the PIN attempts (shared with :func:`cardref.ui.state.session_key`)."""
    if "pin_session" not in st.session_state:
        st.session_state["pin_session"] = f"ui:{uuid.uuid4().hex[:12]}"
    return str(st.session_state["pin_session"])


def family_title(family: str, lang: str) -> str:
    return tr(f"tp.family.{family}", lang) if family in ("gouji", "shengji") else family


def shown_rows(rows: list[dict[str, Any]], lang: str) -> list[dict[str, Any]]:
    """The recorder's rows with the catalogue's column names and words (None → "—", a
    match's status in words, times to the second)."""
    out = []
    for row in rows:
        item: dict[str, Any] = {}
        for k, v in row.items():
            if k == "status" and v in STATUS:
                v = tr(f"tp.status.{v}", lang)
            elif k == "action" and isinstance(v, str) and tr(f"tp.action.{v}", lang) != f"tp.action.{v}":
                v = tr(f"tp.action.{v}", lang)
            elif k == "outcome" and isinstance(v, str):
                v = tr(OUTCOMES[v], lang) if v in OUTCOMES else v
            elif k in ("at", "recorded_at") and isinstance(v, str):
                v = v[:19].replace("T", " ")
            elif v is None:
                v = "—"
            item[tr(COLUMNS[k], lang) if k in COLUMNS else k] = v
        out.append(item)
    for col in {c for item in out for c in item}:  # one type per column ("—" beside numbers: all text)
        kinds = {type(item.get(col)) for item in out}
        if len(kinds) > 1 and str in kinds:
            for item in out:
                item[col] = str(item.get(col, "—"))
    return out


def _table(rows: list[dict[str, Any]], empty: str, lang: str) -> None:
    if rows:
        st.dataframe(shown_rows(rows, lang), hide_index=True, width="stretch")
    else:
        st.caption(empty)


def _why(exc: BaseException, lang: str) -> str:
    """A refusal in the catalogue's words where the recorder gives its code
    (:func:`cardref.ui.i18n.refusal`); any other error as its own message."""
    return refusal(exc, lang)


def _create_form(store: Any, lang: str) -> None:
    from cardref.recorder import tournament as tm

    with st.form("tp_create", enter_to_submit=False):
        st.markdown(f"**{tr('tp.new', lang)}**")
        name = st.text_input(tr("tp.name", lang), key="tp_new_name")
        family = st.selectbox(tr("tp.game", lang), ["gouji", "shengji"], format_func=lambda f: family_title(f, lang),
                              key="tp_new_family")
        pin = st.text_input(tr("tp.new_pin", lang), type="password", key="tp_new_pin")
        if st.form_submit_button(tr("tp.create", lang)):
            try:
                tm.create_tournament(store, name, family, pin)
                st.success(tr("tp.created", lang, name=name))
            except Exception as exc:  # noqa: BLE001 - shown to the director
                st.error(tr("tp.not_created", lang, why=_why(exc, lang)))


def _setup_forms(store: Any, t: Any, lang: str) -> None:
    from cardref.recorder import tournament as tm

    teams = tm.teams(store, t.id)
    rounds = tm.rounds(store, t.id)
    with st.form("tp_pair", enter_to_submit=False):
        st.markdown(f"**{tr('tp.pair', lang)}**")
        method = st.selectbox(tr("tp.pairing", lang), ["swiss", "round-robin"], key="tp_pair_method",
                              format_func=lambda m: tr("tp.swiss" if m == "swiss" else "tp.round_robin", lang))
        pin = st.text_input(tr("pin.label", lang), type="password", key="tp_pair_pin")
        if st.form_submit_button(tr("tp.pair_submit", lang)):
            try:
                tm.require_pin(store, t.id, pin, "pair_round", None, session=_session())
                _, made = tm.pair_round(store, t.id, method)
                st.success(tr("tp.paired", lang, n=len(made), matches=", ".join(str(m) for m in made)))
            except Exception as exc:  # noqa: BLE001 - PinError, ValueError: shown to the director
                st.error(tr("tp.not_paired", lang, why=_why(exc, lang)))
    with st.expander(tr("tp.setup", lang)):
        with st.form("tp_setup", enter_to_submit=False):
            what = st.selectbox(tr("tp.add_what", lang), ["team", "round", "table", "match"], key="tp_add_what",
                                format_func=lambda w: tr(f"tp.what.{w}", lang))
            name = st.text_input(tr("tp.add_name", lang), key="tp_add_name")
            players = st.text_input(tr("tp.add_players", lang), key="tp_add_players")
            rnd = st.selectbox(tr("tp.add_round", lang), [r[1] for r in rounds] or [0], key="tp_add_round")
            table = st.selectbox(tr("tp.add_table", lang), [x.id for x in store.tables(t.id)] or [""], key="tp_add_table")
            team_ids = list(teams)
            a = st.selectbox(tr("tp.team_a", lang), team_ids or [0], format_func=lambda i: teams.get(i, "—"),
                             key="tp_add_a")
            b = st.selectbox(tr("tp.team_b", lang), team_ids or [0], format_func=lambda i: teams.get(i, "—"),
                             key="tp_add_b")
            pin = st.text_input(tr("pin.label", lang), type="password", key="tp_add_pin")
            if st.form_submit_button(tr("tp.add", lang)):
                try:
                    tm.require_pin(store, t.id, pin, f"add_{what}", None, session=_session())
                except tm.PinError as exc:
                    st.error(tr("tp.nothing_changed", lang, why=_why(exc, lang)))
                    return
                try:
                    if what == "team":
                        tm.add_team(store, t.id, name, [p for p in players.replace("，", ",").split(",") if p.strip()])
                    elif what == "round":
                        tm.add_round(store, t.id, None, name or None)
                    elif what == "table":
                        tm.add_table(store, t.id, name.strip())
                    else:
                        round_id = next(r[0] for r in rounds if r[1] == rnd)
                        tm.start_match(store, round_id, table, int(a), int(b))
                    store.log_action(f"add_{what}", "ok", tournament_id=t.id, detail={"name": name})
                    st.success(tr("tp.added", lang, what=tr(f"tp.what.{what}", lang)))
                except Exception as exc:  # noqa: BLE001 - shown to the director
                    st.error(tr("tp.not_added", lang, why=_why(exc, lang)))


def _match_label(m: dict[str, Any], lang: str) -> str:
    return tr("tp.match_label", lang, match=m["match"], round=m["round"], table=m["table"], a=m["team_a"],
              score=m["score"], b=m["team_b"])


def _confirm_form(store: Any, t: Any, matches: list[dict[str, Any]], lang: str) -> None:
    from cardref.recorder import tournament as tm

    open_ones = [m for m in matches if m["status"] != "confirmed"]
    with st.form("tp_confirm", enter_to_submit=False):
        st.markdown(f"**{tr('tp.confirm', lang)}**")
        choice = st.selectbox(tr("tp.col.match", lang), [m["match"] for m in open_ones] or [None], key="tp_confirm_match",
                              format_func=lambda i: next((_match_label(m, lang) for m in open_ones if m["match"] == i),
                                                         "—"))
        director = st.text_input(tr("tp.director", lang), key="tp_confirm_director")
        pin = st.text_input(tr("pin.label", lang), type="password", key="tp_confirm_pin")
        if st.form_submit_button(tr("tp.confirm_submit", lang)):
            if choice is None:
                st.warning(tr("tp.none_waiting", lang))
            else:
                try:
                    tm.confirm_result(store, int(choice), pin, director=director, session=_session())
                    st.success(tr("tp.confirmed", lang, match=choice, who=director))
                except Exception as exc:  # noqa: BLE001 - PinError, ValueError: shown to the director
                    st.error(tr("tp.not_confirmed", lang, why=_why(exc, lang)))


def _correct_form(store: Any, t: Any, lang: str) -> None:
    """Correct an event of a tournament table: the director PIN is checked on the server
    (:func:`cardref.recorder.tournament.correct_with_pin`) for every event of a match."""
    from cardref.recorder import tournament as tm
    from cardref.ui.model import parse_card_text

    tables = [x.id for x in store.tables(t.id)]
    with st.form("tp_correct", enter_to_submit=False):
        st.markdown(f"**{tr('corr.title', lang)}**")
        st.caption(tr("tp.correct_hint", lang))
        table = st.selectbox(tr("tp.col.table", lang), tables or [""], key="tp_fix_table")
        seq = st.number_input(tr("tp.seq", lang), min_value=0, step=1, key="tp_fix_seq")
        cards = st.text_input(tr("tp.fix_cards", lang), key="tp_fix_cards")
        seats = 6 if t.family == "gouji" else 4  # 够级 six seats, 升级 four: named as at the table
        seat_no = st.selectbox(tr("tp.fix_seat", lang), [None, *range(seats)], key="tp_fix_seat",
                               format_func=lambda s: "—" if s is None else seat_title(s, seats, lang))
        who = st.text_input(tr("corr.who", lang), key="tp_fix_who")
        why = st.text_input(tr("corr.why", lang), key="tp_fix_why")
        pin = st.text_input(tr("pin.label", lang), type="password", key="tp_fix_pin")
        if st.form_submit_button(tr("tp.fix_submit", lang)):
            try:
                codes = parse_card_text(cards) if cards.strip() else None
                done = tm.correct_with_pin(store, table, int(seq), who=who, why=why, cards=codes, seat=seat_no,
                                           pin=pin or None, session=_session())
                st.success(tr("tp.fixed", lang, seq=done.seq))
            except Exception as exc:  # noqa: BLE001 - LockedError, PinError, bad cards: shown to the director
                st.error(tr("tp.not_fixed", lang, why=_why(exc, lang)))


def render_tournament_page(store: Any, lang: str | None = None) -> None:
    """Draw the tournament page on ``store`` (a :class:`cardref.recorder.EventStore`)."""
    from cardref.recorder import tournament as tm

    lang = lang or _lang()
    st.header(tr("page.tournament", lang))
    found = tm.tournaments(store)
    if not found:
        st.info(tr("tp.none", lang))
        _create_form(store, lang)
        return
    names = {t.id: t for t in found}
    tid = st.selectbox(tr("page.tournament", lang), list(names), index=len(found) - 1, key="tp_tournament",
                       format_func=lambda i: f"{names[i].name} · {family_title(names[i].family, lang)}")
    t = names[tid]
    standings = tm.standings_rows(store, t.id)
    matches = tm.match_rows(store, t.id)
    st.subheader(tr("tp.standings", lang))
    _table(standings, tr("tp.no_scored", lang), lang)
    if any(m["status"] != "confirmed" for m in matches):
        st.caption(tr("tp.provisional", lang))
    st.subheader(tr("tp.rounds", lang))
    _table(matches, tr("tp.no_match", lang), lang)
    teams = tm.teams(store, t.id)
    _table([{"team": name, "players": ", ".join(tm.players(store, team_id))} for team_id, name in teams.items()],
           tr("tp.no_team", lang), lang)
    st.subheader(tr("tp.director_title", lang))
    _confirm_form(store, t, matches, lang)
    _correct_form(store, t, lang)
    _setup_forms(store, t, lang)
    with st.expander(tr("tp.audit", lang)):
        _table([{k: a[k] for k in ("at", "actor", "action", "outcome", "table_id", "match_id")}
                for a in store.audit_log(tournament_id=t.id)], tr("tp.nothing_yet", lang), lang)
        _table([{k: c[k] for k in ("table_id", "seq", "ref", "who", "why", "recorded_at")}
                for c in store.corrections() if c["table_id"] in {x.id for x in store.tables(t.id)}],
               tr("tp.no_correction", lang), lang)
    with st.expander(tr("tp.new", lang)):
        _create_form(store, lang)
