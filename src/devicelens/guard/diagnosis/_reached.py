"""A culprit the failing line reaches through an object the snapshot does not open.

The snapshot walks what ``Module.to()`` and the panel care about: parameters, buffers, plain
tensor attributes and public containers. A tensor kept one level further in, in a private
attribute holding an object of a library's (TorchRL's ``VecNormV2._loc``, a ``TensorDict``
whose tensors live in its own ``_tensordict``), has no name there, and the trail of a
temporary (``self._loc[k]``) ends at a ``__getitem__`` that is never run. The failing statement
still spells where it came from: each ``self.a.b`` it reads is followed through instance
``__dict__``s, and the object it reaches is searched, by identity, for the culprit (dicts,
lists, tuples and instance ``__dict__``s, a few levels deep). The culprit is then named by
that path from the object's namespace name: ``vecnorm._loc._tensordict['observation']``.
NB: only ``__dict__``s and the base types' own methods are read; no user code runs.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from itertools import islice
from typing import Any

from ...inspect import _types
from . import _source
from ._blame import is_module, is_tensor, meta
from ._context import Ctx
from ._origin import Tracer
from ._trace import Origin, Want

MAX_DEPTH = 4  # levels searched below the object the line reaches
MAX_NODES = 2_000


def reached_by_line(ctx: Ctx, tracer: Tracer, target: Any = None) -> list[Origin]:
    """The culprit ``target`` named through what the failing user statement reads of an object
    the namespace holds; with no ``target`` (no operand was read: each ``[k]`` of the line ran
    a ``__getitem__`` of the library's), the tensors under the very key the line spells
    (``self._loc[k]``, ``k`` a local) that are where the tracer wants its culprit. [] where
    none is found."""
    if ctx.user < 0:
        return []
    sc = tracer.scope(ctx.user)
    if sc is None:
        return []
    stmt = _source.statement_at(sc.code, sc.line)
    if stmt is None:
        return []
    out: list[Origin] = []
    for node in _source.own_nodes_of(stmt):
        key: Any = None
        if isinstance(node, ast.Subscript):
            key = _key(sc.values, node.slice)
            node = node.value
        chain = _attribute_chain(node)
        if chain is None or (target is None and key is None):
            continue
        found = _reached(ctx, sc, chain)
        if found is None:
            continue
        name, obj = found
        if target is not None:
            hit = _search(obj, lambda k, v: v is target)
        elif issubclass(type(obj), dict) or type(obj) in (list, tuple):
            continue  # NB: a plain container's item: the tracer reads those itself
        else:
            hit = _search(obj, lambda k, v, key=key: k == key and _wanted(tracer.want, v))
        if hit is not None and hit[0] and all(o.name != name + hit[0] for o in out):
            out.append(Origin(name + hit[0], name + hit[0], hit[1], "trapped"))
    return out


def _wanted(want: Want, v: Any) -> bool:
    """``v`` is a tensor on the stray device, or in the stray dtype (exactly: no message row's
    leniency, since nothing but its key ties it to the op)."""
    m = meta(v) if is_tensor(v) else None
    if m is None:
        return False
    return m[0] == want.device if want.kind == "device" else m[1] == want.dtype


def _reached(ctx: Ctx, sc: Any, chain: tuple[str, list[str]]) -> tuple[str, Any] | None:
    """(its name, the object) that ``self.a.b`` reaches through instance ``__dict__``s, from
    a root the namespace names."""
    root, attrs = chain
    obj = sc.values[root] if root in sc.values else sc.globals.get(root)
    name = _name_of(ctx, obj)
    if not name:
        return None
    for attr in attrs:
        d = _types.instance_dict(obj)
        if type(d) is not dict or attr not in d:  # NB: an exact dict: no __contains__ of theirs
            return None
        obj = d[attr]
        name = f"{name}.{attr}"
    return name, obj


def _key(values: dict[str, Any], node: ast.expr) -> Any:
    """The key a subscript spells: a constant, or a local holding a str or an int."""
    if isinstance(node, ast.Constant) and type(node.value) in (str, int):
        return node.value
    if isinstance(node, ast.Name):
        v = values.get(node.id)
        return v if type(v) in (str, int) else None
    return None


def _attribute_chain(node: ast.AST) -> tuple[str, list[str]] | None:
    """(``self``, [``_loc``]) for ``self._loc``: a chain of attribute reads from a name."""
    attrs: list[str] = []
    while isinstance(node, ast.Attribute):
        attrs.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name) or not attrs:
        return None
    return node.id, attrs[::-1]


def _name_of(ctx: Ctx, obj: Any) -> str:
    """The namespace's name of ``obj`` (a module, or another object it holds)."""
    if obj is None or is_tensor(obj):
        return ""
    if is_module(obj):
        return ctx.namer.module(obj) or ""
    return ctx.namer.deep([obj]).get(id(obj), "")


def _search(obj: Any, hit: Any) -> tuple[str, Any] | None:
    """(the path from ``obj``, the item) of the first item for which ``hit(key, value)``
    holds (``._tensordict['observation']``), breadth first through dicts, lists, tuples and
    instance ``__dict__``s; None where there is none."""
    todo: list[tuple[Any, str]] = [(obj, "")]
    seen = {id(obj)}
    nodes = 0
    for _depth in range(MAX_DEPTH):
        nxt: list[tuple[Any, str]] = []
        for o, path in todo:
            for step, key, v in _items(o):
                nodes += 1
                if nodes > MAX_NODES:
                    return None
                if hit(key, v):
                    return path + step, v
                if id(v) in seen or is_tensor(v) or is_module(v):
                    continue
                seen.add(id(v))
                nxt.append((v, path + step))
        todo = nxt
    return None


def _items(o: Any) -> Iterator[tuple[str, Any, Any]]:
    """(``['k']``, ``'k'``, value) of a dict, (``[i]``, ``i``, value) of a list or tuple,
    (``.attr``, ``'attr'``, value) of an instance ``__dict__``: by the base types' own methods,
    and never more than the search's budget of any one container (a dataset's million items
    are not copied to be looked at)."""
    tp = type(o)
    if issubclass(tp, dict):
        return ((f"[{k!r}]", k, v) for k, v in islice(dict.items(o), MAX_NODES)
                if type(k) is str or type(k) is int)
    if tp is list or tp is tuple:
        return ((f"[{i}]", i, v) for i, v in enumerate(islice(o, MAX_NODES)))
    if tp in (int, float, str, bool, bytes) or o is None:
        return iter(())
    d = _types.instance_dict(o)
    if type(d) is not dict:
        return iter(())
    return ((f".{k}", k, v) for k, v in islice(dict.items(d), MAX_NODES)
            if type(k) is str and k.isidentifier())
