"""The layers of the design card, read from the imports of every module.

- ``engine`` (pure rules) imports no other folder of the project;
- ``vision``, ``recorder`` and ``ui`` import no training code (``datasets``); the simulator
  (``vision/simulate``) and the benchmarks (``vision/bench_*``) are build-time tools and may;
- ``vision`` imports neither ``recorder`` nor ``ui``; ``recorder`` imports neither ``vision``
  nor ``ui``;
- no two modules import each other, directly or through others (imports under
  ``if TYPE_CHECKING:`` are for type checkers only and do not count).

Every import counts, at module level or inside a function: a lazy import that closes a
cycle is still a cycle.  A module's import of its own parent packages is no edge (Python
imports them first in any case).
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE_DIRS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"][
    "package-dir"]

#: layer -> the project packages it must not import, and the modules of the layer exempt from it.
FORBIDDEN: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "cardref.engine": (("cardref.vision", "cardref.ui", "cardref.recorder", "cardref.datasets", "cardref.models",
                        "cardref.commands", "cardref.benchmarks", "cardref.cli"), ()),
    "cardref.vision": (("cardref.datasets", "cardref.recorder", "cardref.ui"),
                       ("cardref.vision.simulate", "cardref.vision.bench_detect", "cardref.vision.bench_e2e")),
    "cardref.recorder": (("cardref.datasets", "cardref.vision", "cardref.ui"), ()),
    "cardref.ui": (("cardref.datasets",), ()),
}


def _modules() -> dict[str, tuple[Path, bool]]:
    found = {}
    for package, folder in PACKAGE_DIRS.items():
        base = ROOT / folder
        for py in base.rglob("*.py"):
            parts = list(py.relative_to(base).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            if is_package:
                parts = parts[:-1]
            if package == "cardref" and parts and f"cardref.{parts[0]}" in PACKAGE_DIRS:
                continue
            found[".".join([package, *parts])] = (py, is_package)
    return found


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    inside = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            test = node.test
            if (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
                    isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"):
                for child in node.body:
                    inside.update(id(n) for n in ast.walk(child))
    return inside


def _relative(name: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = name.split(".") if is_package else name.split(".")[:-1]
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _reexports(modules: dict[str, tuple[Path, bool]]) -> dict[str, dict[str, str]]:
    """For each package, the names its ``__init__`` imports from modules of the project."""
    out: dict[str, dict[str, str]] = {}
    for name, (path, is_package) in modules.items():
        if not is_package:
            continue
        names = out.setdefault(name, {})
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ImportFrom):
                source = _relative(name, True, node)
                if source in modules and source != name:
                    names.update({(a.asname or a.name): source for a in node.names})
    return out


def _imports(name: str, path: Path, is_package: bool, modules: dict[str, tuple[Path, bool]],
             reexports: dict[str, dict[str, str]]) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _type_checking_nodes(tree)
    raw: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            raw.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            target = _relative(name, is_package, node)
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                # a submodule, a name a package re-exports from its submodule, or the module itself
                raw.add(sub if sub in modules else reexports.get(target, {}).get(alias.name, target))
    out = set()
    for target in raw:
        while target and target not in modules:
            target = target.rpartition(".")[0]
        # a module's own packages are imported before it anyway: no edge of its own
        if target and target != name and not name.startswith(target + "."):
            out.add(target)
    return out


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    reexports = _reexports(modules)
    return {name: _imports(name, path, is_package, modules, reexports)
            for name, (path, is_package) in modules.items()}


def _within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def test_each_layer_imports_only_what_it_may() -> None:
    graph = _graph()
    assert "cardref.engine.judge" in graph and "cardref.ui.i18n" in graph  # the scan sees the tree
    offenders = []
    for name, targets in sorted(graph.items()):
        for layer, (forbidden, exempt) in FORBIDDEN.items():
            if not _within(name, layer) or any(_within(name, e) for e in exempt):
                continue
            offenders += [f"{name} -> {t}" for t in sorted(targets) if any(_within(t, f) for f in forbidden)]
    assert offenders == []


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_module_imports_itself_through_others() -> None:
    assert _cycles(_graph()) == []
