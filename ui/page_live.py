"""Live table: the camera with overlays, refreshed by fragments while the frame loop runs
in its own thread (:mod:`cardref.ui.live`); the referee panel and scoreboard beside it."""

from __future__ import annotations

import re

import streamlit as st

from . import components as C
from . import state, views
from .bundle import bundle
from .i18n import tr

_SOURCE_WORDS = ((re.compile(r"^cannot open camera (\S+)"), "banner.camera_open"),
                 (re.compile(r"^cannot open video (.+?)(?: \(|$)"), "banner.video_open"))


def source_problem(detail: str, lang: str) -> str:
    """A capture error in the catalogue's words where it is a known one (the capture's own
    text stays after it for the log)."""
    for pattern, key in _SOURCE_WORDS:
        m = pattern.search(detail or "")
        if m:
            return tr(key, lang, what=m.group(1))
    return detail or "—"


def _status_banner(table: state.LiveTable, lang: str) -> None:
    runner = table.runner
    if runner is None:
        st.error(tr("banner.no_camera", lang, detail="—"))
        return
    _, status = runner.snapshot()
    if status.state == "error":
        st.error(tr("banner.no_camera", lang, detail=source_problem(status.error or "", lang)))
    elif status.state == "lost":
        st.warning(tr("banner.camera_lost", lang, seconds=status.since_frame))
    elif status.state == "ended":
        st.info(tr("banner.video_ended", lang))


def picture(table: state.LiveTable) -> None:
    lang = state.lang()
    _status_banner(table, lang)
    if table.runner is None:
        return
    jpeg, status = table.runner.snapshot_jpeg()
    if jpeg is not None:
        st.image(jpeg, width="stretch")
    recognition = " · " + tr("table.pipeline", lang, name=table.pipeline_name) if table.pipeline_name else ""
    st.caption(tr("table.fps", lang, fps=status.fps, frames=status.frames) + recognition)
    cfg, _ = state.config()
    now, want = st.session_state.get("lv_interval", cfg.refresh), refresh_interval(table, cfg.refresh)
    if status.frames > 30 and abs(want - now) > 0.3 * now:
        st.rerun()  # once the pipeline's rate is known: refresh the picture at that rate


def panel(table: state.LiveTable) -> None:
    lang = state.lang()
    b = bundle(table.log, lang)
    problems = [views.Banner("error", tr("banner.write_failed", lang, detail=p)) for p in table.log.write_problems()]
    C.banners(problems + views.log_banners(b.lines, b.result, lang))
    names = b.dv.names if b.dv else []
    st.markdown(f"### {tr('panel.title', lang)}")
    C.faults_panel(b.rows, names, lang)
    C.pending_panel(table.log, b.rows, names, lang, "lv", writable=not state.locked())


def table_state(table: state.LiveTable) -> None:
    lang = state.lang()
    b = bundle(table.log, lang)
    if b.dv is None:
        return
    c1, c2 = st.columns([1, 1])
    with c1:
        C.trick_strip(b.dv, lang, picture=b.picture("trick"))
        C.table_and_trick(b.dv, lang, picture=b.picture("table"))
        history_box = st.container()
    with c2:
        C.scoreboard(b.dv, lang, history_box=history_box)
        C.history(b.lines, b.result, lang)


def events(table: state.LiveTable) -> None:
    """Every event as it comes (refreshed); clicking a row picks it for correction."""
    lang = state.lang()
    b = bundle(table.log, lang)
    st.markdown(f"### {tr('panel.events', lang)}")
    clicked = C.events_table(b.rows, b.dv.names if b.dv else [], lang, "lv")
    if clicked is not None and st.session_state.get("lv_dfsel") != clicked:
        st.session_state["lv_dfsel"] = clicked
        st.session_state["lv_ref"] = clicked
        st.rerun()  # the whole page, so the correction form below shows the clicked event


def corrections(table: state.LiveTable) -> None:
    lang = state.lang()
    b = bundle(table.log, lang)
    t = table.runner.now_t() if table.runner is not None else None
    C.correction_form(table.log, b.rows, b.dv.names if b.dv else [], lang, "lv", t=t)


def refresh_interval(table: state.LiveTable, default: float) -> float:
    """The picture refreshes at the pipeline's frame rate (between 2 and 15 times a second)."""
    return default if table.runner is None else table.runner.page_interval(default)


def render() -> None:
    lang = state.lang()
    cfg, problem = state.config()
    if problem:
        st.warning(problem)
    if not cfg.live:
        st.info(tr("banner.no_camera", lang, detail="`cardref ui --camera 0` / `--video FILE`"))
        return
    table = state.live_table(cfg.to_env())
    for key, detail in table.problems:
        st.warning(tr(key, lang, detail=detail))
    if table.pipeline_problem:
        st.warning(tr("banner.no_pipeline", lang, detail=table.pipeline_problem))
    st.subheader(f"{tr('page.live', lang)} · {table.log.name}")
    if not table.log.result().deals and cfg.game and state.missing_options(cfg.game, cfg.deal or {}):
        # ask for the deal's options before the first play (never a deal of made-up options)
        from .page_setup import _deal_form

        fam = views.family_of(cfg.game)
        with st.container(border=True):
            st.warning(tr("setup.need_deal", lang, what=tr(f"setup.need_{fam}", lang)))
            writable = C.pin_gate(lang, "lvdeal")
            if _deal_form(lang, writable, key="lvdeal", game=cfg.game):
                st.rerun()
    left, right = st.columns([3, 2], gap="medium")
    with left:
        st.session_state["lv_interval"] = refresh_interval(table, cfg.refresh)
        st.fragment(run_every=st.session_state["lv_interval"])(picture)(table)
    with right:
        st.fragment(run_every=1.0)(panel)(table)
    st.fragment(run_every=1.0)(table_state)(table)
    st.fragment(run_every=2.0)(events)(table)
    st.fragment(corrections)(table)
