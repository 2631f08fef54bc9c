"""A culprit operand, as printed: the user's name for it and the fix (or edit) that puts it right.

A namespace culprit gets a line of code in its own name (``y = y.to("cuda:0")``); one the namespace
does not hold is traced back (:mod:`._origin`) to the namespace object it came from or to the
line of code that made it, which becomes an edit. A tensor kept as a plain module attribute also
gets the edit of ``__init__`` that registers it as a buffer, so ``Module.to()`` moves it next time.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from ...inspect import _tree
from ..running._frames import frame_locals
from . import _edits, _roles, _source
from ._blame import Named, Operand, describe_tensor, is_module, is_tensor, meta
from ._context import Blame, Ctx, Failure, Op
from ._edits import Edit
from ._mismatch import optimizer_fix
from ._trace import Origin, Scope, Want, namespace_scope

_CASTS = {"float32": "float()", "float64": "double()", "float16": "half()",
          "bfloat16": "bfloat16()", "int64": "long()", "int32": "int()", "bool": "bool()"}


def blame_for(ctx: Ctx, failure: Failure, expected: str, op: Op) -> list[Blame]:
    from ..families._crossed import crossed_update
    from ..families._lengths import lengths_blame

    named = op.operand.named
    rule = failure.rule
    packed = lengths_blame(ctx, failure, op)
    if packed is not None:
        return [packed]
    crossed = crossed_update(ctx, failure, op)
    if crossed is not None:
        return [crossed]
    want = Want(failure.kind, op.operand.device, op.operand.dtype, expected,
                rule.want if rule is not None else "")
    tracer = ctx.tracer(want)
    inplace = _in_place_edit(ctx, tracer, failure, named)
    if inplace:
        return blames_from_origins(ctx, failure, expected, op, inplace, want)
    if named.role not in ("local", "unnamed"):
        holder = ctx.namer.holder(op.tensor)  # NB: `y` itself for `y.view(-1)`
        origins = [Origin(named.name, named.code, holder, named.role)]
        trail = _cell_trail(ctx, tracer, named)
        source = _source_in_cell(trail, named) or _kept_from_caller(ctx, tracer, op)
        code = [] if source else (
            _rebound_in_cell(trail, named) or _remade_by_method(ctx, tracer, op)
            or _dropped_on_the_way(ctx, tracer, op))
        if source:
            origins = source
        elif code:
            origins = [origins[0]._replace(role="rebuilt", edit=c.edit) for c in code]
        else:
            origins += _siblings(ctx, tracer, named, holder)
    else:
        built = _built_here(ctx, failure, expected, op)
        if built is not None:
            return [built]
        loc = ctx.namer.local_at.get(id(op.tensor))
        base = view_base(op.tensor)
        if loc is None and base is not None:
            loc = ctx.namer.local_at.get(id(base))
        held = ctx.namer.held_at.get(id(op.tensor)) if loc is None else None
        origins = tracer.local(*loc) if loc is not None else (
            (tracer.kept(*held) if held is not None else []) or tracer.temporary(ctx.user))
        if not origins:
            from ._reached import reached_by_line

            origins = reached_by_line(ctx, tracer, op.tensor) or reached_by_line(ctx, tracer)
        if not origins and failure.kind == "dtype":
            from ..families._held_attr import attribute_origins

            origins = attribute_origins(ctx, op, expected)
    return blames_from_origins(ctx, failure, expected, op, origins, want)


def _built_here(ctx: Ctx, failure: Failure, expected: str, op: Op) -> Blame | None:
    """A tensor of a module a function built and holds in a local (``encoder``, run on the
    GPU before the function moves it): the module is the culprit, and the fix moves it where
    that function holds it, before the line it is at (``encoder.to(device)``)."""
    held = ctx.namer.local_modules.get(id(op.tensor))
    if held is None or failure.kind != "device":
        return None
    m = held[2]
    if held[1] == "self":
        from ._init_parts import made_in_init

        return _built_inline(ctx, op, expected, held[0], m) or made_in_init(
            ctx, op, Want(failure.kind, op.operand.device, op.operand.dtype, expected, ""), m)
    outer = [fr for fr in ctx.frames if ctx.is_user(fr.frame.f_code.co_filename)
             and fr.frame.f_code.co_name != "<module>"
             and any(v is m for v in frame_locals(fr.frame).values())]
    if not outer:
        return None
    fr = outer[-1]  # NB: the outermost: where the function that built it holds it
    name = next(n for n, v in frame_locals(fr.frame).items() if v is m)
    code = _source.frame_code(fr.frame)
    stmt = _source.statement_at(code, fr.lineno) if code is not None else None
    if code is None or stmt is None or not name.isidentifier():
        return None
    edit = _edits.insert_before(code, stmt, f"{name}.to({_device_local(fr, expected)})")
    qual = fr.frame.f_code.co_qualname
    named = Named(f"`{name}` in {qual}", "", "local", "")
    operand = Operand(op.operand.where, named, op.operand.device, op.operand.dtype, (),
                      f"{type(m).__name__}, {op.operand.device}")
    note = (f"`{name}` is built in {qual} and run on {expected} inputs before it is moved "
            "there")
    return Blame(operand, (), (edit,), (note,))


def _built_inline(ctx: Ctx, op: Op, expected: str, at: int, m: Any) -> Blame | None:
    """A module the user's code builds and calls in one expression (a metric made inside a
    ``validation_step``: ``F1(num_classes=n)(preds, y)``), known by no name but the ``self``
    of its own method: the fix moves it where it is built, to its inputs' device
    (``F1(num_classes=n).to(preds.device)(preds, y)``)."""
    cls = type(m).__name__
    for fr in ctx.frames[at + 1:]:
        if not ctx.is_user(fr.frame.f_code.co_filename):
            continue
        code = _source.frame_code(fr.frame)
        stmt = _source.statement_at(code, fr.lineno) if code is not None else None
        if code is None or stmt is None:
            return None
        call = next((n for n in ast.walk(stmt) if isinstance(n, ast.Call) and (
            (isinstance(n.func, ast.Name) and n.func.id == cls)
            or (isinstance(n.func, ast.Attribute) and n.func.attr == cls))), None)
        if call is None or call.end_lineno != call.lineno:
            return None  # NB: it was not built by the line that called it
        line = code.line(call.lineno).encode()
        text = line[call.col_offset:call.end_col_offset].decode()
        local = frame_locals(fr.frame)
        inputs = [n.id for n in ast.walk(stmt) if isinstance(n, ast.Name)
                  and (meta(local.get(n.id)) or ("",))[0] == expected]
        target = f"{inputs[0]}.device" if inputs else _device_local(fr, expected)
        edit = _edits.replace(code, [(call, f"{text}.to({target})")])
        if edit is None:
            return None
        qual = fr.frame.f_code.co_qualname
        named = Named(f"`{cls}(...)` in {qual}", "", "local", "")
        operand = Operand(op.operand.where, named, op.operand.device, op.operand.dtype, (),
                          f"{cls}, {op.operand.device}")
        note = (f"`{text}` is built in {qual} and called at once on {expected} inputs; it "
                f"stays on {op.operand.device}")
        return Blame(operand, (), (edit,), (note,))
    return None


def _device_local(fr: Any, expected: str) -> str:
    """The frame's own name for ``expected`` (``device``), else the device spelled out."""
    import torch

    for k, v in frame_locals(fr.frame).items():
        if k.isidentifier() and ((type(v) is torch.device and str(v) == expected)
                                 or (type(v) is str and v == expected)):
            return k
    return f'"{expected}"'


def _made_earlier(ctx: Ctx, tracer: Any, o: Origin) -> list[Origin]:
    """The line of an earlier cell that made namespace tensor ``o`` what it is (a batch helper
    that moved it along with the rest), as an edit."""
    import re

    root = o.code.split(".")[0].split("[")[0] if o.code else ""
    if not root:
        return []
    key = re.search(r"\[(['\"])(\w+)\1\]$", o.code)
    tracer.item_key = key.group(2) if key else ""
    current = ctx.frames[ctx.cell].frame.f_code.co_filename if ctx.cell >= 0 else ""
    for filename in _source.earlier_cells(current):
        code = _source.code_at(filename, "<module>", 1, "<module>")
        found = _source.assignments(code, root, 1 << 30) if code is not None else []
        if code is None or not found:
            continue
        sc = Scope(code, {}, ctx.ns, found[-1][0].lineno + 1, -1)
        return [x for x in tracer.name(sc, root, 0) if x.role == "code" and x.edit]
    return []


def _dropped_on_the_way(ctx: Ctx, tracer: Any, op: Op) -> list[Origin]:
    """The user's function got the tensor and meant to move it, but dropped the moved copy
    (``mask.to(device)`` on a line of its own), or moved what it unpacked beside it and not it
    (``images, labels = data[0].to(DEVICE), data[1]``): that line is the fix, not the
    namespace (whose data a real loader makes anew at every pass)."""
    from ..families import _code_bugs

    out: list[Origin] = []
    for i, fr in enumerate(ctx.frames):
        if not ctx.is_user(fr.frame.f_code.co_filename) or fr.frame.f_code.co_name == "<module>":
            continue
        sc = tracer.scope(i)
        names = [k for k, v in sc.values.items() if v is op.tensor] if sc is not None else []
        for k in names:
            out += _code_bugs.dropped_moves(tracer, sc, k) or _code_bugs.unmoved_sibling(
                tracer, sc, k)
    return out


def _remade_by_method(ctx: Ctx, tracer: Any, op: Op) -> list[Origin]:
    """A module attribute the running method itself assigned before the failing line
    (``self.pos_index = torch.LongTensor(...)`` in ``forward``), or an item of a dict it holds
    (an optimizer's new state): the namespace holds this call's copy and the next call makes it
    again (or a rerun of the cell starts from an empty state), so moving it fixes nothing; the
    line that makes it is what to change."""
    from ..families import _code_bugs

    for at, value, what in _assigned_by_method(ctx, tracer, op):
        found = [o for o in tracer.expr(at, value, 1) if o.role == "code"]
        found = found or _code_bugs.where_made(tracer, at, value, what)
        if found:
            return found
    return []


def _kept_from_caller(ctx: Ctx, tracer: Any, op: Op) -> list[Origin]:
    """A module attribute the running method bound, before the failing line, to what its
    caller handed it (BindsNET's input layer keeps each step's spikes: ``self.s = x``), where
    the trail of that value reaches the user's own data (``price_data``, passed to
    ``network.run``): that data is the culprit. The namespace path of the attribute holds
    this call's copy; moving it fixes nothing, the next call binds the stray again."""
    for at, value, _what in _assigned_by_method(ctx, tracer, op):
        if not isinstance(value, ast.Name | ast.Attribute | ast.Subscript):
            continue  # NB: a value made on that line is :func:`_remade_by_method`'s
        found: list[Origin] = tracer.expr(at, value, 1)
        if found and all(o.role != "code" for o in found):
            return found
    return []


def _assigned_by_method(ctx: Ctx, tracer: Any, op: Op) -> Any:
    """(scope at the line, value, what it binds) of each statement of a running user method
    that bound, before its current line, the attribute of ``self`` (or the item of a dict it
    holds) that is the operand now; innermost frame first."""
    from ...inspect._types import instance_dict

    for i, fr in enumerate(ctx.frames):
        if not ctx.is_user(fr.frame.f_code.co_filename) or fr.frame.f_code.co_name == "<module>":
            continue
        sc = tracer.scope(i)
        if sc is None or sc.self_obj is None:
            continue
        d = instance_dict(sc.self_obj) or {}
        # NB: a module's buffer too: ``self.s = x`` rebinds a registered one in ``_buffers``
        buffers: Any = dict.get(d, "_buffers") if is_module(sc.self_obj) else None
        attrs = list(dict.items(d)) + (list(dict.items(buffers)) if issubclass(
            type(buffers), dict) else [])
        # NB: or a tuple of them (an LSTM's ``self.hidden = self.init_hidden()``)
        made = [(stmt, value, f"self.{attr}") for attr in
                [k for k, v in attrs if type(k) is str and (
                    v is op.tensor or (type(v) is tuple and any(x is op.tensor for x in v)))]
                for stmt, value in self_assignments(sc.code, attr, sc.line)]
        # NB: an item of a plain dict the method holds (an optimizer's ``state =
        # self.state[p]``; ``state["exp_avg_sq_row"] = torch.zeros(...)`` on its first step)
        made += [(stmt, value, f"{name}[{key!r}]") for name, box in list(sc.values.items())
                 if type(box) is dict for key, v in list(dict.items(box))
                 if v is op.tensor and type(key) is str
                 for stmt, value in _item_assignments(sc.code, name, key, sc.line)]
        for stmt, value, what in made:
            yield sc._replace(line=stmt.lineno), value, what


def _item_assignments(code: Any, name: str, key: str, before: int) -> list[tuple[ast.stmt,
                                                                               ast.expr]]:
    """``name["key"] = value`` statements of ``code`` before line ``before``, newest first."""
    out = [(n, n.value) for n in _source.own_nodes(code)
           if isinstance(n, ast.Assign) and n.lineno < before and len(n.targets) == 1
           and isinstance(t := n.targets[0], ast.Subscript) and isinstance(t.value, ast.Name)
           and t.value.id == name and isinstance(t.slice, ast.Constant) and t.slice.value == key]
    return sorted(out, key=lambda sv: -sv[0].lineno)


def self_assignments(code: Any, attr: str, before: int) -> list[tuple[ast.stmt, ast.expr]]:
    """``self.<attr> = value`` statements of ``code`` before line ``before``, newest first."""
    out = [(n, n.value) for n in _source.self_attr_assignments(code, attr) if n.lineno < before]
    return sorted(out, key=lambda sv: -sv[0].lineno)


def _in_place_edit(ctx: Ctx, tracer: Any, failure: Failure, named: Named) -> list[Origin]:
    """An in-place op whose float result cannot go back into an integer tensor, inside a
    function of the user's: the statement becomes out of place (code, not the namespace)."""
    from ..families import _code_inplace

    rule = failure.rule
    if rule is None or rule.key not in ("cast", "out_dtype", "index_put_dtype") or ctx.user < 0:
        return []
    sc = tracer.scope(ctx.user)
    if sc is None or sc.code.func is None:
        return []  # NB: at a cell's top level the data is the user's: cast it instead
    found = (_code_inplace.index_put_cast(tracer, sc) if rule.key == "index_put_dtype"
             else _code_inplace.in_place(tracer, sc))
    if not found:
        return []
    keep = named.name if named.role not in ("local", "unnamed") else ""
    return [o._replace(name=keep or o.name) for o in found]


def _siblings(ctx: Ctx, tracer: Any, named: Named, holder: Any) -> list[Origin]:
    """Items next to a culprit in the same list or dict with the same wrong device/dtype: the
    cell would trip on them next (``grid[1]`` after ``grid[0]``)."""
    import re

    m = re.fullmatch(r"(.+)\[([^\[\]]+)\]", named.code or "")
    if m is None:
        return []
    from ...inspect import _tree
    container = ctx.resolve(m.group(1))
    kind = _tree.container_kind(container)
    if kind not in ("list", "dict") or (kind == "dict" and not _looped(ctx, m.group(1))):
        return []  # NB: a dict's items are different things, unless the cell loops over them
    out = []
    for step, child in _tree.iter_children(container, kind, 1000):
        if child is holder or not is_tensor(child) or step.kind == "pos":
            continue
        a, b = meta(child), meta(holder)
        i = 0 if tracer.want.kind == "device" else 1
        if a is not None and b is not None and a[i] == b[i]:
            code = _tree._apply_step_code(m.group(1), step)
            out.append(Origin(code, code, child, named.role))
    return out[:16]


def _looped(ctx: Ctx, container: str) -> bool:
    """The failing statement indexes ``container`` with a variable (``d[k]`` in a loop)."""
    _sc, stmt = ctx.statement(ctx.user)
    return stmt is not None and any(
        isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Name)
        and ast.unparse(n.value) == container for n in ast.walk(stmt))


def view_base(t: Any) -> Any:
    """The tensor ``t`` is a view of (None for a tensor that owns its storage)."""
    try:
        return t._base
    except Exception:
        return None


def _cell_trail(ctx: Ctx, tracer: Any, named: Named) -> tuple[Any, list[Origin]] | None:
    """Where the failing cell made the namespace name it binds (``W = hnet.forward(...)``,
    ``samples = prior.rsample()``), followed once; None where the cell does not bind it.
    NB: one trail for both readers below: the tracer follows each call once."""
    if ctx.cell < 0 or named.role != "tensor" or not named.code.startswith(named.root) \
            or named.code[len(named.root):][:1] not in ("", "["):
        return None
    sc = tracer.scope(ctx.cell)
    if sc is None or not _source.assignments(sc.code, named.root, sc.line):
        return None
    return sc, tracer.name(sc, named.root, 0)


def _source_in_cell(trail: tuple[Any, list[Origin]] | None, named: Named) -> list[Origin]:
    """The namespace data a name the failing cell binds was made from (``inputs`` sliced from
    ``X_train``, ``labels`` collated from ``dataset.y_data``), or the model whose own weights
    made it (an item of ``W = hnet.forward(...)``): fixing the name would be undone when the
    cell runs again; fixing its source is not. NB: only a source the cell does not bind
    itself, and never the name itself."""
    if trail is None:
        return []
    sc, origins = trail
    found = [o for o in origins if o.role in ("tensor", "array", "parameter", "maker")
             and o.code and o.code.split(".")[0].split("[")[0] != named.root]
    return [o for o in found
            if not _source.assignments(sc.code, o.code.split(".")[0].split("[")[0], sc.line)]


def _rebound_in_cell(trail: tuple[Any, list[Origin]] | None, named: Named) -> list[Origin]:
    """A namespace tensor the failing cell itself (re)made before the failing line: moving it
    now is no fix, the cell would make it again; the line that makes it is what to change."""
    if trail is None or named.code != named.root:
        return []
    return [o for o in trail[1] if o.role == "code"]


def blames_from_origins(ctx: Ctx, failure: Failure, expected: str, op: Op,
                        origins: list[Origin], want: Want) -> list[Blame]:
    from ..families._replicated import owner_device, register_now, shared_by_copies, why_registered

    if not origins:
        return [Blame(op.operand, (_comment(op.operand.named.name, failure, expected),))]
    out = []
    local = op.operand.named.name if op.operand.named.role in ("local", "unnamed") else ""
    loc = ctx.namer.local_at.get(id(op.tensor))
    base = view_base(op.tensor)
    if loc is None and base is not None:  # NB: a view of a local (`h.permute(1, 0, 2)`)
        loc = ctx.namer.local_at.get(id(base))
    # NB: a local's, or what a local's object holds (`frames.rotations` in StructureModule.forward)
    at = loc[0] if loc is not None else ctx.namer.held_at.get(id(op.tensor), (-1, ""))[0]
    mine = at >= 0 and ctx.is_user(ctx.frames[at].frame.f_code.co_filename)
    # NB: a local that holds the very culprit, where one of the lines edited binds it
    bound = {m.group(1) for o in origins if o.edit is not None and o.edit.old
             for m in [_BINDS.match(o.edit.old[0])] if m}
    held = {q: k for q, k in _held_as(ctx, op.tensor).items() if k in bound} if mine else {}
    for o in origins:
        operand = _operand(op, o, local, mine, held)
        if o.role == "producer":  # NB: named beside the edit; the edit is the fix
            out.append(Blame(operand, (), (), (o.detail,) if o.detail else ()))
            continue
        if o.role == "maker":  # NB: a model that made the culprit with its own weights moves
            target = f'"{expected}"' if failure.kind == "device" else f"torch.{expected}"
            out.append(Blame(operand, (f"{o.code}.to({target})",), (),
                             (o.detail,) if o.detail else ()))
            continue
        if o.role in ("code", "rebuilt"):
            note = (f"{o.detail}" if o.detail else "")
            out.append(Blame(operand, (), (o.edit,) if o.edit else (), (note,) if note else ()))
            continue
        if operand.device == "meta" and failure.kind == "device" and expected != "meta" \
                and o.role in ("tensor", "attribute", "trapped", "grad"):
            # NB: nothing can be copied out of meta: a move would only raise; the cell that
            # made it is what to change
            made = _made_earlier(ctx, ctx.tracer(want), o)
            if made:
                out.append(Blame(operand, (), tuple(m.edit for m in made if m.edit), ()))
                continue
            out.append(Blame(operand, (), (), (
                f"{o.name} is a meta tensor: it has no data to copy to {expected}; make it "
                f"again on {expected} where it was made (it must not be moved to meta)",)))
            continue
        fix = fix_line(ctx, o, failure, expected, want)
        shared = shared_by_copies(ctx, o) if failure.kind == "device" else None
        if shared is not None:
            # NB: every DataParallel replica reads this one tensor: moving it only moves the
            # failure to the next replica's GPU; a buffer gets one copy per replica
            fix = register_now(*shared, owner_device(ctx, shared[0], o.obj))
            o = o._replace(detail=why_registered(o.code))
        edits = _buffer_edit(ctx, o) if o.role == "attribute" or shared is not None else ()
        out.append(Blame(operand, (fix,), edits, (o.detail,) if o.detail else ()))
    return out


def _array_fix(code: str, failure: Failure, expected: str) -> str:
    """``y = y.astype("float32")`` for a NumPy array a tensor is made from; a comment where
    NumPy has no such dtype (``bfloat16``)."""
    import numpy as np

    try:
        np.dtype(expected)
    except TypeError:
        return _comment(code, failure, expected)
    return f"{code} = {code}.astype({expected!r})"


_BINDS = re.compile(r"\s*([A-Za-z_]\w*)\s*=[^=]")


def _held_as(ctx: Ctx, t: Any) -> dict[str, str]:
    """Each running function of the user's -> its local that holds the very tensor ``t``."""
    out: dict[str, str] = {}
    for fr in ctx.frames:
        if ctx.is_user(fr.frame.f_code.co_filename):
            name = next((k for k, v in frame_locals(fr.frame).items() if v is t), "")
            if name:
                out.setdefault(fr.frame.f_code.co_qualname, name)
    return out


def _operand(op: Op, o: Origin, local: str, mine: bool = False,
             held: dict[str, str] | None = None) -> Operand:
    """``mine``: the culprit is a local of the user's own code (not of torch's); ``held``:
    the local each running function of the user's holds it in (:func:`_held_as`)."""
    root = o.code.split(".")[0].split("[")[0] if o.code else ""
    role = o.role if o.role != "rebuilt" else "tensor"
    name = o.name or op.operand.named.name
    if o.role == "code" and not o.own and mine and op.operand.named.role in ("local", "unnamed"):
        # NB: the local the edit puts right (`order` in LKJCholesky.log_prob) keeps its name;
        # the object whose code it is comes first as the user's handle (:mod:`._handle`)
        name = _made_as(op.operand.named.name, o, held or {})
    named = Named(name, o.code, role, root)
    where = op.operand.where
    if local and o.name and local != o.name:
        where = local if not where or where.startswith(("argument", "on the")) else where
    if o.role == "setting":
        return Operand(where, named, str(o.obj), op.operand.dtype, (),
                       f"{type(o.obj).__name__} {str(o.obj)!r}, the device its code makes "
                       "tensors on")
    if o.role in ("producer", "maker"):
        what = type(o.obj).__name__
        return Operand("", named, op.operand.device, op.operand.dtype, (),
                       f"{what}, makes {local or op.operand.named.name}")
    if o.role == "array":
        shape = tuple(int(n) for n in o.obj.shape)
        return Operand(where, named, "cpu", op.operand.dtype, shape,
                       f"NumPy {o.obj.dtype}{list(shape)}")
    if o.obj is not None and o.obj is not op.tensor:
        return describe_tensor(o.obj, where, named)
    return op.operand._replace(named=named, where=where)


def _made_as(name: str, o: Origin, held: dict[str, str]) -> str:
    """A local's culprit name (`distinct_indices` in f) as the local the edited line makes
    (`indices_equal` in f), in the function of the edit: the stray is where it was made. Traced
    into a caller that holds the very culprit in a local one of the edited lines binds, that
    local (a T5 app's `input_tokenized`, joined from itself and `summary_task`, each made on
    the cpu); ``held``: such a local by function."""
    own, sep, where = name.partition(" in ")
    qual = o.edit.qualname if o.edit is not None else ""
    # NB: traced into a caller, the name the caller holds the culprit under; within one
    # function, the local the edited line makes
    local = (held.get(qual) if where.split(" (")[0] != qual else "") or o.local
    if local and sep and qual and own.strip("`") != local:
        # NB: traced back into a caller (`input_ids` in Model.forward, made by `codegen`'s
        # dropped `input_tokens.to(...)`): the local where the edit is
        return f"`{local}`{sep}{qual}"
    return name


def fix_line(ctx: Ctx, o: Origin, failure: Failure, expected: str, want: Want) -> str:
    """The code that puts namespace culprit ``o`` where it belongs, in the user's names."""
    call = cast_call(failure, expected, want, o.obj)
    code, role = o.code, o.role
    anchor = getattr(ctx, "anchor", "")
    if failure.kind == "device" and role == "tensor" and anchor and anchor != code \
            and want.fix == "":
        call = f"to({anchor}.device)"
    root = code.split(".")[0].split("[")[0] if code else ""
    if role == "buffer" and code and failure.kind != "device":
        # NB: one buffer's dtype, not the whole model's (``model.to(torch.bool)`` would cast
        # every weight); assigning a registered buffer keeps it registered
        return f"{code} = {code}.{call}"
    if role in ("parameter", "buffer") and root:
        target = f'"{expected}"' if failure.kind == "device" else f"torch.{expected}"
        # NB: a model kept in a dict or a plain object moves by its own path
        # (``hparams['lm_model']``), not its root's
        module = _module_path(code)
        if not is_module(ctx.resolve(module)):
            module = _outer_module(ctx, code) or module
        return f"{module}.to({target})"
    if role == "state" and root:
        return optimizer_fix(code.split(".state[")[0] if ".state[" in code else root,
                             failure.kind, step=o.name.endswith("['step']"))
    if role == "array" and code:
        return _array_fix(code, failure, expected)
    if role == "setting" and code:
        return f"{code} = {_setting_value(ctx, o.obj, expected)}"
    if role in ("attribute", "tensor", "trapped") and code and _is_parameter(o.obj):
        # NB: a Parameter found through a plain object (``policy.target_model.q_net[0].weight``)
        # cannot be rebound to a tensor; the module holding it moves, as for a model's own
        holder = _outer_module(ctx, code, o.obj)
        if holder:
            target = f'"{expected}"' if failure.kind == "device" else f"torch.{expected}"
            plain = _plain_module_container(ctx, holder)
            if plain:
                # NB: every module of the plain container is registered and moves, now and at
                # the next ``.to()``, not only the one this op met (``model.softmaxes[0]``)
                box, owner, wrap = plain
                return (f"{box} = torch.nn.{wrap}({box})\n{box}.train({owner}.training)\n"
                        f"{box}.to({target})")
            return f"{holder}.to({target})"
    holder = _tuple_holder(ctx, code) if role in ("tensor", "attribute", "trapped") and code \
        else ""
    if holder:
        # NB: a tuple's item cannot be assigned: the tuple is made again, every item moved (a
        # batch's labels go with its inputs); cast, only the stray item (the labels keep theirs)
        i = code[len(holder):].strip("[]")
        if failure.kind != "device" and i.isdigit():
            head = f"*{holder}[:{i}], " if int(i) else ""
            return f"{holder} = ({head}{code}.{call}, *{holder}[{int(i) + 1}:])"
        return f"{holder} = tuple(t.{call} for t in {holder})"
    field = _namedtuple_field(ctx, code) if role in ("attribute", "tensor") and code else None
    if field is not None:
        # NB: a named tuple's field cannot be assigned (``data.next_observations = ...`` raises
        # AttributeError): the tuple is made again with that field replaced
        return f"{field[0]} = {field[0]}._replace({field[1]}={code}.{call})"
    if role in ("attribute", "trapped", "tensor") and code and failure.kind == "dtype" \
            and _trained(o.obj):
        # NB: a tensor trained by hand (``W1 = torch.tensor(..., requires_grad=True)``, in a
        # ``params`` list an update loop steps): cast in place, the same leaf everywhere it is
        # held; rebinding its name would leave the list stepping the old one
        return f"{code}.data = {code}.data.{call}"
    if role in ("attribute", "trapped", "tensor", "grad") and code:
        return f"{code} = {code}.{call}"
    return _comment(o.name, failure, expected)


def _trained(t: Any) -> bool:
    """A leaf tensor that needs grad (not a Parameter, which its module moves), read from the
    C header: no property of a subclass runs."""
    import torch

    if not is_tensor(t) or isinstance(t, torch.nn.Parameter):
        return False
    base: Any = torch._C.TensorBase
    return bool(base.requires_grad.__get__(t) and base.is_leaf.__get__(t))


def _namedtuple_field(ctx: Ctx, code: str) -> tuple[str, str] | None:
    """(``data``, ``next_observations``) for ``data.next_observations`` when ``data`` is a
    named tuple (a replay buffer's samples); None otherwise. NB: the type's own ``__dict__``s
    are read, never an attribute of the instance."""
    try:
        node = ast.parse(code, mode="eval").body
    except SyntaxError:
        return None
    if not isinstance(node, ast.Attribute):
        return None
    holder = ast.unparse(node.value)
    tp = type(ctx.resolve(holder))
    fields = _tree._type_dict_lookup(tp, "_fields") if issubclass(tp, tuple) else None
    if type(fields) is not tuple or node.attr not in fields \
            or _tree._type_dict_lookup(tp, "_replace") is None:
        return None
    return holder, node.attr


def _setting_value(ctx: Ctx, old: Any, expected: str) -> str:
    """The expected device as the setting holds one: the user's own variable for it where
    the namespace has one (``device``), else spelled out, as a ``torch.device`` or a string
    like the old value."""
    import torch

    for k, v in dict.items(ctx.ns):
        if type(k) is str and k.isidentifier() and not k.startswith("_") and (
                (type(v) is torch.device and str(v) == expected)
                or (type(v) is str and v == expected)) and (type(v) is type(old)):
            return k
    return f'torch.device("{expected}")' if type(old) is torch.device else f'"{expected}"'


def _tuple_holder(ctx: Ctx, code: str) -> str:
    """``batch['features']`` for ``batch['features'][1]`` when it is a plain tuple of tensors
    only; '' otherwise."""
    try:
        node = ast.parse(code, mode="eval").body
    except SyntaxError:
        return ""
    if not isinstance(node, ast.Subscript):
        return ""
    parent = ast.unparse(node.value)
    held = ctx.resolve(parent)
    if type(held) is not tuple or not held or not all(is_tensor(t) for t in held):
        return ""
    return parent


def _is_parameter(obj: Any) -> bool:
    import torch

    return isinstance(obj, torch.nn.Parameter)


def _outer_module(ctx: Ctx, code: str, param: Any = None) -> str:
    """The shortest prefix of path ``code`` that is an ``nn.Module`` (``policy.target_model``
    for ``policy.target_model.q_net[0].weight``) and, given ``param``, holds it registered: a
    module kept in a plain list (``model.softmaxes[0]``) is not moved by its parent's ``.to()``;
    '' when there is none."""
    import torch

    try:
        node: ast.expr = ast.parse(code, mode="eval").body
    except SyntaxError:
        return ""
    chain = []
    while isinstance(node, ast.Attribute | ast.Subscript):
        node = node.value
        chain.append(node)
    for prefix in reversed(chain):
        text = ast.unparse(prefix)
        m = ctx.resolve(text)
        if isinstance(m, torch.nn.Module) and (
                param is None or any(p is param for p in m.parameters())):
            return text
    return ""


def _plain_module_container(ctx: Ctx, holder: str) -> tuple[str, str, str] | None:
    """For a module kept in a plain list or dict attribute of a module (``model.softmaxes[0]``,
    every item a module): that container's code, its owner's and the torch container that
    registers it (``ModuleList``/``ModuleDict``); None otherwise."""
    import torch

    try:
        node = ast.parse(holder, mode="eval").body
    except SyntaxError:
        return None
    if not isinstance(node, ast.Subscript) or not isinstance(node.value, ast.Attribute):
        return None
    box, owner = ast.unparse(node.value), ast.unparse(node.value.value)
    held, parent = ctx.resolve(box), ctx.resolve(owner)
    module = torch.nn.Module  # NB: by type: ``isinstance`` reads a user object's __class__
    if not issubclass(type(parent), module):
        return None
    if type(held) is list and held and all(issubclass(type(m), module) for m in held):
        return box, owner, "ModuleList"
    if (type(held) is dict and held and all(type(k) is str for k in held)
            and all(issubclass(type(m), module) for m in dict.values(held))):
        return box, owner, "ModuleDict"
    return None


def _module_path(code: str) -> str:
    """``model.encoder.fc`` for ``model.encoder.fc.weight``; the root for a top-level one."""
    return code.split(".")[0].split("[")[0]


def cast_call(failure: Failure, expected: str, want: Want, obj: Any) -> str:
    if failure.kind == "device":
        if want.fix == "cpu_int64":
            dt = str(getattr(obj, "dtype", "torch.int64")).removeprefix("torch.")
            return "cpu()" if dt == "int64" else "cpu().long()"
        return f'to("{expected}")'
    if want.fix == "int64" or failure.kind == "index_dtype":
        return "long()"
    call = _CASTS.get(expected, f"to(torch.{expected})")
    if str(getattr(obj, "dtype", "")).startswith("torch.complex") \
            and not expected.startswith("complex"):
        # NB: a complex tensor for real layers (a ViT on complex MNIST): its real part, said
        # so, where a bare cast would drop the imaginary part with a warning
        return f"real.{call}"
    return call


def _comment(name: str, failure: Failure, expected: str) -> str:
    call = cast_call(failure, expected, Want("", "", "", "", ""), None)
    return f"# pass {name} through .{call} before this call"


def _buffer_edit(ctx: Ctx, o: Origin) -> tuple[Edit, ...]:
    """``self.pos = torch.randn(...)`` in ``__init__`` as ``self.register_buffer("pos", ...)``."""
    import torch

    code = o.code
    if "." not in code or "[" in code:
        return ()
    owner_code, attr = code.rsplit(".", 1)
    sc = namespace_scope(ctx.ns)
    owner = ctx.tracer(Want("", "", "", "", "")).live(sc, ast.parse(owner_code, mode="eval").body)
    if not issubclass(type(owner), torch.nn.Module):
        return ()
    for klass in type(owner).__mro__:
        init = klass.__dict__.get("__init__")
        c = _source.function_code(init)
        if c is None:
            continue
        for node in _source.self_attr_assignments(c, attr)[:1]:
            if not _after_module_init(c, node):
                return ()  # NB: a buffer cannot be registered before ``Module.__init__`` ran
            value = _source.segment(c, node.value)
            # NB: not persistent: a plain attribute was never saved, so checkpoints
            # saved before the edit still load
            new = f'self.register_buffer("{attr}", {value}, persistent=False)'
            edit = _edits.replace(c, [(node, new)])
            return (edit,) if edit is not None else ()
    return ()


def _after_module_init(c: Any, node: ast.AST) -> bool:
    """``node`` runs after ``__init__``'s call of its base's (``super().__init__(...)``): sbi's
    CategoricalMADE assigns ``self.mask`` first, where ``register_buffer`` raises "cannot
    assign buffer before Module.__init__() call"."""
    if c.func is None:
        return False
    at = getattr(node, "lineno", 0)
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
               and n.func.attr == "__init__" and n.lineno < at for n in ast.walk(c.func))


def titles(failure: Failure, ops: list[Op]) -> str:
    rule = failure.rule
    if rule is None:
        return ""
    role, want = rule.role, rule.want
    if role == "checked":
        return ("the tensor the library checks must hold int64 values" if want == "int64" else
                "the tensor the library checks must be floating point")
    if role == "target" or _roles.index_into_loss(failure, ops):
        return ("the loss target must hold int64 class indices" if want == "int64" else
                "the loss target must be floating point, like the input")
    if role == "lengths" and failure.kind == "index_dtype":
        return "the lengths must be an integer (int64) tensor"
    if failure.kind == "index_dtype" or (role == "index" and failure.kind != "device"):
        return "indices must be an integer (int64) tensor"
    if role == "mask":
        return "the mask must be a bool tensor"
    if role == "lengths":
        return "pack_padded_sequence() needs lengths as a 1D int64 tensor on the cpu"
    if rule.key == "cast":
        # NB: a loss writes its result in the target's dtype: an int64 target, not an in-place op
        if any(o.operand.where.startswith("`target` in ") for o in ops):
            return "the loss target must be floating point, like the input"
        return "an in-place result cannot be written into a tensor of another dtype"
    if rule.key == "index_put_dtype":
        return "the values written and the tensor written into have different dtypes"
    if role == "host":
        return "a tensor on an accelerator cannot become a numpy array"
    if role == "load":
        return "the checkpoint holds CUDA tensors and this machine has no CUDA"
    if role == "meta":
        return "a meta tensor has no data to copy"
    if role == "legacy":
        return "a legacy constructor (torch.Tensor, torch.FloatTensor, ...) makes cpu tensors only"
    return ""
