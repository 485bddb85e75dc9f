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
# Streamlit's own English words, where the framework lets them go (#31 item 5): the
# "Stop" / "Running" status widget and the uploader's English drop-zone text are hidden
# (the uploader's label, from the catalogue, says what to drop); forms are made with
# enter_to_submit=False, so no "Press Enter to submit form" hint is shown.
st.markdown("<style>[data-testid='stStatusWidget']{visibility:hidden}"
            "[data-testid='stFileUploaderDropzoneInstructions']{display:none}</style>", unsafe_allow_html=True)
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
    st.Page("screens/live_page.py", title=tr("page.live", lang), icon=":material/videocam:", url_path="live"),
    st.Page("screens/replay_page.py", title=tr("page.replay", lang), icon=":material/replay:", url_path="replay"),
    st.Page("screens/setup_page.py", title=tr("page.setup", lang), icon=":material/settings:", url_path="setup"),
    st.Page("screens/tournament_page.py", title=tr("page.tournament", lang), icon=":material/trophy:", url_path="tournament"),
]
start = pages[0] if cfg.live else pages[1]


def _home() -> None:
    """The root URL opens the start page.  Streamlit serves its default page at "/" only,
    so a default replay page made /replay (a link, a bookmark) a "Page not found"; with
    this tiny default page every page keeps its own address."""
    st.switch_page(start)


# the menu is drawn here (the navigation itself is hidden: it would list the root page too)
for page in pages:
    st.sidebar.page_link(page)
st.navigation([st.Page(_home, title=start.title, url_path="", default=True), *pages], position="hidden").run()
