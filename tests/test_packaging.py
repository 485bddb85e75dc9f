"""Packaging: the folder mapping in pyproject.toml lists every package, and a built wheel,
installed alone, imports every module of the project (Streamlit page scripts aside: they
draw a page when imported)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
#: Modules that are Streamlit scripts (``streamlit run`` executes them; importing one draws a page).
SCRIPTS = {"cardref.ui.app", "cardref.ui.screens.live_page", "cardref.ui.screens.replay_page",
           "cardref.ui.screens.setup_page", "cardref.ui.screens.tournament_page"}


def _tree_packages() -> set[str]:
    found = set()
    for package, folder in CONFIG["package-dir"].items():
        base = ROOT / folder
        for init in base.rglob("__init__.py"):
            rel = init.parent.relative_to(base)
            found.add(".".join([package, *rel.parts]))
    return found


def _tree_modules() -> set[str]:
    modules = set()
    for package, folder in CONFIG["package-dir"].items():
        base = ROOT / folder
        for init in base.rglob("__init__.py"):
            pkg_dir = init.parent
            pkg = ".".join([package, *pkg_dir.relative_to(base).parts])
            for py in pkg_dir.glob("*.py"):
                modules.add(pkg if py.name == "__init__.py" else f"{pkg}.{py.stem}")
    return modules


def test_every_package_folder_is_listed_in_pyproject() -> None:
    listed = set(CONFIG["packages"])
    tree = _tree_packages()
    assert "cardref.engine.gouji" in tree  # the mapping reaches subpackages
    assert sorted(tree - listed) == [], "add these to [tool.setuptools] packages in pyproject.toml"
    assert sorted(listed - tree) == [], "these listed packages have no folder with an __init__.py"


@pytest.fixture(scope="module")
def installed_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                    "-w", str(out), str(ROOT)], check=True, capture_output=True, cwd=out)
    wheels = list(out.glob("cardref-*.whl"))
    assert len(wheels) == 1
    target = out / "site"
    with zipfile.ZipFile(wheels[0]) as zf:
        zf.extractall(target)
    return target


def test_the_wheel_holds_every_module_and_the_shipped_models(installed_wheel: Path) -> None:
    inside = {".".join(p.relative_to(installed_wheel).with_suffix("").parts).removesuffix(".__init__")
              for p in installed_wheel.rglob("*.py")}
    assert sorted(_tree_modules() - inside) == []
    models = installed_wheel / "cardref" / "models"
    for name in ("cards-yolo11n.onnx", "corner-namer.onnx", "suit-reader.onnx", "model-card.json",
                 "int8-check/frames.json", "int8-check/scene-0.jpg"):
        assert (models / name).is_file(), name
    assert (installed_wheel / "cardref" / "ui" / "demo" / "video.mp4").is_file()


def test_the_installed_wheel_imports_every_module(installed_wheel: Path) -> None:
    modules = sorted(_tree_modules() - SCRIPTS)
    script = (
        "import importlib, sys\n"
        f"sys.path.insert(0, {str(installed_wheel)!r})\n"
        "import cardref\n"
        f"assert cardref.__file__.startswith({str(installed_wheel)!r}), cardref.__file__\n"
        "bad = []\n"
        f"for name in {modules!r}:\n"
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except Exception as exc:\n"
        "        bad.append(f'{name}: {exc.__class__.__name__}: {exc}')\n"
        "print('\\n'.join(bad))\n"
        "sys.exit(1 if bad else 0)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "YOLO_OFFLINE": "1", "HOME": str(installed_wheel)},
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
