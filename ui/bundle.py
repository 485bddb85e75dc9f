"""Everything a live screen shows for one version of a log, computed once and shared.

The live page's fragments refresh every second on every screen watching the table; the
log changes far less often.  A :class:`Bundle` holds the judged log, its rows and deal
view, and the pictures drawn from them, keyed by (log, version, language), so a refresh
with nothing new costs a dictionary lookup instead of a re-judge and a redraw.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

from cardref.engine.judge import JudgeResult

from . import views
from .model import TableLog


@dataclass
class Bundle:
    lines: list[str]
    result: JudgeResult
    rows: list[views.Row]
    dv: views.DealView | None
    lang: str
    _pictures: dict[str, Any] = field(default_factory=dict)

    def picture(self, name: str) -> Image.Image | None:
        """``table`` (the table from above) or ``trick`` (the current trick), drawn once."""
        if name not in self._pictures:
            from .components import trick_picture
            from .table_img import table_image

            if self.dv is None:
                self._pictures[name] = None
            elif name == "table":
                self._pictures[name] = table_image(self.dv, lang=self.lang)
            elif name == "trick":
                self._pictures[name] = trick_picture(self.dv, self.lang)
            else:
                raise KeyError(name)
        return self._pictures[name]


_LOCK = threading.Lock()
_CACHE: dict[tuple[int, int, str], Bundle] = {}


def bundle(log: TableLog, lang: str) -> Bundle:
    key = (id(log), log.version, lang)
    with _LOCK:
        hit = _CACHE.get(key)
    if hit is not None:
        return hit
    with log.lock:  # the live judge's referees must not move on while their state is read
        lines = log.snapshot()
        result = log.result(len(lines))
        b = Bundle(lines, result, views.rows(lines, result, lang), views.deal_view(lines, result, lang), lang)
    with _LOCK:
        if len(_CACHE) > 16:
            _CACHE.clear()
        _CACHE[key] = b
    return b
