"""Page scripts of the dashboard (not named ``pages``: that folder name switches Streamlit to its older multipage mode) (run by ``st.navigation``; each calls one render function)."""
