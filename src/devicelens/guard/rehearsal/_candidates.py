"""Fixes the rules did not write, for the rehearsal to try: the failing line's own operands,
cast or moved to where the failing op wants them.

One mechanism instead of one rule per shape: ``model(x.double())`` becomes ``model(x)``,
``head(emb(ids))`` becomes ``head(emb(ids).float())``, ``a @ b.T`` becomes ``a @ b.T.float()``.
Most of these guesses are wrong; the rehearsal runs each and keeps the first that makes the
cell run and does no harm, so none of them is ever shown unproven.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Any, NamedTuple

from .._edits import Edit
from .._frames import cell_label
from .._mismatch import MismatchReport
from ._apply import python_text, source_lines

#: how many guesses one failing line gets (each costs a rehearsal round)
MAX_GUESSES = 6

_CASTS = {"float32": "float()", "float64": "double()", "float16": "half()",
          "bfloat16": "bfloat16()", "int64": "long()", "int32": "int()", "bool": "bool()"}
_DROPPABLE = frozenset({"float", "double", "half", "bfloat16", "long", "int", "bool", "byte",
                        "cpu", "cuda"})
_CAST_METHODS = _DROPPABLE | {"to", "type"}


class Guess(NamedTuple):
    """One rewritten operand: the edit, and the operand as the user wrote it."""

    edit: Edit
    operand: str  # ``x.double()``: what the diagnosis can call the culprit


def sites(tb: Any, failing: tuple[str, int]) -> list[tuple[str, int, str]]:
    """(file, line, qualname) of the statements to rewrite: the innermost frame in the user's
    cells (a function a cell defined), then the failing cell's own line."""
    from .._frames import default_cell_files, traceback_frames

    is_cell = default_cell_files([failing[0]])
    out = [(f.frame.f_code.co_filename, f.lineno,
            "" if f.frame.f_code.co_name == "<module>" else f.frame.f_code.co_qualname)
           for f in traceback_frames(tb) if is_cell(f.frame.f_code.co_filename)][:1]
    return list(dict.fromkeys([*out, (*failing, "")]))


def line_guesses(report: MismatchReport, filename: str, line: int,
                 qualname: str = "") -> list[Guess]:
    """Edits of the statement at ``line`` of cell ``filename`` (in function ``qualname``), one
    operand each: a cast the operand makes dropped, then the operand cast or moved to
    ``report.expected``."""
    call = _call(report)
    if not call or line <= 0:
        return []
    lines = source_lines(filename)
    try:
        tree = ast.parse(python_text(lines))
    except SyntaxError:
        return []
    stmt = _statement(tree, line)
    if stmt is None:
        return []
    first, last = stmt.lineno, stmt.end_lineno or stmt.lineno
    old = lines[first - 1:last]
    out: list[Guess] = []
    for node, new in _rewrites(stmt, call):
        text = _replaced(old, first, node, new)
        if text is None or text == old:
            continue
        where = f"{cell_label(filename)} line {first}" + (f" (in {qualname})" if qualname else "")
        out.append(Guess(Edit(where, tuple(old), tuple(text), filename, qualname),
                         _segment(old, first, node)))
        if len(out) >= MAX_GUESSES:
            break
    return list({g.edit: g for g in out}.values())


def _call(report: MismatchReport) -> str:
    if report.kind == "device":
        return f'to("{report.expected}")' if report.expected else ""
    if report.kind == "index_dtype":
        return "long()"
    return _CASTS.get(report.expected, "")


def _statement(tree: ast.Module, line: int) -> ast.stmt | None:
    """The innermost simple statement that spans ``line``."""
    best: ast.stmt | None = None
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and not hasattr(node, "body") \
                and node.lineno <= line <= (node.end_lineno or node.lineno):
            best = node
    return best


def _rewrites(stmt: ast.stmt, call: str) -> Iterator[tuple[ast.expr, str]]:
    """(operand, its new text): casts dropped first (the smallest fix), then outer operands
    before inner ones (an op's own operands before what made them)."""
    operands = [n for n in _operands(stmt) if not isinstance(n, ast.Constant | ast.Starred)]
    for n in operands:
        inner = _cast_of(n)
        if inner is not None:
            yield n, _source(inner)
    for n in operands:
        src = _source(n)
        atom = isinstance(n, ast.Name | ast.Attribute | ast.Call | ast.Subscript)
        yield n, f"{src if atom else f'({src})'}.{call}"


def _operands(stmt: ast.stmt) -> Iterator[ast.expr]:
    value = getattr(stmt, "value", None)
    if not isinstance(value, ast.expr):
        return
    queue: list[ast.expr] = [value]
    while queue:
        node = queue.pop(0)
        kids: list[ast.expr] = []
        if isinstance(node, ast.Call):
            kids = [*node.args, *(k.value for k in node.keywords)]
            if isinstance(node.func, ast.Attribute) and node.func.attr not in _CAST_METHODS:
                kids.insert(0, node.func.value)  # ``a.matmul(b)``: ``a`` is an operand too
        elif isinstance(node, ast.BinOp):
            kids = [node.left, node.right]
        elif isinstance(node, ast.Compare):
            kids = [node.left, *node.comparators]
        elif isinstance(node, ast.List | ast.Tuple):
            kids = list(node.elts)
        yield from (k for k in kids if k is not value)
        queue += kids


def _cast_of(node: ast.expr) -> ast.expr | None:
    """``x`` for ``x.double()``, ``x.cpu()``, ``x.to(torch.float64)``: the operand before the
    cast or move it makes (a guess that drops it is the smallest edit)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return None
    method, args = node.func.attr, node.args
    if method == "to":
        ok = len(args) == 1 and not node.keywords and isinstance(args[0], ast.Attribute) \
            and isinstance(args[0].value, ast.Name) and args[0].value.id == "torch"
    else:
        ok = method in _DROPPABLE and not args and not node.keywords
    return node.func.value if ok else None


def _source(node: ast.expr) -> str:
    return ast.unparse(node)


def _replaced(old: list[str], first: int, node: ast.expr, new: str) -> list[str] | None:
    """``old`` (the statement's lines, from line ``first``) with ``node`` written as ``new``."""
    if node.end_lineno is None or node.end_col_offset is None:
        return None
    raw = [ln.encode() for ln in old]
    a, b = node.lineno - first, node.end_lineno - first
    if not (0 <= a <= b < len(raw)):
        return None
    head, tail = raw[a][:node.col_offset], raw[b][node.end_col_offset:]
    joined = (head + new.encode() + tail).decode(errors="replace")
    return [*old[:a], *joined.split("\n"), *old[b + 1:]]


def _segment(old: list[str], first: int, node: ast.expr) -> str:
    if node.end_lineno is None or node.end_col_offset is None:
        return _source(node)
    raw = "\n".join(old).encode()
    lines = raw.split(b"\n")
    a, b = node.lineno - first, node.end_lineno - first
    if not (0 <= a <= b < len(lines)):
        return _source(node)
    if a == b:
        return lines[a][node.col_offset:node.end_col_offset].decode(errors="replace")
    return _source(node)
