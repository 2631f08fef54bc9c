"""The package's layers, enforced: imports point down only and never form a circle.

Every ``import`` of a devicelens module is counted, at module level, inside functions and under
``TYPE_CHECKING`` alike. ``jupyter`` / ``scripts`` -> ``render`` -> ``guard`` / ``moves`` ->
``analysis`` -> ``inspect``; siblings (same rank) may not import each other.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1] / "src" / "devicelens"

#: rank of each layer: a module may import its own layer or a lower rank, never a higher one.
RANK = {"_version": 0, "inspect": 1, "analysis": 2, "guard": 3, "moves": 3, "render": 4,
        "jupyter": 5, "scripts": 5, "__init__": 6, "__main__": 7}
#: the few modules allowed at the top of the package
TOP_LEVEL = {"__init__", "__main__", "_version"}


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def resolve(current: str, is_package: bool, node: ast.ImportFrom, root: Path) -> list[str]:
    """Absolute devicelens module names an ``ImportFrom`` loads (``from . import x`` -> x)."""
    if node.level == 0:
        base = node.module or ""
    else:
        parts = current.split(".")
        parts = parts if is_package else parts[:-1]
        parts = parts[: len(parts) - (node.level - 1)]
        base = ".".join(parts + ([node.module] if node.module else []))
    if not base.startswith("devicelens"):
        return []
    # NB: ``from pkg import submodule`` is an edge to the submodule; to ``pkg`` itself only
    # when some imported name is not a submodule (a name its ``__init__`` defines).
    subs = [f"{base}.{a.name}" for a in node.names]
    found = [m for m in subs if module_path(m, root) is not None]
    return found if len(found) == len(subs) else [base, *found]


def module_path(name: str, root: Path) -> Path | None:
    if "." not in name:
        return root / "__init__.py"
    rel = Path(*name.split(".")[1:])
    for p in (root / rel.with_suffix(".py"), root / rel / "__init__.py"):
        if p.is_file():
            return p
    return None


def import_graph(root: Path = PKG) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in sorted(root.rglob("*.py")):
        if "labextension" in path.parts:
            continue
        name = module_name(path, root)
        edges = graph.setdefault(name, set())
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom):
                edges.update(resolve(name, path.name == "__init__.py", node, root))
            elif isinstance(node, ast.Import):
                edges.update(a.name for a in node.names if a.name.startswith("devicelens"))
        edges.discard(name)
    return graph


def layer(name: str) -> str:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    bad = []
    for src, targets in graph.items():
        for dst in targets:
            a, b = layer(src), layer(dst)
            if b == "__init__" and dst == "devicelens" and a != "__init__":
                bad.append(f"{src} -> {dst} (the package root is the top)")
            elif a != b and (RANK[b] > RANK[a] or (RANK[b] == RANK[a] and a != "__init__")):
                bad.append(f"{src} -> {dst} ({a} may not import {b})")
    return sorted(bad)


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected component of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_every_module_belongs_to_a_layer():
    graph = import_graph()
    assert {layer(m) for m in graph} <= set(RANK)
    top = {p.stem for p in PKG.glob("*.py")}
    assert top <= TOP_LEVEL, f"modules at the top of the package: {sorted(top - TOP_LEVEL)}"
    assert {p.name for p in PKG.iterdir() if (p / "__init__.py").is_file()} == {
        "inspect", "analysis", "moves", "guard", "render", "jupyter", "scripts"}


def test_imports_point_down_only():
    assert upward_imports(import_graph()) == []


def test_no_import_circle():
    graph = import_graph()
    # the package root imports its layers lazily; every other edge counts
    assert cycles(graph) == []


def test_the_checks_catch_an_upward_import_and_a_circle(tmp_path):
    """The test above can fail: a copy of the package with one bad import is caught."""
    import shutil

    copy = tmp_path / "devicelens"
    shutil.copytree(PKG, copy, ignore=shutil.ignore_patterns("labextension", "__pycache__"))
    records = copy / "inspect" / "records.py"
    records.write_text(records.read_text() + "\n\ndef _up():\n    from ..render import mimebundle\n"
                       "    return mimebundle\n")
    graph = import_graph(copy)
    assert upward_imports(graph) == [
        "devicelens.inspect.records -> devicelens.render (inspect may not import render)"]
    assert any("devicelens.inspect.records" in c and "devicelens.render" in c
               for c in cycles(graph))


@pytest.mark.parametrize("layer_name", ["inspect", "analysis", "moves", "guard", "render",
                                        "jupyter", "scripts", "scripts.run"])
def test_each_layer_imports_without_torch_or_widgets(layer_name):
    code = (f"import sys, devicelens.{layer_name}\n"
            "print(sorted(m for m in ('torch', 'ipywidgets') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=60).stdout.strip()
    assert out == "[]"


def test_results_display_as_tables_in_ipython_without_load_ext():
    """The core types know no renderer; IPython's formatter registry shows them as tables."""
    code = ("import torch, devicelens\n"
            "from IPython.core.interactiveshell import InteractiveShell\n"
            "ip = InteractiveShell.instance()\n"
            "snap = devicelens.snapshot({'x': torch.ones(2)})\n"
            "data, _ = ip.display_formatter.format(snap)\n"
            "print(sorted(data)); print(data['text/plain'].splitlines()[0])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=120).stdout.splitlines()
    assert out == ["['text/html', 'text/plain']",
                   "devicelens — 1 object · cpu: 1 object, 8 B"]
