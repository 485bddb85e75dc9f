"""Replay: open a recorded log (and its video), scrub a timeline, step play by play with
the verdicts as they were; corrections go to this session's copy of the log."""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from cardref.engine.eventlog import read_lines
from cardref.engine.judge import JudgeResult

from . import screen, state, views
from .i18n import tr
from .model import TableLog
from .overlay import draw_overlay, zone_polygons
from .safejudge import judge as safe_judge
from .sources import SourceError, VideoFrames, load_calibration, load_detections


def _judge(lines: list[str]) -> JudgeResult:
    cache: dict = st.session_state.setdefault("replay_cache", {})
    key = (len(lines), hash(tuple(lines)))
    hit = cache.get(key)
    if hit is None:
        if len(cache) > 100:
            cache.clear()
        hit = cache[key] = safe_judge(read_lines(lines))
    return hit


def _open_controls(lang: str) -> None:
    cfg, _ = state.config()
    with st.expander(tr("replay.open", lang), expanded=state.replay_log() is None):
        up = st.file_uploader(tr("replay.upload", lang), type=["jsonl", "json", "txt", "log"], key="replay_upload",
                              help=tr("replay.upload_help", lang))  # the button's own text is Streamlit's
        if up is not None and st.session_state.get("replay_upload_id") != up.file_id:
            st.session_state["replay_upload_id"] = up.file_id
            text = up.getvalue().decode("utf-8", errors="replace")
            state.set_replay(TableLog.from_text(text, name=up.name), None, up.name)
            st.rerun()  # the whole page: the sidebar names the new file
        c1, c2, c3 = st.columns([3, 3, 1])
        path = c1.text_input(tr("replay.path", lang), key="replay_path_in")
        video = c2.text_input(tr("replay.video", lang), key="replay_video_in")
        if c3.button("", key="replay_open_btn", icon=":material/folder_open:") and path.strip():
            problem = state.open_replay(path.strip(), video.strip() or None)
            if problem:
                st.error(tr("banner.cannot_open", lang, path=path, detail=problem))
            else:
                st.session_state["playing"] = False
                st.rerun()
        _store_tables(lang)
        from .config import DEMO_GOUJI, DEMO_LOG, DEMO_VIDEO

        d1, d2, _ = st.columns([1, 1, 1])
        if d1.button(tr("source.demo", lang), key="replay_demo_btn", icon=":material/movie:"):
            state.open_replay(str(DEMO_LOG), str(DEMO_VIDEO) if DEMO_VIDEO.is_file() else None)
            st.session_state["playing"] = True
            st.rerun()
        if DEMO_GOUJI.is_file() and d2.button(tr("source.demo_gouji", lang), key="replay_demo_gouji_btn",
                                              icon=":material/description:"):
            state.open_replay(str(DEMO_GOUJI), None)
            st.session_state["playing"] = True
            st.rerun()


def _store_tables(lang: str) -> None:
    """Tables of the recorder's store, to replay (into this session's copy)."""
    cfg, _ = state.config()
    try:
        store = state.store(cfg.store)
        tables = [t for t in store.tables() if t.events]
    except Exception:
        return
    if not tables:
        return
    c1, c2 = st.columns([6, 1])
    names = {t.id: f"{t.name or t.id} · {t.events} · {t.created_at}" for t in tables}
    table_id = c1.selectbox(tr("replay.store", lang), list(names), format_func=names.get, key="replay_store_pick")
    if c2.button("", key="replay_store_open", icon=":material/folder_open:"):
        log = TableLog.from_text(store.lines(table_id), name=str(table_id))
        state.set_replay(log, None, f"{tr('page.tournament', lang)}: {names[table_id]}")
        st.session_state["playing"] = False
        st.rerun()


def _ensure_loaded(lang: str) -> bool:
    problem = state.ensure_replay()
    if state.replay_log() is not None:
        return True
    if problem:
        st.error(tr("banner.cannot_open", lang, path="", detail=problem))
    else:
        st.info(tr("replay.open", lang))
    return False


def _frames() -> VideoFrames | None:
    path = st.session_state.get("replay_video")
    if not path:
        return None
    frames = st.session_state.get("replay_frames")
    if frames is None or frames.path != path:
        try:
            frames = VideoFrames(path)
        except SourceError as exc:
            st.session_state["replay_video_problem"] = str(exc)
            st.session_state["replay_video"] = None
            return None
        st.session_state["replay_frames"] = frames
        cal_path = Path(path).with_name("calibration.json")
        cal, _ = load_calibration(cal_path if cal_path.is_file() else None)
        st.session_state["replay_zones"] = zone_polygons(cal) if cal is not None else []
        st.session_state["replay_dets"] = load_detections(Path(path).with_name("frames.jsonl"))
    return frames


def _step(stops: list[int], k: int, direction: int) -> int:
    """Cursor positions are "after line i" = i + 1; move to the next/previous stop."""
    positions = [i + 1 for i in stops]
    if direction > 0:
        return next((p for p in positions if p > k), positions[-1] if positions else k)
    return next((p for p in reversed(positions) if p < k), 0)


def _fault_strip(lines: list[str], n0: int, k: int, lang: str) -> None:
    """The whole recording as a strip: one tick per play, faults (as finally judged) in red,
    the cursor as a marker.  Clicking a tick moves the cursor just after that event."""
    import altair as alt
    import pandas as pd

    if n0 < 2:
        return
    final = _judge(lines[:n0])
    data = []
    for v, text in zip(final.verdicts, lines[:n0], strict=False):
        kind = "play" if '"play"' in text else "other"
        if kind == "play" or not v.ok:
            data.append({"i": v.i, "ok": "ok" if v.ok else "fault", "code": v.fault.code if v.fault else ""})
    if not data:
        return
    for row in data:
        row["y"] = 0
    # tall ticks: a click must land on one (the chart's toolbar covers its top edge)
    pick = alt.selection_point(name="jump", on="click", fields=["i"], empty=False, nearest=True)
    x = alt.X("i:Q", scale=alt.Scale(domain=[0, n0], nice=False), axis=None)
    y = alt.Y("y:Q", scale=alt.Scale(domain=[-1, 1.2]), axis=None)
    ticks = alt.Chart(pd.DataFrame(data)).mark_point(shape="M0,-1L0,1", size=900, strokeWidth=5, filled=False).encode(
        x=x, y=y, color=alt.Color("ok:N", scale=alt.Scale(domain=["ok", "fault"], range=["#b0bec5", "#c62828"]),
                                  legend=None),
        tooltip=["i", "code"]).add_params(pick)
    cursor = alt.Chart(pd.DataFrame([{"i": k, "y": 0.95}])).mark_point(
        shape="triangle-down", size=160, filled=True, color="#1e88e5", opacity=1).encode(x=x, y=y)
    chart = alt.layer(ticks, cursor).properties(height=64).configure_view(strokeWidth=0)
    st.altair_chart(chart, on_select=lambda: _jump(n0), selection_mode="jump", key="rp_strip", width="stretch")


def _jump(n0: int) -> None:
    """A tick of the strip was clicked: put the cursor just after that event (runs before
    the rerun, so the slider and the strip both show the new position)."""
    try:
        sel = st.session_state["rp_strip"]["selection"]["jump"]
    except (KeyError, TypeError):
        return
    if isinstance(sel, list) and sel and isinstance(sel[0], dict) and "i" in sel[0]:
        st.session_state["cursor"] = min(int(sel[0]["i"]) + 1, n0)
        st.session_state["playing"] = False


def _go(where: str) -> None:
    """A step button's callback: move the cursor and stop the autoplay."""
    log = state.replay_log()
    if log is None:
        return
    lines = log.snapshot()
    n0 = min(st.session_state.get("replay_n0", len(lines)), len(lines))
    stops = views.steps(lines[:n0])
    k = max(0, min(int(st.session_state.get("cursor", 0)), n0))
    k = {"first": 0, "last": n0, "prev": _step(stops, k, -1), "next": _step(stops, k, +1)}[where]
    st.session_state["cursor"] = k
    st.session_state["playing"] = False


def body() -> None:
    lang = state.lang()
    log = state.replay_log()
    if log is None:
        return
    lines = log.snapshot()
    n0 = min(st.session_state.get("replay_n0", len(lines)), len(lines))
    stops = views.steps(lines[:n0])
    k = int(st.session_state.get("cursor", 0))
    k = max(0, min(k, n0))
    if st.session_state.get("playing"):
        nxt = _step(stops, k, +1)
        if nxt <= k:
            st.session_state["playing"] = False
            st.rerun()  # the whole page, so the fragment stops refreshing itself
        else:
            k = nxt
    st.session_state["cursor"] = k

    # ---- the timeline ----
    c = st.columns([1.3, 1.3, 1.3, 1.2, 1.7, 1.6])
    # on_click callbacks run first thing in the rerun the click causes, before the autoplay
    # refresh of this fragment can interrupt it: a click during autoplay is never lost
    c[0].button(tr("replay.first", lang), key="rp_first", shortcut="Home", icon=":material/first_page:",
                on_click=_go, args=("first",))
    c[1].button(tr("replay.prev", lang), key="rp_prev", shortcut="Left", icon=":material/chevron_left:",
                on_click=_go, args=("prev",))
    c[2].button(tr("replay.next", lang), key="rp_next", shortcut="Right", icon=":material/chevron_right:",
                on_click=_go, args=("next",))
    c[3].button(tr("replay.last", lang), key="rp_last", shortcut="End", icon=":material/last_page:",
                on_click=_go, args=("last",))
    k = int(st.session_state.get("cursor", k))
    playing = bool(st.session_state.get("playing"))
    if c[4].button(tr("replay.pause", lang) if playing else tr("replay.play", lang), key="rp_play", shortcut="Space",
                    icon=":material/pause:" if playing else ":material/play_arrow:"):
        st.session_state["playing"] = not playing
        if not playing and k >= n0:
            st.session_state["cursor"] = 0
        st.rerun()
    if k != st.session_state.get("cursor"):
        st.session_state["cursor"] = k
        st.session_state["playing"] = False
    c[5].slider(tr("replay.timeline", lang), 0, max(n0, 1), key="cursor", label_visibility="collapsed")
    k = int(st.session_state["cursor"])
    _fault_strip(lines, n0, k, lang)
    shown = views.replay_lines(lines, k, n0)
    result = _judge(shown)
    t = views.event_time(lines, k)
    st.caption(tr("replay.position", lang, k=k, n=n0) + (f" · t = {t:.1f} s" if t is not None else "")
               + " · " + tr("replay.as_were", lang))

    picture = None
    frames = _frames()
    if frames is not None:
        frame = frames.frame_at(t or 0.0)
        if frame is not None:
            dv0 = views.deal_view(shown, result, lang)
            pile = [c for _, cs, _ in dv0.trick for c in cs] if dv0 else []
            dets = st.session_state.get("replay_dets", {}).get(frames.index_at(t or 0.0), [])
            picture = draw_overlay(frame.copy(), dets, zones=st.session_state.get("replay_zones", []), pile=pile,
                                   names=dv0.names if dv0 else ())
    banners = []
    if st.session_state.get("replay_video_problem"):
        banners.append(views.Banner("warning", tr("banner.cannot_open", lang, path="video",
                                                  detail=st.session_state["replay_video_problem"])))
    writable = not state.locked()
    rows, dv = screen.top(shown, result, log, lang, "rp", picture=picture, writable=writable, extra_banners=banners,
                          empty=tr("replay.at_start", lang) if n0 else None)
    screen.bottom(shown, result, rows, dv, lang, with_table=picture is not None)
    j = screen.events_and_corrections(log, rows, dv, lang, "rp", t=t)
    if j is not None:
        st.session_state["playing"] = False
    st.download_button(tr("replay.save", lang), log.text().encode("utf-8"),
                       file_name=(st.session_state.get("replay_name") or "table.jsonl"), mime="application/jsonl",
                       key="rp_download")


def render() -> None:
    lang = state.lang()
    cfg, problem = state.config()
    if problem:
        st.warning(problem)
    name = st.session_state.get("replay_name")
    _open_controls(lang)
    if not _ensure_loaded(lang):
        return
    name = st.session_state.get("replay_name")
    st.subheader(f"{tr('page.replay', lang)} · {name}")
    speed = float(st.session_state.get("speed", cfg.speed))
    if st.session_state.get("playing"):
        st.fragment(run_every=speed)(body)()
    else:
        st.fragment(body)()
