"""mypy over engine/ is clean, with the cardref.* folder mapping visible (issue 30 target:
"mypy or pyright over engine/ clean").  tools/typecheck.sh builds the mapping and runs it."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_engine_type_checks_clean():
    done = subprocess.run(["bash", str(ROOT / "tools" / "typecheck.sh"), "engine"], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "", done.stdout
