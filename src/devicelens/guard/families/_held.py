"""Every tensor a plain object of the user's holds on the wrong device, when the failing cell
passes that object whole (``model(batch)``): the cell trips on them one after the other, so the
diagnosis covers them all at once.

One fix on the object (``batch.to("cuda:0")``) when its class's own ``to`` visibly moves each of
them in place, read from its source and never called; else one line per tensor.
NB: reads ``__dict__``s and containers' C iterators only: no user code runs.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Any

from ...inspect import _tree
from ..diagnosis import _source
from ..diagnosis._blame import Named, describe_tensor, meta
from ..diagnosis._context import Blame, Ctx

MAX_DEPTH = 4
MAX_TENSORS = 16
_Path = tuple[_tree.Step, ...]


def held_strays(ctx: Ctx, expected: str, named: set[str]) -> tuple[list[Blame], set[str]]:
    """Culprits (with fixes) for the other strays inside each object the culprits sit in, and
    the roots whose own culprits' fixes the object's fix replaces."""
    out: list[Blame] = []
    covered: set[str] = set()
    for root in dict.fromkeys(_root(n) for n in sorted(named) if _root(n) != n):
        obj = dict.get(ctx.ns, root)
        if not _plain(obj) or not _passed_whole(ctx, root):
            continue
        strays = [(p, t) for p, t in _tensors(obj) if _stray(t, expected)]
        codes = [_code(root, p) for p, _t in strays]
        fresh = [(c, t) for c, t in zip(codes, (t for _p, t in strays), strict=True)
                 if not any(c == n or c.startswith((n + "[", n + ".")) for n in named)]
        if not fresh:
            continue
        ops = [describe_tensor(t, "", Named(c, c, "tensor", root)) for c, t in fresh]
        if all(_moves(obj, p) for p, _t in strays):
            covered.add(root)
            fixes: list[tuple[str, ...]] = [(f'{root}.to("{expected}")',)] + [()] * (len(ops) - 1)
        else:
            fixes = [(f'{c} = {c}.to("{expected}")',) for c, _t in fresh]
        out += [Blame(op, fx) for op, fx in zip(ops, fixes, strict=True)]
    return out, covered


def _root(name: str) -> str:
    import re

    m = re.match(r"[A-Za-z_]\w*", name)
    return m.group(0) if m else ""


def _plain(obj: Any) -> bool:
    """An instance of a user's class (a dataclass, a UserDict, a plain object), not a tensor,
    module, optimizer or builtin container: what a model takes as one structured input."""
    tp = type(obj)
    mod = getattr(tp, "__module__", "") or ""
    if mod in ("builtins", "torch") or mod.startswith(("torch.", "collections")):
        return False
    kind = _tree.container_kind(obj)
    return _tree.instance_dict(obj) is not None and kind in (None, "dataclass", "userdict")


def _passed_whole(ctx: Ctx, root: str) -> bool:
    """The failing cell line hands ``root`` itself to something, not one of its parts, or
    calls a method of it (``optimizer.step()`` reads every factor the optimizer keeps)."""
    _sc, stmt = ctx.statement(ctx.cell)
    if stmt is None:
        return False
    methods = {id(n.func.value) for n in ast.walk(stmt)
               if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)}
    parts = {id(n.value) for n in ast.walk(stmt) if isinstance(n, ast.Attribute | ast.Subscript)
             and id(n.value) not in methods}
    return any(isinstance(n, ast.Name) and n.id == root and id(n) not in parts
               for n in ast.walk(stmt))


def _tensors(obj: Any) -> Iterator[tuple[_Path, Any]]:
    todo: list[tuple[Any, _Path]] = [(obj, ())]
    seen: set[int] = set()
    found = 0
    while todo and found < MAX_TENSORS:
        cur, path = todo.pop(0)
        if id(cur) in seen:
            continue
        seen.add(id(cur))
        if meta(cur) is not None:
            found += 1
            yield path, cur
        elif len(path) < MAX_DEPTH:
            todo += [(child, (*path, step)) for step, child in _children(cur)]


def _children(obj: Any) -> Iterator[tuple[_tree.Step, Any]]:
    """Containers' items and plain objects' attributes (never a module's or a tensor's)."""
    kind = _tree.container_kind(obj)
    if kind is not None:
        yield from ((s, c) for s, c in _tree.iter_children(obj, kind, 200) if s.kind != "pos")
    elif _plain(obj):
        for name, v in dict.items(_tree.instance_dict(obj) or {}):
            if type(name) is str and not name.startswith("_"):
                yield _tree.attr_step(name), v


def _stray(t: Any, expected: str) -> bool:
    m = meta(t)
    return m is not None and m[0] != expected and not (m[0] == "cpu" and m[2] == ())


def _code(root: str, path: _Path) -> str:
    code = root
    for step in path:
        code = _tree._apply_step_code(code, step)
    return code


# --- does the object's own ``to`` move it? -----------------------------------------------------

def _moves(obj: Any, path: _Path) -> bool:
    """``type(obj).to(device)`` moves what ``path`` reaches, in place: it assigns the attribute
    holding it from a ``.to(device)`` call, or calls ``self.<attr>.to(device)`` on a part whose
    own ``to`` does (read from source)."""
    if not path or "to" in (_tree.instance_dict(obj) or {}):
        return False
    code = _source.function_code(_tree._type_dict_lookup(type(obj), "to"))
    if code is None or code.func is None or len(code.func.args.args) < 2:
        return False
    me, dev = code.func.args.args[0].arg, code.func.args.args[1].arg
    first = path[0]
    if first.kind == "attr" and first.hint in ("", "field"):
        attr, child, rest = str(first.key), (_tree.instance_dict(obj) or {}).get(
            str(first.key)), path[1:]
    elif first.kind == "item" and _tree.container_kind(obj) == "userdict":
        attr, child, rest = "data", None, ()  # NB: a UserDict keeps its items in .data
    else:
        return False
    for node in _source.own_nodes(code):
        if isinstance(node, ast.Assign) and any(_is_self(t, me, attr) for t in node.targets) \
                and _moved(node.value, me, attr, dev, whole=first.kind == "attr" and not rest):
            return True
        if isinstance(node, ast.Expr) and _to_call(node.value, dev) is not None and rest \
                and _is_self(_to_call(node.value, dev), me, attr) and child is not None:
            return _moves(child, rest)
    return False


def _is_self(node: Any, me: str, attr: str) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == attr and isinstance(
        node.value, ast.Name) and node.value.id == me


def _to_call(node: ast.expr, dev: str) -> ast.expr | None:
    """The receiver of ``<x>.to(dev)`` / ``<x>.to(device=dev)``; None for anything else."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr == "to"):
        return None
    args = [*node.args, *(k.value for k in node.keywords if k.arg == "device")]
    return node.func.value if any(isinstance(a, ast.Name) and a.id == dev for a in args) else None


def _moved(value: ast.expr, me: str, attr: str, dev: str, whole: bool) -> bool:
    """``self.a.to(dev)`` (the tensor itself), or a comprehension over ``self.a`` (its items)
    whose every element is a ``.to(dev)`` of the loop variable."""
    if whole:
        return _is_self(_to_call(value, dev), me, attr)
    if not isinstance(value, ast.DictComp | ast.ListComp) or len(value.generators) != 1:
        return False
    gen = value.generators[0]
    src = gen.iter.func.value if isinstance(gen.iter, ast.Call) and isinstance(
        gen.iter.func, ast.Attribute) and gen.iter.func.attr in ("items", "values") else gen.iter
    elt = value.value if isinstance(value, ast.DictComp) else value.elt
    if isinstance(elt, ast.IfExp):
        elt = elt.body
    moved = _to_call(elt, dev)
    bound = {n.id for n in ast.walk(gen.target) if isinstance(n, ast.Name)}
    return _is_self(src, me, attr) and isinstance(moved, ast.Name) and moved.id in bound
