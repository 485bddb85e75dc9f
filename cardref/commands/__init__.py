"""Subcommands of ``cardref``: one module each (see :mod:`cardref.cli`)."""
