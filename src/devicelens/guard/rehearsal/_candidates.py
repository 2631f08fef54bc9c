"""Fixes the rules did not write, for the rehearsal to try: the failing line's own operands,
cast or moved to where the failing op wants them.

One mechanism instead of one rule per shape: ``model(x.double())`` becomes ``model(x)``,
``head(emb(ids))`` becomes ``head(emb(ids).float())``, ``a @ b.T`` becomes ``a @ b.T.float()``.
Most of these guesses are wrong; the rehearsal runs each and keeps the first that makes the
cell run and does no harm, so none of them is ever shown unproven.
"""

from __future__ import annotations

import ast
from collections import ChainMap
from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

from ..diagnosis._blame import tensor_header
from ..diagnosis._edits import Edit
from ..diagnosis._mismatch import MismatchReport, lossy_cast
from ..running._frames import cell_label
from ._apply import python_text, source_lines

#: how many guesses one failing line gets (each costs a rehearsal round)
MAX_GUESSES = 6

_CASTS = {"float32": "float()", "float64": "double()", "float16": "half()",
          "bfloat16": "bfloat16()", "int64": "long()", "int32": "int()", "bool": "bool()"}
_DROPPABLE = frozenset({"float", "double", "half", "bfloat16", "long", "int", "bool", "byte",
                        "cpu", "cuda"})
_CAST_METHODS = _DROPPABLE | {"to", "type"}


class Guess(NamedTuple):
    """One rewritten operand: the edit, and the operand as the user wrote it."""

    edit: Edit
    operand: str  # ``x.double()``: what the diagnosis can call the culprit
    local: Any = None  # the local tensor the operand reads, described as a culprit (or None)


#: how many of the user's frames, innermost first, get guesses (each line costs rounds)
MAX_SITES = 3


def sites(tb: Any, failing: tuple[str, int]) -> list[tuple[str, int, str, Mapping[str, Any]]]:
    """(file, line, qualname, locals) of the statements to rewrite: the frames in the user's
    cells (functions a cell defined), innermost first, then the failing cell's own line.

    NB: outward because the stray often comes in from a caller: a helper's ``generate(ids)``
    called with the cpu ``ids`` is fixed where it is called, not in the model it reaches."""
    from ..running._frames import default_cell_files, frame_locals, traceback_frames

    is_cell = default_cell_files([failing[0]])
    # NB: a function's globals after its locals: ``generator.generate(ids)`` in a cell's
    # function reads the namespace's ``generator`` (a ChainMap reads both, copies neither)
    out: list[tuple[str, int, str, Mapping[str, Any]]] = []
    out += [
        (f.frame.f_code.co_filename, f.lineno,
         "" if f.frame.f_code.co_name == "<module>" else f.frame.f_code.co_qualname,
         ChainMap[str, Any](frame_locals(f.frame), f.frame.f_globals))
           for f in traceback_frames(tb) if is_cell(f.frame.f_code.co_filename)
           and f.frame.f_code.co_name != "<module>"][:MAX_SITES]
    out.append((*failing, "", {}))
    return list({site[:2]: site for site in out}.values())


def line_guesses(report: MismatchReport, filename: str, line: int, qualname: str = "",
                 scope: Mapping[str, Any] | None = None, outer: bool = False) -> list[Guess]:
    """Edits of the statement at ``line`` of cell ``filename`` (in function ``qualname``, whose
    locals are ``scope``; ``outer``: a caller's line, not the one the op read its operands on),
    one operand each: a cast the operand makes dropped, then the operand
    cast or moved to ``report.expected``. NB: inside a function the target is another operand's
    (``.to(tokens.dtype)``): a literal there would be wrong for the next device or dtype."""
    if line <= 0:
        return []
    lines = source_lines(filename)
    try:
        tree = ast.parse(python_text(lines))
    except SyntaxError:
        return []
    stmt = _statement(tree, line)
    if stmt is None:
        return []
    first, last = stmt.lineno, stmt.end_lineno or stmt.lineno
    old = lines[first - 1:last]
    anchor = _anchor(stmt, report, scope or {}) if qualname else ""
    # NB: a dtype literal in a helper is only a last resort; a device literal never is (it
    # would be wrong on the next device, and on every other rank)
    # NB: the cpu is the one device a literal names rightly on every machine and rank
    # (``pack_padded_sequence``'s lengths)
    call = f"to({anchor}.{'device' if report.kind == 'device' else 'dtype'})" if anchor else (
        _call(report) if not qualname or report.kind != "device" else
        "cpu()" if report.expected == "cpu" else "")
    out: list[Guess] = []
    rewrites = _rewrites(stmt, call, _culprit_names(report), scope or {}, report,
                         lambda n: _segment(old, first, n), outer)
    strays: dict[int, str] = {}  # NB: a rewritten sequence's operand is its stray item
    mixed = _mixed_sequences(stmt, scope or {}, report, lambda n: _segment(old, first, n), strays)
    unpacked = _unpacked_dicts(stmt, scope or {}, report, call) if anchor else []
    for node, new in [*_written(stmt, report), *rewrites, *mixed, *unpacked]:
        if anchor and _source(node) == anchor:
            continue
        text = _replaced(old, first, node, new)
        if text is None or text == old:
            continue
        where = f"{cell_label(filename)} line {first}" + (f" (in {qualname})" if qualname else "")
        out.append(Guess(Edit(where, tuple(old), tuple(text), filename, qualname),
                         strays.get(id(node)) or _segment(old, first, node),
                         _local_culprit(node, scope, qualname)))
        if len(out) >= MAX_GUESSES:
            break
    return list({g.edit: g for g in out}.values())


def _anchor(stmt: ast.stmt, report: MismatchReport, scope: Mapping[str, Any]) -> str:
    """An operand of ``stmt`` (a local, or an attribute of one) that already has the device or
    dtype the op wants, read from the failing frame's locals without running any code."""
    if not scope or report.kind not in ("device", "dtype") or not report.expected:
        return ""
    for n in _operands(stmt):
        value = _lookup(n, scope)
        src = _source(n)
        if _is_module(value):  # NB: ``self.model_(h)``: the module's own weights decide
            value = _first_parameter(value)
            src = f"next({src}.parameters())"
        got = getattr(value, report.kind, None) if _is_tensor(value) else None
        if got is not None and str(got).removeprefix("torch.") == report.expected:
            return src
    if isinstance(stmt, ast.Expr | ast.Return | ast.Assign):
        value = getattr(stmt, "value", None)
        callee = value.func if isinstance(value, ast.Call) else None
        if callee is not None and _is_module(_lookup(callee, scope)):
            return _anchor_of_module(callee, report, scope)
        # NB: a module's own method (``self.model.generate(ids)``): its weights decide too
        if isinstance(callee, ast.Attribute) and _is_module(_lookup(callee.value, scope)):
            return _anchor_of_module(callee.value, report, scope)
    return ""


def _anchor_of_module(callee: ast.expr, report: MismatchReport, scope: Mapping[str, Any]) -> str:
    p = _first_parameter(_lookup(callee, scope))
    got = getattr(p, report.kind, None)
    ok = got is not None and str(got).removeprefix("torch.") == report.expected
    return f"next({_source(callee)}.parameters())" if ok else ""


def _first_parameter(module: Any) -> Any:
    """NB: through ``nn.Module.parameters`` itself: a subclass's override is user code."""
    import torch

    return next(iter(torch.nn.Module.parameters(module)), None)


def _is_module(value: Any) -> bool:
    import sys

    torch = sys.modules.get("torch")
    return torch is not None and isinstance(value, torch.nn.Module)


def _lookup(node: ast.expr, scope: Mapping[str, Any]) -> Any:
    """``x`` or ``self.grid`` from ``scope``: names and instance attributes only (an
    attribute is read from the object's ``__dict__``, never through a property)."""
    if isinstance(node, ast.Name):
        return scope.get(node.id)
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        owner = _lookup(node.value, scope)
        key = node.slice.value
        return owner.get(key) if type(owner) is dict and isinstance(key, str | int) else None
    if isinstance(node, ast.Attribute):
        owner = _lookup(node.value, scope)
        if node.attr == "data" and _is_tensor(owner):
            return owner  # NB: ``p.data``: the same device and dtype as ``p``
        try:  # NB: past any __getattribute__ of the user's class: no user code runs
            d = object.__getattribute__(owner, "__dict__") if owner is not None else None
        except AttributeError:
            return None
        if type(d) is not dict:
            return None
        if node.attr in d:
            return d[node.attr]
        for bag in ("_parameters", "_buffers", "_modules"):  # NB: where nn.Module keeps them
            inner = d.get(bag)
            if type(inner) is dict and node.attr in inner:
                return inner[node.attr]
    return None


def _is_tensor(value: Any) -> bool:
    import sys

    torch = sys.modules.get("torch")
    return torch is not None and isinstance(value, torch.Tensor)


def _call(report: MismatchReport) -> str:
    if report.kind == "device":
        return f'to("{report.expected}")' if report.expected else ""
    if report.kind == "index_dtype":
        return "long()"
    return _CASTS.get(report.expected, "")


def _statement(tree: ast.Module, line: int) -> ast.stmt | None:
    """The innermost simple statement that spans ``line``."""
    best: ast.stmt | None = None
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and not hasattr(node, "body") \
                and node.lineno <= line <= (node.end_lineno or node.lineno):
            best = node
    return best


def _culprit_names(report: MismatchReport) -> set[str]:
    """The culprits as the code writes them: ``data`` for `data` in moving_average."""
    out = set()
    for c in report.culprits:
        n = c.named
        local = n.name.split("`")[1] if n.name.startswith("`") and n.name.count("`") > 1 else ""
        out.add(n.code or local or n.name)
    return out


def _rewrites(stmt: ast.stmt, call: str, culprits: set[str], scope: Mapping[str, Any],
              report: MismatchReport, spelled: Any = None,
              outer: bool = False) -> Iterator[tuple[ast.expr, str]]:
    """(operand, its new text): casts dropped first (the smallest fix), then the culprits as
    written, then outer operands before inner ones (an op's own before what made them).
    NB: never an operand that is no tensor (a list, a tuple, a function, a module: a guess
    that moves a whole model from inside its forward is no fix), nor one already where the op
    wants it."""
    # NB: an index's dtype is the index's to change, never the indexed tensor's
    indexed = {id(n.value) for n in ast.walk(stmt) if isinstance(n, ast.Subscript)} \
        if report.kind == "index_dtype" else set()
    operands = [n for n in _operands(stmt) if not isinstance(n, _NO_TENSOR)
                and not _arithmetic_of_constants(n) and not _known_other(n, scope, report)
                and not _assigns_no_tensor(stmt, n, scope) and id(n) not in indexed]
    operands.sort(key=lambda n: _source(n) not in culprits)  # NB: stable: BFS order kept
    spelled = spelled or _source  # NB: as the user wrote it (their quotes, their spacing)
    for n in operands:
        inner = _cast_of(n)
        if inner is not None:
            yield n, spelled(inner)
    for n in operands if call else ():
        if call == "cpu()" and _source(n) not in culprits:
            continue  # NB: to the cpu goes what must be there (lengths), never the data
        if outer and _source(n) not in culprits \
                and lossy_cast(_dtype_of(_lookup(n, scope)), report):
            # NB: floats cast to integers lose their values, and a cell can run *because* they
            # did (scores all 0 pass no threshold): on a caller's line, only a named stray gets
            # such a cast; on the op's own line the operand is what the op reads as an index
            continue
        src = spelled(n)
        atom = isinstance(n, ast.Name | ast.Attribute | ast.Call | ast.Subscript)
        yield n, f"{src if atom else f'({src})'}.{call}"


def _mixed_sequences(stmt: ast.stmt, scope: Mapping[str, Any], report: MismatchReport,
                     spelled: Any, strays: dict[int, str]) -> Iterator[tuple[ast.expr, str]]:
    """(operand, its new text) for a list or tuple of tensors the op reads whose items are on
    two devices (or dtypes): ``torch.stack(list(img))`` with ``img[1]`` on the cpu becomes
    ``torch.stack([t.to(img[0].device) for t in img])``. NB: the place is read off an item
    already where the op wants it, never written as a literal (right on the next device and on
    every rank); a sequence ``_rewrites`` passes over (it is no tensor). ``strays`` gets, by
    the rewritten node's id, the first item elsewhere as the user would write it (``img[1]``)."""
    if report.kind not in ("device", "dtype") or not report.expected or not scope:
        return
    attr = report.kind
    done: set[str] = set()
    for n in _operands(stmt):
        seq = n
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) \
                and n.func.id in ("list", "tuple") and len(n.args) == 1 and not n.keywords:
            seq = n.args[0]  # NB: ``list(img)``: the call is rewritten, ``img`` read
        src = _source(seq)
        value = _lookup(seq, scope)
        if src in done or type(value) not in (list, tuple) or not value \
                or not all(map(_is_tensor, value)):
            continue
        heads = list(map(tensor_header, value))  # NB: read as torch does, no property run
        places = [h[0] if attr == "device" else h[1].removeprefix("torch.") for h in heads]
        if len(set(places)) < 2 or report.expected not in places:
            continue
        done.add(src)
        k = places.index(report.expected)
        var = next(v for v in ("t", "t_", "item", "item_") if v not in
                   {x.id for x in ast.walk(stmt) if isinstance(x, ast.Name)})
        text = spelled(seq)
        atom = isinstance(seq, ast.Name | ast.Attribute | ast.Subscript)
        base = text if atom else f"({text})"
        strays[id(n)] = f"{base}[{next(i for i, p in enumerate(places) if p != report.expected)}]"
        yield n, f"[{var}.to({base}[{k}].{attr}) for {var} in {base}]"


def _unpacked_dicts(stmt: ast.stmt, scope: Mapping[str, Any], report: MismatchReport,
                    call: str) -> list[tuple[ast.expr, str]]:
    """(dict, its new text) for a dict of tensors a call unpacks (``self.model.generate(
    **inputs)``, a processor's output left on the cpu) with a tensor elsewhere than the op
    wants: every item moved as the call's own anchor says, ``{k: v.to(...) for k, v in
    inputs.items()}``. NB: only a plain dict of tensors only, in a function (``call`` reads an
    operand's place, never a literal); ``_rewrites`` passes over it (it is no tensor)."""
    if report.kind != "device" or not call.startswith("to("):
        return []
    names = {x.id for x in ast.walk(stmt) if isinstance(x, ast.Name)}
    pair = next(((a, b) for a, b in (("k", "v"), ("k_", "v_"), ("key", "value"))
                 if a not in names and b not in names), None)
    if pair is None:
        return []
    key, val = pair
    out: list[tuple[ast.expr, str]] = []
    for node in ast.walk(stmt):
        if not isinstance(node, ast.Call):
            continue
        for kw in node.keywords:
            value = _lookup(kw.value, scope) if kw.arg is None else None
            if type(value) is not dict or not value or not all(map(_is_tensor, value.values())):
                continue
            places = {tensor_header(t)[0] for t in value.values()}
            if places != {report.expected}:
                src = _source(kw.value)
                out.append((kw.value, f"{{{key}: {val}.{call} for {key}, {val} in "
                                      f"{src}.items()}}"))
    return out


def _dtype_of(value: Any) -> str:
    """A tensor's or NumPy array's dtype (``float32``), read without calling into it; ''."""
    import sys

    if _is_tensor(value):
        torch = sys.modules["torch"]
        return str(torch._C.TensorBase.dtype.__get__(value)).removeprefix("torch.")
    np = sys.modules.get("numpy")
    if np is not None and isinstance(value, np.ndarray):
        return str(np.ndarray.dtype.__get__(value))
    return ""


_NO_TENSOR = (ast.Constant, ast.Starred, ast.List, ast.Tuple, ast.Dict, ast.Set, ast.ListComp,
              ast.DictComp, ast.SetComp, ast.GeneratorExp, ast.Lambda, ast.JoinedStr, ast.Slice)


#: what a tensor's methods and attributes give that is no tensor (``x.size(1)``, ``x.shape[0]``)
_NOT_TENSOR_OF = frozenset({"size", "dim", "ndim", "numel", "item", "tolist", "shape",
                            "dtype", "device", "stride", "element_size", "nelement"})


def _assigns_no_tensor(stmt: ast.stmt, node: ast.expr, scope: Mapping[str, Any]) -> bool:
    """``node`` is the whole value of ``name = value``, and the frame holds ``name`` bound to
    something that is no tensor (``params = self.generate_parameters(...)``, a dict): its
    ``.to()`` would raise. NB: the value as the line left it, read without running it."""
    if not isinstance(stmt, ast.Assign) or stmt.value is not node or len(stmt.targets) != 1:
        return False
    target = stmt.targets[0]
    if not isinstance(target, ast.Name) or target.id not in scope:
        return False
    return not _is_tensor(scope[target.id])


def _known_other(node: ast.expr, scope: Mapping[str, Any], report: MismatchReport) -> bool:
    """``node`` reads a value of ``scope`` that is there and is no tensor, or a tensor that
    already has the device or dtype the op wants; or it is a size, a shape, a number."""
    if isinstance(node, ast.BinOp | ast.UnaryOp):  # NB: ``x.shape[1] - 1``: a number
        leaves = [n for n in (node.left, node.right) if n is not None] \
            if isinstance(node, ast.BinOp) else [node.operand]
        return all(isinstance(n, ast.Constant) or _known_other(n, {}, report) for n in leaves)
    inner = node.value if isinstance(node, ast.Subscript) else node
    inner = inner.func if isinstance(inner, ast.Call) else inner
    if isinstance(inner, ast.Attribute) and inner.attr in _NOT_TENSOR_OF:
        return True
    if isinstance(inner, ast.Name) and inner.id in ("len", "int", "float", "range", "min",
                                                    "max") and isinstance(node, ast.Call):
        return True
    value = _lookup(node, scope)
    if value is None:
        return False
    if not _is_tensor(value):
        return True
    got = getattr(value, "device" if report.kind == "device" else "dtype", None)
    return bool(report.expected) and str(got).removeprefix("torch.") == report.expected


def _local_culprit(node: ast.expr, scope: Mapping[str, Any] | None, qualname: str) -> Any:
    """The local tensor an operand reads (``gt_tensor`` of ``gt_tensor[idx]``), described as a
    culprit (`gt_tensor` in BatchGenerator.get_single_random), or None."""
    from ..diagnosis._blame import Named, describe_tensor

    root = node
    while isinstance(root, ast.Subscript | ast.Attribute):
        root = root.value
    if not isinstance(root, ast.Name) or not qualname:
        return None
    # NB: only a local is named "`x` in f"; a global the function reads is the namespace's
    local = scope.maps[0] if isinstance(scope, ChainMap) else (scope or {})
    value = local.get(root.id)
    if not _is_tensor(value):
        return None
    name = f"`{root.id}` in {qualname}"
    return describe_tensor(value, name, Named(name, "", "local", ""))


def _written(stmt: ast.stmt, report: MismatchReport) -> Iterator[tuple[ast.expr, str]]:
    """``a[idx] = v``: ``v`` put on ``a``'s device or cast to its dtype, first (what is written
    into must stay as it is; index_put requires the values to match it)."""
    if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Subscript)):
        return
    base, value = stmt.targets[0].value, stmt.value
    if isinstance(value, ast.Constant) or not isinstance(base, ast.Name | ast.Attribute):
        return
    src = _source(value)
    atom = isinstance(value, ast.Name | ast.Attribute | ast.Call | ast.Subscript)
    attr = "device" if report.kind == "device" else "dtype"
    yield value, f"{src if atom else f'({src})'}.to({_source(base)}.{attr})"


def _arithmetic_of_constants(n: ast.expr) -> bool:
    """``2 * 3``: arithmetic of constants only, which no cast or move applies to."""
    return isinstance(n, ast.BinOp | ast.UnaryOp) and all(
        isinstance(k, ast.Constant | ast.operator | ast.unaryop | ast.BinOp | ast.UnaryOp)
        for k in ast.walk(n) if k is not n)


def _operands(stmt: ast.stmt) -> Iterator[ast.expr]:
    value = getattr(stmt, "value", None)
    if not isinstance(value, ast.expr):
        return
    queue: list[ast.expr] = [value]
    while queue:
        node = queue.pop(0)
        kids: list[ast.expr] = []
        walked: list[ast.expr] = []  # looked into, never an operand itself
        if isinstance(node, ast.Call):
            # NB: never what an op writes into: ``w.to(d).lerp_(v)`` or ``out=t.to(d)`` runs and
            # writes a copy, so the user's tensor silently never changes
            kids = [*node.args, *(k.value for k in node.keywords if k.arg != "out")]
            f = node.func
            if isinstance(f, ast.Attribute) and f.attr in _NOT_TENSOR_OF:
                continue  # NB: ``x.size(0)``: a number, nothing of ``x`` reaches the op
            # NB: a temporary written in place (``torch.full(...).scatter_(...)``) may be
            # rewritten: what the op returns is all there is of it
            if isinstance(f, ast.Attribute) and f.attr not in _CAST_METHODS \
                    and not (_in_place(f.attr) and _stored(f.value)) \
                    and not _namespace_module(f.value):
                kids.insert(0, f.value)  # ``a.matmul(b)``: ``a`` is an operand too
            elif isinstance(f, ast.Attribute) and f.attr in _CAST_METHODS:
                # NB: ``eye(n).index_select(0, i).to(d)``: the op that fails is inside the move
                walked.append(f.value)
        elif isinstance(node, ast.BinOp):
            kids = [node.left, node.right]
        elif isinstance(node, ast.Compare):
            kids = [node.left, *node.comparators]
        elif isinstance(node, ast.List | ast.Tuple):
            kids = list(node.elts)
        elif isinstance(node, ast.Dict):
            # NB: ``return {"loss_cls": F.cross_entropy(scores, gt_classes)}``: the values
            walked += [v for v in node.values if v is not None]
        elif isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Slice):
            # NB: ``emission[tokens.clamp(min=0)]``: the index is an operand of the lookup
            kids = [node.value, node.slice]
        yield from (k for k in kids if k is not value)
        queue += kids + walked


#: the usual names of Python modules (``torch.cat``, ``F.linear``): a call's receiver, no operand
_MODULE_NAMES = frozenset({"torch", "F", "nn", "np", "numpy", "math", "functional", "fn"})


def _in_place(method: str) -> bool:
    """``add_``, ``lerp_``, ``copy_``: a method that writes into its receiver."""
    return method.endswith("_") and not method.endswith("__")


def _stored(node: ast.expr) -> bool:
    """``w``, ``ema.weight``, ``buf[0]``: an object that outlives the statement."""
    return isinstance(node, ast.Name | ast.Attribute | ast.Subscript)


def _namespace_module(node: ast.expr) -> bool:
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name) and node.id in _MODULE_NAMES


def _cast_of(node: ast.expr) -> ast.expr | None:
    """``x`` for ``x.double()``, ``x.cpu()``, ``x.to(torch.float64)``: the operand before the
    cast or move it makes (a guess that drops it is the smallest edit)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return None
    method, args = node.func.attr, node.args
    if method == "to":
        ok = len(args) == 1 and not node.keywords and isinstance(args[0], ast.Attribute) \
            and isinstance(args[0].value, ast.Name) and args[0].value.id == "torch"
    else:
        ok = method in _DROPPABLE and not args and not node.keywords
    return node.func.value if ok else None


def _source(node: ast.expr) -> str:
    return ast.unparse(node)


def _replaced(old: list[str], first: int, node: ast.expr, new: str) -> list[str] | None:
    """``old`` (the statement's lines, from line ``first``) with ``node`` written as ``new``."""
    if node.end_lineno is None or node.end_col_offset is None:
        return None
    raw = [ln.encode() for ln in old]
    a, b = node.lineno - first, node.end_lineno - first
    if not (0 <= a <= b < len(raw)):
        return None
    head, tail = raw[a][:node.col_offset], raw[b][node.end_col_offset:]
    joined = (head + new.encode() + tail).decode(errors="replace")
    return [*old[:a], *joined.split("\n"), *old[b + 1:]]


def _segment(old: list[str], first: int, node: ast.expr) -> str:
    if node.end_lineno is None or node.end_col_offset is None:
        return _source(node)
    raw = "\n".join(old).encode()
    lines = raw.split(b"\n")
    a, b = node.lineno - first, node.end_lineno - first
    if not (0 <= a <= b < len(lines)):
        return _source(node)
    if a == b:
        return lines[a][node.col_offset:node.end_col_offset].decode(errors="replace")
    return _source(node)
