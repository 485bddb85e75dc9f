"""The referee's screen for one judged log position, shared by the live page and the replay."""

from __future__ import annotations

import numpy as np
import streamlit as st

from cardref.engine.judge import JudgeResult

from . import components as C
from . import views
from .i18n import tr
from .model import TableLog


def frame_rgb(frame: np.ndarray) -> np.ndarray:
    return frame[:, :, ::-1] if frame.ndim == 3 and frame.shape[2] == 3 else frame


def judged_view(lines: list[str], result: JudgeResult, lang: str) -> tuple[list[views.Row], views.DealView | None]:
    return views.rows(lines, result, lang), views.deal_view(lines, result, lang)


def top(lines: list[str], result: JudgeResult, log: TableLog, lang: str, key: str, *,
        picture: np.ndarray | None = None, writable: bool = True, extra_banners: list[views.Banner] | None = None,
        empty: str | None = None) -> tuple[list[views.Row], views.DealView | None]:
    """Banners, the picture (camera or table from above), the current trick and the referee panel."""
    C.banners((extra_banners or []) + views.log_banners(lines, result, lang, empty=empty))
    rows, dv = judged_view(lines, result, lang)
    names = dv.names if dv else []
    left, right = st.columns([3, 2], gap="medium")
    with left:
        if picture is not None:
            st.image(frame_rgb(picture), width="stretch")
        elif dv is not None:
            C.table_and_trick(dv, lang)
        if dv is not None:
            C.trick_strip(dv, lang)
    with right:
        st.markdown(f"### {tr('panel.title', lang)}")
        C.faults_panel(rows, names, lang)
        C.pending_panel(log, rows, names, lang, key, writable=writable)
    return rows, dv


def bottom(lines: list[str], result: JudgeResult, rows: list[views.Row], dv: views.DealView | None, lang: str, *,
           with_table: bool = False) -> None:
    """The scoreboard and the match history (beside the table from above when the picture
    above was the camera's)."""
    if dv is None:
        return
    if with_table:
        left, right = st.columns([1, 1], gap="medium")
        with left:
            C.table_and_trick(dv, lang)
            history_box = st.container()
        with right:
            C.scoreboard(dv, lang, history_box=history_box)
            C.history(lines, result, lang)
        return
    C.scoreboard(dv, lang)
    C.history(lines, result, lang)


def events_and_corrections(log: TableLog, rows: list[views.Row], dv: views.DealView | None, lang: str, key: str,
                           t: float | None = None) -> int | None:
    names = dv.names if dv else []
    st.markdown(f"### {tr('panel.events', lang)}")
    clicked = C.events_table(rows, names, lang, key)
    return C.correction_form(log, rows, names, lang, key, clicked=clicked, t=t)
