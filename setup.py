"""Maps the design card's top-level folders onto one import package, ``cardref``.

``engine/`` is imported as ``cardref.engine``, ``vision/`` as ``cardref.vision`` and so on,
so the repository keeps the layout of the design card while the installed distribution
claims only one top-level name.
"""

from pathlib import Path

from setuptools import setup

ROOTS = {
    "cardref": "cardref",
    "cardref.engine": "engine",
    "cardref.vision": "vision",
    "cardref.ui": "ui",
    "cardref.datasets": "datasets",
    "cardref.recorder": "recorder",
    "cardref.models": "models",
}


def _packages() -> list[str]:
    found = []
    for package, folder in ROOTS.items():
        base = Path(folder)
        for init in sorted(base.rglob("__init__.py")):
            rel = init.parent.relative_to(base)
            found.append(".".join([package, *rel.parts]) if rel.parts else package)
    return found


setup(
    packages=_packages(),
    package_dir=ROOTS,
    package_data={"cardref.models": ["*.pt", "*.onnx", "*.json", "*.md", "openvino/*"], "cardref.engine": ["data/*"],
                  "cardref.ui.demo": ["*.jsonl", "*.json", "*.mp4"]},
)
