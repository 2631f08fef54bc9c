"""Where a rehearsal puts a fix: a ``fix:`` line after the code binds the name it fixes, an
``edit:`` of a module the code has not imported yet into that import.

Each round runs the code from its start, so a fix of ``crit`` applied beforehand is undone (or
raises ``NameError``) when the code itself makes ``crit``; the next round then applies it as the
user would: inserted after the last binding of ``crit`` before the failing line, in the same
scope (the cell's top level, or the function the failure ran in). Likewise a script's own module
(``from .net import Encoder``) is imported by the script in each round: an edit of it is made to
the text that import reads (:func:`imports_edited`).
"""

from __future__ import annotations

import ast
import contextlib
import importlib.abc
import importlib.machinery
import importlib.util
import linecache
import os
import sys
from collections.abc import Iterator, Sequence
from types import ModuleType
from typing import Any

from ..diagnosis._edits import Edit
from ..running._frames import cell_label
from ._apply import NotApplied, _edited, python_text, source_lines

_Scope = ast.Module | ast.FunctionDef | ast.AsyncFunctionDef


def placed(fix: str, filename: str, lines: Sequence[int]) -> str | Edit:
    """``fix`` as an edit of ``filename`` inserting it after the bindings of the names it works on
    that precede one of ``lines`` (the failure's lines in that file, innermost first), or
    ``fix`` itself when the code binds no such name there."""
    roots = _roots(fix)
    text = source_lines(filename)
    try:
        tree = ast.parse(python_text(text))
    except SyntaxError:
        return fix
    for line in lines:
        # NB: after the last binding of any of them: by then the code has bound each it binds
        found = [b for root in sorted(roots)
                 if (b := _last_binding(_scope(tree, line), root, line)) is not None]
        if found:
            return _after(max(found, key=lambda b: b.lineno), fix, text, filename)
    return fix


def _after(binding: ast.stmt, fix: str, text: list[str], filename: str) -> Edit:
    """An edit that runs ``fix`` right after ``binding``, on its last line (``; fix``).

    NB: no line is added, so every later line keeps its number, and a stop is reported at
    the line the user sees."""
    end = binding.end_lineno or binding.lineno
    last = text[end - 1].encode()
    cut = binding.end_col_offset or len(last)  # NB: a byte offset; a comment may follow
    joined = "; ".join(ln.strip() for ln in fix.splitlines() if ln.strip())
    line = (last[:cut] + f"; {joined}".encode() + last[cut:]).decode()
    old = tuple(text[binding.lineno - 1:end])
    return Edit(f"{cell_label(filename)} line {binding.lineno}", old, (*old[:-1], line),
                filename, "")


def _roots(fix: str) -> set[str]:
    """The names a fix works on: those it reads before binding them itself (``pe`` in
    ``_t = pe.table; del pe.table; pe.register_buffer("table", _t.to("cuda:0"))``, ``scale``
    in ``scale = scale.to("cuda:1")``)."""
    import builtins

    try:
        tree = ast.parse(fix)
    except SyntaxError:
        return set()
    bound: set[str] = set()
    roots: set[str] = set()
    for stmt in tree.body:  # NB: a statement reads its names before it binds its targets
        names = [n for n in ast.walk(stmt) if isinstance(n, ast.Name)]
        roots |= {n.id for n in names if isinstance(n.ctx, ast.Load)} - bound
        bound |= {n.id for n in names if isinstance(n.ctx, ast.Store)}
    return roots - _MODULES - set(dir(builtins))


_MODULES = frozenset({"torch", "nn", "F", "np", "numpy"})


def _root(t: ast.expr) -> str | None:
    while isinstance(t, ast.Subscript | ast.Attribute):
        t = t.value
    return t.id if isinstance(t, ast.Name) else None


def _scope(tree: ast.Module, line: int) -> _Scope:
    """The innermost function around ``line`` (the module's top level when there is none)."""
    best: _Scope = tree
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) \
                and node.lineno <= line <= (node.end_lineno or node.lineno) \
                and (isinstance(best, ast.Module) or node.lineno > best.lineno):
            best = node
    return best


def _last_binding(scope: _Scope, name: str, line: int) -> ast.stmt | None:
    found = [s for s in _statements(scope.body) if (s.end_lineno or s.lineno) < line
             and isinstance(s, ast.Assign | ast.AnnAssign | ast.AugAssign)
             and any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)
                     for t in _targets(s) for n in ast.walk(t))]
    return max(found, key=lambda s: s.lineno, default=None)


def _targets(s: ast.stmt) -> list[ast.expr]:
    if isinstance(s, ast.Assign):
        return list(s.targets)
    return [s.target] if isinstance(s, ast.AnnAssign | ast.AugAssign) else []


def _statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement of a scope, in blocks too, not in the functions or classes it defines."""
    for s in body:
        yield s
        if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        for field in ("body", "orelse", "finalbody"):
            yield from _statements(getattr(s, field, []))
        for h in getattr(s, "handlers", []):
            yield from _statements(h.body)


# --- edits of modules the code imports itself -------------------------------------------------

def deferred(units: Sequence[Any], filename: str) -> tuple[list[Any], list[Edit]]:
    """(the units to apply before the code runs, the edits to make as their module is
    imported): an edit of a file on disk that no loaded module runs, other than the code's own
    (the script ``filename`` imports it itself, in the round). NB: child only."""
    loaded = {getattr(m, "__file__", None) for m in list(sys.modules.values())}
    now: list[Any] = []
    later: list[Edit] = []
    for unit in units:
        if isinstance(unit, Edit) and unit.file != filename and unit.file not in loaded \
                and os.path.isfile(unit.file):
            later.append(unit)
        else:
            now.append(unit)
    return now, later


@contextlib.contextmanager
def imports_edited(edits: Sequence[Edit]) -> Iterator[None]:
    """Inside: importing the file of an edit runs its edited text (linecache holds it too, so a
    later report quotes what runs). NB: child only; no bytecode is read or written for it."""
    texts: dict[str, list[str]] = {}
    for edit in edits:
        try:
            texts[edit.file] = _edited(edit, texts.get(edit.file) or source_lines(edit.file))
        except NotApplied:
            continue  # NB: imported as it is: the round then says the fix did not clear it
    for path, lines in texts.items():
        linecache.cache[path] = (0, None, [ln + "\n" for ln in lines], path)
    finder = _Finder({p: "\n".join(ln for ln in lines) + "\n" for p, lines in texts.items()})
    sys.meta_path.insert(0, finder)
    try:
        yield
    finally:
        sys.meta_path.remove(finder)


class _Finder(importlib.abc.MetaPathFinder):
    def __init__(self, texts: dict[str, str]) -> None:
        self.texts = texts

    def find_spec(self, name: str, path: Any, target: ModuleType | None = None) -> Any:
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or spec.origin not in self.texts:
            return None
        loader = _Edited(name, spec.origin, self.texts[spec.origin])
        return importlib.util.spec_from_file_location(
            name, spec.origin, loader=loader,
            submodule_search_locations=spec.submodule_search_locations)


class _Edited(importlib.machinery.SourceFileLoader):
    """A module's file, read as its edited text."""

    def __init__(self, name: str, path: str, text: str) -> None:
        super().__init__(name, path)
        self.text = text

    def get_data(self, path: str) -> bytes:
        return self.text.encode() if path == self.path else super().get_data(path)

    def path_stats(self, path: str) -> Any:
        raise OSError("no bytecode for an edited text")  # NB: its .pyc is of the old text
