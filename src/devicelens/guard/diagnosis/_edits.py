"""Fixes that are edits of the user's code: the lines as they are, and as they should be.

An :class:`Edit` quotes whole source lines (``old``) and gives their replacement (``new``); only
the offending call is rewritten, by its exact source span, so comments and spacing survive.
Printed as the ``edit:`` block of a diagnosis.
"""

from __future__ import annotations

import ast
from typing import NamedTuple

from ._source import Code, segment

FACTORIES = frozenset({"zeros", "ones", "empty", "full", "arange", "tensor", "randn", "rand",
                       "randint", "eye", "linspace", "logspace", "randperm", "as_tensor",
                       "tril_indices", "triu_indices", "normal", "Tensor",
                       "FloatTensor", "LongTensor", "BoolTensor", "ByteTensor", "IntTensor",
                       "DoubleTensor", "HalfTensor"})
NO_DEVICE_KW = frozenset({"from_numpy", "Tensor", "FloatTensor", "LongTensor", "BoolTensor",
                          "ByteTensor", "IntTensor", "DoubleTensor", "HalfTensor"})
MOVES = frozenset({"to", "cuda", "cpu"})


class Edit(NamedTuple):
    where: str  # "cell In[3] line 17 (in ArcFace.forward)"
    old: tuple[str, ...]
    new: tuple[str, ...]
    file: str = ""  # the edited code's file (a cell's too), to find who runs it
    qualname: str = ""  # its function's ``__qualname__`` ("ArcFace.forward"); '' at top level
    owner: str = ""  # the user's object whose method this is ("model.encoder"), when known

    def header(self) -> str:
        """``in `model.encoder` (Encoder.init_hidden, cell In[3] line 12)`` when the code is a
        method of one of the user's objects, else where it is."""
        if not self.owner:
            return self.where
        return f"in `{self.owner}` ({self.qualname}, {self.where.split(' (in ')[0]})"

    def lines(self) -> list[str]:
        """As printed: lines shown without the indentation of the first one (kept relative)."""
        first = self.old[0] if self.old else ""
        pad = first[:len(first) - len(first.lstrip())]

        def cut(ln: str) -> str:
            return ln[len(pad):] if ln.startswith(pad) else ln.lstrip()

        return ([f"edit: {self.header()}"] + [f"    - {cut(ln)}" for ln in self.old]
                + [f"    + {cut(ln)}" for ln in self.new])


def where(code: Code, lineno: int) -> str:
    from ..running._frames import cell_label

    fn = "" if code.func is None else f" (in {code.qualname})"
    return f"{cell_label(code.src.filename)} line {lineno}{fn}"


def replace(code: Code, changes: list[tuple[ast.AST, str]]) -> Edit | None:
    """The edit that puts each text in place of its node (all within one statement's lines)."""
    if not changes:
        return None
    first = min(n.lineno for n, _ in changes)  # type: ignore[attr-defined]
    last = max(n.end_lineno or n.lineno for n, _ in changes)  # type: ignore[attr-defined]
    old = [code.line(i) for i in range(first, last + 1)]
    data = [ln.encode() for ln in old]
    # NB: right to left, so earlier offsets stay valid; columns are UTF-8 byte offsets
    for node, text in sorted(changes, key=lambda c: (c[0].lineno, c[0].col_offset),  # type: ignore[attr-defined]
                             reverse=True):
        a, b = node.lineno - first, (node.end_lineno or node.lineno) - first  # type: ignore[attr-defined]
        head = data[a][:node.col_offset]  # type: ignore[attr-defined]
        tail = data[b][node.end_col_offset:]  # type: ignore[attr-defined]
        data[a:b + 1] = [head + text.encode() + tail]
    new = [ln for chunk in data for ln in chunk.decode().split("\n")]
    if new == old:
        return None
    return _edit(code, first, old, new)


def _edit(code: Code, first: int, old: list[str], new: list[str]) -> Edit:
    qualname = code.qualname if code.func is not None else ""
    return Edit(where(code, first), tuple(old), tuple(new), code.src.filename, qualname)


def replace_statement(code: Code, stmt: ast.stmt, text: str) -> Edit | None:
    """``stmt`` (whole lines) replaced by ``text`` at its indentation."""
    first, last = stmt.lineno, stmt.end_lineno or stmt.lineno
    old = [code.line(i) for i in range(first, last + 1)]
    pad = old[0][:len(old[0]) - len(old[0].lstrip())]
    new = [pad + ln for ln in text.split("\n")]
    return _edit(code, first, old, new) if new != old else None


def insert_before(code: Code, stmt: ast.stmt, text: str) -> Edit:
    """``text`` put before ``stmt`` (whole lines), at its indentation."""
    first, last = stmt.lineno, stmt.end_lineno or stmt.lineno
    old = [code.line(i) for i in range(first, last + 1)]
    pad = old[0][:len(old[0]) - len(old[0].lstrip())]
    return _edit(code, first, old, [pad + ln for ln in text.split("\n")] + old)


# --- the rewrites ----------------------------------------------------------------------------

def set_device(code: Code, call: ast.Call, anchor: str) -> str | None:
    """The text of ``call`` placing its result on ``anchor`` (an expression of a device)."""
    return _set_kw(code, call, "device", anchor, move_ok=True)


def set_dtype(code: Code, call: ast.Call, anchor: str) -> str | None:
    return _set_kw(code, call, "dtype", anchor, move_ok=False)


def set_kw(code: Code, call: ast.Call, kw: str, value: str) -> str | None:
    """The text of ``call`` with keyword ``kw`` set to ``value``."""
    return _set_kw(code, call, kw, value, move_ok=False)


def _set_kw(code: Code, call: ast.Call, kw: str, value: str, move_ok: bool) -> str | None:
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else (
        func.id if isinstance(func, ast.Name) else "")
    text = segment(code, call)
    found = next((k for k in call.keywords if k.arg == kw), None)
    if move_ok and isinstance(func, ast.Attribute) and name in MOVES:
        # NB: a ``.to`` keeps what else it is given (``dtype=``, ``non_blocking=``): only the
        # device it names is replaced, as a keyword or as its first argument
        first = call.args[0] if name == "to" and call.args and found is None else None
        if first is not None and not isinstance(first, ast.Starred):
            start = _offset(code, call, first)
            end = start + len(segment(code, first))
            if start >= 0 and len(call.args) == 1 and not _names_dtype(first):
                return text[:start] + value + text[end:]
        if found is None or name != "to":
            return f"{segment(code, func.value)}.to({value})"
    if found is not None:
        start = _offset(code, call, found.value)
        end = start + len(segment(code, found.value))
        return text[:start] + value + text[end:] if start >= 0 else None
    if name in NO_DEVICE_KW and kw in ("device", "dtype"):
        return f"{text}.to({value})"  # NB: from_numpy and the legacy constructors take neither
    if not text.endswith(")"):
        return None
    inner = text[:-1].rstrip()
    sep = "" if inner.endswith(("(", ",")) else ", "
    return f"{inner}{sep}{kw}={value})"


def _names_dtype(node: ast.expr) -> bool:
    """``torch.float16``, ``x.dtype``: a ``.to`` given this casts, it names no device."""
    return isinstance(node, ast.Attribute) and (node.attr == "dtype" or (
        isinstance(node.value, ast.Name) and node.value.id == "torch"
        and not node.attr.startswith("device")))


def _offset(code: Code, outer: ast.AST, inner: ast.AST) -> int:
    """Character offset of ``inner``'s text inside ``outer``'s text (-1 when unknown)."""
    o_line, o_col = outer.lineno, outer.col_offset  # type: ignore[attr-defined]
    i_line, i_col = inner.lineno, inner.col_offset  # type: ignore[attr-defined]
    lines = [code.line(i).encode() for i in range(o_line, i_line + 1)]
    if not lines:
        return -1
    if o_line == i_line:
        return len(lines[0][o_col:i_col].decode())
    size = len(lines[0][o_col:].decode()) + 1
    size += sum(len(ln.decode()) + 1 for ln in lines[1:-1])
    return size + len(lines[-1][:i_col].decode())


def set_cast(code: Code, call: ast.Call, method: str) -> str | None:
    """``x.byte()`` as ``x.bool()``: the cast method replaced."""
    if not isinstance(call.func, ast.Attribute):
        return None
    return f"{segment(code, call.func.value)}.{method}()"


def out_of_place(code: Code, call: ast.Call) -> str | None:
    """``x.clamp_(a, b)`` as ``x.copy_(x.clamp(a, b))``: computed in the result's dtype, then
    written back (and rounded) into ``x``'s own dtype."""
    func = call.func
    if not isinstance(func, ast.Attribute) or not func.attr.endswith("_"):
        return None
    recv = segment(code, func.value)
    args = segment(code, call)[len(segment(code, func)):]
    return f"{recv}.copy_({recv}.{func.attr[:-1]}{args})"


def float_result(code: Code, call: ast.Call) -> str | None:
    """``x.pow_(-0.5)`` as ``x.pow(-0.5)``: the result keeps the promoted (float) dtype."""
    func = call.func
    if not isinstance(func, ast.Attribute) or not func.attr.endswith("_"):
        return None
    args = segment(code, call)[len(segment(code, func)):]
    return f"{segment(code, func.value)}.{func.attr[:-1]}{args}"


def augassign_out_of_place(code: Code, stmt: ast.AugAssign) -> str:
    """``t[k] += v`` as ``t[k] = t[k] + v``: the result gets the promoted dtype."""
    target = segment(code, stmt.target)
    op = _OPS.get(type(stmt.op), "+")
    return f"{target} = {target} {op} {segment(code, stmt.value)}"


def assign_move(code: Code, stmt: ast.Expr) -> str | None:
    """``x.to(d)`` (result dropped) as ``x = x.to(d)``."""
    call = stmt.value
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute):
        return None
    recv = call.func.value
    return f"{segment(code, recv)} = {segment(code, call)}"


_OPS: dict[type, str] = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/",
                         ast.FloorDiv: "//", ast.Mod: "%", ast.Pow: "**", ast.MatMult: "@",
                         ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<",
                         ast.RShift: ">>"}
