"""Which model each name is used with, read from the user's recent cells (IPython's ``In``).

Parsed with :mod:`ast`, never executed. A name passed to ``model(...)`` is used with ``model``;
a name combined with a model's output (``loss_fn(model(x), y)``, ``out - y``) is used with that
model; ``h = a(x)`` makes ``h`` come from ``a``. NB: the newest cell that mentions a name decides.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Sequence
from functools import lru_cache

#: module methods that compute nothing: their arguments are not inputs of the model
_NOT_COMPUTE = frozenset((
    "to", "cuda", "cpu", "half", "float", "double", "bfloat16", "type", "to_empty", "train",
    "eval", "parameters", "named_parameters", "buffers", "named_buffers", "modules",
    "named_modules", "children", "named_children", "state_dict", "load_state_dict",
    "zero_grad", "requires_grad_", "apply", "register_buffer", "register_parameter",
    "register_module", "add_module", "register_forward_hook", "register_forward_pre_hook",
    "register_full_backward_hook", "get_submodule", "get_parameter", "get_buffer",
))
_OPERATORS = (ast.BinOp, ast.Compare, ast.BoolOp)
MAX_CELLS = 20
MAX_CELL_CHARS = 50_000

#: per cell: (name, partners, direct) events in source order; partners are module names,
#: ``direct`` when ``name`` is an argument of the module call itself
Events = tuple[tuple[str, frozenset[str], bool], ...]


class Usage:
    """Which modules each name was last used with (empty when unknown)."""

    def __init__(self, cells: Sequence[str], modules: Iterable[str]) -> None:
        mods = frozenset(modules)
        env: dict[str, frozenset[str]] = {}
        self._cells: list[dict[str, tuple[set[str], set[str]]]] = []
        for src in list(cells)[-MAX_CELLS:]:
            events, assigned = _cell(src, mods, tuple(sorted(env.items())))
            env.update(assigned)
            per: dict[str, tuple[set[str], set[str]]] = {}
            for name, partners, direct in events:
                per.setdefault(name, (set(), set()))[0 if direct else 1].update(partners)
            self._cells.append(per)
        self.origins = env

    def tiers(self, name: str) -> tuple[frozenset[str], frozenset[str]]:
        """(modules ``name`` is passed to, modules it is otherwise combined with), from the
        newest cell that uses it."""
        for per in reversed(self._cells):
            got = per.get(name)
            if got and (got[0] - {name} or got[1] - {name}):
                return frozenset(got[0] - {name}), frozenset(got[1] - {name})
        return frozenset(), frozenset()

    def partners(self, name: str) -> frozenset[str]:
        direct, other = self.tiers(name)
        return direct | other

    def models_of(self, name: str, known: Iterable[str] | None = None) -> frozenset[str]:
        """The ``known`` modules ``name`` is used with: those it is passed to first, then those
        it is combined with, else the ones it was computed from."""
        k = None if known is None else frozenset(known)
        direct, other = self.tiers(name)
        for tier in (direct, other, self.origins.get(name, frozenset())):
            got = tier if k is None else tier & k
            if got:
                return got
        return frozenset()


@lru_cache(maxsize=256)
def _cell(src: str, modules: frozenset[str], env: tuple[tuple[str, frozenset[str]], ...],
          ) -> tuple[Events, dict[str, frozenset[str]]]:
    """NB: cached on (source, modules, incoming origins): cells are re-read at every snapshot."""
    if len(src) > MAX_CELL_CHARS:
        return (), {}
    try:
        tree = ast.parse(src)
    except (SyntaxError, ValueError):
        return (), {}
    v = _Visitor(modules, dict(env))
    v.body(tree.body)
    return tuple(v.events), v.assigned


class _Visitor:
    def __init__(self, modules: frozenset[str], env: dict[str, frozenset[str]]) -> None:
        self.modules = modules
        self.env = env
        self.assigned: dict[str, frozenset[str]] = {}
        self.events: list[tuple[str, frozenset[str], bool]] = []

    # -- statements
    def body(self, stmts: list[ast.stmt]) -> None:
        for s in stmts:
            self.stmt(s)

    def stmt(self, s: ast.stmt) -> None:
        if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            saved = dict(self.env)  # NB: locals of a function must not leak into the cell
            self.body(s.body)
            self.env = saved
            return
        if isinstance(s, ast.Assign | ast.AnnAssign | ast.AugAssign):
            origin = self.expr(s.value) if s.value is not None else frozenset()
            targets = s.targets if isinstance(s, ast.Assign) else [s.target]
            for t in targets:
                for n in _target_names(t):
                    old = self.env.get(n, frozenset()) if isinstance(s, ast.AugAssign) else None
                    self._bind(n, origin | (old or frozenset()))
            return
        if isinstance(s, ast.For | ast.AsyncFor):
            origin = self.expr(s.iter)
            for n in _target_names(s.target):
                self._bind(n, origin)
            self.body(s.body + s.orelse)
            return
        for child in ast.iter_child_nodes(s):
            if isinstance(child, ast.stmt):
                self.stmt(child)
            elif isinstance(child, ast.expr):
                self.expr(child)
            else:  # handlers, with-items, match cases: their statements and expressions
                for sub in ast.iter_child_nodes(child):
                    if isinstance(sub, ast.stmt):
                        self.stmt(sub)
                    elif isinstance(sub, ast.expr):
                        self.expr(sub)

    def _bind(self, name: str, origin: frozenset[str]) -> None:
        self.env[name] = origin
        self.assigned[name] = origin

    # -- expressions: each returns the models its value comes from
    def expr(self, e: ast.expr) -> frozenset[str]:
        origin, _free = self._walk(e)
        return origin

    def _walk(self, e: ast.AST) -> tuple[frozenset[str], set[str]]:
        """(models the value comes from, names used here not yet tied to a model)."""
        root = _root(e)
        if root is not None:
            if root in self.modules:
                return frozenset((root,)), set()
            return self.env.get(root, frozenset()), {root}
        if isinstance(e, ast.Call):
            return self._call(e)
        parts = [self._walk(c) for c in ast.iter_child_nodes(e)]
        origin = frozenset().union(*(p[0] for p in parts))
        free = set().union(*(p[1] for p in parts))
        if isinstance(e, _OPERATORS) and origin:
            self._tie(free, origin)
            return origin, set()
        return origin, free

    def _call(self, e: ast.Call) -> tuple[frozenset[str], set[str]]:
        inner = self._cell_magic(e)
        if inner is not None:
            v = _Visitor(self.modules, self.env)
            v.body(inner)
            self.events += v.events
            self.assigned.update(v.assigned)
            return frozenset(), set()
        func = e.func
        method = func.attr if isinstance(func, ast.Attribute) else ""
        froot = _root(func.value if isinstance(func, ast.Attribute) else func)
        args = [*e.args, *(k.value for k in e.keywords)]
        parts = [self._walk(a) for a in args]
        origin = frozenset().union(*(p[0] for p in parts))
        free = set().union(*(p[1] for p in parts))
        if froot in self.modules or _root(func) in self.modules:
            model = froot if froot in self.modules else _root(func)
            assert model is not None
            if method in _NOT_COMPUTE:
                return frozenset((model,)), set()
            self._tie(free, frozenset((model,)), direct=True)
            self._tie(free, origin - {model})  # NB: loss_fn(out, y): y meets out's model
            # NB: model(h) with h from another model: the two models are used together
            self._tie({model}, origin - {model}, direct=True)
            self._tie(origin - {model}, frozenset((model,)), direct=True)
            return frozenset((model,)), set()
        if isinstance(func, ast.Attribute):  # x.view(-1), out.sum(): the receiver is an operand
            o, f = self._walk(func.value)
            origin, free = origin | o, free | f
        if origin:
            self._tie(free, origin)
            return origin, set()
        return origin, free

    def _tie(self, names: Iterable[str], models: frozenset[str], direct: bool = False) -> None:
        if not models:
            return
        for n in names:
            self.events.append((n, models, direct))
        if len(models) > 1:  # NB: a(x) + b(z): a and b are used together
            for m in models:
                self.events.append((m, models, direct))

    @staticmethod
    def _cell_magic(e: ast.Call) -> list[ast.stmt] | None:
        """``%%cuda_safe`` cells are ``get_ipython().run_cell_magic(name, line, body)``."""
        func = e.func
        if not (isinstance(func, ast.Attribute) and func.attr == "run_cell_magic"
                and len(e.args) == 3 and isinstance(e.args[2], ast.Constant)
                and isinstance(e.args[2].value, str)):
            return None
        try:
            return ast.parse(e.args[2].value).body
        except (SyntaxError, ValueError):
            return None


def _root(e: ast.AST) -> str | None:
    """The name at the root of ``a``, ``a.b``, ``a["k"]``, ``a[0].c``; None for anything else."""
    while isinstance(e, ast.Attribute | ast.Subscript | ast.Starred):
        e = e.value
    return e.id if isinstance(e, ast.Name) else None


def _target_names(t: ast.AST) -> list[str]:
    if isinstance(t, ast.Name):
        return [t.id]
    if isinstance(t, ast.Tuple | ast.List):
        return [n for el in t.elts for n in _target_names(el)]
    if isinstance(t, ast.Starred):
        return _target_names(t.value)
    return []
