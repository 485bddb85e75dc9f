"""The ``cardref`` command.  Each subcommand lives in its own module under
``cardref.commands`` with ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``;
they are found automatically, so adding a command touches no shared file."""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence

from . import __version__, commands


def _command_modules() -> dict[str, str]:
    return {m.name.replace("_", "-"): f"{commands.__name__}.{m.name}"
            for m in pkgutil.iter_modules(commands.__path__) if not m.name.startswith("_")}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="cardref", description="Camera referee for 够级, 刮风 and 炒地皮.")
    parser.add_argument("--version", action="version", version=f"cardref {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module_name in sorted(_command_modules().items()):
        if only is not None and name != only:
            sub.add_parser(name, help="(see cardref NAME --help)")
            continue
        module = importlib.import_module(module_name)
        p = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def _bad_emulation() -> str | None:
    """Why ``$CARDREF_EMULATE_ISA`` cannot be honoured (``None``: unset or known), said before
    any command runs rather than as a detector's traceback halfway through one."""
    if not os.environ.get("CARDREF_EMULATE_ISA", "").strip():
        return None
    from cardref.vision.detector.cpu import emulated_isa
    from cardref.vision.detector.errors import DetectorError

    try:
        emulated_isa()
    except DetectorError as exc:
        return str(exc)
    return None


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    wanted = next((a for a in argv if not a.startswith("-")), None)
    parser = build_parser(only=wanted if wanted in _command_modules() else None)
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    bad = _bad_emulation()
    if bad:
        print(f"cardref: {bad}", file=sys.stderr)
        return 2
    try:
        return int(args._run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    raise SystemExit(main())
