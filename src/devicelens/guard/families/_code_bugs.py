"""Lines of user code that make a tensor wrong, and the edit that makes them right.

The classes: a factory without a device (``torch.zeros(n)`` in ``forward`` lands on the default
device), a device spelled out (``.cuda()``, ``device="cpu"``, ``.to(f"cuda:{i}")``), a move whose
result is dropped (``mask.to(device)``), a factory whose default dtype meets data of another
dtype, and a ``.byte()`` mask where a boolean one is required. Each is reported only when it
explains the culprit (same device or dtype), and fixed against a tensor the code already has
(``x.device``, ``next(self.parameters()).device``), never a hard-coded device.
"""

from __future__ import annotations

import ast
import types
from typing import TYPE_CHECKING, Any

from ...inspect import _tree
from ...inspect._types import instance_dict
from ..diagnosis import _edits, _source
from ..diagnosis._blame import is_module, is_tensor, iter_params, majority_device, meta
from ..diagnosis._mismatch import is_float
from ..diagnosis._source import Code
from ..diagnosis._trace import Origin, is_torch_namespace, torch_function_name
from ..running._forward_lint import names_a_device
from ..running._frames import frame_locals

if TYPE_CHECKING:
    from ..diagnosis._trace import Scope
    from ..diagnosis._trace import TracerLike as Tracer

_MASK_CASTS = {"uint8": "byte", "int64": "long", "int32": "int", "float32": "float"}


Change = tuple[ast.AST, "str | None"]  # a node and its new text (None: no anchor to use)


def dropped_moves(tr: Tracer, sc: Scope, name: str) -> list[Origin]:
    """``name.to(device)`` as a statement of its own before the current line: the moved copy
    is thrown away (the fix assigns it)."""
    out: list[Origin] = []
    if tr.want.kind != "device":
        return out
    for node in _source.own_nodes(sc.code):
        if _dropped_move(node, name) and node.lineno < sc.line:  # type: ignore[attr-defined]
            text = _edits.assign_move(sc.code, node)  # type: ignore[arg-type]
            edit = _edits.replace_statement(sc.code, node, text) if text else None  # type: ignore[arg-type]
            if edit is not None:
                # NB: the culprit is the name the dropped move should have moved
                out.append(_origin(tr, sc, edit, f"`{name}.to(...)` drops its result, so "
                                   f"`{name}` stays where it was")._replace(local=name))
    return out


def for_name(tr: Tracer, sc: Scope, name: str) -> list[Origin]:
    """Bugs in ``sc``'s code, before its current line, that leave local ``name`` wrong."""
    out = dropped_moves(tr, sc, name) or unmoved_sibling(tr, sc, name)
    if out:
        return out
    # NB: newest first: a line that moves the value (``image = image.type(torch
    # .FloatTensor)``) decides its device, whatever the lines before it made
    for stmt, value in reversed(_source.assignments(sc.code, name, sc.line)):
        if value is None or isinstance(stmt, ast.For | ast.AsyncFor | ast.With | ast.AsyncWith):
            continue
        changes = _changes(tr, sc, value, stmt.lineno)
        out = _origins(tr, sc, changes, name) + out
        if tr.want.kind == "device" and any(_moves(sc, node) for node, _text in changes):
            break
    return out


def _device_only(call: ast.Call) -> bool:
    """``t.to(self.device)``, ``t.to(device=d)``, ``t.to("cuda")``: a move that keeps the
    dtype (TRELLIS.2's noise, ``torch.randn(...).to(self.device)``, is float32 still)."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr == "to") or not (
            call.args or call.keywords) or any(k.arg != "device" for k in call.keywords):
        return False
    return all(names_a_device(a) for a in call.args)


def _moves(sc: Scope, node: ast.AST) -> bool:
    """``node`` is a move (``.to(...)``, ``.cuda()``, ``.cpu()``, a legacy type's cast)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return False
    return node.func.attr in _edits.MOVES or (
        node.func.attr == "type" and len(node.args) == 1 and bool(_legacy_type(sc, node.args[0])))


def unmoved_sibling(tr: Tracer, sc: Scope, name: str) -> list[Origin]:
    """``images, labels = data[0].to(DEVICE), data[1]``: the line that binds ``name`` moves
    the values it unpacks beside it and not ``name``'s (Flower's quickstart ``test``); the
    same move of ``name``'s value is the fix, where the user meant it. NB: the last binding
    before the current line, a plain tuple assignment; the sibling's move is copied as
    written (its target read as a device)."""
    if tr.want.kind != "device":
        return []
    assigned = _source.assignments(sc.code, name, sc.line)
    stmt = assigned[-1][0] if assigned else None
    if not isinstance(stmt, ast.Assign) or len(stmt.targets) != 1:
        return []
    target, value = stmt.targets[0], stmt.value
    if not (isinstance(target, ast.Tuple | ast.List) and isinstance(value, ast.Tuple | ast.List)
            and len(target.elts) == len(value.elts)):
        return []
    mine = [v for t, v in zip(target.elts, value.elts, strict=True)
            if isinstance(t, ast.Name) and t.id == name]
    moves = [v for v in value.elts if isinstance(v, ast.Call) and _moves_device(v)]
    if len(mine) != 1 or not moves or _moves_device(mine[0]) or isinstance(mine[0], ast.Constant):
        return []
    move = moves[0]
    assert isinstance(move.func, ast.Attribute)
    call = _source.segment(sc.code, move)[len(_source.segment(sc.code, move.func.value)):]
    edit = _edits.replace(sc.code, [(mine[0], f"{_source.segment(sc.code, mine[0])}{call}")])
    if edit is None:
        return []
    return [_origin(tr, sc, edit, f"this line moves what it unpacks beside `{name}`, not "
                    f"`{name}`")._replace(local=name)]


def _moves_device(call: ast.expr) -> bool:
    """``x.to(DEVICE)``, ``x.to(device=d)``, ``x.cuda()``: a move by a device (a dtype alone
    is none; a ``.to(dtype)`` whose argument names no device reads as one, which the check of
    the edit's rehearsal sorts out)."""
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Attribute):
        return False
    if call.func.attr == "cuda":
        return True
    if call.func.attr != "to" or not (call.args or call.keywords):
        return False
    text = ast.unparse(call.args[0] if call.args else call.keywords[0].value)
    return "dtype" not in text and not text.startswith("torch.")


def in_call(tr: Tracer, sc: Scope, call: ast.Call) -> list[Origin] | None:
    """``call`` itself makes the culprit wrong (a factory, a hard-coded move)."""
    change = _change(tr, sc, call, call.lineno)
    if change is None or change[1] is None:
        passed = _left_to_caller(tr, sc, call)
        if passed:
            return passed
    if change is None:
        return None
    return _origins(tr, sc, [change], "") or None


def _left_to_caller(tr: Tracer, sc: Scope, call: ast.Call) -> list[Origin]:
    """``torch.full(..., device=device)`` in a helper whose caller passed no ``device``, where
    what the helper falls back on is the culprit's device (mistral-inference's mask factory
    falls back on cuda:0 for a model on cuda:1): the caller passes the device it has, where it
    calls the helper. The same for a ``dtype`` parameter. NB: the helper and its default are
    left as they are (other callers may want them); it has no tensor to take the device from."""
    attr = "device" if tr.want.kind == "device" else "dtype"
    if not _is_factory(sc, call):
        return []
    given = next((k.value for k in call.keywords if k.arg == attr), None)
    fdef = sc.code.func
    if not isinstance(given, ast.Name) or fdef is None or given.id == "self" \
            or given.id not in sc.code.params():
        return []
    site = tr.call_site(sc)
    if site is None:
        return []
    caller, outer = site
    if any(isinstance(a, ast.Starred) for a in outer.args) \
            or any(k.arg is None for k in outer.keywords) \
            or tr.argument(sc, given.id) is not None \
            or not _falls_back_on_stray(tr, sc, fdef, given.id, call.lineno):
        return []
    anchor = _anchor(tr, caller, outer.lineno, attr)
    text = _edits.set_kw(caller.code, outer, given.id, anchor) if anchor else None
    edit = _edits.replace(caller.code, [(outer, text)]) if text else None
    if edit is None:
        return []
    helper = _source.segment(caller.code, outer.func)
    stray = tr.want.device if attr == "device" else tr.want.dtype
    return [_origin(tr, caller, edit, f"`{helper}` falls back on {stray} when its caller "
                    f"passes no `{given.id}`, as this line does")]


def _falls_back_on_stray(tr: Tracer, sc: Scope, fdef: ast.FunctionDef | ast.AsyncFunctionDef,
                         param: str, line: int) -> bool:
    """What ``param`` holds when no caller passes it (its default, or what the helper sets in
    its place before ``line``: ``device if device is not None else torch.device("cuda", 0)``)
    is the culprit's device (dtype)."""
    import torch

    args = fdef.args
    positional = [*args.posonlyargs, *args.args]
    defaults: dict[str, ast.expr | None] = dict(
        zip([a.arg for a in positional[len(positional) - len(args.defaults):]], args.defaults,
            strict=True))
    defaults.update((a.arg, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True))
    default = defaults.get(param)
    if default is None:
        return False  # NB: no default: every caller passes it
    values = [default, *(v for _s, v in _source.assignments(sc.code, param, line)
                         if v is not None)]
    if tr.want.kind == "device":
        said = [_device_of(n) for v in values for n in ast.walk(v)
                if isinstance(n, ast.expr) and _literal_device(n)]
        if not said and isinstance(default, ast.Constant) and default.value is None \
                and len(values) == 1:
            said = [_default_device()]
        return bool(said) and all(d is not None and _same_device(d, tr.want.device)
                                  for d in said)
    said = [_dtype_literal(n) for v in values for n in ast.walk(v)
            if isinstance(n, ast.Attribute) and _dtype_literal(n)]
    if not said and isinstance(default, ast.Constant) and default.value is None \
            and len(values) == 1:
        said = [str(torch.get_default_dtype()).removeprefix("torch.")]
    return bool(said) and all(d == tr.want.dtype for d in said)


def in_statement(tr: Tracer, sc: Scope, stmt: ast.stmt) -> list[Origin]:
    """Temporaries made wrong on the statement itself (``x + torch.ones(3)``)."""
    value = getattr(stmt, "value", None)
    if not isinstance(value, ast.expr):
        return []
    return _origins(tr, sc, _changes(tr, sc, value, stmt.lineno), "")


def at_call(tr: Tracer, sc: Scope, call: ast.Call | ast.Attribute) -> list[Origin]:
    """A helper's result converted where it is used (``emb(t).to(sample.dtype)``): the helper
    itself has no tensor to take the right device or dtype from."""
    attr = "device" if tr.want.kind == "device" else "dtype"
    if _gives_no_tensor(sc, call):
        return []
    anchor = _anchor(tr, sc, call.lineno, attr)
    if anchor is None:
        return []
    text = _kept_leaf(tr, sc, call, f"{_source.segment(sc.code, call)}.to({anchor})")
    return _origins(tr, sc, [(call, text)], "")


def at_unpack(tr: Tracer, sc: Scope, stmt: ast.stmt, name: str) -> list[Origin]:
    """``cos, sin = rotary(t, h, w)``: a helper with nothing to take the device or dtype from
    returns a tuple; each of its elements the failure wants elsewhere is converted on a line of
    its own right after the unpacking (HunyuanLoom's rotary embeddings, made on the cpu for a
    transformer on the GPU): one edit, where the elements are first named."""
    if not isinstance(stmt, ast.Assign) or stmt.lineno != stmt.end_lineno \
            or len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Tuple | ast.List):
        return []
    attr = "device" if tr.want.kind == "device" else "dtype"
    anchor = _anchor(tr, sc, stmt.lineno + 1, attr)
    if anchor is None:
        return []
    names = [e.id for e in stmt.targets[0].elts if isinstance(e, ast.Name)]
    strays = [n for n in names if n == name or (sc.frame >= 0 and tr.matches(sc.values.get(n)))]
    if name not in strays:
        return []
    targets = [t for n in strays for t in _held_strays(tr, sc, n)]
    moved = ", ".join(f"{t}.to({anchor})" for t in targets)
    text = f"{_source.segment(sc.code, stmt)}\n{', '.join(targets)} = {moved}"
    edit = _edits.replace_statement(sc.code, stmt, text)
    if edit is None:
        return []
    return [_origin(tr, sc, edit, _what(tr, name))._replace(local=name)]


def _held_strays(tr: Tracer, sc: Scope, name: str) -> list[str]:
    """What to move of the element ``name``: itself, or where it is a plain object with no
    ``.to`` (MatGL's graph of cpu ``node_type`` and ``pos``), each stray tensor it holds
    (``g.node_type``, ``g.pos``). NB: its ``__dict__`` only, in a live frame."""
    obj = sc.values.get(name) if sc.frame >= 0 else None
    if obj is None or is_tensor(obj) or is_module(obj) \
            or type(_tree._type_dict_lookup(type(obj), "to")) is types.FunctionType:
        return [name]
    held = [f"{name}.{k}" for k, v in list(dict.items(instance_dict(obj) or {}))[:_MAX_HELD]
            if type(k) is str and k.isidentifier() and not k.startswith("_") and is_tensor(v)
            and tr.matches(v)]
    return held or [name]


def at_read(tr: Tracer, sc: Scope, arg: ast.expr, local: str,
            spread: ast.expr | None) -> list[Origin]:
    """The element ``arg`` of the container ``local``, which the caller made with nothing to
    take the device from, moved where the call reads it: ``biencoder_input.question_ids
    .to(...)`` (DPR's batch of cpu ids for a model on the GPU). ``spread``: the dict a call
    unpacks (``model(**query_encoding)``), moved as a whole where it is unpacked: through its
    own ``.to`` where its class has one (a tokenizer's ``BatchEncoding``), item by item where
    it is a plain dict of tensors only."""
    anchor = _anchor(tr, sc, arg.lineno, "device")
    if anchor is None:
        return []
    if spread is None:
        text = f"{_source.segment(sc.code, arg)}.to({anchor})"
        node: ast.expr = arg
    else:
        held = tr.live(sc, spread)
        data = held if isinstance(held, dict) else (
            (instance_dict(held) or {}).get("data")
            if _tree.container_kind(held) == "userdict" else None)
        if not isinstance(data, dict):
            return []
        src = _source.segment(sc.code, spread)
        if type(_tree._type_dict_lookup(type(held), "to")) is types.FunctionType:
            text = f"{src}.to({anchor})"  # NB: a tokenizer's ``BatchEncoding`` (a UserDict)
        elif data and all(map(is_tensor, dict.values(data))):
            text = f"{{k: v.to({anchor}) for k, v in {src}.items()}}"
        else:
            return []
        node = spread
    edit = _edits.replace(sc.code, [(node, text)])
    if edit is None:
        return []
    return [_origin(tr, sc, edit, f"`{local}` is made on {tr.want.device} by the code before "
                    "this line, whatever device the model is on")._replace(local=local)]


def _bound(sc: Scope, value: ast.expr) -> tuple[bool, Any]:
    """Whether ``value`` is the value of ``name = value`` in a live frame that holds ``name``,
    and what that frame holds there."""
    if sc.frame < 0:
        return False, None
    stmt = _source.statement_at(sc.code, value.lineno)
    if not isinstance(stmt, ast.Assign) or stmt.value is not value or len(stmt.targets) != 1:
        return False, None
    target = stmt.targets[0]
    if not isinstance(target, ast.Name) or target.id not in sc.values:
        return False, None
    return True, sc.values[target.id]


def _gives_no_tensor(sc: Scope, call: ast.expr) -> bool:
    """``call`` is the value of ``name = call`` in a live frame that holds ``name`` bound to
    something that is no tensor (a helper returning a dict of tensors): ``.to()`` on it raises.
    Or a field of what it gives is read (``self.tok(texts).input_ids``, no method called): a
    holder of tensors, whose field is converted where it is read, not the holder."""
    bound, value = _bound(sc, call)
    if bound:
        return not is_tensor(value)
    stmt = _source.statement_at(sc.code, call.lineno)
    if stmt is None:
        return False
    called = {id(n.func) for n in ast.walk(stmt) if isinstance(n, ast.Call)}
    return any(isinstance(n, ast.Attribute) and n.value is call and id(n) not in called
               for n in ast.walk(stmt))


def _kept_leaf(tr: Tracer, sc: Scope, value: ast.expr, moved: str) -> str:
    """``moved`` (``value`` with ``.to(...)``), kept a leaf where ``value`` makes a tensor that
    requires grad and is one (``params = make_params(d).to(device)`` is no leaf: the optimizer
    the cell builds next refuses it, "can't optimize a non-leaf Tensor"). NB: never a tensor an
    optimizer already holds: a detached copy would leave it training the old one. torch's own
    getters: no property of a subclass runs."""
    import torch

    bound, t = _bound(sc, value)
    if not bound or not is_tensor(t):
        return moved
    base: Any = torch._C.TensorBase  # NB: its stub types the getters as plain bools
    try:
        trained = base.requires_grad.__get__(t) and base.is_leaf.__get__(t)
    except Exception:
        return moved
    if not trained:
        return moved
    # NB: an optimizer the cell itself makes again (after this line) takes the new leaf
    remade = _assigned(sc.code) if sc.code.func is None else set()
    if _optimized(tr.namer.ns, t, remade):
        return moved
    return f"{moved}.detach().requires_grad_()"


def _assigned(code: Code) -> set[str]:
    """The names ``code``'s own statements bind (``x = ...``, ``x += ...``, ``x: T = ...``)."""
    out: set[str] = set()
    for node in _source.own_nodes(code):
        targets = node.targets if isinstance(node, ast.Assign) else (
            [node.target] if isinstance(node, ast.AugAssign | ast.AnnAssign) else [])
        for t in targets:
            out |= {n.id for n in ast.walk(t) if isinstance(n, ast.Name)}
    return out


def _optimized(ns: dict[str, Any], t: Any, remade: set[str]) -> bool:
    """Whether an optimizer the namespace holds (by a name not in ``remade``, or one level
    down a plain object's ``__dict__``: ``trainer.optimizer``) updates ``t``. NB: ``__dict__``s
    only."""
    from ...inspect._objects import optimizer_params, optimizer_state
    from ...inspect._types import info, instance_dict

    values = [v for k, v in list(dict.items(ns)) if k not in remade]
    for v in list(values):
        if info(type(v)).what not in ("tensor", "module", "optimizer"):
            values += list(dict.values(instance_dict(v) or {}))[:64]
    for v in values:
        if info(type(v)).what == "optimizer":
            groups, _state = optimizer_state(v)
            if any(p is t for _g, _i, p in optimizer_params(groups)):
                return True
    return False


def where_made(tr: Tracer, sc: Scope, value: ast.expr, name: str) -> list[Origin]:
    """Local ``name`` of a live frame, wrong now and made by ``value`` from nothing the trail
    can follow (a library's tokenizer, a dataset's item): converted where it is made, against a
    tensor the function already has (``null_input_ids = tok(...).input_ids.to(latents.device)``),
    rather than inside the model it is passed to. NB: ``sc.line`` is the assignment's line."""
    obj = sc.values.get(name)
    if sc.frame < 0 or not is_tensor(obj) or not tr.matches(obj) or not isinstance(
            value, ast.Call | ast.Attribute | ast.Subscript):
        return []  # NB: arithmetic of locals (``x2 - x1``): where those came from is the place
    if _rebound_since(tr, sc, name):
        return []  # NB: what the frame holds now another line made (again-VC's ``src_mel``:
        # a NumPy array here, made a tensor by the next line)
    if (tr.want.fix == "cpu_int64" and isinstance(value, ast.Call)
            and isinstance(value.func, ast.Attribute) and value.func.attr in _edits.MOVES):
        # NB: lengths moved to the model's device (``lengths = lengths.to(device)``): by
        # contract they stay on the cpu
        text = f"{_source.segment(sc.code, value.func.value)}.cpu()"
        return _origins(tr, sc, [(value, text)], name)
    if any(isinstance(n, ast.Call) and (
            (isinstance(n.func, ast.Attribute) and n.func.attr in _edits.MOVES)
            or any(k.arg == "device" for k in n.keywords)) for n in ast.walk(value)):
        return []  # NB: a move or a device there decides where it lands: that is what to change
    attr = "device" if tr.want.kind == "device" else "dtype"
    if attr == "dtype" and is_float(tr.want.dtype) and not is_float(
            "int64" if tr.want.kind == "index_dtype" else tr.want.expected):
        return []  # NB: floats cast to integers lose their values (see _mismatch.lossy_cast)
    anchor = _anchor(tr, sc, sc.line, attr)
    if anchor is None or anchor.startswith(f"{name}."):
        return []
    text = _kept_leaf(tr, sc, value, f"{_source.segment(sc.code, value)}.to({anchor})")
    return _origins(tr, sc, [(value, text)], name)


def _rebound_since(tr: Tracer, sc: Scope, name: str) -> bool:
    """Whether the live frame of ``sc`` binds ``name`` again between ``sc.line`` (an
    assignment's) and the line it is at: then its value now is not that assignment's."""
    now = tr.frames[sc.frame].lineno
    return len(_source.assignments(sc.code, name, now)) \
        != len(_source.assignments(sc.code, name, sc.line + 1))


def exempt_key(tr: Tracer, sc: Scope, comp: ast.DictComp, key: str) -> list[Origin]:
    """``{k: v.to(device) for k, v in batch.items()}`` moving an entry that must stay where it
    is (``lengths`` on the cpu): that entry is left out of the move."""
    value = comp.value
    moves = [n for n in ast.walk(value) if isinstance(n, ast.Call)
             and isinstance(n.func, ast.Attribute) and n.func.attr in _edits.MOVES]
    if tr.want.fix != "cpu_int64" or not moves or len(comp.generators) != 1:
        return []
    target = comp.generators[0].target
    kname = target.elts[0] if isinstance(target, ast.Tuple) and target.elts else None
    moved = moves[0].func.value  # type: ignore[attr-defined]
    if not isinstance(kname, ast.Name):
        return []
    text = (f"({_source.segment(sc.code, moved)} if {kname.id} == {key!r} else "
            f"{_source.segment(sc.code, value)})")
    edit = _edits.replace(sc.code, [(value, text)])
    return [_origin(tr, sc, edit, f"the helper moves {key!r} too, which must stay on the cpu")] \
        if edit is not None else []


def _origins(tr: Tracer, sc: Scope, changes: list[Change], name: str) -> list[Origin]:
    """One origin for the changes of one statement; a bug with no anchor has no edit (the
    caller may convert the result instead)."""
    if not changes:
        return []
    real = [(n, t) for n, t in changes if t is not None]
    edit = _edits.replace(sc.code, real) if real else None
    if edit is None:
        return [Origin(owner(tr, sc), "", None, "code", None, _what(tr, name))]
    if any(isinstance(n, ast.BinOp) for n, _t in real):
        subject = f"`{name}`" if name else "the index"
        return [_origin(tr, sc, edit, f"{subject} becomes {tr.want.dtype} by the true division "
                        f"(`/`) of this line; `//` keeps an integer index an integer")
                ._replace(local=name)]
    return [_origin(tr, sc, edit, _what(tr, name))._replace(local=name)]


# --- what is wrong with a call ----------------------------------------------------------------

def _changes(tr: Tracer, sc: Scope, value: ast.expr, line: int) -> list[Change]:
    out: list[Change] = []
    _walk(tr, sc, value, line, False, out)
    return out


def _walk(tr: Tracer, sc: Scope, node: ast.AST, line: int, moved: bool,
          out: list[Change]) -> None:
    if isinstance(node, ast.Lambda | ast.ListComp | ast.DictComp | ast.SetComp
                  | ast.GeneratorExp):
        if not isinstance(node, ast.Lambda) and node in _comprehensions_here(tr, sc):
            # NB: the comprehension is the frame that failed (its own frame before Python
            # 3.12): its element is this frame's expression, its names this frame's locals
            parts = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
            for part in parts:
                _walk(tr, sc, part, line, moved, out)
        return
    if isinstance(node, ast.Call):
        change = None if moved else _change(tr, sc, node, line)
        if change is not None:
            out.append(change)
            return
        func = node.func
        if isinstance(func, ast.Attribute):
            soft_move = (func.attr in _edits.MOVES and tr.want.kind == "device") or (
                func.attr in ("to", "type") and tr.want.kind != "device"
                and not _device_only(node))
            _walk(tr, sc, func.value, line, moved or soft_move, out)
            # NB: a tensor's own method's arguments are the op's operands too
            # (``scores.index_fill_(0, torch.LongTensor(starts), 0.0)``)
            if _is_torch(sc, func.value) or (
                    isinstance(func.value, ast.Name) and is_tensor(tr.live(sc, func.value))):
                for a in node.args:
                    _walk(tr, sc, a, line, moved, out)
        elif isinstance(func, ast.Call):
            _walk(tr, sc, func, line, moved, out)  # NB: a layer made and run on the line
        return
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        change = _true_division(tr, sc, node)
        if change is not None:
            out.append(change)
            return
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.expr):
            _walk(tr, sc, child, line, moved, out)


def _comprehensions_here(tr: Tracer, sc: Scope) -> list[ast.expr]:
    """The comprehensions of ``sc``'s statement that could be the frame ``sc`` runs (a list
    comprehension's own frame, ``<listcomp>``, reads the statement of the function around it);
    [] where ``sc`` is no comprehension's frame."""
    if sc.frame < 0:
        return []
    kind = _source.OWN_FRAME.get(tr.frames[sc.frame].frame.f_code.co_name)
    stmt = _source.statement_at(sc.code, sc.line) if kind is not None else None
    if stmt is None or kind is None:
        return []
    return [n for n in ast.walk(stmt) if isinstance(n, ast.expr) and isinstance(n, kind)
            and n.lineno <= sc.line <= (n.end_lineno or n.lineno)]


def _comprehension_targets(tr: Tracer, sc: Scope) -> set[str]:
    """The names the comprehension running as frame ``sc`` binds (``delta`` of ``[delta * m
    for delta in deltas]``): locals of that frame, bound by no statement."""
    return {n.id for c in _comprehensions_here(tr, sc) for g in c.generators  # type: ignore[attr-defined]
            for n in ast.walk(g.target) if isinstance(n, ast.Name)}


def _true_division(tr: Tracer, sc: Scope, node: ast.BinOp) -> Change | None:
    """``idx / n`` where an index is wanted: true division of integers is a float (since
    PyTorch 1.5); ``//`` keeps the integer index."""
    want = tr.want
    if not (want.kind == "index_dtype" or want.fix == "int64") or not is_float(want.dtype):
        return None
    # NB: a chain (``indices / num_classes / height / width``) divides the index again at every
    # step: each ``/`` of it becomes ``//``, not the first alone
    chain: list[ast.BinOp] = []
    cur: ast.expr = node
    while isinstance(cur, ast.BinOp) and isinstance(cur.op, ast.Div):
        chain.append(cur)
        cur = cur.left
    left = meta(tr.live(sc, cur))
    if left is None or is_float(left[1]):
        return None
    for step in chain:
        right = tr.live(sc, step.right)
        right_meta = meta(right) if is_tensor(right) else None
        # NB: the divisor may be unreadable here (``x.shape[-1]``): only a float one is refused
        if (right_meta is not None and is_float(right_meta[1])) or type(right) is float:
            return None
    text = " // ".join([_source.segment(sc.code, cur),
                        *(_source.segment(sc.code, step.right) for step in reversed(chain))])
    return node, text


def _change(tr: Tracer, sc: Scope, call: ast.Call, line: int) -> Change | None:
    want = tr.want
    if want.kind == "device":
        return _device_change(tr, sc, call, line)
    if want.fix == "bool":
        return _mask_change(tr, sc, call)
    if want.fix == "" and want.kind == "dtype":
        return _dtype_change(tr, sc, call, line)
    if want.kind == "index_dtype" or want.fix == "int64":
        return _index_change(sc, call)
    return None


#: constructors whose dtype is their name's, whatever the data (``torch.Tensor([1, 2])`` is
#: float32)
_FLOAT_CONSTRUCTORS = frozenset({"Tensor", "FloatTensor", "DoubleTensor", "HalfTensor"})


def _index_change(sc: Scope, call: ast.Call) -> Change | None:
    """``torch.Tensor(token_ids)`` where integer indices are wanted: the legacy constructor
    makes float32 of any data; ``torch.as_tensor(token_ids, dtype=torch.long)`` keeps them
    indices (ColossalAI's inference engine, prompt ids given as a list)."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr in _FLOAT_CONSTRUCTORS
            and _is_torch(sc, func.value) and len(call.args) == 1 and not call.keywords
            and not isinstance(call.args[0], ast.Starred | ast.Constant)):
        return None
    return call, f"torch.as_tensor({_source.segment(sc.code, call.args[0])}, dtype=torch.long)"


#: in-place random fills: ``torch.empty(n).uniform_(a, b)`` is moved after the fill, so the
#: numbers stay the ones the cpu generator drew (and the fill runs where it ran before)
_RANDOM_FILLS = frozenset({"uniform_", "normal_", "random_", "bernoulli_", "exponential_",
                           "geometric_", "log_normal_", "cauchy_"})


def _device_change(tr: Tracer, sc: Scope, call: ast.Call, line: int) -> Change | None:
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else ""
    if name in _RANDOM_FILLS and isinstance(func, ast.Attribute) \
            and isinstance(func.value, ast.Call):
        inner = _device_change(tr, sc, func.value, line)
        if inner is None or inner[1] is None:
            return inner
        anchor = _anchor(tr, sc, line, "device")
        return call, f"{_source.segment(sc.code, call)}.to({anchor})"
    makes = None
    if name in _edits.MOVES and isinstance(func, ast.Attribute):
        target = call.args[0] if call.args else next(
            (k.value for k in call.keywords if k.arg == "device"), None)
        if name == "to" and not _literal_device(target):
            if not (_unowned_setting(tr, sc, target) or _moved_here_to_stray(tr, sc, call)):
                return None
            makes = tr.want.device
        else:
            makes = "cpu" if name == "cpu" else ("cuda" if name == "cuda" else _device_of(target))
    elif name == "type" and len(call.args) == 1 and not call.keywords \
            and (kind := _legacy_type(sc, call.args[0])):
        # NB: ``image.type(torch.FloatTensor)`` (U-2-Net's ``removeBg``): the legacy type
        # names a device as well as a dtype, the cpu; the fix moves the cast's result
        if not _same_device(kind, tr.want.device):
            return None
        anchor = _anchor(tr, sc, line, "device")
        return call, (f"{_source.segment(sc.code, call)}.to({anchor})" if anchor else None)
    elif (layer := _layer_class(tr, sc, call)) is not None:
        # NB: a layer built on the line it runs (``nn.BatchNorm2d(n)(x)`` in a ``forward``):
        # made on the default device at each call, whatever device the model is on
        if any(k.arg == "device" for k in call.keywords):
            return None
        makes = _default_device()
        if makes and not _same_device(makes, tr.want.device):
            return None
        anchor = _anchor(tr, sc, line, "device")
        if anchor is None:
            return call, None
        if getattr(layer, "__module__", "").startswith("torch.nn."):
            return call, _edits.set_device(sc.code, call, anchor)  # NB: torch's layers take it
        return call, f"{_source.segment(sc.code, call)}.to({anchor})"
    elif _is_factory(sc, call) or _is_like(sc, call):
        dev = next((k.value for k in call.keywords if k.arg == "device"), None)
        if dev is None:
            if _scalar_literal(call) or _is_like(sc, call):
                return None  # NB: ``torch.zeros_like(x)`` is made where ``x`` is
            makes = _default_device()
        elif _literal_device(dev):
            makes = _device_of(dev)
        elif _unowned_setting(tr, sc, dev) or _stray_global(tr, sc, dev, line) \
                or _stray_local(tr, sc, dev, line):
            makes = tr.want.device
        elif _unset_param(tr, sc, dev, line):
            # NB: ``device=device`` where the caller left ``device=None`` (verl's group_mean_std):
            # the default device; the caller's choice is kept where it made one
            makes = _default_device()
            if not _same_device(makes, tr.want.device):
                return None
            anchor = _anchor(tr, sc, line, "device")
            assert isinstance(dev, ast.Name)
            return call, (_edits.set_device(sc.code, call, f"{dev.id} or {anchor}")
                          if anchor and anchor != dev.id else None)
        else:
            return None
    else:
        return None
    if makes and not _same_device(makes, tr.want.device):
        return None
    anchor = _anchor(tr, sc, line, "device")
    return call, (_edits.set_device(sc.code, call, anchor) if anchor else None)


def _own_buffer(m: Any, ok: Any) -> str:
    """The name of a buffer the module ``m`` registered itself that ``ok`` accepts; ''
    where none does."""
    return next((name for name, b in _tree.module_parts(m).buffers
                 if name.isidentifier() and b is not None and ok(b)), "")


_MAX_HELD = 64


def _held_tensor(obj: Any, ok: Any) -> str:
    """``a`` or ``a.b``: a tensor a plain object holds in its ``__dict__`` (or one of its plain
    objects does) that ``ok`` accepts; '' when there is none. NB: ``__dict__``s only, no
    property (``Normal.mean``) and no user ``__getattr__`` runs."""
    d = instance_dict(obj) or {}
    items = [(k, v) for k, v in list(dict.items(d))[:_MAX_HELD]
             if type(k) is str and k.isidentifier() and not k.startswith("_")]
    for k, v in items:
        if is_tensor(v) and ok(v):
            return k
    for k, v in items:
        if is_tensor(v) or is_module(v):
            continue
        inner = instance_dict(v) or {}
        for k2, v2 in list(dict.items(inner))[:_MAX_HELD]:
            if type(k2) is str and k2.isidentifier() and not k2.startswith("_") \
                    and is_tensor(v2) and ok(v2):
                return f"{k}.{k2}"
    return ""


def _exposed_tensor(obj: Any, ok: Any) -> str:
    """``data``: the attribute of a plain object (no tensor, module or container) under which it
    exposes a tensor ``ok`` accepts: a public one (:func:`_held_tensor`), or a private one that a
    property of its class only returns (``data`` for ``self._data``). NB: the getter's bytecode
    is read, never run."""
    if obj is None or type(obj) in (int, float, bool, str, list, tuple, dict, set) \
            or is_tensor(obj) or is_module(obj) or isinstance(obj, type):
        return ""
    held = _held_tensor(obj, ok)
    if held:
        return held
    d = instance_dict(obj) or {}
    private = [k for k, v in list(dict.items(d))[:_MAX_HELD]
               if type(k) is str and k.startswith("_") and is_tensor(v) and ok(v)]
    for k in private:
        for name, prop in vars(type(obj)).items() if type(type(obj)) is type else ():
            if isinstance(prop, property) and _returns_attr(prop.fget, k):
                return str(name)
    return ""


def _returns_attr(fget: Any, attr: str) -> bool:
    """``fget`` is ``def f(self): return self.<attr>`` and nothing else."""
    import dis

    code = getattr(fget, "__code__", None)
    if code is None or code.co_argcount != 1:
        return False
    ops = [i for i in dis.get_instructions(code) if i.opname not in ("RESUME", "NOP", "CACHE")]
    # NB: LOAD_FAST_BORROW from Python 3.14
    return [i.opname.removesuffix("_BORROW") for i in ops] == [
        "LOAD_FAST", "LOAD_ATTR", "RETURN_VALUE"] \
        and ops[0].argval == code.co_varnames[0] and ops[1].argval == attr


def _held_module(obj: Any, attr: str, target: str) -> str:
    """The attribute of a plain object (a trainer, a pipeline) holding the one module of its
    ``__dict__`` on ``target``; '' where none or several are. NB: ``__dict__`` only; a name
    with one leading underscore is the object's own too (PyCIL's learners keep
    ``self._network``), and the edit is written inside the object's own method."""
    d = instance_dict(obj) or {}
    found = [k for k, v in list(dict.items(d))[:_MAX_HELD]
             if type(k) is str and k.isidentifier() and not k.startswith("__") and is_module(v)
             and _module_on(v, attr, target)]
    return found[0] if len(found) == 1 else ""


def _device_setting(obj: Any, target: str) -> str:
    """``device`` or ``_device`` where ``obj``'s own (its ``__dict__``, no property run) names
    ``target``; '' otherwise."""
    d = instance_dict(obj) or {}
    return next((k for k in ("device", "_device") if names_device(d.get(k), target)), "")


def _root_name(node: ast.expr) -> str:
    """``image`` of ``image.permute(0, 3, 1, 2).to(device)``; '' where no name is at its root."""
    while isinstance(node, ast.Attribute | ast.Subscript | ast.Call):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else ""


def _moved_here_to_stray(tr: Tracer, sc: Scope, call: ast.Call) -> bool:
    """``latents_mean = latents_mean.to(device=self.device, dtype=dtype)`` in a running frame
    whose ``latents_mean`` is the stray now: the move put it there, whatever its target reads
    (diffusers' ``self.device``, the cpu under model offload, where ``device``, the execution
    device, was meant). NB: the frame's own value of the name the move binds; a target that
    names the stray device when it runs is what to change."""
    target = call.args[0] if call.args else next(
        (k.value for k in call.keywords if k.arg == "device"), None)
    # NB: an object's device setting (``self.device``): not a device the function was handed
    # (``param.data.to(device)``, OpenRLHF's EMA kept on the cpu on purpose), nor one read off
    # a tensor or a module's parameters (``x.to(mean.device)``, ``next(self.parameters())
    # .device``: where that part is, which a fix's own edit writes; following it chases a
    # stray part instead of moving it)
    if sc.frame < 0 or not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                            and "device" in target.attr):
        return False
    if is_tensor(sc.values.get(target.value.id, sc.globals.get(target.value.id))):
        return False  # NB: ``x.to(mean.device)``: where a tensor is, no setting
    stmt = _source.statement_at(sc.code, call.lineno)
    if not (isinstance(stmt, ast.Assign) and stmt.value is call and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)):
        return False
    v = sc.values.get(stmt.targets[0].id)
    return is_tensor(v) and tr.matches(v)


def _unowned_setting(tr: Tracer, sc: Scope, node: ast.expr | None) -> bool:
    """``self.device`` naming the culprit's device, on an object the namespace does not hold:
    a copy ``DataParallel`` made for another GPU keeps the original's setting. Nothing the user
    can set reaches the copy (:mod:`._setting` names a setting only on an object it can name),
    so the line that reads it is what changes: to a device the function already has."""
    if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
            and node.value.id == "self") or sc.self_obj is None:
        return False
    value = (instance_dict(sc.self_obj) or {}).get(node.attr)
    return names_device(value, tr.want.device) and not tr.namer.owner(sc.self_obj)


def _stray_global(tr: Tracer, sc: Scope, node: ast.expr | None, line: int) -> bool:
    """``device=device`` in a function, ``device`` a module-level setting naming the culprit's
    device (EMA-VFI's warp layer: ``device = torch.device("cuda")`` at import, for frames on
    cuda:1): the line makes its tensor there whatever device its inputs are on; the fix
    takes the device from what the function has. NB: a global, neither a parameter nor bound
    in the function before the line."""
    return (isinstance(node, ast.Name) and sc.code.func is not None
            and node.id not in sc.code.params()
            and not _source.assignments(sc.code, node.id, line + 1)
            and names_device(sc.globals.get(node.id), tr.want.device))


def _stray_local(tr: Tracer, sc: Scope, node: ast.expr | None, line: int) -> bool:
    """``device=device`` in a function that bound ``device`` itself, last before the line, to
    a device spelled out that names the culprit's device (DomainBed's DANN ``update``:
    ``device = 'cuda'``, on a run on the cpu): the line makes its tensor there whatever its
    inputs are on, and the fix takes the device from what the function has. NB: a plain
    assignment of a literal, never a parameter or a device read from data."""
    if not isinstance(node, ast.Name) or sc.code.func is None \
            or node.id in sc.code.params():
        return False
    assigned = _source.assignments(sc.code, node.id, line + 1)
    if not assigned:
        return False
    stmt, value = assigned[-1]
    made = _device_of(value) if isinstance(stmt, ast.Assign) and _literal_device(value) \
        else None
    return made is not None and _same_device(made, tr.want.device)


def _unset_param(tr: Tracer, sc: Scope, node: ast.expr | None, line: int) -> bool:
    """``node`` is a parameter of the running function that holds None at ``line`` (a live
    frame's own value): a ``device=`` left to its default. NB: a parameter the body rebinds
    later is read as the caller passed it, and None there also means "not passed", whatever
    its default: the rehearsal then finds the edit does not run, and it is not shown."""
    return (isinstance(node, ast.Name) and sc.frame >= 0 and node.id in sc.code.params()
            and node.id in sc.values and _param_value(tr, sc, node.id, line) is None)


_CAST_METHODS = {"float": "float32", "double": "float64", "half": "float16",
                 "bfloat16": "bfloat16"}


def _dtype_change(tr: Tracer, sc: Scope, call: ast.Call, line: int) -> Change | None:
    """Code that gives the culprit its wrong floating dtype: a cast (``h.float()``,
    ``.to(torch.float64)``), a dtype spelled out (``dtype=torch.float64``, directly or through
    a variable), or a factory left to infer it (``torch.tensor(values)``)."""
    want = tr.want
    if not (want.expected.startswith(("float", "bfloat")) and want.dtype != want.expected):
        return None
    anchor = _anchor(tr, sc, line, "dtype")
    func = call.func
    name = _attr_name(call)
    if name == "astype":
        return _array_cast(tr, sc, call)
    if isinstance(func, ast.Attribute) and not _is_torch(sc, func.value):
        casts = _CAST_METHODS.get(name) or (
            _dtype_literal(call.args[0]) if name in ("to", "type") and call.args else None)
        given = next((k.value for k in call.keywords if k.arg == "dtype"), None)
        if casts is None and name == "to" and isinstance(given, ast.Name) \
                and sc.code.func is not None and given.id not in sc.code.params() \
                and _source.assignments(sc.code, given.id, call.lineno) and anchor is not None \
                and not anchor.startswith(f"{_root_name(func.value)}."):
            # NB: ``result.to(dtype=vae_dtype_, device=device)``: the cast decides the dtype
            # whatever the tensor had, from a local of the function the trail cannot read
            # (TiledDiffusion's ``vae_dtype()``, the global VAE dtype, for a VAE run in
            # another): it takes the anchor's instead. A dtype the caller passed, or a setting
            # of the notebook's, is a choice; an anchor read off the very tensor cast would
            # change nothing
            return call, _edits.set_dtype(sc.code, call, anchor)
        if casts != want.dtype:
            return None
        return call, (f"{_source.segment(sc.code, func.value)}.to({anchor})" if anchor else None)
    if not _is_factory(sc, call):
        return None
    given = next((k.value for k in call.keywords if k.arg == "dtype"), None)
    if given is None:
        if anchor is None:
            # NB: the factory infers the dtype from its data: a NumPy cast in that data
            # (py-feat's ``torch.tensor(fex.landmarks.astype(float).values)``) is what to change
            cast = next((c for n in ast.walk(call)
                         if isinstance(n, ast.Call) and n is not call and _attr_name(n) == "astype"
                         for c in [_array_cast(tr, sc, n)] if c is not None), None)
            if cast is not None:
                return cast
        return call, (_edits.set_dtype(sc.code, call, anchor) if anchor else None)
    if _dtype_literal(given) == want.dtype:
        return call, (_edits.set_dtype(sc.code, call, anchor) if anchor else None)
    if isinstance(given, ast.Name):
        return _dtype_variable(tr, sc, given.id, line, anchor)
    return None


#: the floating dtypes NumPy has, as ``astype`` takes them
_ARRAY_FLOATS = frozenset({"float16", "float32", "float64"})


def _array_cast(tr: Tracer, sc: Scope, call: ast.Call) -> Change | None:
    """``image.astype(np.float64)`` (``astype(float)``): NumPy's cast (pandas' too) gives the
    array the dtype a tensor made from it carries (dface's images, py-feat's landmarks, both
    float64 for float32 weights). The fix casts to the wanted dtype in the same place, spelled
    as NumPy takes it (``astype("float32")``): an array has no ``.to``, and no tensor's dtype
    is at hand in a helper that works on arrays."""
    want = tr.want
    if len(call.args) != 1 or call.keywords or want.expected not in _ARRAY_FLOATS:
        return None
    if _array_twin(tr, sc, call.args[0]) != want.dtype:
        return None
    return call.args[0], f'"{want.expected}"'


def _array_twin(tr: Tracer, sc: Scope, node: ast.expr) -> str:
    """The torch dtype of a tensor made from an array cast to ``node`` (``np.float64``,
    ``float``, ``"float64"``); '' where that cannot be told. NB: reads names, runs nothing."""
    import sys

    import torch

    np = sys.modules.get("numpy")
    if np is None:
        return ""
    if isinstance(node, ast.Name) and node.id in ("float", "int", "bool"):
        spec: Any = {"float": float, "int": int, "bool": bool}[node.id]
    elif isinstance(node, ast.Constant) and isinstance(node.value, str):
        spec = node.value
    else:
        spec = tr.live(sc, node)
        if not (isinstance(spec, type) and issubclass(spec, np.generic)):
            return ""
    try:
        return str(torch.from_numpy(np.empty(0, dtype=np.dtype(spec))).dtype).removeprefix(
            "torch.")
    except (TypeError, ValueError):
        return ""


def _dtype_variable(tr: Tracer, sc: Scope, var: str, line: int,
                    anchor: str | None) -> Change | None:
    """``default_dtype = torch.float64`` feeding ``dtype=default_dtype``: that assignment."""
    for stmt, value in reversed(_source.assignments(sc.code, var, line + 1)):
        if isinstance(stmt, ast.Assign) and value is not None \
                and _dtype_literal(value) == tr.want.dtype:
            return value, anchor
    return None


def _dtype_literal(node: ast.expr) -> str | None:
    """``torch.float64`` (or ``torch.double``) -> "float64"."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
            and node.value.id == "torch":
        return {"double": "float64", "float": "float32", "half": "float16"}.get(
            node.attr, node.attr)
    return None


def _mask_change(tr: Tracer, sc: Scope, call: ast.Call) -> Change | None:
    """``.byte()`` (or ``.long()``, ...) making a mask that must be boolean."""
    cast = _MASK_CASTS.get(tr.want.dtype)
    if cast is None or _attr_name(call) != cast or not isinstance(call.func, ast.Attribute):
        return None
    return call, _edits.set_cast(sc.code, call, "bool")


# --- helpers ------------------------------------------------------------------------------

def _dropped_move(node: ast.AST, name: str) -> bool:
    """``name.to(...)`` / ``name.cuda()`` as a statement of its own: the result is lost."""
    if not isinstance(node, ast.Expr) or not isinstance(node.value, ast.Call):
        return False
    func = node.value.func
    return (isinstance(func, ast.Attribute) and func.attr in _edits.MOVES
            and isinstance(func.value, ast.Name) and func.value.id == name)


def _attr_name(call: ast.Call) -> str:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else (f.id if isinstance(f, ast.Name) else "")


def _is_torch(sc: Scope, node: ast.expr) -> bool:
    return is_torch_namespace(sc, node)


def _legacy_type(sc: Scope, e: ast.expr) -> str:
    """The device a legacy tensor type names: "cpu" for ``torch.FloatTensor``, "cuda" for
    ``torch.cuda.LongTensor``; '' for anything else."""
    if not (isinstance(e, ast.Attribute) and e.attr.endswith("Tensor") and e.attr != "Tensor"):
        return ""
    if _is_torch(sc, e.value):
        return "cpu"
    inner = e.value
    return "cuda" if isinstance(inner, ast.Attribute) and inner.attr == "cuda" \
        and _is_torch(sc, inner.value) else ""


def _is_factory(sc: Scope, call: ast.Call) -> bool:
    """``torch.zeros(...)``, or ``zeros(...)`` where that name is torch's own."""
    name = torch_function_name(sc, call.func)
    return name in _edits.FACTORIES or name == "from_numpy"


#: factories that make a tensor like another one, on its device unless told otherwise
_LIKE = frozenset({"zeros_like", "ones_like", "empty_like", "full_like", "rand_like",
                   "randn_like", "randint_like"})


def _is_like(sc: Scope, call: ast.Call) -> bool:
    return torch_function_name(sc, call.func) in _LIKE


def _layer_class(tr: Tracer, sc: Scope, call: ast.Call) -> Any:
    """The ``nn.Module`` class ``call`` builds a layer of, or None. NB: the class is read as
    the tracer reads names (a module's attribute, the frame's globals): nothing runs."""
    import torch

    if not isinstance(call.func, ast.Attribute | ast.Name):
        return None
    cls = tr.live(sc, call.func)
    return cls if isinstance(cls, type) and issubclass(cls, torch.nn.Module) else None


def _scalar_literal(call: ast.Call) -> bool:
    """``torch.tensor(2.0)``: a 0-dim CPU tensor mixes with any device."""
    return (_attr_name(call) in ("tensor", "as_tensor") and len(call.args) == 1
            and isinstance(call.args[0], ast.Constant))


def _literal_device(node: ast.expr | None) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and node.value.split(":")[0] in (
            "cuda", "cpu", "mps", "xpu", "meta", "hpu")
    if isinstance(node, ast.JoinedStr):
        first = node.values[0] if node.values else None
        return isinstance(first, ast.Constant) and str(first.value).startswith(("cuda", "xpu"))
    if isinstance(node, ast.Call) and _attr_name(node) == "device":
        return bool(node.args) and _literal_device(node.args[0])
    return False


def _device_of(node: ast.expr | None) -> str | None:
    """The device a literal names; None for an f-string (unknown index)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Call) and node.args:
        kind = _device_of(node.args[0])
        index = node.args[1] if len(node.args) > 1 else None
        if kind and ":" not in kind and isinstance(index, ast.Constant) \
                and type(index.value) is int:
            return f"{kind}:{index.value}"  # NB: ``torch.device("cuda", 0)``
        return kind
    return None


def names_device(value: Any, device: str) -> bool:
    """``value`` is a device setting (a ``torch.device`` or a device string) for ``device``."""
    import torch

    if type(value) is torch.device:
        return _same_device(str(value), device)
    return type(value) is str and _same_device(value, device)


def _same_device(spec: str, actual: str) -> bool:
    if spec == actual:
        return True
    return ":" not in spec and actual.split(":")[0] == spec  # "cuda" names cuda:N


def _default_device() -> str:
    import torch

    return str(torch.get_default_device())


def anchor_at(tr: Tracer, sc: Scope, line: int) -> str | None:
    """An expression for the device the culprit should have, valid at ``line`` of ``sc``."""
    return _anchor(tr, sc, line, "device")


def _anchor(tr: Tracer, sc: Scope, line: int, attr: str) -> str | None:
    """An expression for the device (dtype) the culprit should have, valid at ``line``."""
    target = tr.want.expected
    if tr.want.fix == "cpu_int64":
        return '"cpu"'  # NB: by contract: lengths live on the cpu, whatever the model's device

    def ok(t: Any) -> bool:
        m = meta(t)
        return m is not None and m[0 if attr == "device" else 1] == target

    code = sc.code
    params = [(p, v) for p in code.params() if p != "self"
              for v in [_param_value(tr, sc, p, line)] if v is not _REBOUND]
    for p, value in params if attr == "device" else ():
        if names_device(value, target):
            # NB: the device the caller handed over (``sample(coords, device=device)``) before
            # any tensor's: a tensor argument may itself be the stray a fix moves first
            return p
    for p, value in params:
        if ok(value):
            return f"{p}.{attr}"
    for p, value in params:
        # NB: a list of tensors handed over (lightly's SwaVLoss takes its crops' outputs as
        # one list): its first item's, valid before any loop over it
        if type(value) in (list, tuple) and value and ok(value[0]):
            return f"{p}[0].{attr}"
    for p, value in params:
        # NB: an object handed over that holds one (kornia's ``Vector2`` points): by the name
        # its class reads it under (a property that returns ``self._data``)
        held = _exposed_tensor(value, ok)
        if held:
            return f"{p}.{held}.{attr}"
    me = sc.self_obj
    if me is not None and _module_on(me, attr, target):
        return f"next(self.parameters()).{attr}"
    setting = _device_setting(me, target) if me is not None and attr == "device" else ""
    if setting:  # NB: a trainer's or wrapper's own setting (scvi's ``self.device``, PyCIL's
        return f"self.{setting}"  # ``self._device``)
    held = _held_tensor(me, ok) if me is not None and not is_module(me) else ""
    if held and not _made_later(tr, sc, line, held):
        return f"self.{held}.{attr}"  # NB: gluonts' forecast: ``self.distribution.loc``
    held = _held_module(me, attr, target) if me is not None and not is_module(me) else ""
    if held and not _made_later(tr, sc, line, held):
        return f"next(self.{held}.parameters()).{attr}"  # NB: a trainer's model
    buffer = _own_buffer(me, ok) if me is not None and is_module(me) else ""
    if buffer:
        return f"self.{buffer}.{attr}"  # NB: a codebook's ``self.embed``: its buffers only
    if sc.frame >= 0:
        bound = _comprehension_targets(tr, sc)
        for k, v in sc.values.items():
            if k not in code.params() and ok(v) and (k in bound
                                                      or _source.assignments(code, k, line)):
                return f"{k}.{attr}"
    for p in code.params() if attr == "device" or (
            is_float(target) and is_float(tr.want.dtype)) else ():
        # NB: the model the function was handed (``sample(model, ...)``): its weights' device,
        # and their dtype where data of another floating dtype is made (RootPainter3D's tiles,
        # float64 from NumPy, for a float32 ``cnn``): labels and indices made there are no
        # weights, even where a loss wants them as floats
        if p != "self" and not _source.assignments(code, p, line) and _module_on(
                sc.values.get(p), attr, target):
            return f"next({p}.parameters()).{attr}"
    for p, value in params:
        # NB: a list of pairs handed over (VICRegL's ``global_view_features``, (features, grid)
        # each), after the model's own device: the first pair's first
        if type(value) in (list, tuple) and value and type(value[0]) in (list, tuple) \
                and value[0] and ok(value[0][0]):
            return f"{p}[0][0].{attr}"
    if (attr == "device" or (is_float(target) and is_float(tr.want.dtype))) \
            and sc.frame >= 0 and code.func is not None:
        # NB: a model the function loads itself (threestudio's ``spawn_func``: ``text_encoder
        # = CLIPTextModel.from_pretrained(..., device_map="auto")``), bound once before the
        # line; its weights' dtype too, where data of another floating dtype is made there
        # (TRELLIS.2's float32 noise for ``flow_model = self.models[...]`` in half)
        for k, v in sc.values.items():
            if k not in code.params() and is_module(v) and _module_on(v, attr, target) \
                    and len(_source.assignments(code, k, line)) == 1:
                return f"next({k}.parameters()).{attr}"
    if code.func is None:
        return _cell_anchor(sc, attr, target, ok)
    if attr == "device":
        model = _global_model(sc, target)
        if model:
            return f"next({model}.parameters()).device"
    return _spelled_dtype(sc, target) if attr == "dtype" else None


def _global_model(sc: Scope, target: str) -> str:
    """A model on ``target`` that the function reads by its module's name for it, the first
    its tree walk meets (U-2-Net's ``removeBg``: ``d1 = net(image)``, ``net`` the notebook's
    model); '' where there is none. NB: a name the function binds itself is its own; the
    model is read from the function's globals dict, no code runs."""
    code = sc.code
    own = set(code.params())
    for node in _source.own_nodes(code):
        if not (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)) \
                or node.id in own or node.id in sc.values:
            continue
        own.add(node.id)
        if _source.assignments(code, node.id, 1 << 30):
            continue
        v = sc.globals.get(node.id)
        if is_module(v) and _module_on(v, "device", target):
            return node.id
    return ""


def _spelled_dtype(sc: Scope, target: str) -> str | None:
    """The wanted dtype as the function itself spells it for another tensor it makes
    (``torch.tensor(s_lst, dtype=torch.float)`` beside ``torch.tensor(a_lst)`` in a replay
    buffer's ``sample``): the code already says which dtype its tensors should have."""
    for node in _source.own_nodes(sc.code):
        if isinstance(node, ast.keyword) and node.arg == "dtype" \
                and _dtype_literal(node.value) == target:
            return _source.segment(sc.code, node.value)
    return None


def _made_later(tr: Tracer, sc: Scope, line: int, attr: str) -> bool:
    """A method of ``sc``'s object that runs ``line`` (it, or a caller of it on the object)
    binds ``self.<attr>`` after the point it is at (darts' ``fit`` builds ``self.model`` after
    the call that reads its samples): the attribute holds what the failed run made, and a
    fresh run reaches the line before it exists, so it is no anchor. NB: the static call
    chain of ``sc`` first, then the live frames on the same object."""
    me = sc.self_obj
    chain: list[tuple[Code, int]] = []
    s: Scope | None = sc
    at = line
    while s is not None:
        if s.self_obj is me:
            chain.append((s.code, at))
        at = s.call.lineno if s.call is not None else 0
        s = s.caller
    for fr in tr.frames:
        code = _source.frame_code(fr.frame)
        if code is not None and frame_locals(fr.frame).get("self") is me:
            chain.append((code, fr.lineno))
    return any(n.lineno > at for code, at in chain
               for n in _source.self_attr_assignments(code, attr))


#: what a parameter holds at a line, where that cannot be told: rebound before it in a frame
#: no longer live, or rebound again after it
_REBOUND = object()


def _param_value(tr: Tracer, sc: Scope, p: str, line: int) -> Any:
    """What the parameter ``p`` holds at ``line``; :data:`_REBOUND` where that is unknown."""
    code = sc.code
    every = _source.assignments(code, p, 1 << 30)
    if _source.assignments(code, p, line):
        # NB: rebound before ``line`` only (``tensor = tensor.clone()``, torchvision's
        # ``normalize``): in a live frame its value now is its value there
        if sc.frame < 0 or len(every) > len(_source.assignments(code, p, line + 1)):
            return _REBOUND
        return sc.values.get(p)
    if sc.frame >= 0 and every:
        return _passed(tr, sc, p)  # NB: rebound later: what the caller passed
    return sc.values.get(p)


def _passed(tr: Tracer, sc: Scope, param: str) -> Any:
    found = tr.argument(sc, param)
    if found is None:
        return None
    caller, arg = found
    if isinstance(arg, ast.Name):
        return caller.values[arg.id] if arg.id in caller.values else caller.globals.get(arg.id)
    return tr.live(caller, arg)


def _cell_anchor(sc: Scope, attr: str, target: str, ok: Any) -> str | None:
    """At a notebook's top level: the user's own ``device`` variable naming the target, else
    the target spelled out (``"cuda:0"``, ``torch.float16``) as users write it there.

    NB: never another object's ``.device``: the cell may make that object on a later line."""
    import torch

    if attr == "dtype":
        return f"torch.{target}" if target else None
    for k, v in dict.items(sc.globals):
        if type(k) is str and not k.startswith("_") and (
                (type(v) is torch.device and str(v) == target) or (type(v) is str and v == target)):
            return k
    return f'"{target}"' if target else None


def _module_on(m: Any, attr: str, target: str) -> bool:
    import torch

    if not issubclass(type(m), torch.nn.Module):
        return False
    params = list(iter_params(m, limit=10_000))
    if not params:
        return False
    if attr == "device":
        return majority_device(params) == target
    return str(params[0].dtype).removeprefix("torch.") == target


def _what(tr: Tracer, name: str) -> str:
    subject = f"`{name}`" if name else "a tensor"
    if tr.want.kind == "device":
        return (f"{subject} is made on {tr.want.device} by this line, whatever device the model "
                "is on")
    return f"{subject} gets {tr.want.dtype} from this line, not {tr.want.expected}"


def _origin(tr: Tracer, sc: Scope, edit: _edits.Edit, detail: str) -> Origin:
    where = edit.where.split(" (in ")[0]  # NB: "cell In[3] line 12": the note names the line
    return Origin(owner(tr, sc), "", None, "code", edit, detail.replace("this line", where))


def owner(tr: Tracer, sc: Scope) -> str:
    """Whose code it is, in the user's names: ``head`` (a module), ``create_masks``, ..."""
    me = sc.self_obj
    if me is not None:
        name = tr.namer.owner(me) or _outer_owner(tr, sc)
        if name:
            return name
    code: Code = sc.code
    if code.func is None:
        return ""  # NB: top-level code: the culprit keeps the name it has
    from ..diagnosis._lookup import function_name

    fn_code = None
    if sc.frame >= 0:
        fn_code = tr.frames[sc.frame].frame.f_code
    elif sc.caller is not None and sc.call is not None:
        fn = tr.user_function(sc.caller, sc.call)
        fn_code = fn.__code__ if fn is not None else None
    found = function_name(tr.namer.ns, fn_code) if fn_code is not None else ""
    return found or code.qualname


def _outer_owner(tr: Tracer, sc: Scope) -> str:
    """The user's object whose method made the one running ``sc`` (not reachable itself): a
    ``BeamSearch`` that ``model.beam_search`` builds and runs is ``model``'s."""
    from ..running._frames import frame_locals

    if sc.frame < 0:
        return ""
    for fr in tr.frames[sc.frame + 1:]:
        other = frame_locals(fr.frame).get("self")
        name = tr.namer.owner(other) if other is not None and other is not sc.self_obj else ""
        if name:
            return name
    return ""
