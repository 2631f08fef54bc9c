"""Where a rehearsal puts a ``fix:`` line: after the code binds the name it fixes.

Each round runs the code from its start, so a fix of ``crit`` applied beforehand is undone (or
raises ``NameError``) when the code itself makes ``crit``; the next round then applies it as the
user would: inserted after the last binding of ``crit`` before the failing line, in the same
scope (the cell's top level, or the function the failure ran in).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence

from .._edits import Edit
from .._frames import cell_label
from ._apply import python_text, source_lines

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
