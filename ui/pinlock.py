"""How often one browser session may try the director PIN (no Streamlit here: testable).

Each session keeps its own :class:`Attempts` (in its ``st.session_state``), so a stranger's
wrong PINs slow down and then lock *that* session only, never the director's own screen.
After the k-th wrong PIN the session waits ``BACKOFF_S[k-1]`` seconds before the next try
is even checked; after ``ATTEMPTS`` wrong PINs it waits ``LOCKOUT_S``.  A right PIN resets it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

ATTEMPTS = 5
LOCKOUT_S = 600.0
BACKOFF_S = (1.0, 2.0, 4.0, 8.0)  # after the 1st … 4th wrong PIN


@dataclass
class Attempts:
    wrong: int = 0
    next_try_at: float = 0.0

    def wait(self, now: float | None = None) -> float:
        """Seconds until the next PIN may be checked (0: now)."""
        now = time.monotonic() if now is None else now
        return max(0.0, self.next_try_at - now)

    def failed(self, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        self.wrong += 1
        pause = LOCKOUT_S if self.wrong >= ATTEMPTS else BACKOFF_S[min(self.wrong, len(BACKOFF_S)) - 1]
        self.next_try_at = now + pause

    def succeeded(self) -> None:
        self.wrong = 0
        self.next_try_at = 0.0
