"""Which operand a message is about: the odd one out, the loss target, the index, the mask, the
in-place destination; and what it should be.

Operands are told apart by the name the op gives them (`target` in cross_entropy), by their place
in the failing statement (the subscript of ``x[idx]``, the target of ``t[k] /= n``) and by the
dtype the message quotes, never by guessing from values.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from ..running._frames import internal_file
from . import _decide, _source
from ._blame import is_tensor, iter_params, meta
from ._context import Ctx, Failure, Op, ns_data, ns_device
from ._decide import dtype_name, is_int, local_name
from ._declared import declared_device
from ._trace import Want, is_torch_namespace

_INDEX_NAMES = ("index", "indices", "idx")
_MASK_NAMES = ("mask", "condition", "attn_mask", "key_padding_mask")
# Positions of index arguments (self counted as 0) in index ops, for methods and functions.
INDEX_METHODS = {"scatter": 2, "scatter_": 2, "scatter_add": 2, "scatter_add_": 2,
                 "scatter_reduce": 2, "scatter_reduce_": 2, "gather": 2, "index_select": 2,
                 "index_add": 2, "index_add_": 2, "index_copy": 2, "index_copy_": 2,
                 "index_fill": 2, "index_fill_": 2, "take_along_dim": 1, "take": 1,
                 "embedding": 0, "one_hot": 0, "bincount": 0}
_LOSS_WORDS = ("loss", "entropy", "nll")
#: messages of ops that take int64 indices only (``one_hot``: an int32 index is the culprit)
_LONG_ONLY = frozenset({"one_hot"})


def select(ctx: Ctx, failure: Failure, ops: list[Op], forced: str | None) -> tuple[str, list[Op]]:
    rule = failure.rule
    role = rule.role if rule is not None else "mismatch"
    if failure.kind == "device":
        return _device(ctx, failure, ops, forced, role)
    if role == "checked" and rule is not None:
        return _checked(rule.want, ops)
    if role == "target" or _loss_target(ctx, failure, ops) or index_into_loss(failure, ops):
        return _target(ctx, failure, ops)
    if role == "lengths":
        return "int64", _length_ops(failure, ops)
    if role == "index" or failure.kind == "index_dtype":
        long_only = rule is not None and rule.key in _LONG_ONLY
        got = _got_dtype(failure)
        if rule is not None and rule.key == "byte_index":
            return "int64", [o for o in _index_ops(ctx, ops) if o.operand.dtype == "uint8"]
        return "int64", [o for o in _index_ops(ctx, ops) if not is_int(o.operand.dtype)
                         or (long_only and o.operand.dtype != "int64")
                         or o.operand.dtype == got]
    if role == "mask":
        return "bool", _mask_ops(ctx, failure, ops)
    state = _stray_state(ctx, ops)
    if state is not None:
        return state
    if role == "dest":
        return _dest(ctx, failure, ops)
    if rule is not None and rule.want == "float":
        found = _quoted_dtypes(failure)
        return "float32", [o for o in ops if o.operand.dtype in found or (
            not found and is_int(o.operand.dtype))]
    return _value_dtype(ctx, failure, ops)


def _checked(want: str, ops: list[Op]) -> tuple[str, list[Op]]:
    """A library's own dtype check: of the tensors the raising line reads (``t["labels"]`` in
    torchvision's ``raise TypeError(f"... {t['labels'].dtype}")``; the caller keeps only
    those), the ones that are not what it wants."""
    exp = "int64" if want == "int64" else "float32"
    return exp, [o for o in ops
                 if (o.operand.dtype != exp if want == "int64" else is_int(o.operand.dtype))]


def _stray_state(ctx: Ctx, ops: list[Op]) -> tuple[str, list[Op]] | None:
    """An optimizer's state of another floating dtype than its parameter, met by a tensor of
    the parameter's dtype (its grad): the state is the stray, and its parameter's dtype the one
    expected (OneTrainer's momentum restored in float32 for bfloat16 LoRA weights: ``buf
    .lerp_(grad)``). NB: as the snapshot's ``optimizer_state_dtype`` warning says; an optimizer
    makes its state in its parameter's dtype, so an edit casting the grad to the state's would
    fail every fresh run of the same code."""
    steps = [o for o in ops if o.operand.named.role == "state" and _step(o)
             and not o.operand.dtype.startswith(("float", "bfloat"))]
    if steps:
        # NB: an integer ``step`` (state a user's code rebuilt: ``torch.tensor(0)``): torch's
        # optimizers keep it a float32 tensor, which their foreach and fused steps require
        return "float32", steps
    for o in ops:
        if o.operand.named.role != "state" or not o.operand.dtype.startswith(("float", "bfloat")):
            continue
        want = ctx.namer.state_param_dtype(o.tensor)
        if want and want != o.operand.dtype and any(
                x.operand.dtype == want for x in ops if x is not o):
            return want, [x for x in ops if x.operand.named.role == "state"
                          and x.operand.dtype != want
                          and ctx.namer.state_param_dtype(x.tensor) == want]
    return None


def _step(o: Op) -> bool:
    """An optimizer's ``step`` (named ``opt.state[...]['step']``)."""
    return o.operand.named.name.endswith("['step']")


# --- devices -----------------------------------------------------------------------------------

def _device(ctx: Ctx, failure: Failure, ops: list[Op], forced: str | None,
            role: str) -> tuple[str, list[Op]]:
    if role == "lengths":
        return "cpu", [o for o in ops if local_name(o.operand.where) == "lengths" or (
            is_int(o.operand.dtype) and o.operand.device != "cpu" and len(o.operand.shape) == 1)]
    if role == "legacy":
        # NB: the device the call was given (the one it should have made the tensor on)
        found = re.search(r"but device type: (\S+) was passed", failure.text)
        return (found.group(1) if found else ""), []
    if role in ("host", "load", "meta"):
        return "cpu", []
    if failure.rule is not None and failure.rule.key == "library_cpu":
        # NB: "index must be CPU tensor": a kernel picked for the cpu by an operand there; the
        # argument it names is where the rest is (torch_scatter's ``index``: the batch on the
        # GPU), and the operands on the cpu are the strays
        args = re.findall(r"(\w+) must be (?:an? )?(?:CPU|cpu) tensor", failure.text)
        there = {o.operand.device for o in ops if local_name(o.operand.where) in args
                 and o.operand.device != "cpu"}
        if len(there) == 1:
            (where,) = there
            return where, [o for o in ops if o.operand.device == "cpu"
                           and not o.operand.scalar_cpu]
    sc, stmt = ctx.statement(ctx.user)
    tracer = ctx.tracer(_want())
    line_mods = _decide.modules_called(stmt, lambda n: tracer.live(sc, n) if sc else None)
    csc, cstmt = ctx.statement(ctx.cell)
    cell_mods = _decide.modules_called(cstmt, lambda n: tracer.live(csc, n) if csc else None)
    cell_inputs = _decide.inputs_passed(cstmt, lambda n: tracer.live(csc, n) if csc else None)
    operands = [o.operand for o in ops]
    named = set(failure.devices)

    def said(device: str) -> bool:
        """The message names ``device``, or only its type ("cuda" for cuda:0)."""
        return device in named or device.split(":")[0] in named

    if named:
        operands = [o for o in operands if said(o.device)] or operands
    gpus = {o.device for o in operands if o.device.startswith("cuda")}
    if failure.rule is not None and failure.rule.want == "gpu" and len(gpus) == 1:
        forced = forced or gpus.pop()  # NB: "must be a CUDA tensor": the one GPU there is
    expected = _decide.expected_device(
        operands, ctx.stack, forced or failure.hint or None, line_mods, cell_mods,
        _decide.explicit_device(stmt), ns_device(ctx), failure.devices, ctx.namer.owner,
        failure.op, cell_inputs, lambda: ns_data(ctx), declared_device(ctx.namer.ns),
        _decide.made_on_default(stmt, lambda n: sc is not None and is_torch_namespace(sc, n)),
        _decide.device_context(csc.code.src.tree if csc is not None else None,
                               csc.line if csc is not None else 0,
                               lambda n: csc is not None and is_torch_namespace(csc, n)))
    # NB: a 0-dim cpu tensor mixes with any device only as it is: one the line writes into,
    # or reshapes before the op sees it, must be on the op's device
    kept = _written_here(ctx, sc, stmt, tracer) | _reshaped_here(sc, stmt, tracer)
    return expected, [o for o in ops if o.operand.device != expected
                      and (not o.operand.scalar_cpu or id(o.tensor) in kept)
                      and (not named or said(o.operand.device))]


def _written_here(ctx: Ctx, sc: Any, stmt: ast.stmt | None, tracer: Any) -> set[int]:
    """The tensors the failing statement writes into (``acc += x``, ``acc.add_(x)``). A 0-dim
    cpu tensor mixes with any device only as an input: one an op writes into must be on the
    op's device (``total = torch.tensor(0.)`` then ``total += loss_on_gpu``)."""
    if stmt is None or sc is None:
        return set()
    nodes: list[ast.expr] = [stmt.target] if isinstance(stmt, ast.AugAssign) else []
    for node in _source.own_nodes_of(stmt):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr.endswith("_") and not node.func.attr.endswith("__"):
            nodes.append(node.func.value)
    return {id(t) for t in (tracer.live(sc, n) for n in nodes) if is_tensor(t)}


#: methods that give a 0-dim tensor dimensions (``eos_token_id.view(1, -1)``)
_RESHAPES = frozenset({"view", "reshape", "unsqueeze", "expand", "expand_as", "view_as",
                       "reshape_as", "repeat", "flatten", "broadcast_to", "tile", "atleast_1d",
                       "atleast_2d", "atleast_3d"})


def _reshaped_here(sc: Any, stmt: ast.stmt | None, tracer: Any) -> set[int]:
    """The tensors the failing statement reshapes before an op sees them: a 0-dim cpu tensor
    made 1x1 (open_clip's ``self.eos_token_id.view(1, -1)`` beside cuda token ids) is no
    number any more, and fails as any cpu tensor does."""
    if stmt is None or sc is None:
        return set()
    nodes: list[ast.expr] = []
    for node in _source.own_nodes_of(stmt):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in _RESHAPES:
            nodes.append(node.func.value)
        elif isinstance(node, ast.Subscript) and any(
                isinstance(n, ast.Constant) and n.value is None for n in ast.walk(node.slice)):
            nodes.append(node.value)  # NB: ``t[None]``
    return {id(t) for t in (tracer.live(sc, n) for n in nodes) if is_tensor(t)}


def _want() -> Any:
    return Want("device", "", "", "", "")


# --- dtypes ------------------------------------------------------------------------------------

def _value_dtype(ctx: Ctx, failure: Failure, ops: list[Op]) -> tuple[str, list[Op]]:
    """Floats that must agree: the model's dtype wins; without a model, data the user made wins
    over a tensor a line of code made with the default dtype."""
    values = [o for o in ops if local_name(o.operand.where) not in (*_INDEX_NAMES, "target")]
    index = {id(t) for t in _statement_index_tensors(ctx)}
    if index:  # NB: the line's own index arguments (``t.scatter_(0, index, x)``'s ``index``)
        values = [o for o in values if id(o.tensor) not in index]
    fl = [o for o in values if o.operand.dtype.startswith(("float", "bfloat", "complex"))
          and o.operand.shape != ()]
    sc, stmt = ctx.statement(ctx.user)
    tracer = ctx.tracer(_want())
    line_mods = _decide.modules_called(stmt, lambda n: tracer.live(sc, n) if sc else None)
    # NB: a plain object's method (a loss's ``__call__``) works for the model it holds
    models = [*ctx.held, *ctx.stack]
    expected = _decide.expected_dtype([o.operand for o in fl], models, line_mods)
    culprits = [o for o in fl if o.operand.dtype != expected]
    written = _self_dtype(failure)
    if not fl and written and is_int(written):
        # NB: integers written into integers (lit-gpt's int32 prompt ids and the int64 token
        # ``multinomial`` samples, through ``index_copy``): the tensor written into keeps its
        # dtype; the model's float dtype says nothing of token ids
        return written, [o for o in _int_values(values, set()) if o.operand.dtype != written]
    if not culprits and (fl or index):
        # NB: with no float operand seen (the float side a temporary of the line:
        # ``torch.zeros(2, 2).scatter_(0, index, x)``), what is left of an index op's values
        culprits = _int_values(values, _message_dtypes(failure))
    if not _float_params(models) and not line_mods and culprits:
        flipped = _code_made(ctx, fl, expected)
        if flipped is not None:
            return _other(fl, flipped), flipped
    return expected, culprits


def _float_params(modules: list[Any]) -> bool:
    """A running module with floating parameters: then its dtype decides, never the data."""
    return any(p.is_floating_point() for m in modules for p in iter_params(m, limit=10_000))


def _int_values(values: list[Op], quoted: set[str]) -> list[Op]:
    """Integer data where the floats all agree (``value_net(state)`` with an int32 ``state``,
    "mat1 and mat2 must have the same dtype, but got Int and Float"): the integers are the odd
    ones out. NB: only dtypes the message names, and never a bool mask or a 0-dim count."""
    return [o for o in values if is_int(o.operand.dtype) and o.operand.dtype != "bool"
            and o.operand.shape != () and (not quoted or o.operand.dtype in quoted)]


_DTYPE_NAMES = {"bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16",
                "float32", "float64"}


def _message_dtypes(failure: Failure) -> set[str]:
    """The dtypes an error message names: "got Int and Float", "expected scalar type Int but
    found Float", "Found dtype Long but expected Float"."""
    found = re.findall(r"(?:got|type|dtype|found|and) (c10::\w+|unsigned char|signed char|"
                       r"long int|[A-Za-z]\w*)", failure.text)
    names = {dtype_name(f) for f in found}
    return names & _DTYPE_NAMES


def _other(fl: list[Op], flipped: list[Op]) -> str:
    ids = {id(o) for o in flipped}
    rest = [o.operand.dtype for o in fl if id(o) not in ids]
    return rest[0] if rest else flipped[0].operand.dtype


def _code_made(ctx: Ctx, fl: list[Op], expected: str) -> list[Op] | None:
    """The expected-dtype operands, when they come from a factory that used the default dtype
    while the others come from the user's data: then those are the ones to fix."""
    mine = [o for o in fl if o.operand.dtype == expected]
    others = [o for o in fl if o.operand.dtype != expected]
    if not mine or not others or len({o.operand.dtype for o in others}) != 1:
        return None
    target = others[0].operand.dtype
    for o in mine:
        loc = ctx.namer.local_at.get(id(o.tensor))
        want = Want("dtype", o.operand.device, o.operand.dtype, target, "")
        if loc is not None:
            origins = ctx.tracer(want).local(*loc)
        elif o.operand.named.role == "unnamed" and ctx.user >= 0:
            origins = ctx.tracer(want).temporary(ctx.user)  # NB: made on the failing line
        else:
            return None
        if not any(x.role == "code" for x in origins):
            return None
    if target == "float64" and any(_made_by_code(ctx, o, expected) for o in others):
        # NB: the others' float64 is a line of code's too (py-feat's landmarks, ``astype(
        # float)``, against a float32 face model made ``astype(np.float32)``): no user data to
        # win, and float64 where both sides are code is NumPy's default leaking in; the tie
        # stays with the default dtype. Never for half types: a ``.bfloat16()`` is meant
        return None
    return mine


def _made_by_code(ctx: Ctx, o: Op, expected: str) -> bool:
    """Whether the trail of ``o`` ends at a line of code that gives it its dtype and that an
    edit can change."""
    loc = ctx.namer.local_at.get(id(o.tensor))
    if loc is None:
        return False
    want = Want("dtype", o.operand.device, o.operand.dtype, expected, "")
    return any(x.role == "code" and x.edit is not None for x in ctx.tracer(want).local(*loc))


def _target(ctx: Ctx, failure: Failure, ops: list[Op]) -> tuple[str, list[Op]]:
    targets = [o for o in ops if local_name(o.operand.where) == "target"]
    inputs = [o for o in ops if local_name(o.operand.where) in ("input", "self")
              and o.operand.dtype.startswith(("float", "bfloat"))]
    rule = failure.rule
    if (rule is not None and rule.want == "int64") or (
            not inputs and targets and not targets[0].operand.dtype.startswith("int")):
        if not targets:  # NB: a C++ loss called from the user's line: the non-float operand
            targets = [o for o in ops if not o.operand.dtype.startswith(("float", "bfloat"))]
        return "int64", [o for o in targets if o.operand.dtype != "int64"]
    exp = inputs[0].operand.dtype if inputs else "float32"
    return exp, [o for o in targets if o.operand.dtype != exp]


def _loss_target(ctx: Ctx, failure: Failure, ops: list[Op]) -> bool:
    """An integer target reaching a loss that wants float ones (BCE, MSE): PyTorch words it as
    a cast or a dtype problem, but the target is the culprit."""
    rule = failure.rule
    if rule is None or rule.key not in ("cast", "found_dtype", "scalar_type"):
        return False
    fn = _op_frame_name(ctx)
    if not any(w in fn for w in _LOSS_WORDS):
        return False
    # NB: only when the message is about the target's own dtype (class weights are not)
    quoted = {dtype_name(d) for d in re.findall(
        r"(?:Found dtype|found|output type) ([\w ]+?)(?: but|$|\.)", failure.text)}
    return any(local_name(o.operand.where) == "target" and is_int(o.operand.dtype)
               and o.operand.dtype in quoted and not _class_indices(fn, o, ops) for o in ops)


def _class_indices(fn: str, target: Op, ops: list[Op]) -> bool:
    """An int64 target of class indices (one dimension fewer than the input) is what
    cross_entropy and nll_loss want: the int64 the message quotes is another operand's (an
    integer class ``weight``)."""
    if fn not in ("cross_entropy", "nll_loss") or target.operand.dtype != "int64":
        return False
    inputs = [o.operand.shape for o in ops if local_name(o.operand.where) == "input"]
    return bool(inputs) and len(target.operand.shape) == len(inputs[0]) - 1


def index_into_loss(failure: Failure, ops: list[Op]) -> bool:
    """A loss's own target that is no integer tensor, where the message speaks of an index: a
    loss decomposed into ``gather`` (as on a simulated device) names its target's dtype as an
    index's; the target is the culprit, as the loss's own message would say."""
    return failure.kind == "index_dtype" and any(
        local_name(o.operand.where) == "target" and not is_int(o.operand.dtype)
        and any(w in o.operand.where.split(" in ", 1)[-1] for w in _LOSS_WORDS) for o in ops)


def _op_frame_name(ctx: Ctx) -> str:
    for fr in ctx.frames:
        if not internal_file(fr.frame.f_code.co_filename):
            return fr.frame.f_code.co_name
    return ""


def _length_ops(failure: Failure, ops: list[Op]) -> list[Op]:
    """The lengths ``ctc_loss`` refuses (``target_lengths must be integral``): the operand the
    message names, else every 1-D operand of no integer dtype."""
    said = re.findall(r"(\w+_lengths) must be integral", failure.text)
    loose = [o for o in ops if not is_int(o.operand.dtype) and len(o.operand.shape) == 1]
    named = [o for o in loose if local_name(o.operand.where) in said
             or o.operand.named.name.rpartition(".")[2] in said]
    return named or loose


def _index_ops(ctx: Ctx, ops: list[Op]) -> list[Op]:
    named = [o for o in ops if local_name(o.operand.where) in _INDEX_NAMES]
    if not named and _op_frame_name(ctx) in ("embedding", "one_hot"):
        named = [o for o in ops if local_name(o.operand.where) == "input"]
    if named:
        return named
    found = _statement_index_tensors(ctx)
    ids = {id(t) for t in found}
    # NB: an op with no Python frame (``F.one_hot``) leaves no operands: the statement's own
    # index tensors are
    return [o for o in ops if id(o.tensor) in ids] or [_op(ctx, ops, t) for t in found]


def _statement_index_tensors(ctx: Ctx) -> list[Any]:
    """Tensors in index position on the failing statement: ``x[i, j]``, ``t.scatter_(1, i, v)``,
    ``emb(i)`` (an Embedding module)."""
    import torch

    sc, stmt = ctx.statement(ctx.user)
    if stmt is None:
        return []
    tracer = ctx.tracer(_want())
    exprs: list[ast.expr] = []
    for node in _source.own_nodes_of(stmt):
        if isinstance(node, ast.Subscript):
            sl = node.slice
            exprs += list(sl.elts) if isinstance(sl, ast.Tuple) else [sl]
        elif isinstance(node, ast.Call):
            exprs += _index_args(node, tracer.live(sc, node.func), torch)
    out = []
    for e in exprs:
        for sub in _receivers(e):
            obj = _value(tracer, sc, sub)
            if is_tensor(obj):
                out.append(obj)
    return out


def _receivers(node: ast.expr) -> list[ast.expr]:
    """``idx.view(-1, 1).expand_as(src)`` -> its chain down to ``idx`` (never ``src``)."""
    out = [node]
    while isinstance(node, ast.Call | ast.Attribute | ast.Subscript):
        node = node.func if isinstance(node, ast.Call) else node.value
        out.append(node)
    return out


def _index_args(call: ast.Call, func: Any, torch: Any) -> list[ast.expr]:
    f = call.func
    name = f.attr if isinstance(f, ast.Attribute) else (f.id if isinstance(f, ast.Name) else "")
    out = [k.value for k in call.keywords if k.arg in _INDEX_NAMES]
    if issubclass(type(func), torch.nn.Embedding) and call.args:
        return [call.args[0]]
    pos = INDEX_METHODS.get(name)
    if pos is not None:
        method = isinstance(f, ast.Attribute) and not _looks_like_module(f.value)
        i = pos - 1 if method else pos
        if 0 <= i < len(call.args):
            out.append(call.args[i])
        elif method and i == -1 and isinstance(f, ast.Attribute):
            out.append(f.value)  # NB: ``counts = label.bincount()``: the receiver is it
    return out


def _looks_like_module(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id in ("torch", "F", "functional")


def _value(tracer: Any, sc: Any, node: ast.AST) -> Any:
    if isinstance(node, ast.Name):
        return sc.values[node.id] if node.id in sc.values else sc.globals.get(node.id)
    if isinstance(node, ast.Attribute | ast.Subscript):
        return tracer.live(sc, node)
    return None


def _mask_ops(ctx: Ctx, failure: Failure, ops: list[Op]) -> list[Op]:
    named = [o for o in ops if local_name(o.operand.where) in _MASK_NAMES]
    if named:
        return [o for o in named if o.operand.dtype != "bool"]
    ids = {id(t) for t in _statement_mask_tensors(ctx)}
    placed = [o for o in ops if id(o.tensor) in ids and o.operand.dtype != "bool"]
    if placed:
        return placed
    found = _quoted_dtypes(failure)
    hits = [o for o in ops if o.operand.dtype in found]
    return hits[:1] if len({o.operand.dtype for o in ops}) == 1 else hits


# Positions of the mask argument (self counted as 0) in ops that take one.
_MASK_METHODS = {"where": 0, "masked_fill": 1, "masked_fill_": 1, "masked_select": 1,
                 "masked_scatter": 1, "masked_scatter_": 1}


def _statement_mask_tensors(ctx: Ctx) -> list[Any]:
    """Tensors in mask position on the failing statement (``torch.where(c, ...)``'s ``c``)."""
    sc, stmt = ctx.statement(ctx.user)
    if stmt is None:
        return []
    tracer = ctx.tracer(_want())
    exprs: list[ast.expr] = []
    for node in _source.own_nodes_of(stmt):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        exprs += [k.value for k in node.keywords if k.arg in _MASK_NAMES]
        name = f.attr if isinstance(f, ast.Attribute) else (f.id if isinstance(f, ast.Name) else "")
        pos = _MASK_METHODS.get(name)
        if pos is not None:
            method = isinstance(f, ast.Attribute) and not _looks_like_module(f.value)
            i = pos - 1 if method and name != "where" else pos
            if 0 <= i < len(node.args):
                exprs.append(node.args[i])
    return [t for e in exprs for sub in _receivers(e)
            if is_tensor(t := _value(tracer, sc, sub))]


def _self_dtype(failure: Failure) -> str:
    """The dtype of the tensor an op writes its source into, as the message names it:
    "(self) Int and (source) Long", "self (Int) and source (Long)"."""
    m = _SELF.search(failure.text)
    return dtype_name(m.group(1) or m.group(2)) if m else ""


_SELF = re.compile(r"\(self\) (\w+) and \(source\)|\bself \((\w+)\) and source \(")


def _got_dtype(failure: Failure) -> str:
    """The dtype the message says the op got (``but got torch.ShortTensor instead``): an
    integer one too, where the op takes only some (embedding: int64 and int32, not int16)."""
    m = _GOT.search(failure.text)
    return dtype_name(m.group(1)) if m else ""


_GOT = re.compile(r"but got (?:torch\.)?(?:cuda\.)?(\w+?)Tensor instead")


def _quoted_dtypes(failure: Failure) -> set[str]:
    text = failure.text
    out = set()
    for m in re.finditer(r"dtype:? ([\w:]+(?: int| char)?)|for '(\w+)'|Got: (\w+)", text):
        out.add(dtype_name(next(g for g in m.groups() if g)))
    return out


def _dest(ctx: Ctx, failure: Failure, ops: list[Op]) -> tuple[str, list[Op]]:
    """The tensor written into: an in-place op's ``self``, ``out=``, ``t[i] = v``'s ``t``."""
    sc, stmt = ctx.statement(ctx.user)
    tracer = ctx.tracer(_want())
    rule = failure.rule
    if rule is not None and rule.key == "index_put_dtype":
        return _index_put(ctx, tracer, sc, stmt, ops)
    dests = _dest_tensors(tracer, sc, stmt)
    m = re.search(r"result type (\w+)", failure.text)
    expected = dtype_name(m.group(1)) if m else "float32"
    ids = {id(t) for t in dests}
    return expected, [o for o in ops if id(o.tensor) in ids and o.operand.dtype != expected]


def _dest_tensors(tracer: Any, sc: Any, stmt: ast.stmt | None) -> list[Any]:
    if stmt is None or sc is None:
        return []
    out = []
    if isinstance(stmt, ast.AugAssign):
        out.append(_value(tracer, sc, stmt.target))
    for node in _source.own_nodes_of(stmt):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr.endswith("_") and not node.func.attr.startswith("_"):
                out.append(_value(tracer, sc, node.func.value))
            for k in node.keywords:
                if k.arg == "out":
                    out.append(_value(tracer, sc, k.value))
    return [t for t in out if t is not None]


def _index_put(ctx: Ctx, tracer: Any, sc: Any, stmt: ast.stmt | None,
               ops: list[Op]) -> tuple[str, list[Op]]:
    if not isinstance(stmt, ast.Assign) or not isinstance(stmt.targets[0], ast.Subscript):
        return "", []
    dest = _value(tracer, sc, stmt.targets[0].value)
    mods = _decide.modules_called(stmt, lambda n: tracer.live(sc, n))
    exp = _decide.expected_dtype([], [], mods) if mods else ""
    if dest is None:
        return exp, []
    m = meta(dest)
    if not exp or (m is not None and m[1] == exp):
        # NB: the tensor written into is right (or nothing says otherwise): the values are
        # the culprit (fp16 outputs of autocast written into a float32 buffer)
        value = _value(tracer, sc, stmt.value)
        mv = meta(value)
        if m is None or mv is None or mv[1] == m[1]:
            return (m[1] if m else exp), []
        return m[1], [_op(ctx, ops, value)]
    return exp, [_op(ctx, ops, dest)] if m is None or m[1] != exp else []


def _op(ctx: Ctx, ops: list[Op], t: Any) -> Op:
    from ._blame import describe_tensor

    return next((o for o in ops if o.tensor is t), None) or Op(
        describe_tensor(t, "", ctx.namer.label(t, "")), t)
