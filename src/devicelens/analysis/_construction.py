"""Which of a class's methods only its construction runs, and who else names a method.

``__init__`` reads what it reads once, before any ``.to()``; so do the methods that only it
calls (scyan's ``set_rho_mask`` → ``compute_modes``, which read a cpu mask kept as a plain
attribute to build registered buffers). A plain tensor attribute that only those methods read
fails nothing after the module moves. Such a method stops being construction's alone where any
other code names it (``self.prior.set_rho_mask()`` in a training hook, ``super().compute_modes()``
in a subclass, a cell calling it): :func:`attr_refs` counts every name read as an attribute in
every source, and :func:`named_elsewhere` compares that with the class's own references.
"""

from __future__ import annotations

import ast
import weakref
from collections import Counter
from collections.abc import Iterable

#: (a method only construction runs, the ``self.<attr>`` it reads; None where it reads ``self``
#: by name)
BuiltOnly = dict[str, frozenset[str] | None]


#: per class definition (a node of a cached cell's tree: the same cells come back at every
#: snapshot), what :func:`construction_only` and :func:`class_refs` found
_BUILT: weakref.WeakKeyDictionary[ast.ClassDef, BuiltOnly] = weakref.WeakKeyDictionary()
_REFS: weakref.WeakKeyDictionary[ast.ClassDef, Counter[str]] = weakref.WeakKeyDictionary()


def construction_only(cls: ast.ClassDef) -> BuiltOnly:
    """:func:`_construction_only`, kept per class definition."""
    got = _BUILT.get(cls)
    if got is None:
        got = _BUILT[cls] = _construction_only(cls)
    return got


def class_refs(cls: ast.ClassDef) -> Counter[str]:
    """:func:`attr_refs` of a class definition, kept per definition."""
    got = _REFS.get(cls)
    if got is None:
        got = _REFS[cls] = attr_refs(cls)
    return got


def _construction_only(cls: ast.ClassDef) -> BuiltOnly:
    """The methods of ``cls`` that only ``__init__`` calls, itself or through other such
    methods, with what each reads of ``self``. NB: a decorated method (a property, its setter,
    a static method), a dunder and ``forward`` are never taken: other code runs them without
    naming them as ``self.<method>``. A method named by the class body outside its methods
    (``handler = compute_modes``), or named anywhere without being called there (``__init__``'s
    ``self.register_forward_hook(self._hook)``: handed on, it runs later), is not taken
    either."""
    methods = {s.name: s for s in cls.body if isinstance(s, ast.FunctionDef)}
    if "__init__" not in methods:
        return {}
    loose = {n.id for s in cls.body if not isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)
             for n in ast.walk(s) if isinstance(n, ast.Name)}
    users: dict[str, set[str]] = {}
    handed: set[str] = set()
    for s in cls.body:
        if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef):
            called = {id(n.func) for n in ast.walk(s) if isinstance(n, ast.Call)}
            for n in _self_attrs(s):
                users.setdefault(n.attr, set()).add(s.name)
                if id(n) not in called:
                    handed.add(n.attr)
    candidates = {name for name, f in methods.items()
                  if not f.decorator_list and not name.startswith("__") and name != "forward"
                  and name not in loose and name not in handed
                  and users.get(name, set()) - {name}}
    built = {"__init__"}
    grew = True
    while grew:
        grew = False
        for name in sorted(candidates - built):
            if users[name] - {name} <= built:
                built.add(name)
                grew = True
    return {name: _reads(methods[name]) for name in sorted(built - {"__init__"})}


def _self_attrs(f: ast.AST) -> Iterable[ast.Attribute]:
    """Every ``self.<attr>`` ``f`` reads (called or not)."""
    for n in ast.walk(f):
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) \
                and n.value.id == "self" and not isinstance(n.ctx, ast.Store):
            yield n


def _reads(f: ast.FunctionDef) -> frozenset[str] | None:
    got = self_reads(ast.walk(f))
    return None if got is None else frozenset(got)


_SELF_READERS = frozenset({"getattr", "vars", "hasattr"})


def self_reads(nodes: Iterable[ast.AST]) -> set[str] | None:
    """The ``self.<attr>`` that ``nodes`` read (not only assign); None where they read
    ``self`` by name (``getattr(self, k)``, ``self.__dict__``, ``vars(self)``)."""
    reads: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id == "self":
            if node.attr in ("__dict__", "_buffers", "_parameters", "_modules"):
                return None
            if not isinstance(node.ctx, ast.Store):
                reads.add(node.attr)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in _SELF_READERS and any(
                    isinstance(a, ast.Name) and a.id == "self" for a in node.args):
            return None
    return reads


def attr_refs(tree: ast.AST) -> Counter[str]:
    """How many times each name is read as an attribute (``x.name``) in ``tree``; a name
    handed to ``getattr`` as a string counts as one such read."""
    out: Counter[str] = Counter()
    for n in ast.walk(tree):
        if isinstance(n, ast.Attribute) and not isinstance(n.ctx, ast.Store):
            out[n.attr] += 1
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Name) \
                and n.func.id == "getattr" and len(n.args) > 1 \
                and isinstance(n.args[1], ast.Constant) and isinstance(n.args[1].value, str):
            out[n.args[1].value] += 1
    return out


def named_elsewhere(method: str, own: Counter[str], everywhere: Counter[str]) -> bool:
    """Some source other than the class (``own``: its references) names ``method``."""
    return everywhere[method] > own[method]
