"""Lint of ``forward()`` methods: tensors created without a device, or with a hard-coded one.

``torch.zeros(...)`` in ``forward`` lands on the default device while the module may sit on
``cuda:1`` (the classic DataParallel failure); ``.cuda()`` / ``device="cuda:0"`` pin a replica to
the wrong GPU. Reads source only (``inspect`` + ``ast``); never calls the method.
"""

from __future__ import annotations

import ast
import copy
import functools
import inspect
import textwrap
import types
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, replace
from typing import Any, Literal

from ...inspect import _tree
from ._lint_numbers import Needs, Numbers, as_number, numbers

FACTORIES = frozenset({"zeros", "ones", "empty", "full", "arange", "tensor", "randn", "rand",
                       "randint", "eye", "linspace", "logspace", "randperm", "as_tensor"})


@dataclass(frozen=True)
class Issue:
    """One pre-flight or lint finding. ``line`` is a cell line (0: not tied to one)."""

    severity: Literal["error", "warning"]
    kind: str
    line: int
    message: str
    fix: str
    name: str = ""  # for lint: the local variable the tensor is assigned to
    where: str = ""  # for lint: "RNNModel.forward"; the source location is in ``message``
    names: tuple[str, ...] = ()  # the user's names the fix changes (``x``, ``batch['y']``)
    # for lint: the module's attributes ``torch.tensor(self.d_head)`` reads; when each is a
    # number the tensor is 0-dim, which a cpu tensor may be beside tensors on any device
    scalar_if: tuple[str, ...] = ()
    # for lint: the device a line pins its tensor to ("cuda:0"; "cuda" for ``.cuda()``)
    pinned: str = ""
    # for lint: where the tensor goes when it goes nowhere but into submodules' calls
    # (``self.loss(embeddings, labels)``): each (attribute, argument position or keyword);
    # where each such submodule moves that argument itself, nothing fails
    handed: tuple[tuple[str, int | str], ...] = ()


def _forward_of(cls: type) -> Any:
    for klass in cls.__mro__:
        fn = klass.__dict__.get("forward")
        if fn is not None:
            mod = getattr(fn, "__module__", "") or ""
            return None if mod == "torch" or mod.startswith("torch.") else fn
    return None


@functools.lru_cache(maxsize=256)
def lint_forward(cls: type) -> tuple[Issue, ...]:
    """Warnings for ``cls.forward``; () when it is torch's own or has no readable source."""
    fn = _forward_of(cls)
    try:
        lines, start = inspect.getsourcelines(fn)
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except (OSError, TypeError, SyntaxError, IndentationError):
        return ()
    fdef = tree.body[0] if tree.body else None
    if not isinstance(fdef, ast.FunctionDef | ast.AsyncFunctionDef):
        return ()
    from ._frames import cell_label

    ctx = _Ctx(fn, start, cell_label(fn.__code__.co_filename), _anchor(fdef), _targets(fdef),
               numbers(fdef, _globals(fn)))
    # NB: the calls that fail nothing here, each with its condition (the module attributes
    # that must hold numbers; none: whatever runs). ``torch.zeros(n).cuda(0)``: the factory's
    # cpu result is moved at once; only the move is linted. So are factories only other
    # factories meet before the move (ALBEF's ``torch.cat([torch.ones(bs), torch.zeros(2 *
    # bs)]).to(image.device)``)
    exempt: dict[int, Needs] = {}

    def let(calls: Iterable[int], needs: Needs = frozenset()) -> None:
        for c in calls:
            if not needs or c not in exempt:
                exempt[c] = needs

    let(id(n.func.value) for n in ast.walk(fdef) if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute) and n.func.attr in ("to", "cuda")
        and isinstance(n.func.value, ast.Call))
    for n in ast.walk(fdef):
        got: set[str] = set()
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) \
                and n.func.attr in ("to", "cuda") and not _only_dtype(n) \
                and _only_made_here(n.func.value, ctx, needs=got):
            let(_calls(n.func.value), frozenset(got))
    let(_returned_only(fdef))
    for value, cond in _indices_only(fdef, ctx):  # NB: a cast or reshape of a factory: the
        got = set(cond)  # factory too
        if _only_made_here(value, ctx, needs=got):
            let(_calls(value), frozenset(got))
        else:
            let([id(value)], cond)
    out = [_conditional(issue, exempt.get(id(node))) for node in ast.walk(fdef)
           if isinstance(node, ast.Call) and exempt.get(id(node)) != frozenset()
           for issue in ctx.check(node)]
    return tuple(replace(i, handed=_handed(fdef, i.name, ctx))
                 if i.kind == "forward_no_device" and i.name else i for i in out)


def _calls(node: ast.AST) -> set[int]:
    return {id(c) for c in ast.walk(node) if isinstance(c, ast.Call)}


def _globals(fn: Any) -> dict[str, Any]:
    globs = getattr(fn, "__globals__", None)
    return globs if type(globs) is dict else {}


def _conditional(issue: Issue, needs: Needs | None) -> Issue:
    """``issue``, silent where the module attributes ``needs`` names each hold a number: the
    tensor then meets nothing from outside before it is moved (or it is 0-dim, where the
    issue already said so)."""
    if not needs:
        return issue
    return replace(issue, scalar_if=tuple(dict.fromkeys((*issue.scalar_if, *sorted(needs)))))


def _handed(fdef: ast.AST, name: str, ctx: _Ctx) -> tuple[tuple[str, int | str], ...]:
    """Where the local ``name`` goes when it goes nowhere but into calls of ``self.<attr>``
    (itself, or a copy or reshape of it) and into its own rebinding from tensors made right
    there or from itself (pytorch-metric-learning's SelfSupervisedLoss: ``labels =
    torch.arange(n)``, ``labels = torch.cat([labels, labels])``, ``self.loss(embeddings,
    labels)``): each (attribute, argument position or keyword). () when it is read otherwise."""
    parents = {id(c): p for p in ast.walk(fdef) for c in ast.iter_child_nodes(p)}
    out: list[tuple[str, int | str]] = []
    for n in ast.walk(fdef):
        if not (isinstance(n, ast.Name) and n.id == name):
            continue
        stmt: ast.AST = n
        while not isinstance(stmt, ast.stmt) and id(stmt) in parents:
            stmt = parents[id(stmt)]
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 \
                and isinstance(stmt.targets[0], ast.Name) and stmt.targets[0].id == name \
                and _only_made_here(stmt.value, ctx, own=name):
            continue  # NB: bound (or rebound from itself) by tensors made right here
        if not isinstance(n.ctx, ast.Load):
            return ()
        node: ast.AST = n
        up = parents.get(id(node))
        while isinstance(up, ast.Attribute) and up.attr in _SHAPES | _CASTS \
                and isinstance(call := parents.get(id(up)), ast.Call) and call.func is up:
            node, up = call, parents.get(id(call))
        slot: int | str
        if isinstance(up, ast.keyword) and up.arg:
            slot, up = up.arg, parents.get(id(up))
        elif isinstance(up, ast.Call) and node in up.args:
            slot = up.args.index(node)
        else:
            return ()
        f = up.func if isinstance(up, ast.Call) else None
        if not (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name)
                and f.value.id == "self"):
            return ()
        out.append((f.attr, slot))
    return tuple(dict.fromkeys(out))


def _indices_only(fdef: ast.AST, ctx: _Ctx) -> list[tuple[ast.expr, Needs]]:
    """The calls whose tensor is only ever an index (``log_p[torch.arange(n), y]``, or a local
    ``rows = torch.arange(n)`` read only as ``log_p[rows, y]``, or as a number, or copied to
    the cpu, or moved, or written into another tensor made right here), each with its
    condition: PyTorch takes indices from the cpu for a tensor on any device, so where they are
    made does not matter. A local's reads are those of the value one assignment binds, up to
    the next binding of the name (ESPnet's ``ilens = torch.tensor(ilens)``, then
    ``ilens.cpu()``, then ``ys_pad, ilens = pad_packed_sequence(...)``)."""
    slots: set[int] = set()  # NB: the expressions that are an index, or one of a tuple's
    for n in ast.walk(fdef):
        if isinstance(n, ast.Subscript):
            parts = n.slice.elts if isinstance(n.slice, ast.Tuple) else [n.slice]
            slots |= {id(p) for p in parts}
            # NB: a slice's bounds are numbers (``x[start:end]`` reads ``end.__index__()``)
            slots |= {id(b) for p in parts if isinstance(p, ast.Slice)
                      for b in (p.lower, p.upper, p.step) if b is not None}
    out: list[tuple[ast.expr, Needs]] = [(n, frozenset()) for n in ast.walk(fdef)
                                         if isinstance(n, ast.Call) and id(n) in slots]
    slots |= _scalar_reads_of_names(fdef) | _host_copies(fdef) | _device_moves(fdef)
    slots |= _counted_over(fdef, slots)
    at = _binding_order(fdef)
    written, cond, values = _written_into_made_here(fdef, ctx, at)
    slots |= written
    out += [(v, cond) for v in values]
    names = sorted((n for n in ast.walk(fdef) if isinstance(n, ast.Name)), key=at)
    in_loop = {id(s) for loop in ast.walk(fdef) if isinstance(loop, ast.For | ast.While)
               for s in ast.walk(loop) if isinstance(s, ast.Assign)}
    for n in ast.walk(fdef):
        if not (isinstance(n, ast.Assign) and len(n.targets) == 1
                and isinstance(n.targets[0], ast.Name) and _calls(n.value)):
            continue
        name, end = n.targets[0].id, _end(n)
        stores = [x for x in names if x.id == name and not isinstance(x.ctx, ast.Load)]
        if id(n) in in_loop:
            # NB: a loop may carry the value to a read above its binding: bound once, and
            # every read of the name counts
            if len(stores) > 1:
                continue
            reads = [id(x) for x in names if x.id == name and isinstance(x.ctx, ast.Load)
                     and not _at(n) <= _at(x) <= end]
        else:
            # NB: the value this assignment binds, read until the name is bound again
            reads = []
            for x in names:
                if x.id != name or at(x) <= end:
                    continue
                if not isinstance(x.ctx, ast.Load):
                    break
                reads.append(id(x))
        if reads and all(r in slots for r in reads):
            out.append((n.value, cond if written.intersection(reads) else frozenset()))
    return out


def _written_into_made_here(fdef: ast.AST, ctx: _Ctx, at: Callable[[ast.Name], tuple[int, int]]
                            ) -> tuple[set[int], Needs, list[ast.expr]]:
    """The writes ``t[...] = v`` into a local ``t`` that holds, there, a tensor made right
    here, of a value made right here too (DAC's residual quantizer: ``n_quantizers =
    torch.ones((b,)) * self.n_codebooks + 1``, ``n_quantizers[:k] = dropout[:k]``, then
    ``n_quantizers.to(z.device)``): the write meets nothing from outside. Gives the reads it
    makes of such locals (``t`` and those in ``v``: no use of them), their condition, and
    the values written (their factories meet nothing either)."""
    binds: dict[str, list[tuple[tuple[int, int], ast.expr | None]]] = {}
    bound = {id(n.targets[0]): n.value for n in ast.walk(fdef) if isinstance(n, ast.Assign)
             and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)}
    for n in ast.walk(fdef):
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
            binds.setdefault(n.id, []).append((at(n), bound.get(id(n))))

    def made_here(name: str, pos: tuple[int, int], needs: set[str], depth: int = 0) -> bool:
        """``name`` holds, at ``pos``, a tensor made right here (as its last binding says)."""
        before = [b for b in binds.get(name, ()) if b[0] < pos]
        if not before or depth > _MAX_FLOW:
            return False
        bpos, value = max(before, key=lambda b: b[0])
        if value is None:
            return False
        own = frozenset(x.id for x in ast.walk(value) if isinstance(x, ast.Name)
                        and made_here(x.id, bpos, needs, depth + 1))
        return _only_made_here(value, ctx, own, needs)

    reads: set[int] = set()
    needs: set[str] = set()
    values: list[ast.expr] = []
    for n in ast.walk(fdef):
        if not (isinstance(n, ast.Assign) and len(n.targets) == 1
                and isinstance(t := n.targets[0], ast.Subscript)
                and isinstance(t.value, ast.Name)):
            continue
        got: set[str] = set()
        pos = _at(n)
        parts = t.slice.elts if isinstance(t.slice, ast.Tuple) else [t.slice]
        own = frozenset(x.id for x in ast.walk(n.value) if isinstance(x, ast.Name)
                        and made_here(x.id, pos, got))
        if made_here(t.value.id, pos, got) and all(_a_number(p, ctx, got) for p in parts) \
                and _only_made_here(n.value, ctx, own, got):
            reads.add(id(t.value))
            reads |= {id(x) for x in ast.walk(n.value) if isinstance(x, ast.Name) and x.id in own}
            needs |= got
            values.append(n.value)
    return reads, frozenset(needs), values


_MAX_FLOW = 8  # NB: how many bindings back a local's tensor is followed to where it was made


def _returned_only(fdef: ast.AST) -> set[int]:
    """The factory calls whose tensor ``forward`` only gives back: the returned value, or an item of
    the tuple, list or dict it returns, itself or through a local bound once and read nowhere
    else (instant-nsr-pl's marching cubes: ``return {'v_pos': verts, 't_pos_idx':
    torch.zeros(1, 3, dtype=torch.long)}``). It meets nothing here; what the caller does with
    it is the caller's line, which the guard reads where it runs."""
    given: set[int] = set()
    for n in ast.walk(fdef):
        if isinstance(n, ast.Return) and n.value is not None:
            v = n.value
            items = (v.elts if isinstance(v, ast.Tuple | ast.List)
                     else [x for x in v.values if x is not None] if isinstance(v, ast.Dict)
                     else [v])
            given |= {id(x) for x in items}
    out = {id(n) for n in ast.walk(fdef) if _factory_call(n) and id(n) in given}
    loads: dict[str, list[int]] = {}
    stores: dict[str, list[ast.Assign | None]] = {}
    for n in ast.walk(fdef):
        if isinstance(n, ast.Name):
            if isinstance(n.ctx, ast.Load):
                loads.setdefault(n.id, []).append(id(n))
            else:
                stores.setdefault(n.id, [])
        if isinstance(n, ast.Assign | ast.AugAssign | ast.AnnAssign | ast.For):
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            for t in targets:
                for x in ast.walk(t):
                    if isinstance(x, ast.Name):
                        stores.setdefault(x.id, []).append(
                            n if isinstance(n, ast.Assign) and t is x else None)
    for name, binds in stores.items():
        if len(binds) == 1 and binds[0] is not None and _factory_call(binds[0].value) \
                and loads.get(name) and all(i in given for i in loads[name]):
            out.add(id(binds[0].value))
    return out


def _factory_call(n: ast.AST) -> bool:
    """``n`` calls a factory by its name (``torch.zeros(...)``): a device it pins (``.cuda()``)
    is linted wherever the tensor goes."""
    return isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) \
        and n.func.attr in FACTORIES


def _counted_over(fdef: ast.AST, slots: set[int]) -> set[int]:
    """The reads of a local that a ``for`` loop runs over when what each step binds is only a
    number there: an index or a slice's bound, itself or through a local it is copied to (DINO's
    MultiCropWrapper: ``for end_idx in idx_crops: ... x[start_idx: end_idx] ...; start_idx =
    end_idx``). Each item of a cpu tensor is a 0-dim cpu tensor read as a number."""
    loads: dict[str, list[ast.Name]] = {}
    copies: dict[str, set[str]] = {}  # NB: ``start_idx = end_idx``: the local each is copied to
    for n in ast.walk(fdef):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            loads.setdefault(n.id, []).append(n)
        elif isinstance(n, ast.Assign) and isinstance(n.value, ast.Name):
            copies.setdefault(n.value.id, set()).update(
                t.id for t in n.targets if isinstance(t, ast.Name))
    copied = {id(n.value) for n in ast.walk(fdef)
              if isinstance(n, ast.Assign) and isinstance(n.value, ast.Name)}

    def numbers_only(name: str) -> bool:
        reads = loads.get(name, [])
        return bool(reads) and all(id(x) in slots or id(x) in copied for x in reads) and all(
            all(id(x) in slots for x in loads.get(c, [])) for c in copies.get(name, ()))

    return {id(loop.iter) for loop in ast.walk(fdef) if isinstance(loop, ast.For)
            and isinstance(loop.iter, ast.Name) and isinstance(loop.target, ast.Name)
            and numbers_only(loop.target.id)}


def _at(n: ast.AST) -> tuple[int, int]:
    return (getattr(n, "lineno", 0), getattr(n, "col_offset", 0))


def _end(n: ast.AST) -> tuple[int, int]:
    return (getattr(n, "end_lineno", 0) or 0, getattr(n, "end_col_offset", 0) or 0)


def _binding_order(fdef: ast.AST) -> Callable[[ast.Name], tuple[int, int]]:
    """Where a name is met in the order Python runs it: a name an assignment binds, after the
    value it is bound to (``fs = fs.to(t.device)`` reads ``fs``, then binds it)."""
    after: dict[int, tuple[int, int]] = {}
    for n in ast.walk(fdef):
        if isinstance(n, ast.Assign | ast.AugAssign | ast.AnnAssign):
            targets = n.targets if isinstance(n, ast.Assign) else [n.target]
            for t in targets:
                for x in ast.walk(t):
                    if isinstance(x, ast.Name) and not isinstance(x.ctx, ast.Load):
                        after[id(x)] = _end(n)
    return lambda x: after.get(id(x), _at(x))


def _device_moves(fdef: ast.AST) -> set[int]:
    """The reads of a local moved to a device where they are read (synthcity's TabDDPM:
    ``fs = torch.exp(... torch.arange(mid))``, then ``fs = fs.to(timesteps.device)``): the value
    made is never met where it was made. A move by a device only: ``x.device``, ``device=``, a
    name that says ``device``, a device's name, or ``.cuda()``; a cast to a dtype is no move."""
    out: set[int] = set()
    for n in ast.walk(fdef):
        if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                and isinstance(n.func.value, ast.Name)):
            continue
        if n.func.attr == "cuda" or (n.func.attr == "to" and (
                any(k.arg == "device" for k in n.keywords)
                or (n.args and names_a_device(n.args[0])))):
            out.add(id(n.func.value))
    return out


def names_a_device(e: ast.expr) -> bool:
    """An expression that reads as a device: ``x.device``, a name that says ``device``, a
    device's literal (``"cuda:0"``), ``torch.device(...)``."""
    if isinstance(e, ast.Attribute):
        return e.attr == "device"
    if isinstance(e, ast.Name):
        return "device" in e.id.lower()
    if isinstance(e, ast.Call):
        return isinstance(e.func, ast.Attribute) and e.func.attr == "device"
    return isinstance(e, ast.Constant) and isinstance(e.value, str) \
        and e.value.split(":")[0] in ("cpu", "cuda", "mps", "xpu", "meta", "hpu", "npu")


def _host_copies(fdef: ast.AST) -> set[int]:
    """The reads of a local copied to the host where they are read (``ilens.cpu()``, as
    ESPnet's encoder hands its lengths to ``pack_padded_sequence``): where it was made does
    not matter, the copy is on the cpu whatever device the module is on."""
    return {id(n.func.value) for n in ast.walk(fdef) if isinstance(n, ast.Call)
            and isinstance(n.func, ast.Attribute) and n.func.attr == "cpu" and not n.args
            and isinstance(n.func.value, ast.Name)}


_TO_NUMBER = frozenset({"int", "float", "bool", "len"})
_NUMBER_METHODS = frozenset({"item", "tolist", "numel", "size", "dim"})
_HEADER = frozenset({"shape", "dtype", "device", "ndim"})


def _scalar_reads_of_names(fdef: ast.AST) -> set[int]:
    """The reads of a local that give Python numbers, never a tensor another one meets:
    ``int(frame[-1])``, ``len(rows)``, ``rows[-1].item()``, ``rows.shape[0]`` (open-unmix's
    wiener window: ``pos = int(cur_frame[-1]) + 1``, the frames then read as indices)."""
    out: set[int] = set()
    for n in ast.walk(fdef):
        target: ast.expr | None = None
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in _TO_NUMBER \
                and len(n.args) == 1:
            target = n.args[0]
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) \
                and n.func.attr in _NUMBER_METHODS:
            target = n.func.value
        elif isinstance(n, ast.Attribute) and n.attr in _HEADER:
            target = n.value
        if isinstance(target, ast.Subscript):
            target = target.value
        if isinstance(target, ast.Name):
            out.add(id(target))
    return out


_JOINS = frozenset({"cat", "stack", "concat", "hstack", "vstack"})
_CASTS = frozenset({"long", "float", "int", "double", "half", "bool", "bfloat16"})
#: methods that give the same values in another shape: what they read of their arguments is
#: numbers or a shape, so nothing from outside meets the tensor they reshape
_SHAPES = frozenset({"view", "reshape", "unsqueeze", "squeeze", "expand", "expand_as", "repeat",
                     "flatten", "permute", "transpose", "t", "contiguous", "flip", "view_as",
                     "reshape_as", "clone", "detach"})


def _only_made_here(node: ast.expr, ctx: _Ctx, own: str | Collection[str] = "",
                    needs: set[str] | None = None) -> bool:
    """``node`` only combines tensors that torch's factories make right there: a factory call,
    a join of such (``torch.cat([torch.ones(n), torch.zeros(m)])``), a cast or a reshape of one
    (SupContrast's ``torch.arange(n).view(-1, 1).to(device)``), a slice of one, or arithmetic
    of them and numbers (:mod:`._lint_numbers`). Nothing from outside meets them before the
    move. ``own``: locals that hold only such tensors themselves. ``needs`` gathers the module
    attributes that must be numbers for this to hold."""
    num = as_number(node, ctx.numbers, _globals(ctx.fn))
    if num is not None:
        if needs is not None:
            needs |= num
        return True
    if isinstance(node, ast.Name):
        return node.id == own if isinstance(own, str) else node.id in own
    if isinstance(node, ast.BinOp):
        return _only_made_here(node.left, ctx, own, needs) \
            and _only_made_here(node.right, ctx, own, needs)
    if isinstance(node, ast.Subscript):  # NB: ``torch.unique(t, return_counts=True)[1]``,
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]  # ``d[:n]``
        return all(_a_number(p, ctx, needs) for p in parts) \
            and _only_made_here(node.value, ctx, own, needs)
    if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
        return False
    f = node.func
    if f.attr in FACTORIES and ctx._is_torch(f.value):
        return True
    if (f.attr in _CASTS and not node.args) or f.attr in _SHAPES:
        return _only_made_here(f.value, ctx, own, needs)
    if f.attr in _JOINS and ctx._is_torch(f.value) and node.args \
            and isinstance(node.args[0], ast.List | ast.Tuple):
        return all(_only_made_here(e, ctx, own, needs) for e in node.args[0].elts)
    if ctx._is_torch(f.value) and node.args and all(isinstance(k.value, ast.Constant)
                                                    for k in node.keywords):
        # NB: torch's function of such tensors and numbers (DINO's ``torch.cumsum(torch
        # .unique_consecutive(torch.tensor(sizes), return_counts=True)[1], 0)``)
        return all(_only_made_here(a, ctx, own, needs) for a in node.args)
    return False


def _a_number(part: ast.expr, ctx: _Ctx, needs: set[str] | None) -> bool:
    """An index or a slice of numbers only (``1``, ``:n``, ``...``)."""
    if isinstance(part, ast.Slice):
        return all(_a_number(b, ctx, needs) for b in (part.lower, part.upper, part.step)
                   if b is not None)
    if isinstance(part, ast.Constant) and (part.value is Ellipsis or part.value is None):
        return True
    got = as_number(part, ctx.numbers, _globals(ctx.fn))
    if got is not None and needs is not None:
        needs |= got
    return got is not None


def _forward_def(cls: type) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    return _def_of(_forward_of(cls))


@functools.lru_cache(maxsize=256)
def forward_params(cls: type) -> list[str]:
    """The parameters of the user's ``forward`` after ``self`` ([] for torch's own)."""
    fdef = _forward_def(cls)
    return [a.arg for a in fdef.args.args[1:]] if fdef is not None else []


@functools.lru_cache(maxsize=256)
def cpu_parameters(cls: type) -> tuple[str, ...]:
    """``forward`` parameters meant to stay on the cpu: the lengths it hands to
    ``pack_padded_sequence``, or ones it moves to the cpu itself (``lengths.cpu()``)."""
    fdef = _forward_def(cls)
    if fdef is None:
        return ()
    params = {a.arg for a in fdef.args.args[1:]}
    out: set[str] = set()
    for node in ast.walk(fdef):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        name = f.attr if isinstance(f, ast.Attribute) else (f.id if isinstance(f, ast.Name) else "")
        args: list[ast.expr] = []
        if name == "pack_padded_sequence":
            args = node.args[1:2] + [k.value for k in node.keywords if k.arg == "lengths"]
        elif name == "cpu" and isinstance(f, ast.Attribute):
            args = [f.value]
        for a in args:
            while isinstance(a, ast.Call | ast.Attribute | ast.Subscript):
                a = a.func if isinstance(a, ast.Call) else a.value
            if isinstance(a, ast.Name) and a.id in params:
                out.add(a.id)
    return tuple(sorted(out))


@functools.lru_cache(maxsize=256)
def moved_parameters(cls: type) -> tuple[str, ...]:
    """``forward`` parameters it moves to a device itself before using them
    (``x = x.to(self.w.device)``; pytorch-metric-learning's ``labels = to_device(labels,
    embeddings)``, through a plain function of its module): where the caller leaves them
    fails nothing."""
    fn = _forward_of(cls)
    fdef = _forward_def(cls)
    if fdef is None:
        return ()
    globs = getattr(fn, "__globals__", None)
    globs = globs if type(globs) is dict else {}
    return tuple(a.arg for a in fdef.args.args[1:] if _moves(fdef, a.arg, globs, 0, cls))


_MAX_HELPER_DEPTH = 2


@functools.lru_cache(maxsize=256)
def moves_varargs(cls: type) -> bool:
    """``forward(self, *inputs)`` moves each of them itself (a data-parallel wrapper's
    ``tuple(t.to(dev) for t in inputs)``): where the caller leaves them fails nothing."""
    fdef = _forward_def(cls)
    if fdef is None or fdef.args.vararg is None:
        return False
    name = fdef.args.vararg.arg
    for node in ast.walk(fdef):
        if not isinstance(node, ast.GeneratorExp | ast.ListComp) or len(node.generators) != 1:
            continue
        gen = node.generators[0]
        if not (isinstance(gen.iter, ast.Name) and gen.iter.id == name
                and isinstance(gen.target, ast.Name)):
            continue
        item = gen.target.id
        if any(isinstance(c, ast.Call) and isinstance(c.func, ast.Attribute)
               and isinstance(c.func.value, ast.Name) and c.func.value.id == item
               and (c.func.attr == "cuda" or (c.func.attr == "to" and not _only_dtype(c)))
               for c in ast.walk(node.elt)):
            return True
    return False


@functools.lru_cache(maxsize=256)
def passed_on(cls: type) -> dict[str, tuple[tuple[str, int | str], ...]]:
    """Where ``forward`` hands each of its parameters, as it came, to a call of ``self.<attr>``:
    ``{param: ((attr, position or keyword), ...)}`` (the chatbot tutorial's greedy searcher
    hands ``input_length`` to ``self.encoder(input_seq, input_length)``, whose ``forward``
    gives it to ``pack_padded_sequence``). NB: positions up to the first ``*args``."""
    fdef = _forward_def(cls)
    params = set(forward_params(cls))
    out: dict[str, list[tuple[str, int | str]]] = {}
    for node in ast.walk(fdef) if fdef is not None else ():
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "self"):
            continue
        for i, a in enumerate(node.args):
            if isinstance(a, ast.Starred):
                break
            if isinstance(a, ast.Name) and a.id in params:
                out.setdefault(a.id, []).append((node.func.attr, i))
        for k in node.keywords:
            if k.arg and isinstance(k.value, ast.Name) and k.value.id in params:
                out.setdefault(k.value.id, []).append((node.func.attr, k.arg))
    return {k: tuple(v) for k, v in out.items()}


@functools.lru_cache(maxsize=256)
def delegate(cls: type) -> str:
    """The attribute of ``self`` that ``forward`` hands its arguments on to, as they came
    (DeepSpeed's ``InferenceEngine``: ``return self.module(*inputs, **kwargs)``; a wrapper's
    ``self.model(x)``), so each argument sits where it sat in the caller's call; '' where
    none. NB: positional parameters in order, then ``*args``, and ``**kwargs`` or nothing."""
    fdef = _forward_def(cls)
    if fdef is None:
        return ""
    a = fdef.args
    if a.posonlyargs or a.kwonlyargs:
        return ""
    params = [p.arg for p in a.args[1:]]
    for node in ast.walk(fdef):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "self"):
            continue
        given = [x.id if isinstance(x, ast.Name) else
                 f"*{x.value.id}" if isinstance(x, ast.Starred) and isinstance(x.value, ast.Name)
                 else "" for x in node.args]
        want = params + ([f"*{a.vararg.arg}"] if a.vararg is not None else [])
        spread = [k for k in node.keywords if k.arg is None]
        kws_ok = (not node.keywords and a.kwarg is None) or (
            len(node.keywords) == 1 and len(spread) == 1 and a.kwarg is not None
            and isinstance(spread[0].value, ast.Name) and spread[0].value.id == a.kwarg.arg)
        if given == want and kws_ok:
            return node.func.attr
    return ""


@functools.lru_cache(maxsize=256)
def moved_attributes(cls: type) -> frozenset[str]:
    """The ``self.<attr>`` that ``forward`` moves to a device where it reads them (threestudio's
    background: ``self.env_color.to(dirs)``; ``.cuda()``, ``.type_as(x)``): where the module's
    own tensors are does not matter there. A cast to a dtype alone is no move."""
    fdef = _forward_def(cls)
    out: set[str] = set()
    for n in ast.walk(fdef) if fdef is not None else ():
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) \
                and isinstance(v := n.func.value, ast.Attribute) \
                and isinstance(v.value, ast.Name) and v.value.id == "self" and (
                    n.func.attr in ("cuda", "type_as")
                    or (n.func.attr == "to" and (n.args or n.keywords) and not _only_dtype(n))):
            out.add(v.attr)
    return frozenset(out)


def _moves(fdef: ast.FunctionDef | ast.AsyncFunctionDef, name: str, globs: dict[str, Any],
           depth: int, cls: type | None = None) -> bool:
    """``fdef`` moves its parameter ``name`` to a device (``name.to(d)``, ``name.cuda()``), or
    a local it binds to it as it is (``idx = name``), or hands it to a plain function of its
    module, or a method of ``cls``, that does (sGDML's ``forward`` hands the indices to
    ``self._forward``, which moves them to where its cached descriptors are). NB: reads
    source, the function's globals dict and the class's own ``__dict__``s only; a
    ``.to(torch.float16)`` is a cast, not a move."""
    for node in ast.walk(fdef):
        if isinstance(node, ast.Assign) and _remade_elsewhere(node, name):
            return True
        if isinstance(node, ast.Assign) and depth < _MAX_HELPER_DEPTH \
                and isinstance(node.value, ast.Name) and node.value.id == name \
                and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and node.targets[0].id != name \
                and _moves(fdef, node.targets[0].id, globs, depth + 1, cls):
            return True
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == name \
                and (f.attr == "cuda" or (f.attr == "to" and not _only_dtype(node))):
            return True
        if depth >= _MAX_HELPER_DEPTH:
            continue
        helper: Any = None
        skip = 0
        if isinstance(f, ast.Name):
            helper = globs.get(f.id)
        elif cls is not None and isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) \
                and f.value.id == "self":
            helper, skip = _tree._type_dict_lookup(cls, f.attr), 1
        if type(helper) is not types.FunctionType:
            continue
        hdef = _def_of(helper)
        inner = getattr(helper, "__globals__", None)
        if hdef is None or type(inner) is not dict:
            continue
        for i, a in enumerate(node.args):
            if isinstance(a, ast.Starred):
                break
            if isinstance(a, ast.Name) and a.id == name and i + skip < len(hdef.args.args) \
                    and _moves(hdef, hdef.args.args[i + skip].arg, inner, depth + 1, cls):
                return True
    return False


def _remade_elsewhere(stmt: ast.Assign, name: str) -> bool:
    """``name = torch.zeros_like(input_)``, ``name = torch.zeros(n, device=x.device)``: the
    parameter replaced by a tensor made where another one is (snntorch's neurons remake a
    placeholder state on the input's device). NB: as a move, whatever guards it."""
    if not any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets):
        return False
    v = stmt.value
    if not isinstance(v, ast.Call) or not isinstance(v.func, ast.Attribute) \
            or not (isinstance(v.func.value, ast.Name) and v.func.value.id == "torch"):
        return False
    fn = v.func.attr
    if fn.endswith("_like"):
        src = v.args[0] if v.args else None
        return isinstance(src, ast.Name) and src.id != name
    dev = next((k.value for k in v.keywords if k.arg == "device"), None)
    return fn in FACTORIES and isinstance(dev, ast.Attribute) and dev.attr == "device" \
        and isinstance(dev.value, ast.Name) and dev.value.id != name


def _only_dtype(call: ast.Call) -> bool:
    """``t.to(torch.float16)`` / ``t.to(dtype=...)``: a cast, no device."""
    if any(k.arg == "device" for k in call.keywords):
        return False
    if not call.args:
        return True
    a = call.args[0]
    return len(call.args) == 1 and isinstance(a, ast.Attribute) and isinstance(
        a.value, ast.Name) and a.value.id == "torch" and a.attr in _DTYPE_NAMES


_DTYPE_NAMES = frozenset({"float16", "float32", "float64", "bfloat16", "half", "float", "double",
                          "int8", "int16", "int32", "int64", "long", "int", "uint8", "bool",
                          "complex64", "complex128"})


def _def_of(fn: Any) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    try:
        lines, _start = inspect.getsourcelines(fn)
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except (OSError, TypeError, SyntaxError, IndentationError):
        return None
    fdef = tree.body[0] if tree.body else None
    return fdef if isinstance(fdef, ast.FunctionDef | ast.AsyncFunctionDef) else None


def _anchor(fdef: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    """The expression for "the input's device": the first argument after self, if a tensor."""
    args = fdef.args.args[1:]
    if args:
        ann = ast.unparse(args[0].annotation) if args[0].annotation is not None else "Tensor"
        if "Tensor" in ann:
            return f"{args[0].arg}.device"
    return "next(self.parameters()).device"


def _targets(fdef: ast.AST) -> dict[int, tuple[str, ast.expr]]:
    """id(call) -> (name it is assigned to, the assigned value), for ``h = torch.zeros(...)``."""
    out: dict[int, tuple[str, ast.expr]] = {}
    for node in ast.walk(fdef):
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            tgt = node.targets[0]
            names = [tgt] if isinstance(tgt, ast.Name) else (
                list(tgt.elts) if isinstance(tgt, ast.Tuple) else [])
            if len(names) == 1 and isinstance(names[0], ast.Name):
                for sub in ast.walk(node.value):
                    if isinstance(sub, ast.Call):
                        out.setdefault(id(sub), (names[0].id, node.value))
    return out


class _Ctx:
    def __init__(self, fn: Any, start: int, label: str, anchor: str,
                 targets: dict[int, tuple[str, ast.expr]], nums: Numbers) -> None:
        self.fn, self.start, self.label = fn, start, label
        self.anchor, self.targets, self.numbers = anchor, targets, nums
        self.where = fn.__qualname__

    def check(self, call: ast.Call) -> list[Issue]:
        func = call.func
        if not isinstance(func, ast.Attribute):
            return []
        device = next((k.value for k in call.keywords if k.arg == "device"), None)
        if func.attr in FACTORIES and self._is_torch(func.value):
            if device is None:
                scalar = _scalar_reads(call) if func.attr in ("tensor", "as_tensor") else None
                if scalar == ():
                    return []  # NB: ``torch.tensor(2.0)``: 0-dim, fine beside any device
                issue = self._issue(call, "forward_no_device", "has no device, so it lands on "
                                    "the default device (cpu) whatever device the module is on")
                return [replace(issue, scalar_if=scalar or ())]
            if _hardcoded(device):
                return [replace(self._issue(call, "forward_hardcoded_device",
                                            f"pins it to {ast.unparse(device)} whatever device "
                                            "the module is on"), pinned=_pinned(device))]
        elif func.attr == "cuda" or (func.attr == "to" and _hardcoded(
                call.args[0] if call.args else device)):
            target = (call.args[0] if call.args else device) if func.attr == "to" else (
                call.args[0] if call.args else None)
            return [replace(self._issue(call, "forward_hardcoded_device",
                                        "pins it to one GPU whatever device the module is on"),
                            pinned=_pinned(target) if target is not None else "cuda")]
        return []

    def _is_torch(self, node: ast.expr) -> bool:
        if isinstance(node, ast.Name):
            mod = self.fn.__globals__.get(node.id)
            return getattr(mod, "__name__", None) == "torch"
        return False

    def _issue(self, call: ast.Call, kind: str, what: str) -> Issue:
        line = self.start + call.lineno - 1
        name, value = self.targets.get(id(call), ("", call))
        fixed = ast.unparse(_fixed(value, call, self.anchor))
        fix = f"{name} = {fixed}" if name else fixed
        if kind == "forward_no_device":
            fix += "  # or create it once in __init__ with self.register_buffer(...)"
        src = ast.unparse(call)
        src = src if len(src) <= 50 else src[:47] + "..."
        msg = (f"{self.where} ({self.label} line {line}): `{src}` {what}; this fails under "
               "DataParallel on cuda:1 or once the module moves.")
        return Issue("warning", kind, 0, msg, fix, name, self.where)


def _scalar_reads(call: ast.Call) -> tuple[str, ...] | None:
    """For ``torch.tensor(v)``: () when ``v`` is a number whatever runs (``2.0``, ``-1 / 3``),
    the ``self`` attributes it reads when it is arithmetic of those and numbers (a number when
    each of them is), None when it may be anything else (a list makes a tensor with dims)."""
    if len(call.args) != 1:
        return None
    attrs: list[str] = []
    for n in ast.walk(call.args[0]):
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) \
                and n.value.id == "self":
            attrs.append(n.attr)
        elif isinstance(n, ast.Constant):
            if not isinstance(n.value, int | float) or isinstance(n.value, bool):
                return None
        elif not isinstance(n, ast.BinOp | ast.UnaryOp | ast.operator | ast.unaryop
                            | ast.Name | ast.Load) or (isinstance(n, ast.Name) and n.id != "self"):
            return None
    return tuple(dict.fromkeys(attrs))


def _pinned(node: ast.expr) -> str:
    """The device a literal names ("cuda:0" for ``"cuda:0"``, ``0``, ``torch.device("cuda",
    0)``); "" when it is not a literal."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return f"cuda:{node.value}"
    if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
        kind, index = node.args[0].value, None
        if len(node.args) > 1 and isinstance(node.args[1], ast.Constant):
            index = node.args[1].value
        if not isinstance(kind, str):
            return ""
        return f"{kind}:{index}" if type(index) is int else kind
    return ""


def _hardcoded(node: ast.expr | None) -> bool:
    """``"cuda:0"``, ``"cuda"``, ``torch.device("cuda", 1)``: a device spelled out literally."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and node.value.startswith(("cuda", "xpu", "mps"))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr == "device" and bool(node.args) and _hardcoded(node.args[0])
    return False


def _span(node: ast.expr) -> tuple[Any, ...]:
    return (node.lineno, node.col_offset, node.end_lineno, node.end_col_offset)


def _fixed(value: ast.expr, call: ast.Call, anchor: str) -> ast.expr:
    """``value`` with ``call`` rewritten to take ``device=<anchor>``."""

    class Fix(ast.NodeTransformer):
        def visit_Call(self, node: ast.Call) -> ast.AST:
            self.generic_visit(node)
            if _span(node) != _span(call):
                return node
            dev = ast.parse(anchor, mode="eval").body
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in ("cuda", "to"):
                return ast.Call(ast.Attribute(func.value, "to", ast.Load()), [dev], [])
            kws = [k for k in node.keywords if k.arg != "device"]
            return ast.Call(node.func, node.args, [*kws, ast.keyword("device", dev)])

    return Fix().visit(copy.deepcopy(value))  # type: ignore[no-any-return]
