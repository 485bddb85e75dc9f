"""The dashboard's building blocks (Streamlit): banners, referee panel, corrections,
the trick and table pictures, the scoreboards and the match history."""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import pandas as pd
import streamlit as st
from PIL import Image, ImageDraw

from cardref.engine.judge import JudgeResult

from . import state, views
from .cards_img import cards_row, drawable, font
from .i18n import game_title, tr
from .model import TableLog, check_cards
from .table_img import table_image

FAULT_RED = "#c62828"
MAX_ROWS = 2000  # events listed at once (a 10-deal match has about 1,500)


def banners(items: list[views.Banner]) -> None:
    for b in items:
        {"error": st.error, "warning": st.warning}.get(b.level, st.info)(b.text)


def pin_gate(lang: str, key: str) -> bool:
    """True when this session may write (no PIN set, or unlocked); else shows the unlock box.
    Wrong PINs slow this session down and then lock it (:mod:`cardref.ui.pinlock`)."""
    if not state.locked():
        return True
    st.caption(":material/lock: " + tr("pin.locked", lang))
    c1, c2 = st.columns([3, 1])
    pin = c1.text_input(tr("pin.label", lang), type="password", key=f"{key}_pin", label_visibility="collapsed",
                        placeholder=tr("pin.label", lang))
    if c2.button(tr("pin.unlock", lang), key=f"{key}_unlock"):
        outcome, wait = state.unlock(pin)
        if outcome == "ok":
            st.rerun()
        text = tr("pin.wait", lang, seconds=wait)
        st.error(tr("pin.wrong", lang) + " " + text if outcome == "wrong" else text)
    return False


def may_write(lang: str) -> bool:
    """The server-side check every write handler makes (a disabled button is only a hint:
    a stale page or a crafted message can still press it)."""
    if state.locked():
        st.error(tr("pin.locked", lang))
        return False
    return True


def _seat_label(names: list[str], seat: int | None) -> str:
    if seat is None:
        return ""
    return names[seat] if 0 <= seat < len(names) else str(seat)


def _type_label(kind: str, lang: str) -> str:
    return tr(f"type.{kind}", lang)


def fault_line(r: views.Row, names: list[str], lang: str) -> str:
    """One fault as HTML: event number, seat, cards and the sentence; the rule code is the
    sentence's tooltip (a referee reads the sentence, a developer hovers for the code)."""
    proven = tr("panel.proven_later", lang, j=r.proven_at) if r.proven_at is not None else ""
    who = html.escape(_seat_label(names, r.seat))
    cards = html.escape(" ".join(r.cards))
    code = html.escape(r.code or "", quote=True)
    return (f'<div class="cardref-fault" style="border-left:6px solid {FAULT_RED};background:#fdecea;'
            f'padding:6px 10px;margin:4px 0;border-radius:4px;color:{FAULT_RED}">'
            f'<b>#{r.i}</b> {who} {_type_label(r.kind, lang)} <b>{cards}</b><br>'
            f'<span class="cardref-rule" title="{code}">{html.escape(r.message)}</span> {html.escape(proven)}</div>')


def faults_panel(rows: list[views.Row], names: list[str], lang: str, limit: int = 30) -> None:
    bad = views.faults(rows)
    st.markdown(f"**{tr('panel.faults', lang)} ({len(bad)})**")
    if not bad:
        st.success(tr("panel.no_faults", lang))
        return
    box = st.container(height=520) if len(bad) > 6 else st.container()
    box.markdown("".join(fault_line(r, names, lang) for r in reversed(bad[-limit:])), unsafe_allow_html=True)


def pending_panel(log: TableLog, rows: list[views.Row], names: list[str], lang: str, key: str,
                  writable: bool, on_correct: Callable[[int], None] | None = None) -> None:
    """Low-confidence events with one-click confirm or correct."""
    pending = set(log.pending())
    items = [r for r in rows if r.i in pending]
    st.markdown(f"**{tr('panel.pending', lang)} ({len(items)})**")
    if not items:
        st.caption(tr("panel.no_pending", lang))
        return
    for r in items[-10:]:
        conf = f"{r.conf:.2f}" if r.conf is not None else "—"
        st.markdown(f"#{r.i} {_seat_label(names, r.seat)} {_type_label(r.kind, lang)} **{' '.join(r.cards)}** · "
                    f"{tr('col.conf', lang)} {conf}")
        c1, c2, _ = st.columns([1, 1, 0.6])
        if c1.button(tr("btn.confirm", lang), key=f"{key}_ok_{r.i}", disabled=not writable,
                     icon=":material/check:", width="stretch") and may_write(lang):
            log.confirm(r.i, who=st.session_state.get("who") or "referee")
            if _in_fragment():
                st.rerun(scope="fragment")
            st.rerun()
        if c2.button(tr("btn.correct", lang), key=f"{key}_fix_{r.i}", disabled=not writable,
                     icon=":material/edit:", width="stretch") and may_write(lang):
            st.session_state[f"{key}_ref"] = r.i
            if on_correct is not None:
                on_correct(r.i)
            st.rerun()  # the whole page: the correction form may sit in another fragment


def _in_fragment() -> bool:
    try:
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        ctx = get_script_run_ctx()
        return bool(ctx and ctx.current_fragment_id)
    except Exception:
        return False


def events_frame(rows: list[views.Row], names: list[str], lang: str) -> pd.DataFrame:
    data = []
    for r in rows:
        verdict = tr("verdict.ok", lang) if r.ok else f"✗ {r.message}"
        if r.proven_at is not None:
            verdict += " " + tr("panel.proven_later", lang, j=r.proven_at)
        cards = " ".join(r.cards) if r.cards else r.text
        if r.kind == "hand":
            cards = tr("col.n_cards", lang, n=len(r.cards))
        if r.original_cards is not None:
            cards = f"{cards}  (≠ {' '.join(r.original_cards)})"
        note = []
        if r.corrected_by:
            note.append("✎ #" + ",#".join(str(j) for j in r.corrected_by))
        if r.confirmed_by:
            note.append("✓ #" + ",#".join(str(j) for j in r.confirmed_by))
        data.append({
            tr("col.i", lang): r.i,
            tr("col.t", lang): "" if r.t is None else f"{r.t:.1f}",
            tr("col.seat", lang): _seat_label(names, r.seat),
            tr("col.type", lang): _type_label(r.kind, lang),
            tr("col.verdict", lang): verdict + ("  " + " ".join(note) if note else ""),
            tr("col.cards", lang): cards,
            tr("col.conf", lang): "" if r.conf is None else f"{r.conf:.2f}",
            tr("col.code", lang): r.code or "",
        })
    return pd.DataFrame(data)


def events_table(rows: list[views.Row], names: list[str], lang: str, key: str) -> int | None:
    """All events (faulty ones in red; the last ``MAX_ROWS`` of a long log); returns the
    index of a row the user clicked."""
    if not rows:
        return None
    if len(rows) > MAX_ROWS:
        st.caption(tr("panel.rows_cut", lang, shown=MAX_ROWS, n=len(rows)))
        rows = rows[-MAX_ROWS:]
    df = events_frame(rows, names, lang)
    bad = {k for k, r in enumerate(rows) if not r.ok}

    def color(row: pd.Series) -> list[str]:
        return [f"color: {FAULT_RED}; background-color: #fdecea" if row.name in bad else ""] * len(row)

    cfg = {tr("col.i", lang): st.column_config.NumberColumn(width="small"),
           tr("col.t", lang): st.column_config.TextColumn(width="small"),
           tr("col.verdict", lang): st.column_config.TextColumn(width="large"),
           tr("col.cards", lang): st.column_config.TextColumn(width="medium"),
           tr("col.code", lang): st.column_config.TextColumn(width="small", help=tr("col.code_help", lang))}
    event = st.dataframe(df.style.apply(color, axis=1), hide_index=True, width="stretch", height=320, column_config=cfg,
                         on_select="rerun", selection_mode="single-row", key=f"{key}_table")
    try:
        picked = list(event.selection.rows)  # type: ignore[union-attr]
    except AttributeError:
        picked = []
    if picked and 0 <= picked[0] < len(rows):
        return rows[picked[0]].i
    return None


def correction_form(log: TableLog, rows: list[views.Row], names: list[str], lang: str, key: str,
                    clicked: int | None = None, t: float | None = None) -> int | None:
    """Pick an event, give the right cards or seat, append a ``correct`` event."""
    st.markdown(f"**{tr('corr.title', lang)}**")
    st.caption(tr("corr.hint", lang))
    flash = st.session_state.pop(f"{key}_flash", None)
    if flash:
        st.success(flash)
    fixable = [r for r in rows if r.kind in ("play", "hand", "bottom", "pass", "declare", "error")]
    if len(fixable) > MAX_ROWS:  # a long log: the faulty events and the latest ones
        fixable = [r for r in fixable[:-MAX_ROWS] if not r.ok][-MAX_ROWS:] + fixable[-MAX_ROWS:]
    if not fixable:
        st.caption(tr("corr.none", lang))
        return None
    ref_key = f"{key}_ref"
    options = [r.i for r in fixable]
    if clicked is not None and st.session_state.get(f"{key}_dfsel") != clicked:
        st.session_state[f"{key}_dfsel"] = clicked  # a new click in the table
        if clicked in options:
            st.session_state[ref_key] = clicked
    if st.session_state.get(ref_key) not in options:
        st.session_state[ref_key] = options[-1]
    by_i = {r.i: r for r in fixable}

    def fmt(i: int) -> str:
        r = by_i[i]
        mark = "✗ " if not r.ok else ""
        return f"{mark}#{i} {_seat_label(names, r.seat)} {_type_label(r.kind, lang)} {' '.join(r.cards)}"

    writable = pin_gate(lang, key)
    ref = st.selectbox(tr("corr.pick", lang), options, format_func=fmt, key=ref_key)
    target = by_i[ref]
    with st.form(f"{key}_form", clear_on_submit=False, enter_to_submit=False):
        c1, c2 = st.columns([3, 1])
        cards_text = c1.text_input(tr("corr.cards", lang), value=" ".join(target.cards), key=f"{key}_cards_{ref}")
        seat_opts = [None, *range(len(names))]
        seat = c2.selectbox(tr("corr.seat", lang), seat_opts, index=0, key=f"{key}_seat_{ref}",
                            format_func=lambda s: "—" if s is None else _seat_label(names, s))
        c3, c4 = st.columns([1, 3])
        who = c3.text_input(tr("corr.who", lang), value=st.session_state.get("who", ""), key=f"{key}_who")
        why = c4.text_input(tr("corr.why", lang), key=f"{key}_why")
        submitted = st.form_submit_button(tr("corr.submit", lang), disabled=not writable)
    if not submitted or not may_write(lang):
        return None
    cards: list[str] | None = None
    if target.kind in ("play", "hand", "bottom", "declare") and cards_text.strip() != " ".join(target.cards):
        cards, bad = check_cards(cards_text)
        if cards is None:
            st.error(tr("corr.bad_cards", lang, detail=bad))
            return None
    if cards is None and seat is None:
        st.warning(tr("corr.nothing", lang))
        return None
    st.session_state["who"] = who
    try:
        j = log.correct(ref, cards=cards, seat=seat, who=who or "referee", why=why, t=t)
    except ValueError as exc:
        st.error(str(exc))
        return None
    st.session_state[f"{key}_flash"] = tr("corr.done", lang, j=j, ref=ref)
    if _in_fragment():
        st.rerun()  # re-judge every panel from the corrected log
    st.rerun()
    return j


# ---- pictures ------------------------------------------------------------------------------

def trick_picture(dv: views.DealView, lang: str) -> Image.Image | None:
    """The current trick: each play as cards with the seat's name under it."""
    if not dv.trick:
        return None
    winning = dv.state.get("winning")

    def label(s: int) -> str:
        name = drawable(dv.names[s], f"S{s}") if 0 <= s < len(dv.names) else str(s)
        return f"★ {name}" if winning == s else name

    rows = [(label(s), cards_row(c, height=96, overlap=0.55, marks=[ok])) for s, c, ok in dv.trick]
    gap = 18
    width = sum(max(r.width, 80) for _, r in rows) + gap * (len(rows) - 1)
    img = Image.new("RGBA", (max(width, 10), 96 + 30), (255, 255, 255, 0))
    d = ImageDraw.Draw(img)
    x = 0
    cjk = any(ord(ch) > 0x2E80 for name, _ in rows for ch in name)
    f = font(16, cjk=cjk)
    for name, r in rows:
        img.alpha_composite(r, (x, 0))
        d.text((x + r.width / 2, 96 + 14), name, font=f, fill=(40, 40, 40, 255), anchor="mm")
        x += max(r.width, 80) + gap
    return img


def trick_history_picture(tricks: list[views.Trick], names: list[str], lang: str, last: int = 8) -> Image.Image | None:
    shown = tricks[-last:]
    if not shown:
        return None
    row_h, card_h = 92, 66
    width = 1000
    img = Image.new("RGBA", (width, row_h * len(shown)), (255, 255, 255, 255))
    d = ImageDraw.Draw(img)
    f = font(16, cjk=any(ord(ch) > 0x2E80 for n in names for ch in n))
    used = 0
    for k, t in enumerate(shown):
        y = k * row_h
        d.text((4, y + 10), f"{t.n}", font=font(20), fill=(80, 80, 80, 255))
        d.text((4, y + 40), f"{t.points}", font=font(18), fill=(180, 30, 30, 255))
        x = 56
        for s, cards, ok in t.plays:
            row = cards_row(cards, height=card_h, overlap=0.6, marks=[ok], max_width=200)
            img.alpha_composite(row, (x, y + 2))
            label = drawable(names[s], f"S{s}") if isinstance(s, int) and 0 <= s < len(names) else str(s)
            if t.winner == s:
                label = "★ " + label
            d.text((x, y + card_h + 4), label[:12], font=f, fill=(60, 60, 60, 255))
            x += max(row.width, 60) + 14
        d.line([(0, y + row_h - 1), (width, y + row_h - 1)], fill=(225, 225, 225, 255))
        used = max(used, x)
    return img.crop((0, 0, min(width, max(used, 200)), img.height))


def table_and_trick(dv: views.DealView, lang: str, picture: Image.Image | None = None) -> None:
    st.markdown(f"**{tr('table.title', lang)}**")
    st.image(picture if picture is not None else table_image(dv, lang=lang), width="stretch")
    st.caption(tr("table.legend", lang) + (" " + tr("table.legend_gouji", lang) if dv.family == "gouji" else ""))


def turn_banner(dv: views.DealView, lang: str) -> None:
    """Whose turn it is, in words and large ("轮到 南")."""
    text = views.turn_text(dv, lang)
    if text:
        st.markdown(f'<div class="cardref-turn" style="font-size:2.1rem;font-weight:700;color:#1e3a8a;'
                    f'margin:0 0 .3rem 0">{html.escape(text)}</div>', unsafe_allow_html=True)


def trick_strip(dv: views.DealView, lang: str, picture: Image.Image | None = None) -> None:
    turn_banner(dv, lang)
    st.markdown(f"**{tr('table.trick', lang)}**")
    pic = picture if picture is not None else trick_picture(dv, lang)
    if pic is None:
        st.caption(tr("table.no_trick", lang))
    else:
        st.image(pic)


# ---- scoreboards ---------------------------------------------------------------------------

def _metric(col: Any, label: str, value: str) -> None:
    col.metric(label, value)


def scoreboard(dv: views.DealView, lang: str, history_box: Any = None) -> None:
    """The game's scoreboard; the 升级 trick history goes to ``history_box`` when given."""
    st.markdown(f"### {tr('score.title', lang)}")
    if dv.family == "shengji":
        b = views.shengji_board(dv, lang)
        c = st.columns(4)
        _metric(c[0], tr("score.attacker_points", lang), b["attacker_points"])
        _metric(c[1], tr("score.trump", lang), b["trump"])
        _metric(c[2], tr("score.level", lang), b["level"])
        _metric(c[3], tr("score.dealer", lang), b["dealer"])
        st.markdown(f"**{tr('score.levels', lang)}**: " + " · ".join(f"{k} **{v}**" for k, v in b["team_levels"].items()))
        extras = [f"{tr(k, lang)} {b[k.split('.')[1]]}" for k in ("score.penalty_points", "score.bonus_points")
                  if b[k.split(".")[1]] not in (views.NONE, "0")]
        if extras:
            st.caption(" · ".join(extras))
        if b["ended"]:
            c = st.columns(4)
            _metric(c[0], tr("score.bottom_points", lang), b["bottom_points"])
            _metric(c[1], tr("score.bottom_multiplier", lang), b["bottom_multiplier"])
            _metric(c[2], tr("score.final_points", lang), b["final_points"])
            st.markdown(f"**{tr('score.level_change', lang)}**: {b['level_change']}")
            if b["bottom"]:
                st.caption(tr("score.bottom", lang))
                st.image(cards_row(b["bottom"], height=70, overlap=0.5))
        tricks = views.tricks(dv)
        series = views.points_series(dv)
        if series:
            st.markdown(f"**{tr('score.chart', lang)}**")
            points_chart(series, lang)
            box = history_box if history_box is not None else st.container()
            box.markdown(f"**{tr('score.tricks', lang)}**")
            pic = trick_history_picture(tricks, dv.names, lang)
            if pic is not None:
                box.image(pic)
    else:
        b = views.gouji_board(dv, lang)
        st.markdown(f"**{tr('score.played', lang)}**")
        played_chart(b, lang)
        facts = [("score.gouji", b["gouji"]), ("score.may_answer", b["may_answer"]), ("score.burning", b["burning"]),
                 ("score.order", b["order"]), ("score.kaidian", b["kaidian"])]
        sep = "：" if lang == "zh" else ": "
        st.markdown("\n".join(f"- **{tr(k, lang)}**{sep}{v}" for k, v in facts))
        st.markdown(f"**{tr('score.tributes', lang)}**")
        if b["tributes"]:
            heads = {k: tr(f"score.trib_{k}", lang) for k in ("from", "to", "count", "kind")}
            st.dataframe(pd.DataFrame(b["tributes"]).rename(columns=heads), hide_index=True)
        else:
            st.caption(views.NONE)


def played_chart(board: dict[str, Any], lang: str) -> None:
    """Cards played (and left, when known) per seat, as stacked bars."""
    import altair as alt

    rows = []
    for k, (name, n) in enumerate(board["played"].items()):
        rows.append({"seat": name, "order": k, "what": tr("score.played_n", lang), "n": n})
        left = board["remaining"].get(name) if board["remaining"] else None
        if left not in (None, views.NONE):
            rows.append({"seat": name, "order": k, "what": tr("score.remaining_n", lang), "n": int(left)})
    chart = alt.Chart(pd.DataFrame(rows)).mark_bar().encode(
        x=alt.X("seat:N", sort=alt.SortField("order"), title=None, axis=alt.Axis(labelAngle=0, labelFontSize=14)),
        y=alt.Y("n:Q", title=None),
        color=alt.Color("what:N", title=None, scale=alt.Scale(
            domain=[tr("score.played_n", lang), tr("score.remaining_n", lang)], range=["#1e88e5", "#cfd8dc"])),
        tooltip=[alt.Tooltip("seat:N", title=tr("col.seat", lang)), alt.Tooltip("what:N", title=" "),
                 alt.Tooltip("n:Q", title=tr("col.cards", lang))])
    st.altair_chart(chart, width="stretch", height=200)


def points_chart(series: list[dict[str, Any]], lang: str) -> None:
    import altair as alt

    df = pd.DataFrame(series)
    bars = alt.Chart(df).mark_bar(color="#9ccc65").encode(
        x=alt.X("trick:O", title=tr("score.tricks", lang)), y=alt.Y("points:Q", title=tr("score.points", lang)),
        tooltip=[alt.Tooltip("trick:O", title=tr("score.tricks", lang)),
                 alt.Tooltip("points:Q", title=tr("score.chart_trick", lang)),
                 alt.Tooltip("attacker_points:Q", title=tr("score.chart_cum", lang))])
    layers = [bars]
    if df["attacker_points"].notna().any():
        top = max(10.0, float(df["attacker_points"].max()))
        line = alt.Chart(df).mark_line(point=True, color="#c62828").encode(
            x="trick:O", y=alt.Y("attacker_points:Q", title=tr("score.chart_cum", lang),
                                 scale=alt.Scale(domain=[0, top]), axis=alt.Axis(format="d")))
        layers.append(line)
    st.altair_chart(alt.layer(*layers).resolve_scale(y="independent") if len(layers) > 1 else bars,
                    width="stretch", height=200)


def history(lines: list[str], result: JudgeResult, lang: str) -> None:
    rows = views.match_history(lines, result, lang)
    if not rows:
        return
    st.markdown(f"**{tr('score.history', lang)}**")
    df = pd.DataFrame([{
        tr("score.deal_col", lang): r["deal"], tr("score.game_col", lang): game_title(r["game"], lang),
        tr("score.outcome_col", lang): r["outcome"],
        tr("panel.faults", lang): r["faults"]} for r in rows])
    st.dataframe(df, hide_index=True, width="stretch")
