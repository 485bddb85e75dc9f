"""engine/ is pure rules: it imports nothing from vision/, ui/, recorder/, no numpy, no I/O frameworks."""

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
FORBIDDEN = {"numpy", "cv2", "torch", "ultralytics", "streamlit", "sqlalchemy", "PIL", "pandas",
             "cardref.vision", "cardref.ui", "cardref.recorder", "cardref.datasets", "time", "datetime",
             "socket", "subprocess"}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_engine_imports_no_io_or_vision_layers() -> None:
    offenders = {}
    files = list(ENGINE.rglob("*.py"))
    assert files
    for path in files:
        bad = {n for n in _imports(path) if any(n == f or n.startswith(f + ".") for f in FORBIDDEN)}
        if bad:
            offenders[str(path.relative_to(ENGINE))] = sorted(bad)
    assert offenders == {}
