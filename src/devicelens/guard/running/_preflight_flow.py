"""Device inference over a cell's AST, statement by statement, for the pre-flight.

Values come from the namespace (resolved through :mod:`devicelens.inspect._tree`, never by
running user code) or are inferred: a module call gives its module's device, ``.to(d)``/``.cuda()``
move, factories use ``device=``. Unknown stays unknown: a name bound to something we cannot infer
shadows the namespace, so stale objects are never blamed.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from ...inspect import _tree
from ..diagnosis._blame import majority_device, meta
from ._forward_lint import Issue

_SAME_DEVICE_ATTRS = frozenset({"T", "mT", "H", "mH", "data", "real", "imag"})
_NOT_TENSOR = frozenset({"item", "tolist", "numpy", "size", "dim", "numel", "backward",
                         "register_hook", "data_ptr", "stride", "element_size"})
_MOVES = frozenset({"to", "cuda", "cpu"})
_NO_CHECK = frozenset({"type_as", "copy_", "expand_as", "view_as", "reshape_as", "new_tensor",
                       "new_zeros", "new_ones", "new_empty", "new_full", "index_put_",
                       "index_put", "is_same_size"})
_MUTATORS = frozenset({"load_state_dict", "register_buffer", "apply", "to", "cuda", "cpu",
                       "add_module", "register_parameter", "half", "float", "double"})
_WRAPPERS = ("DataParallel", "DistributedDataParallel")


class Val(NamedTuple):
    """What the pre-flight knows about an expression's value."""

    kind: str  # tensor | module | device | seq | other
    device: str | None = None
    code: str = ""  # how the user writes it ('' for temporaries)
    obj: Any = None
    scalar: bool = False  # 0-dim CPU tensor: mixes with any device
    dtype: str = ""
    buffers_only: bool = False  # a module whose tensors are all buffers (a loss with a weight)


def norm_device(spec: Any) -> str | None:
    import torch

    try:
        d = torch.device(spec)
    except (RuntimeError, TypeError, ValueError):
        return None
    return f"{d.type}:0" if d.index is None and d.type not in ("cpu", "meta", "mps") else str(d)


def module_layout(m: Any) -> tuple[str | None, str | None, str]:
    """(device of the parameters, device of the float/non-scalar buffers, parameter dtype)."""
    params: list[Any] = []
    buffers: list[Any] = []
    for mod in _tree.submodules(m):
        parts = _tree.module_parts(mod)
        params += [p for _n, p in parts.params]
        buffers += [b for _n, b in parts.buffers if b.dim() or b.is_floating_point()]
    dtype = str(params[0].dtype).removeprefix("torch.") if params else ""
    devices = {str(p.device) for p in params}
    accel = devices - {"cpu"}
    # NB: half moved to one accelerator is being moved there (as the analysis says)
    pdev = accel.pop() if "cpu" in devices and len(accel) == 1 else majority_device(params)
    return pdev, majority_device(buffers), dtype


def _label(node: ast.expr | None, v: Val) -> str:
    text = v.code or (ast.unparse(node) if node is not None else "a tensor")
    return text if len(text) <= 40 else text[:37] + "..."


def _assignable(node: ast.expr | None) -> bool:
    while isinstance(node, ast.Attribute | ast.Subscript):
        node = node.value
    return isinstance(node, ast.Name)


class Flow:
    """Walks the cell's statements in order; ``issues`` collects what will fail."""

    def __init__(self, ns: dict[str, Any], check_dtype: bool, used: list[str],
                 call: Callable[[Flow, ast.Call], Val | None]) -> None:
        import torch

        self.torch, self.ns, self.check_dtype = torch, ns, check_dtype
        # NB: calls are inferred by :mod:`._preflight_calls`, which builds on this module;
        # it is handed in rather than imported so the two never import each other.
        self._call = call
        self.env: dict[str, Val | None] = {}
        #: items and attributes the cell assigns (``images[0] = images[0].cuda()``): what they
        #: hold from then on, read before the namespace's (stale) object
        self.paths: dict[str, Val | None] = {}
        self.issues: list[Issue] = []
        self.rebound: dict[str, int] = {}  # names (re)bound or mutated by the cell, first line
        self.modules: list[Any] = []  # NB: keeps them alive, so the ids below stay theirs
        self._layouts: dict[int, tuple[str | None, str | None, str]] = {}
        self.default_device = str(torch.get_default_device())
        weights: dict[str, int] = {}
        for n in used:
            v = self.classify(ns[n], n)
            if v is not None and v.kind == "module" and v.device and not v.buffers_only:
                weights[v.device] = weights.get(v.device, 0) + 1
        self.model_device = max(weights, key=weights.__getitem__) if weights else None

    # -- statements
    def block(self, body: list[ast.stmt]) -> None:
        for s in body:
            self.stmt(s)

    def stmt(self, s: ast.stmt) -> None:
        if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            self.bind(ast.Name(s.name), None, s.lineno)
        elif isinstance(s, ast.Assign):
            v = self.expr(s.value)
            for t in s.targets:
                self.bind(t, v, s.lineno)
        elif isinstance(s, ast.AnnAssign | ast.AugAssign):
            v = self.expr(ast.BinOp(s.target, s.op, s.value, lineno=s.lineno,
                                    col_offset=s.col_offset) if isinstance(s, ast.AugAssign)
                          else s.value)
            self.bind(s.target, v, s.lineno)
        elif isinstance(s, ast.For | ast.AsyncFor):
            self.expr(s.iter)
            self.bind(s.target, None, s.lineno)
            self.block(s.body + s.orelse)
        elif isinstance(s, ast.With | ast.AsyncWith):
            for item in s.items:
                self.expr(item.context_expr)
                if item.optional_vars is not None:
                    self.bind(item.optional_vars, None, s.lineno)
            self.block(s.body)
        elif isinstance(s, ast.Import | ast.ImportFrom):
            for a in s.names:
                self.env[(a.asname or a.name).split(".")[0]] = self._import(s, a)
        elif isinstance(s, ast.Try):
            self.block(s.body + [x for h in s.handlers for x in h.body] + s.orelse + s.finalbody)
        elif isinstance(s, ast.If | ast.While):
            self.expr(s.test)
            self.block(s.body + s.orelse)
        else:
            for child in ast.iter_child_nodes(s):
                if isinstance(child, ast.expr):
                    self.expr(child)

    def bind(self, target: ast.expr, v: Val | None, line: int) -> None:
        if isinstance(target, ast.Name):
            self.env[target.id] = v._replace(code=target.id) if v is not None else None
            self.rebound.setdefault(target.id, line)
        elif isinstance(target, ast.Tuple | ast.List):
            for elt in target.elts:
                self.bind(elt.value if isinstance(elt, ast.Starred) else elt, None, line)
        elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) \
                and not isinstance(target.slice, ast.Constant) \
                and self._container(target.value.id):
            # NB: ``batch[k] = v.to(device)`` in a loop: any item may now be anything, so the
            # dict or list is unknown from here (its namespace items are stale, never blamed);
            # a tensor written through an index (``x[:, 0] = y``) stays where it is
            self.env[target.value.id] = None
            self.rebound.setdefault(target.value.id, line)
        else:  # an attribute or item of an existing object: it changes under our feet
            key = ast.unparse(target)
            self.paths[key] = v._replace(code=key) if v is not None else None
            root = target
            while isinstance(root, ast.Attribute | ast.Subscript):
                root = root.value
            if isinstance(root, ast.Name):
                self.rebound.setdefault(root.id, line)

    def _container(self, name: str) -> bool:
        """``name`` is bound to a dict or a list (as the cell left it, else the namespace's)."""
        v = self.env.get(name)
        obj = v.obj if v is not None else (self.ns.get(name) if name not in self.env else None)
        return _tree.container_kind(obj) in ("dict", "userdict", "list")

    def _import(self, s: ast.Import | ast.ImportFrom, a: ast.alias) -> Val:
        if isinstance(s, ast.Import):
            name = a.name if a.asname else a.name.split(".")[0]
            return Val("other", obj=sys.modules.get(name))
        mod = sys.modules.get(f"{s.module}.{a.name}")
        if mod is None:
            parent = _tree.instance_dict(sys.modules.get(s.module or "")) or {}
            mod = parent.get(a.name)
        return Val("other", obj=mod)

    # -- expressions
    def expr(self, node: ast.expr | None) -> Val | None:
        if node is None:
            return None
        method = getattr(self, "e_" + type(node).__name__, None)
        if method is not None:
            return method(node)  # type: ignore[no-any-return]
        if isinstance(node, ast.Lambda | ast.ListComp | ast.SetComp | ast.DictComp |
                      ast.GeneratorExp):
            return None  # NB: their names are local; the namespace ones must not be blamed
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self.expr(child)
        return None

    def e_Name(self, node: ast.Name) -> Val | None:
        if node.id in self.env:
            return self.env[node.id]
        return self.classify(self.ns[node.id], node.id) if node.id in self.ns else None

    def e_Constant(self, node: ast.Constant) -> Val | None:
        d = norm_device(node.value) if isinstance(node.value, str) else None
        return Val("device", d) if d else None

    def e_List(self, node: ast.List | ast.Tuple) -> Val:
        return Val("seq", obj=tuple((e, self.expr(e)) for e in node.elts))

    e_Tuple = e_List

    def e_Attribute(self, node: ast.Attribute) -> Val | None:
        if node.attr == "device":
            base = self.expr(node.value)
            ok = base is not None and base.kind in ("tensor", "module") and base.device
            return Val("device", base.device) if ok and base is not None else None
        if self.paths:
            key = ast.unparse(node)
            if key in self.paths:
                return self.paths[key]
        found = self._resolve(node)
        if found is not None:
            return self.classify(*found)
        base = self.expr(node.value)
        if base is not None and base.kind == "tensor" and node.attr in _SAME_DEVICE_ATTRS:
            return Val("tensor", base.device, dtype=base.dtype)
        return None

    def e_Subscript(self, node: ast.Subscript) -> Val | None:
        if self.paths:
            key = ast.unparse(node)
            if key in self.paths:
                return self.paths[key]
        found = self._resolve(node)
        if found is not None:
            return self.classify(*found)
        base = self.expr(node.value)
        self.expr(node.slice)
        if base is not None and base.kind == "tensor":
            return Val("tensor", base.device, scalar=base.device == "cpu", dtype=base.dtype)
        return None

    def e_BinOp(self, node: ast.BinOp) -> Val | None:
        items = [(node.left, self.expr(node.left)), (node.right, self.expr(node.right))]
        return self.combine(node, items)

    def e_Compare(self, node: ast.Compare) -> Val | None:
        items = [(n, self.expr(n)) for n in (node.left, *node.comparators)]
        self.combine(node, items)
        return None

    def e_Call(self, node: ast.Call) -> Val | None:
        return self._call(self, node)

    # -- namespace objects
    def _resolve(self, node: ast.expr) -> tuple[Any, str] | None:
        """The namespace object an ``a.b['c']`` chain names, without running any user code."""
        steps: list[_tree.Step] = []
        cur: ast.expr = node
        while isinstance(cur, ast.Attribute | ast.Subscript):
            if isinstance(cur, ast.Attribute):
                steps.append(_tree.Step("attr", cur.attr))
            elif isinstance(cur.slice, ast.Constant) and isinstance(cur.slice.value, str | int):
                steps.append(_tree.Step("item", cur.slice.value))
            else:
                return None
            cur = cur.value
        if not isinstance(cur, ast.Name):
            return None
        bound = self.env.get(cur.id)
        if cur.id in self.env and (bound is None or bound.kind != "other" or bound.obj is None):
            return None  # NB: rebound by the cell to something we cannot follow
        base = {cur.id: bound.obj if bound is not None else self.ns.get(cur.id)}
        try:
            obj = _tree.resolve(base, (_tree.Step("name", cur.id), *reversed(steps)))
        except LookupError:
            return None
        return obj, ast.unparse(node)

    def classify(self, obj: Any, code: str) -> Val | None:
        tp, torch = type(obj), self.torch
        if issubclass(tp, torch.Tensor):
            m = meta(obj)  # NB: the C header: a subclass's properties are user code
            if m is None:
                return None
            dev, dtype, shape = m
            return Val("tensor", dev, code, obj, shape == () and dev == "cpu", dtype)
        if issubclass(tp, torch.nn.Module):
            if id(obj) not in self._layouts:
                self.modules.append(obj)
                self._layouts[id(obj)] = module_layout(obj)
            pdev, bdev, dtype = self._layouts[id(obj)]
            return Val("module", pdev or bdev, code, obj, dtype=dtype,
                       buffers_only=pdev is None and bdev is not None)
        if tp is torch.device or tp is str:
            d = norm_device(obj)
            return Val("device", d, code) if d else None
        return Val("other", code=code, obj=obj)

    # -- checks
    def add(self, severity: str, kind: str, line: int, message: str, fix: str,
            names: Sequence[str] = ()) -> None:
        self.issues.append(Issue(severity, kind, line, message, fix,  # type: ignore[arg-type]
                                 names=tuple(n for n in names if n)))

    def expected(self, devices: list[str]) -> str:
        if self.model_device is not None and self.model_device in devices:
            return self.model_device
        accel = [d for d in devices if d != "cpu"]
        return accel[0] if len(accel) == 1 else devices[0]

    def move_fix(self, node: ast.expr | None, v: Val, target: str) -> str:
        code = v.code or (ast.unparse(node) if node is not None else "")
        if code and (v.code or _assignable(node)):
            return f'{code} = {code}.to("{target}")'
        return f'# move {_label(node, v)} with .to("{target}") first'

    def combine(self, node: ast.expr,
                items: Sequence[tuple[ast.expr | None, Val | None]]) -> Val | None:
        """Tensors meeting in one expression must share a device (and, with --dtype, a dtype)."""
        ts = [(n, v) for n, v in items if v is not None and v.kind == "tensor" and v.device]
        real = [(n, v) for n, v in ts if not v.scalar]
        devices = list(dict.fromkeys(v.device for _n, v in real if v.device))
        if len(devices) > 1:
            exp = self.expected(devices)
            names = ", ".join(f"{_label(n, v)} ({v.device})" for n, v in real)
            snippet = ast.unparse(node)
            snippet = snippet if len(snippet) <= 60 else snippet[:57] + "..."
            fix = "\n".join(dict.fromkeys(self.move_fix(n, v, exp) for n, v in real
                                          if v.device != exp))
            self.add("error", "mixed_operands", node.lineno,
                     f"{names} meet in `{snippet}` on different devices", fix,
                     [v.code for _n, v in real if v.device != exp])
        elif self.check_dtype:
            self.dtype_check(node, real)
        first = real[0][1] if real else (ts[0][1] if ts else None)
        if first is None:
            return None
        return Val("tensor", first.device, dtype=first.dtype, scalar=first.scalar)

    def dtype_check(self, node: ast.expr, real: Sequence[tuple[ast.expr | None, Val]]) -> None:
        floats = [(n, v) for n, v in real if v.dtype.startswith(("float", "bfloat"))]
        dts = list(dict.fromkeys(v.dtype for _n, v in floats))
        if len(dts) > 1:
            names = ", ".join(f"{_label(n, v)} ({v.dtype})" for n, v in floats)
            exp = "float32" if "float32" in dts else dts[0]
            fix = "\n".join(f"{v.code} = {v.code}.to(torch.{exp})" for _n, v in floats
                            if v.dtype != exp and v.code)
            self.add("error", "mixed_dtypes", node.lineno,
                     f"{names} meet in `{ast.unparse(node)[:60]}` with different dtypes", fix,
                     [v.code for _n, v in floats if v.dtype != exp])
