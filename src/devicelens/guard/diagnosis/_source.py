"""The source of the code a failure went through: cells and user files, parsed, never run.

A frame or a function is mapped to its file's AST (cells come from IPython's line cache), the
``def`` it runs and the statement at a line, with absolute line numbers and columns so an edit
can quote and rewrite the user's own lines. Magic lines (``%%cuda_safe``) are blanked first.
"""

from __future__ import annotations

import ast
import linecache
from types import FrameType
from typing import Any, NamedTuple

_MAX_CHARS = 2_000_000


class Source(NamedTuple):
    """One parsed file (a cell or a user's module)."""

    filename: str
    lines: list[str]  # with line ends, as linecache holds them
    tree: ast.Module


class Code(NamedTuple):
    """The code one frame (or one function) runs: its ``def`` or, for a cell, the whole cell."""

    src: Source
    func: ast.FunctionDef | ast.AsyncFunctionDef | None
    qualname: str

    @property
    def body(self) -> ast.AST:
        return self.func if self.func is not None else self.src.tree

    def params(self) -> list[str]:
        if self.func is None:
            return []
        a = self.func.args
        return [p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)]

    def line(self, lineno: int) -> str:
        lines = self.src.lines
        return lines[lineno - 1].rstrip("\n") if 0 < lineno <= len(lines) else ""


_CACHE: dict[str, tuple[int, Source | None]] = {}


def load(filename: str) -> Source | None:
    """``filename`` parsed; ``None`` when its text is unknown or is not Python."""
    lines = linecache.getlines(filename)
    if not lines or sum(len(ln) for ln in lines) > _MAX_CHARS:
        return None
    key = hash(tuple(lines))
    hit = _CACHE.get(filename)
    if hit is not None and hit[0] == key:
        return hit[1]
    text = python_text(lines)
    try:
        tree = ast.parse(text, filename)
    except (SyntaxError, ValueError):
        src = None
    else:
        src = Source(filename, list(lines), tree)
    _CACHE[filename] = (key, src)
    return src


def _blank_magic(line: str) -> str:
    """IPython syntax (``%%cuda_safe``, ``!ls``) as an empty line: same line numbers."""
    s = line.lstrip()
    return "\n" if s.startswith(("%", "!")) else line


def python_text(lines: list[str]) -> str:
    """A cell's lines (each ending in a newline) as Python: a line of IPython syntax that
    starts a statement is blanked (line numbers kept); a line inside a statement that starts
    with ``%`` or ``!`` (``% (a, b)`` after a format string, ``!= y`` in brackets) is Python's."""
    if not any(ln.lstrip().startswith(("%", "!")) for ln in lines):
        return "".join(lines)  # NB: most cells: nothing to blank, no scan
    out: list[str] = []
    depth, quote, joined = 0, "", False
    for ln in lines:
        starts = depth == 0 and not quote and not joined
        out.append(_blank_magic(ln) if starts else ln)
        if starts and out[-1] != ln:
            continue
        depth, quote, joined = _scan(ln, depth, quote)
    return "".join(out)


def _scan(line: str, depth: int, quote: str) -> tuple[int, str, bool]:
    """Bracket depth, the open string's quote (for a triple-quoted one) and whether the line
    ends in a backslash, after ``line``: enough to tell a statement's first line."""
    i, n = 0, len(line)
    while i < n:
        c = line[i]
        if quote:
            if c == "\\":
                i += 2
                continue
            if line.startswith(quote, i):
                i += len(quote)
                quote = ""
                continue
            i += 1
            continue
        if c == "#":
            break
        if c in "\"'":
            triple = line[i:i + 3]
            quote = triple if triple in ('"""', "'''") else c
            i += len(quote)
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth = max(0, depth - 1)
        i += 1
    if len(quote) == 1:  # NB: an unclosed one-quote string ends with its line
        quote = ""
    return depth, quote, line.rstrip("\n").endswith("\\")


def earlier_cells(current: str) -> list[str]:
    """The files of the notebook's earlier cells, newest first (IPython's compile cache)."""
    import sys

    ipy = sys.modules.get("IPython")
    shell = ipy.get_ipython() if ipy is not None else None
    fmap = getattr(getattr(shell, "compile", None), "_filename_map", None)
    if type(fmap) is not dict:
        return []
    cells = [(n, f) for f, n in fmap.items() if f != current and type(n) is int]
    return [f for _n, f in sorted(cells, reverse=True)]


def frame_code(frame: FrameType) -> Code | None:
    co = frame.f_code
    return code_at(co.co_filename, co.co_name, co.co_firstlineno, co.co_qualname)


def unwrapped(fn: Any) -> Any:
    """``fn`` under the decorators that keep it as ``__wrapped__`` (``functools.wraps``:
    ``@torch.no_grad()``), read from each wrapper's ``__dict__``."""
    import types

    for _ in range(8):
        inner = vars(fn).get("__wrapped__") if type(fn) is types.FunctionType else None
        if type(inner) is not types.FunctionType:
            break
        fn = inner
    return fn


def function_code(fn: Any) -> Code | None:
    """The code of a plain Python function (``type(fn)`` checked: no user ``__code__``)."""
    import types

    if type(fn) is types.MethodType:
        fn = fn.__func__
    if type(fn) is not types.FunctionType:
        return None
    co = fn.__code__
    return code_at(co.co_filename, co.co_name, co.co_firstlineno, co.co_qualname)


def code_at(filename: str, name: str, first: int, qualname: str) -> Code | None:
    src = load(filename)
    if src is None:
        return None
    if name == "<module>":
        return Code(src, None, "<module>")
    if name in OWN_FRAME:
        return _enclosing(src, first, qualname)
    if name == "<lambda>":
        return _lambda(src, first, qualname)
    for node in ast.walk(src.tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == name:
            starts = [node.lineno, *(d.lineno for d in node.decorator_list)]
            if first in starts:
                return Code(src, node, qualname)
    return None


#: expressions that run in a frame of their own (list, set and dict comprehensions before Python
#: 3.12, generator expressions on every version), by frame name, with the node each runs
OWN_FRAME = {"<listcomp>": ast.ListComp, "<setcomp>": ast.SetComp, "<dictcomp>": ast.DictComp,
             "<genexpr>": ast.GeneratorExp}


def _enclosing(src: Source, first: int, qualname: str) -> Code:
    """A comprehension's frame read as the code it is written in (the cell, or the innermost
    function around its line): its statement is that code's, the names it reads are bound
    there (``[c * norm for c in clips]`` reads the cell's ``norm``)."""
    best: ast.FunctionDef | ast.AsyncFunctionDef | None = None
    for node in ast.walk(src.tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) \
                and node.lineno <= first <= (node.end_lineno or node.lineno) \
                and (best is None or node.lineno >= best.lineno):
            best = node
    outer = qualname.rpartition(".<locals>.")[0] if ".<locals>." in qualname else "<module>"
    return Code(src, best, outer if best is not None else "<module>")


def _lambda(src: Source, first: int, qualname: str) -> Code | None:
    """A lambda's frame read as a function whose one statement returns its body: the names it
    reads are its arguments and the names it closes over, all bound in its frame
    (``lambda points: torch.bmm(points, R.expand(...))`` reads ``R``). NB: the first lambda
    that starts on its line; None where there is none (code run from a string)."""
    for node in ast.walk(src.tree):
        if isinstance(node, ast.Lambda) and node.lineno == first:
            ret = ast.copy_location(ast.Return(value=node.body), node)
            fields: dict[str, Any] = {"returns": None, "type_comment": None}
            if "type_params" in ast.FunctionDef._fields:
                fields["type_params"] = []
            fn = ast.copy_location(ast.FunctionDef(name="<lambda>", args=node.args, body=[ret],
                                                   decorator_list=[], **fields), node)
            return Code(src, fn, qualname)
    return None


def statement_at(code: Code, lineno: int) -> ast.stmt | None:
    """The innermost simple statement of ``code`` that spans ``lineno``."""
    best: ast.stmt | None = None
    for node in ast.walk(code.body):
        if not isinstance(node, ast.stmt) or node is code.func:
            continue
        end = node.end_lineno or node.lineno
        if node.lineno <= lineno <= end and not _compound(node) and (
                best is None or node.lineno >= best.lineno):
            best = node
    return best


def _compound(node: ast.stmt) -> bool:
    return isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.For
                      | ast.AsyncFor | ast.While | ast.If | ast.With | ast.AsyncWith | ast.Try)


def own_nodes(code: Code) -> list[ast.AST]:
    """Nodes of ``code``'s own body, not of functions or classes defined inside it."""
    out: list[ast.AST] = []
    todo: list[ast.AST] = list(ast.iter_child_nodes(code.body))
    while todo:
        n = todo.pop()
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            continue
        out.append(n)
        todo.extend(ast.iter_child_nodes(n))
    return sorted(out, key=lambda n: (getattr(n, "lineno", 0), getattr(n, "col_offset", 0)))


def own_nodes_of(node: ast.AST) -> list[ast.AST]:
    """``node`` and the nodes below it, not descending into functions, classes or lambdas."""
    out: list[ast.AST] = []
    todo: list[ast.AST] = [node]
    while todo:
        n = todo.pop()
        out.append(n)
        todo.extend(c for c in ast.iter_child_nodes(n) if not isinstance(
            c, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda))
    return sorted(out, key=lambda n: (getattr(n, "lineno", 0), getattr(n, "col_offset", 0)))


def self_attr_assignments(code: Code, attr: str) -> list[ast.Assign]:
    """``self.<attr> = value`` statements of ``code``'s own body, in source order."""
    return [n for n in own_nodes(code) if isinstance(n, ast.Assign) and len(n.targets) == 1
            and isinstance(t := n.targets[0], ast.Attribute) and t.attr == attr
            and isinstance(t.value, ast.Name) and t.value.id == "self"]


def assignments(code: Code, name: str, before: int) -> list[tuple[ast.stmt, ast.expr | None]]:
    """Statements of ``code`` that bind ``name`` on a line before ``before``, in source order,
    with the value bound (``None`` when it cannot be told, e.g. a loop target)."""
    out: list[tuple[ast.stmt, ast.expr | None]] = []
    for node in own_nodes(code):
        if not isinstance(node, ast.stmt) or node.lineno >= before:
            continue
        if isinstance(node, ast.Assign):
            for t in node.targets:
                out += [(node, v) for v in _bound(t, node.value, name)]
        elif isinstance(node, ast.AnnAssign):
            if isinstance(node.target, ast.Name) and node.target.id == name:
                out.append((node, node.value))
        elif isinstance(node, ast.AugAssign):
            if isinstance(node.target, ast.Name) and node.target.id == name:
                out.append((node, ast.BinOp(node.target, node.op, node.value)))
        elif isinstance(node, ast.For | ast.AsyncFor | ast.With | ast.AsyncWith):
            targets = ([node.target] if isinstance(node, ast.For | ast.AsyncFor)
                       else [i.optional_vars for i in node.items if i.optional_vars])
            if any(name in _names(t) for t in targets):
                out.append((node, None))
    return out


def appended(code: Code, name: str, after: int, before: int) -> list[ast.expr]:
    """What ``name.append(x)`` (``extend``, ``insert``) adds to the list ``name`` on the lines
    of ``code`` between ``after`` and ``before``: the items of a list built in a loop
    (``feed_imgs.append(image_tensor)`` before ``torch.stack(feed_imgs)``)."""
    out: list[ast.expr] = []
    for node in own_nodes(code):
        if not (isinstance(node, ast.Call) and after < node.lineno < before
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("append", "extend", "insert")
                and isinstance(node.func.value, ast.Name) and node.func.value.id == name
                and node.args and not node.keywords):
            continue
        out.append(node.args[-1])
    return out


def _bound(target: ast.expr, value: ast.expr, name: str) -> list[ast.expr | None]:
    if isinstance(target, ast.Name):
        return [value] if target.id == name else []
    if isinstance(target, ast.Tuple | ast.List):
        elts = target.elts
        if isinstance(value, ast.Tuple | ast.List) and len(value.elts) == len(elts):
            return [v for t, e in zip(elts, value.elts, strict=True) for v in _bound(t, e, name)]
        return [None] if name in _names(target) else []
    return []


def _names(target: ast.AST | None) -> set[str]:
    if target is None:
        return set()
    return {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}


def returns(code: Code) -> list[ast.expr]:
    return [n.value for n in own_nodes(code) if isinstance(n, ast.Return) and n.value is not None]


def segment(code: Code, node: ast.AST) -> str:
    """The exact source text of ``node``."""
    return ast.get_source_segment("".join(code.src.lines), node) or ast.unparse(node)
