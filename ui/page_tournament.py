"""The tournament page: the recorder's own page (``cardref.ui.tournament_page``) on its store."""

from __future__ import annotations

import streamlit as st

from . import state
from .i18n import tr


def render() -> None:
    lang = state.lang()
    cfg, _ = state.config()
    try:
        from cardref.ui.tournament_page import render_tournament_page
    except ImportError:
        st.info(tr("banner.store_missing", lang))
        return
    try:
        store = state.store(cfg.store)
    except Exception as exc:  # a store that cannot be opened: say so, keep the app up
        st.error(tr("banner.cannot_open", lang, path=cfg.store or "store", detail=str(exc)))
        return
    render_tournament_page(store)
