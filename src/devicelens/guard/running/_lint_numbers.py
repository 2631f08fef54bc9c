"""Which locals of a ``forward`` hold Python numbers, as far as its source proves it.

The forward lint asks whether a tensor made right there meets anything from outside before it
is moved. ``torch.exp(-math.log(T) / mid * torch.arange(mid))`` meets nothing when ``T`` and
``mid`` are numbers (synthcity's TabDDPM: ``d, T = self.dim, self.max_period``, ``mid = d //
2``). A local is a number when every binding of it is arithmetic of literals, other such
locals, ``int()``/``len()``/``math`` calls and shape reads. A module attribute read there
(``self.max_period``) is a number only where the live module holds one, which the pre-flight
reads from the module's ``__dict__`` (no user code runs): such attributes are the condition
given back with each number.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import Any

#: a number's condition: the module attributes that must each hold a plain number
Needs = frozenset[str]
#: local -> the attributes it is a number through
Numbers = dict[str, Needs]

_NONE: Needs = frozenset()
_ALWAYS = frozenset({"int", "float", "len"})  # NB: ``int(t)`` of a tensor is a number too
_OF_NUMBERS = frozenset({"round", "abs", "min", "max"})
_COUNTS = frozenset({"numel", "dim", "item", "ndimension", "nelement", "element_size"})


def numbers(fdef: ast.AST, globs: Mapping[str, Any]) -> Numbers:
    """The locals of ``fdef`` that hold numbers whatever runs, given their conditions. NB: the
    largest set whose every binding is a number given the set itself, so ``i = 0``, ``i += 1``
    is one."""
    binds = _bindings(fdef)
    cand = {n for n, bs in binds.items() if None not in bs}
    while True:
        known = dict.fromkeys(cand, _NONE)
        bad = {n for n in cand if any(as_number(b, known, globs) is None for b in binds[n])}
        if not bad:
            break
        cand -= bad
    out: Numbers = dict.fromkeys(cand, _NONE)
    changed = True
    while changed:  # NB: conditions spread from local to local; they only grow, and are finite
        changed = False
        for n in cand:
            got = frozenset().union(*(as_number(b, out, globs) or _NONE for b in binds[n]))
            if got != out[n]:
                out[n], changed = got, True
    return out


def as_number(e: ast.expr | None, nums: Mapping[str, Needs],
              globs: Mapping[str, Any]) -> Needs | None:
    """The attributes ``e`` is a number through (empty: a number whatever runs); None when it
    may be anything else (a tensor)."""
    if isinstance(e, ast.Constant):
        return _NONE if type(e.value) in (int, float, bool) else None
    if isinstance(e, ast.Name):
        return nums.get(e.id)
    if isinstance(e, ast.UnaryOp):
        return as_number(e.operand, nums, globs)
    if isinstance(e, ast.BinOp) and not isinstance(e.op, ast.MatMult):
        return _union(as_number(e.left, nums, globs), as_number(e.right, nums, globs))
    if isinstance(e, ast.IfExp):
        return _union(as_number(e.body, nums, globs), as_number(e.orelse, nums, globs))
    if isinstance(e, ast.Attribute):
        if isinstance(e.value, ast.Name) and e.value.id == "self":
            return frozenset({e.attr})
        return _NONE if e.attr == "ndim" else None
    if isinstance(e, ast.Subscript):  # NB: ``x.shape[0]``, ``x.size()[1]``: a shape's item
        shape = (isinstance(e.value, ast.Attribute) and e.value.attr == "shape") or (
            isinstance(e.value, ast.Call) and isinstance(e.value.func, ast.Attribute)
            and e.value.func.attr == "size" and not e.value.args)
        return _NONE if shape and not isinstance(e.slice, ast.Slice) else None
    if isinstance(e, ast.Call):
        return _call(e, nums, globs)
    return None


def _call(e: ast.Call, nums: Mapping[str, Needs], globs: Mapping[str, Any]) -> Needs | None:
    f = e.func
    if isinstance(f, ast.Name) and f.id in _ALWAYS:
        return _NONE
    if isinstance(f, ast.Name) and f.id in _OF_NUMBERS and e.args and not e.keywords:
        got: Needs | None = _NONE
        for a in e.args:
            got = _union(got, as_number(a, nums, globs))
        return got
    if isinstance(f, ast.Attribute):
        if isinstance(f.value, ast.Name) and getattr(globs.get(f.value.id), "__name__", "") \
                == "math":
            return _NONE  # NB: ``math.log(T)`` gives a float, whatever it is handed
        if f.attr in _COUNTS or (f.attr == "size" and e.args):
            return _NONE
    return None


def _union(a: Needs | None, b: Needs | None) -> Needs | None:
    return None if a is None or b is None else a | b


def _bindings(fdef: ast.AST) -> dict[str, list[ast.expr | None]]:
    """Every value each local is bound to; None where the source does not say (a parameter,
    a tuple unpacked from a call, a loop over anything but ``range``)."""
    out: dict[str, list[ast.expr | None]] = {}
    seen: set[int] = set()

    def bind(target: ast.expr, value: ast.expr | None) -> None:
        if isinstance(target, ast.Name):
            out.setdefault(target.id, []).append(value)
            seen.add(id(target))
        elif isinstance(target, ast.Tuple | ast.List):
            vals = value.elts if isinstance(value, ast.Tuple | ast.List) \
                and len(value.elts) == len(target.elts) else [None] * len(target.elts)
            for t, v in zip(target.elts, vals, strict=True):
                bind(t, v)

    for n in ast.walk(fdef):
        if isinstance(n, ast.Assign):
            for t in n.targets:
                bind(t, n.value)
        elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
            out.setdefault(n.target.id, []).append(ast.BinOp(n.target, n.op, n.value))
            seen.add(id(n.target))
        elif isinstance(n, ast.AnnAssign):
            bind(n.target, n.value)
        elif isinstance(n, ast.For | ast.comprehension):
            counts = isinstance(n.iter, ast.Call) and isinstance(n.iter.func, ast.Name) \
                and n.iter.func.id == "range"
            bind(n.target, ast.Constant(0) if counts and isinstance(n.target, ast.Name)
                 else None)
        elif isinstance(n, ast.arg):
            out.setdefault(n.arg, []).append(None)
    for n in ast.walk(fdef):  # NB: any other binding (``with ... as``, ``:=``, ``except``)
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load) and id(n) not in seen:
            out.setdefault(n.id, []).append(None)
    return out
