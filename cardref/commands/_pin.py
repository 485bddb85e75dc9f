"""Where a command reads the director PIN from: ``--pin-file FILE`` (recommended), the
``CARDREF_PIN`` environment variable, a prompt on the terminal, or ``--pin PIN`` (kept
for scripts, with a warning: a command line is visible to every user of the machine in
``ps`` and in the shell's history).

Not a command (the leading underscore keeps :mod:`cardref.cli` from listing it).
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from pathlib import Path

VISIBLE_WARNING = ("warning: --pin puts the director PIN on the command line, where other users of this machine "
                   "can read it (ps, shell history); use --pin-file FILE or the prompt instead")


class PinSourceError(ValueError):
    """The PIN file cannot be read, or holds no PIN."""


def add_pin_arguments(p: argparse.ArgumentParser, what: str = "director PIN") -> None:
    p.add_argument("--pin-file", metavar="FILE",
                   help=f"read the {what} from the first line of this file (recommended)")
    p.add_argument("--pin", metavar="PIN",
                   help=f"the {what} itself (visible to other users in ps: prefer --pin-file or the prompt)")


def pin_from_file(path: str) -> str:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PinSourceError(f"cannot read the PIN file {path}: {exc}; give a UTF-8 text file whose first line "
                             "is the PIN") from exc
    lines = text.splitlines()
    pin = lines[0].strip() if lines else ""
    if not pin:
        raise PinSourceError(f"the PIN file {path} is empty: write the PIN on its first line")
    return pin


def read_pin(args: argparse.Namespace, *, env: bool = True, prompt: bool = True,
             prompt_text: str = "director PIN: ") -> str | None:
    """The PIN from ``args.pin_file``, ``args.pin`` (warned), ``$CARDREF_PIN`` (when ``env``)
    or the terminal (when ``prompt`` and standard input is a terminal); None when none."""
    path = getattr(args, "pin_file", None)
    if path:
        return pin_from_file(path)
    given = getattr(args, "pin", None)
    if given:
        print(f"cardref: {VISIBLE_WARNING}", file=sys.stderr)
        return str(given)
    if env and os.environ.get("CARDREF_PIN"):
        return os.environ["CARDREF_PIN"]
    if prompt and sys.stdin is not None and sys.stdin.isatty():
        return getpass.getpass(prompt_text)
    return None


def cli_session() -> str:
    """The PIN-attempt session of the command line: this machine's user (a stranger's
    wrong PINs in the dashboard never lock the director's terminal out, nor the reverse)."""
    try:
        return f"cli:{getpass.getuser()}"
    except Exception:  # no user name (a container without passwd entry)
        return "cli"
