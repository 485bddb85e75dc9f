"""Click points on a picture (the table's four corners) with what Streamlit ships: an
Altair chart of the picture under a grid of invisible points, selected by a click on the
nearest one.  Each click's pixel position comes back through ``on_select``; the points
clicked so far live in Session State.  Precision is the grid step (a few pixels), enough
for a calibration the referee can still fine-tune in the text box below it."""

from __future__ import annotations

import base64
import io
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st
from PIL import Image


def _data_url(rgb: np.ndarray, width: int) -> tuple[str, int, int]:
    img = Image.fromarray(rgb)
    scale = width / img.width
    img = img.resize((width, int(round(img.height * scale))))
    buf = io.BytesIO()
    img.save(buf, format="JPEG", quality=80)
    return "data:image/jpeg;base64," + base64.b64encode(buf.getvalue()).decode(), img.width, img.height


def grid(w: int, h: int, step: int) -> pd.DataFrame:
    xs, ys = np.meshgrid(np.arange(step // 2, w, step), np.arange(step // 2, h, step))
    return pd.DataFrame({"x": xs.ravel(), "y": ys.ravel()})


def picked_point(event: Any, name: str = "pick") -> tuple[float, float] | None:
    """The clicked grid point of an ``st.altair_chart(on_select=...)`` result, in picture pixels."""
    try:
        sel = event.selection[name]
    except (AttributeError, KeyError, TypeError):
        return None
    if isinstance(sel, list) and sel and isinstance(sel[0], dict) and "x" in sel[0] and "y" in sel[0]:
        return float(sel[0]["x"]), float(sel[0]["y"])
    return None


def click_points(rgb: np.ndarray, key: str, *, width: int = 760, step: int = 8, want: int = 4) -> list[tuple[float, float]]:
    """Show ``rgb`` and collect up to ``want`` clicks; returns them in picture pixels."""
    import altair as alt

    h0, w0 = rgb.shape[:2]
    url, w, h = _data_url(rgb, width)
    sx = w0 / w
    points: list[tuple[float, float]] = st.session_state.setdefault(f"{key}_points", [])
    pick = alt.selection_point(name="pick", on="click", nearest=True, fields=["x", "y"], empty=False)
    x = alt.X("x:Q", scale=alt.Scale(domain=[0, w], nice=False), axis=None)
    y = alt.Y("y:Q", scale=alt.Scale(domain=[h, 0], nice=False), axis=None)
    background = alt.Chart(pd.DataFrame({"x": [0], "y": [0], "url": [url]})).mark_image(
        width=w, height=h, align="left", baseline="top").encode(x=x, y=y, url="url:N")
    targets = alt.Chart(grid(w, h, step)).mark_point(opacity=0.001, size=step * step).encode(x=x, y=y).add_params(pick)
    shown = pd.DataFrame([{"x": px / sx, "y": py / sx, "n": str(k + 1)} for k, (px, py) in enumerate(points)],
                         columns=["x", "y", "n"])
    marks = alt.Chart(shown).mark_point(shape="cross", size=300, color="#ffeb3b", strokeWidth=3).encode(x=x, y=y)
    labels = alt.Chart(shown).mark_text(dx=12, dy=-12, fontSize=18, color="#ffeb3b", fontWeight="bold").encode(
        x=x, y=y, text="n:N")
    chart = alt.layer(background, targets, marks, labels).properties(width=w, height=h).configure_view(strokeWidth=0)
    event = st.altair_chart(chart, on_select="rerun", key=f"{key}_chart", selection_mode="pick", width="content")
    p = picked_point(event)
    last = st.session_state.get(f"{key}_last")
    if p is not None and p != last:
        st.session_state[f"{key}_last"] = p
        if len(points) < want:
            points.append((round(p[0] * sx, 1), round(p[1] * sx, 1)))
            st.rerun()
    return list(points)


def reset(key: str) -> None:
    st.session_state[f"{key}_points"] = []
    st.session_state.pop(f"{key}_last", None)
