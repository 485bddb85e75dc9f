"""The cardref dashboard (``cardref ui``; ``streamlit run ui/app.py``).

Pages: the live table (camera or video), the replay (a recorded log, the bundled demo by
default), setup, and the recorder's tournament page.  How it was started comes in the
``CARDREF_UI_CONFIG`` environment variable (see :mod:`cardref.ui.config`).
"""

from __future__ import annotations

import streamlit as st
from cardref.ui import state
from cardref.ui.i18n import tr

st.set_page_config(page_title="cardref", page_icon=":material/playing_cards:", layout="wide")

cfg, problem = state.config()
st.sidebar.toggle("English", key="lang_en")
lang = state.lang()
st.sidebar.markdown(f"### :material/playing_cards: {tr('app.title', lang)}")
if problem:
    st.sidebar.warning(problem)
if cfg.live:
    st.sidebar.caption(tr("source.camera" if cfg.mode == "camera" else "source.video", lang)
                       + f": {cfg.camera if cfg.mode == 'camera' else cfg.video}")
else:
    state.ensure_replay()
    st.sidebar.caption(tr("source.demo" if cfg.mode == "demo" else "source.log", lang)
                       + f": {st.session_state.get('replay_name') or '—'}")

if cfg.pin_hash:
    if state.locked():
        st.sidebar.caption(":material/lock: " + tr("pin.locked", lang))
    elif st.sidebar.button(tr("pin.lock", lang), key="pin_lock", icon=":material/lock:"):
        st.session_state["unlocked"] = False
        st.rerun()

pages = [
    st.Page("screens/live_page.py", title=tr("page.live", lang), icon=":material/videocam:", url_path="live", default=cfg.live),
    st.Page("screens/replay_page.py", title=tr("page.replay", lang), icon=":material/replay:", url_path="replay", default=not cfg.live),
    st.Page("screens/setup_page.py", title=tr("page.setup", lang), icon=":material/settings:", url_path="setup"),
    st.Page("screens/tournament_page.py", title=tr("page.tournament", lang), icon=":material/trophy:", url_path="tournament"),
]
st.navigation(pages).run()
