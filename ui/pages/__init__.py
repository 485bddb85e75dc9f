"""Page scripts of the dashboard (run by ``st.navigation``; each calls one render function)."""
