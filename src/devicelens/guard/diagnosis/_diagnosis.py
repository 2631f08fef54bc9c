"""One diagnosis for the guard and the post-mortem alike: operands -> culprits -> user names ->
one consistent, complete fix.

The guard hands in the failing op's exact arguments; the post-mortem only has a traceback, so the
operands are read off the failing statement (only what it touches, never its assignment target).
The expected device (dtype) is decided once (:mod:`._decide`), culprits are named where the user
knows them (:mod:`._origin`), and the rest of the cell is checked too (:mod:`._complete`), so
applying the printed fix once lets the cell run.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from ..running._frames import CellFiles, Frame, cell_lines, frame_locals, internal_file
from . import _source
from ._blame import Named, Operand, _local_tensors, describe_tensor, is_packed, is_tensor
from ._complete import cell_extras, layer_siblings
from ._context import Ctx, Failure, Op
from ._edits import Edit
from ._handle import with_handle
from ._mismatch import MismatchReport, is_float
from ._naming import blame_for, blames_from_origins, titles, view_base
from ._owners import with_owners
from ._recompute import recompute
from ._redispatch import moved_after_dispatch
from ._roles import select
from ._trace import Want


def diagnose(failure: Failure, frames: list[Frame], ns: dict[str, Any], is_cell: CellFiles, *,
             tensors: list[tuple[str, Any]] | None = None, forced: str | None = None,
             complete: bool = True) -> MismatchReport:
    """The report for one failure; ``tensors``: the failing op's arguments, when known."""
    ctx = Ctx(frames, ns, is_cell)
    if tensors is None:
        ops = candidates(ctx)
    else:
        ops = [Op(describe_tensor(t, where, ctx.namer.label(t, where)), t) for where, t in tensors]
    expected, culprits = judge(ctx, failure, ops, forced)
    if tensors is not None:
        culprits = _behind_temporaries(ctx, failure, culprits, others=complete)
    ctx.anchor = _anchor(ctx, ops, expected) if failure.kind == "device" else ""
    blames = [b for op in culprits for b in blame_for(ctx, failure, expected, op)]
    if not blames:
        blames = temporaries(ctx, failure, expected, ops)
    extras, covered = cell_extras(ctx, failure, expected, blames) if complete else ([], set())
    if complete:
        extras += layer_siblings(ctx, failure, expected, blames)
    # NB: a finding's fix (the whole module, the optimizer's state) replaces the culprit's own
    blames = [b._replace(fixes=()) if b.operand is not None and b.operand.named.root in covered
              else b for b in blames]
    every = blames + extras
    culprit_ops = _unique([b.operand for b in every if b.operand is not None], failure.kind)
    fixes = _one_move_per_module(ctx, [f for b in blames for f in b.fixes if f],
                                 [f for b in extras for f in b.fixes if f])
    edits = tuple(dict.fromkeys(e for b in every for e in b.edits))
    if fixes and any(f.startswith("#") for f in fixes) and (edits or not all(
            f.startswith("#") for f in fixes)):
        fixes = tuple(f for f in fixes if not f.startswith("#"))  # NB: code, not comments
    notes = tuple(dict.fromkeys(n for b in every for n in b.notes))
    redo = recompute(failure.kind, [o.operand for o in ops], frames)
    if redo is not None:  # NB: the Function that re-ran the code is what to change, not the code
        fixes, edits, notes = (), redo.edits, (redo.note,)
    moved = moved_after_dispatch(failure.kind, ctx.stack, ctx.namer, ctx.resolve,
                                 _cell_files(is_cell))
    if moved is not None:  # NB: the model's load is what to change, not the layer or the data
        # NB: a layer's own locals on the map's device are what the hooks did, not culprits
        culprit_ops = [moved.culprit, *(o for o in culprit_ops if o.named.root in ctx.ns)]
        fixes, edits, notes = (), moved.edits, (moved.note,)
    stack = ctx.stack
    report = MismatchReport(
        failure.kind, failure.op, _shown_expected(failure, expected),
        tuple(o.operand for o in ops), tuple(culprit_ops),
        ctx.namer.module_label(stack[0]) if stack else "",
        tuple(cell_lines(frames, is_cell)), fixes, notes,
        _merge_edits(with_owners(edits, frames, ctx.namer)),
        titles(failure, ops))
    return with_handle(report, frames, ctx.namer, is_cell)


def _cell_files(is_cell: CellFiles) -> list[str]:
    """The cells' file names linecache holds, newest first."""
    import linecache

    return [f for f in reversed(list(linecache.cache)) if is_cell(f)]


def _anchor(ctx: Ctx, ops: list[Op], expected: str) -> str:
    """A plain namespace tensor already on the expected device, for ``y.to(x.device)``; never
    one the failing cell makes itself (running the fix first, it would not exist yet)."""
    sc, _stmt = ctx.statement(ctx.cell)
    for o in ops:
        n = o.operand.named
        if o.operand.device == expected and n.role == "tensor" and n.code and n.code == n.root \
                and not (sc is not None and _source.assignments(sc.code, n.root, 1 << 30)):
            return n.code
    return ""


_MOVE = re.compile(r"^([A-Za-z_][\w.]*(?:\[[^\]]+\])*)\.to\([^()]*\)$")


def _one_move_per_module(ctx: Ctx, own: list[str], found: list[str]) -> tuple[str, ...]:
    """The fixes, each module moved once whatever name it goes by (``net`` and
    ``dp.module``): a finding's fix wins over the op's own."""
    import torch

    seen: set[int] = set()
    keep: dict[str, None] = {}
    for fix in [*found, *own]:
        m = _MOVE.match(fix)
        obj = _resolve_code(ctx, m.group(1)) if m else None
        if issubclass(type(obj), torch.nn.Module):
            if id(obj) in seen:
                continue
            seen.add(id(obj))
        keep[fix] = None
    order = list(dict.fromkeys([*own, *found]))
    return tuple(f for f in order if f in keep)


def _resolve_code(ctx: Ctx, code: str) -> Any:
    return ctx.resolve(code)


def _unique(ops: list[Operand], kind: str = "device") -> list[Operand]:
    """Each culprit once; an optimizer's tensors (state, the parameters it holds, their grads)
    as one line for the optimizer: one object, one fix, said by device or (a ``kind`` of
    dtype) by dtype."""
    seen: set[str] = set()
    out = []
    held: dict[str, list[Operand]] = {}
    for o in ops:
        if _optimizer_held(o):
            held.setdefault(_optimizer_path(o), []).append(o)
        elif o.named.name not in seen:
            seen.add(o.named.name)
            out.append(o)
    for path, group in held.items():
        if path in seen:
            continue
        if kind == "device":
            where = "on " + ", ".join(sorted({o.device for o in group}))
        else:
            where = "in " + ", ".join(sorted({o.dtype for o in group}))
        what = f"{len(group)} tensor{'s' * (len(group) != 1)} it holds {where}"
        named = Named(path, path, "object", group[0].named.root)
        out.append(Operand("", named, group[0].device, "", (), what))
    return out


def _optimizer_path(o: Operand) -> str:
    """The optimizer's own path (``net.optim`` of ``net.optim.state[...]``), not its holder's."""
    n = o.named
    for mark in (".state[", ".param_groups["):
        if mark in n.code:
            return n.code.split(mark)[0]
    return n.root


def _optimizer_held(o: Operand) -> bool:
    n = o.named
    return bool(n.root) and (n.role in ("state", "opt_param") or (
        n.role == "grad" and ".param_groups[" in n.name))


def _merge_edits(edits: tuple[Edit, ...]) -> tuple[Edit, ...]:
    """One edit per quoted line: two fixes of the same line are one edit, with both changes
    where they touch different places of it (``(torch.randn(n), torch.randn(n))``, each made
    on the cpu), else the first."""
    out: dict[tuple[str, ...], Edit] = {}
    for e in edits:
        got = out.get(e.old)
        if got is None:
            out[e.old] = e
        elif got.new != e.new:
            both = _both("\n".join(e.old), "\n".join(got.new), "\n".join(e.new))
            if both is not None:
                out[e.old] = got._replace(new=tuple(both.split("\n")))
    return tuple(out.values())


def _both(old: str, a: str, b: str) -> str | None:
    """``old`` with the changes ``a`` and ``b`` each make to it, where they do not overlap
    (two insertions at one place do); None otherwise."""
    from difflib import SequenceMatcher
    from itertools import pairwise

    ops = [(i1, i2, src[j1:j2]) for src in (a, b)
           for tag, i1, i2, j1, j2 in SequenceMatcher(None, old, src, autojunk=False).get_opcodes()
           if tag != "equal"]
    ops.sort()
    if any(p[1] > q[0] or (p[0] == p[1] == q[0]) for p, q in pairwise(ops)):
        return None
    text = old
    for i1, i2, new in reversed(ops):
        text = text[:i1] + new + text[i2:]
    return text


def _shown_expected(failure: Failure, expected: str) -> str:
    rule = failure.rule
    if rule is not None and rule.want == "cpu_int64":
        return "cpu"
    return expected


# --- operands ----------------------------------------------------------------------------------

def _behind_temporaries(ctx: Ctx, failure: Failure, culprits: list[Op], *,
                        others: bool) -> list[Op]:
    """The guard's culprits read as the post-mortem reads the failing statement: a temporary
    it made (``self.alpha * self.avg_baseline``) is the named operand with the same device
    (dtype) and shape (``actor.avg_baseline``); with ``others`` (not for ``--autofix``, which
    reports the op's own arguments it moved), the statement's other operands on a culprit's
    device are culprits too."""
    if not culprits:
        return culprits
    attr = "device" if failure.kind == "device" else "dtype"
    read = [Op(describe_tensor(t, where, ctx.namer.label(t, where)), t)
            for where, t in statement_tensors(ctx, ctx.user)]
    named = [o for o in read if o.operand.named.role not in ("unnamed", "local")]
    if all(o.operand.named.role == "unnamed" for o in culprits):
        wrong = {(getattr(o.operand, attr), o.operand.shape) for o in culprits}
        found = [o for o in named if (getattr(o.operand, attr), o.operand.shape) in wrong]
        # NB: temporaries the statement makes from its own names (``hidden.repeat(...)``, a
        # function's locals): those names, each the statement reads with the culprits' device
        # (dtype), as the post-mortem reads them
        bad = {getattr(o.operand, attr) for o in culprits}
        return found or [o for o in read if o.operand.named.role != "unnamed"
                         and getattr(o.operand, attr) in bad and not o.operand.scalar_cpu] \
            or [o for o in _held_by_arguments(ctx, _library_caller(ctx)).values()
                if getattr(o.operand, attr) in bad] or culprits
    if failure.kind != "device" or not others:
        return culprits
    # NB: the statement's other operands on the culprit's device fail next (``self.meta(meta)``
    # after ``self.img(image)``): named now, as the post-mortem, which reads them all, does
    seen = {id(o.tensor) for o in culprits} | {id(view_base(o.tensor)) for o in culprits}
    devices = {o.operand.device for o in culprits}
    return culprits + [o for o in read if o.operand.named.role != "unnamed"
                       and id(o.tensor) not in seen
                       and o.operand.device in devices and not o.operand.scalar_cpu]


def candidates(ctx: Ctx) -> list[Op]:
    """What the failing op most likely saw (post-mortem: no arguments, only frames)."""
    out: dict[int, Op] = {}
    caller = _library_caller(ctx)
    if caller >= 0 and (not ctx.is_user(ctx.frames[caller].frame.f_code.co_filename)
                        or _checks(ctx, caller)):
        f = ctx.frames[caller].frame
        local = frame_locals(f)
        # NB: the cpu ``batch_sizes`` of a PackedSequence it holds, unpacked to a local of its
        # own (``LSTM.forward``): no stray
        sizes = {id(tuple.__getitem__(v, 1)) for v in local.values() if is_packed(v)}
        for k, v in local.items():
            if k == "self":
                _own_tensors(ctx, out, v, ctx.frames[caller])
                continue
            found = [(sub, t) for sub, t in _local_tensors(v) if id(t) not in sizes]
            for sub, t in found:
                _add(ctx, out, t, f"`{k}{sub}` in {f.f_code.co_qualname}")
        for key, op in _held_by_arguments(ctx, caller).items():
            out.setdefault(key, op)
        if ctx.stack:
            from ...inspect import _tree

            parts = _tree.module_parts(ctx.stack[0])
            for name, v in [*parts.params, *parts.buffers, *parts.attrs]:
                if is_tensor(v):
                    _add(ctx, out, v, f"{type(ctx.stack[0]).__name__}.{name}")
    for where, v in statement_tensors(ctx, ctx.user):
        _add(ctx, out, v, where)
    return list(out.values())


def _held_by_arguments(ctx: Ctx, i: int) -> dict[int, Op]:
    """What the plain objects a library function was handed hold and its failing line reads
    (a distribution ``p`` of ``kl_divergence``: ``p._unbroadcasted_scale_tril``): operands as
    surely as its own locals, though the op saw only temporaries made of them."""
    out: dict[int, Op] = {}
    if i < 0 or ctx.is_user(ctx.frames[i].frame.f_code.co_filename):
        return out
    fr = ctx.frames[i]
    for k, v in frame_locals(fr.frame).items():
        if k != "self" and not _local_tensors(v):
            _own_tensors(ctx, out, v, fr, k)
    return out


def _library_caller(ctx: Ctx) -> int:
    """The innermost frame outside torch's private machinery (-1 when none)."""
    return next((i for i, fr in enumerate(ctx.frames)
                 if not internal_file(fr.frame.f_code.co_filename)), -1)


def _own_tensors(ctx: Ctx, out: dict[int, Op], obj: Any, fr: Frame, me: str = "self") -> None:
    """The tensors a library method's plain ``self`` holds and its failing line reads (a
    distribution's transform: ``(y - self.loc) / self.scale``): operands as surely as its
    locals. NB: a module's are read as the module stack's; read from ``__dict__``, no property
    runs; an attribute the line does not name is no operand (where there is a line to read)."""
    import linecache

    from ...inspect._types import instance_dict
    from ._blame import is_module

    if is_module(obj) or is_tensor(obj) or type(obj) in (int, float, bool, str, type(None)):
        return
    code = fr.frame.f_code
    line = linecache.getline(code.co_filename, fr.lineno)
    owner = (code.co_qualname.rpartition(".")[0] if me == "self" else "") \
        or type(obj).__name__
    for name, v in list((instance_dict(obj) or {}).items()):
        # NB: code run from a string has no line to read: every tensor of its ``self`` then
        if type(name) is str and is_tensor(v) and (
                not line.strip() or re.search(rf"\b{me}\.{re.escape(name)}\b", line)):
            _add(ctx, out, v, f"{owner}.{name}")


def _checks(ctx: Ctx, i: int) -> bool:
    """Frame ``i`` failed on a ``raise`` or an ``assert`` of its own: code that checks devices
    itself (a library's ``ASSERT_ALL_TENSORS_AT_SAME_DEVICE``), whose tensors are its locals,
    not operands of the line."""
    _sc, stmt = ctx.statement(i)
    return isinstance(stmt, ast.Raise | ast.Assert)


def _add(ctx: Ctx, out: dict[int, Op], t: Any, where: str) -> None:
    if id(t) not in out:
        out[id(t)] = Op(describe_tensor(t, where, ctx.namer.label(t, where)), t)


def statement_tensors(ctx: Ctx, i: int) -> list[tuple[str, Any]]:
    """Tensors the statement at frame ``i``'s line reads (its targets are not read, except an
    augmented assignment's)."""
    sc, stmt = ctx.statement(i)
    if stmt is None:
        return []
    tracer = ctx.tracer(Want("device", "", "", "", ""))
    nodes = _source.own_nodes_of(stmt)
    if isinstance(stmt, ast.AugAssign):
        nodes = [stmt.target, *nodes]
    parents = {id(c): n for n in nodes for c in ast.iter_child_nodes(n)}
    # NB: a library's own check (``raise TypeError(f"... {t['labels'].dtype}")``) is about
    # the tensor whose dtype or device its message reads
    checked = _CHECKED if isinstance(stmt, ast.Raise | ast.Assert) else frozenset()
    out = []
    for node in nodes:
        parent = parents.get(id(node))
        if isinstance(parent, ast.Attribute) and parent.attr in _NOT_OPERAND \
                and parent.attr not in checked:
            continue  # NB: `x.shape`, `t.cpu()`: the op never sees `x` or `t` themselves
        if isinstance(node, ast.Name | ast.Attribute | ast.Subscript) and (
                isinstance(node.ctx, ast.Load) or node is getattr(stmt, "target", None)):
            obj = tracer.live(sc, node) if not isinstance(node, ast.Name) else (
                sc.values[node.id] if node.id in sc.values else sc.globals.get(node.id))
            if is_tensor(obj):
                out.append(("", obj))
            elif type(obj) in (list, tuple) and isinstance(parent, ast.Call) \
                    and node in parent.args:
                # NB: a list handed to the op (``torch.cat(parts)``): its tensors are operands
                out += [("", t) for t in obj[:MAX_ITEMS] if is_tensor(t)]
        if isinstance(node, ast.Call):
            out += _unpacked(tracer, sc, node)
    return out


def _unpacked(tracer: Any, sc: Any, call: ast.Call) -> list[tuple[str, Any]]:
    """The tensors a call hands on unpacked, ``function(data, *args, **kwargs)`` (torchmetrics'
    ``apply_to_collection`` passing ``index=`` on to ``torch.index_select``): the items of a
    plain tuple or list, the values of a plain dict. NB: base types' own iteration only."""
    out: list[tuple[str, Any]] = []
    for node in [a.value for a in call.args if isinstance(a, ast.Starred)] \
            + [k.value for k in call.keywords if k.arg is None]:
        obj = tracer.live(sc, node) if not isinstance(node, ast.Name) else (
            sc.values[node.id] if node.id in sc.values else sc.globals.get(node.id))
        items = (list(obj)[:MAX_ITEMS] if type(obj) in (list, tuple) else
                 list(dict.values(obj))[:MAX_ITEMS] if type(obj) is dict else [])
        out += [("", t) for t in items if is_tensor(t)]
    return out


#: at most this many tensors of one list a statement hands an op are read as its operands
MAX_ITEMS = 64


_CHECKED = frozenset({"device", "dtype"})
_NOT_OPERAND = frozenset({"shape", "size", "device", "dtype", "ndim", "dim", "numel", "is_cuda",
                          "to", "cpu", "cuda", "item", "tolist", "numpy", "data_ptr",
                          "is_floating_point", "requires_grad", "grad_fn", "stride"})


# --- culprits ----------------------------------------------------------------------------------

def judge(ctx: Ctx, failure: Failure, ops: list[Op], forced: str | None) -> tuple[str, list[Op]]:
    if failure.rule is not None and failure.rule.role == "checked":
        # NB: a library's own check is about what its raising line reads, not every local of
        # its frames (:func:`._roles.select` judges those)
        read = {id(t) for _, t in statement_tensors(ctx, ctx.user)} if ctx.user >= 0 else set()
        ops = [o for o in ops if id(o.tensor) in read]
    return select(ctx, failure, ops, forced)


#: a gradient assigned to a tensor of another dtype: its dtype, and the tensor's
_GRAD_DTYPES = re.compile(r"gradient with dtype '([^']+)' to a tensor with (?:grad_)?dtype "
                          r"'([^']+)'")


def temporaries(ctx: Ctx, failure: Failure, expected: str, ops: list[Op]) -> list[Any]:
    """No operand is to blame: the culprit is a temporary made by the user's code."""
    if ctx.user < 0:
        return []
    if failure.kind == "dtype":
        return _assigned_grad(ctx, failure, expected)
    if failure.kind != "device":
        return []
    others = [d for d in failure.devices if d != expected] or [
        o.operand.device for o in ops if o.operand.device != expected]
    if not others:
        return []
    want = Want("device", others[0], "", expected, failure.rule.want if failure.rule else "")
    tracer = ctx.tracer(want)
    origins = tracer.temporary(ctx.user)
    if not origins:
        from ._reached import reached_by_line

        origins = reached_by_line(ctx, tracer)
    if not origins:
        return []
    fake = Op(Operand("", Named("a temporary", "", "unnamed", ""), others[0], "", (),
                      f"made on {others[0]}"), None)
    return blames_from_origins(ctx, failure, expected, fake, origins, want)


def _assigned_grad(ctx: Ctx, failure: Failure, expected: str) -> list[Any]:
    """``p.grad = torch.from_numpy(g)`` of another dtype than ``p`` (SecretFlow's averaged
    gradients, float64 for a float32 model): the assigned value is a temporary the failed
    assignment left nowhere; the message names both dtypes, and the value's trail is
    followed from the failing line."""
    from ._decide import dtype_name

    m = _GRAD_DTYPES.search(failure.text)
    if m is None:
        return []
    grad, target = dtype_name(m.group(1)), dtype_name(m.group(2))
    if grad == target or expected not in ("", target):
        return []
    want = Want("dtype", "", grad, target, failure.rule.want if failure.rule else "")
    origins = ctx.tracer(want).temporary(ctx.user)
    if not origins:
        return []
    fake = Op(Operand("", Named("the assigned gradient", "", "unnamed", ""), "", grad, (),
                      f"made in {grad}"), None)
    return blames_from_origins(ctx, failure, target, fake, origins, want)


def floats(ops: list[Op]) -> list[Op]:
    return [o for o in ops if is_float(o.operand.dtype) and o.operand.shape != ()]
