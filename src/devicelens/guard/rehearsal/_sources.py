"""The user's data a stray local was made from, as fixes for the rehearsal to try: the tensors
and arrays the failing cell reads that are as the culprit is (its wrong dtype or device).

A culprit that is a function's local (`label` in Classifier.fit) is named where the failure met
it, not where the user can mend it: the array the cell handed over (``train.y``). Which of the
cell's data made it is never guessed from names or shapes: the rehearsal fixes them all, then
drops each one the cell runs without, so what is left is what made the stray.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from ...inspect._tree import Ref, assign_code, code_for
from ..diagnosis._blame import Named, Operand, tensor_header
from ..diagnosis._decide import is_pipeline
from ..diagnosis._lookup import code_under, data_read, find
from ..diagnosis._mismatch import MismatchReport, fix_for, lossy_cast
from ._apply import python_text, source_lines

#: how many of the cell's data get a fix line (each the rehearsal may drop costs a round)
MAX_SOURCES = 6

#: dtypes numpy names as torch does: a cast an array can take
_NUMPY = frozenset({"float64", "float32", "float16", "int64", "int32", "int16", "int8", "uint8",
                    "bool"})


#: namespace name -> the attributes the running code of that object assigns
#: (:func:`running_objects`)
Running = dict[str, frozenset[str]]


def loose(report: MismatchReport, bound: frozenset[str],
          running: Running | None = None) -> list[Operand]:
    """The culprits no namespace fix can mend: a function's locals, temporaries, names the
    cell binds itself (``for ct, mask in loader``: the next run binds them again), and what a
    running object's own code assigns (``strategy.mbatch[1]``, where ``Naive.train`` runs ``for
    self.mbatch in loader``: the batch each step makes again from the data)."""
    running = running or {}
    return [c for c in report.culprits if c.named.role in ("local", "unnamed", "code")
            or not c.named.code or c.named.root in bound
            or _first_attr(c.named.code, c.named.root) in running.get(c.named.root, ())]


def running_objects(ns: dict[str, Any], selves: list[tuple[Any, frozenset[str]]]) -> Running:
    """For each namespace name bound to one of ``selves`` (the ``self`` of a frame the failure
    went through, with the attributes that frame's code assigns) that is no ``nn.Module``, those
    attributes. NB: a model's attributes are its weights and buffers, which no step makes again;
    what the code only reads (a distribution's ``loc``) stays the user's to mend."""
    import torch

    stored: dict[int, set[str]] = {}
    for s, attrs in selves:
        if not issubclass(type(s), torch.nn.Module):
            stored.setdefault(id(s), set()).update(attrs)
    return {k: frozenset(stored[id(v)]) for k, v in list(dict.items(ns))
            if type(k) is str and id(v) in stored}


def _first_attr(code: str, root: str) -> str:
    """``mbatch`` of ``strategy.mbatch[1]`` (root ``strategy``); '' when no attribute follows."""
    m = re.match(r"\.([A-Za-z_]\w*)", code[len(root):]) if root and code.startswith(root) else None
    return m.group(1) if m else ""


def source_fixes(report: MismatchReport, filename: str, ns: dict[str, Any],
                 running: Running | None = None) -> dict[str, Operand]:
    """fix line -> the data it mends, for each tensor or array the cell in ``filename`` reads
    (and does not bind itself) that has a ``loose`` culprit's wrong device or dtype."""
    read, bound = _names(filename)
    strays = loose(report, bound, running)
    if not strays:
        return {}
    if report.kind == "device" and _split(ns, read):
        return {}  # NB: a model over several devices takes its input on its first one
    wrong = {c.device if report.kind == "device" else c.dtype for c in strays} - {
        report.expected}
    out: dict[str, Operand] = {}
    # NB: never the running object's stray itself: the step that failed made it, the next
    # remakes it (its other data, a replay buffer, is data like any other)
    remade = {c.named.code for c in strays if c.named.root in (running or {})}
    found = [f for f in data_read(ns, read) if code_for(f[1]) not in remade]
    # NB: named by the shortest path, never through a name the cell binds (it rebinds it)
    unbound = {k: dict.get(ns, k) for k in [*read, *dict.keys(ns)] if k not in bound}
    shortest = find(unbound, {id(x): x for _obj, _ref, chain in found for x in chain})
    lists: dict[int, list[Operand]] = {}  # id(list) -> its items that are wrong
    for obj, ref, chain in found:
        data = _as_data(obj, _path(ref, chain, shortest), report, wrong)
        if data is None:
            continue
        holder = chain[-1] if chain else None
        if type(holder) is list:
            lists.setdefault(id(holder), []).append(data[1])
            whole = _as_list(holder, _path(ref[:-1], chain[:-1], shortest),
                             lists[id(holder)], report)
            if whole is not None:  # NB: every item wrong: one line mends the list
                for c in lists[id(holder)][:-1]:
                    out.pop(_fix_line(c, report), None)
                data = whole
        if len(out) < MAX_SOURCES or data[0] in out:
            out[data[0]] = data[1]
    return out


def _path(ref: Ref, chain: tuple[Any, ...], shortest: dict[int, str]) -> str:
    """The shortest code for the slot ``ref`` reads: through the shortest path to an object on
    the way (``train_dataset.ct_slices`` for ``train_loader.dataset.ct_slices``), never another
    name of the object itself (rebinding that name would leave the slot the cell reads as is)."""
    ways = [code_for(ref)] + [code_under(shortest[id(chain[k - 1])], ref[k:])
                              for k in range(1, len(ref)) if id(chain[k - 1]) in shortest]
    return min(ways, key=len)


def _as_list(holder: list[Any], code: str, wrong_items: list[Operand],
             report: MismatchReport) -> tuple[str, Operand] | None:
    """One fix line for a list whose every item is wrong the same way (a dataset's slices)."""
    if len(wrong_items) != list.__len__(holder) or len(wrong_items) < 2:
        return None
    first = wrong_items[0]
    each = _fix_line(first._replace(named=first.named._replace(code="v", name="v")), report)
    value = each.split(" = ", 1)[1]
    root = code.split(".")[0].split("[")[0]
    what = (f"list of {len(wrong_items)} numpy {first.dtype} arrays" if first.what else
            f"list of {len(wrong_items)} {first.dtype} tensors on {first.device}")
    c = Operand("read by the cell", Named(code, code, "tensor", root), first.device,
                first.dtype, (), what)
    return assign_code(code, f"[{value} for v in {code}]"), c


def _fix_line(c: Operand, report: MismatchReport) -> str:
    code = c.named.code
    if c.what.startswith("numpy"):
        target = "int64" if report.kind == "index_dtype" else report.expected
        return assign_code(code, f'{code}.astype("{target}")')
    if c.named.role != "leaf":
        return fix_for(c, report.kind, report.expected)
    moved = fix_for(c._replace(named=c.named._replace(role="tensor")), report.kind,
                    report.expected).split(" = ", 1)[-1].removeprefix(code + ".")
    return assign_code(code, f"{code}.detach().{moved}.requires_grad_()")


def _as_data(obj: Any, code: str, report: MismatchReport,
             wrong: set[str]) -> tuple[str, Operand] | None:
    import torch

    root = code.split(".")[0].split("[")[0]
    named = Named(code, code, "tensor", root)
    if issubclass(type(obj), torch.Tensor):
        if issubclass(type(obj), torch.nn.Parameter):
            return None  # NB: a model's or an optimizer's to fix, in place
        base = torch._C.TensorBase.__dict__
        if base["requires_grad"].__get__(obj) and base["is_leaf"].__get__(obj):
            # NB: input a gradient is taken of (a PINN's collocation points) stays a leaf
            named = named._replace(role="leaf")
        device, dtype, shape = tensor_header(obj)
        dtype = dtype.removeprefix("torch.")
        if (device if report.kind == "device" else dtype) not in wrong:
            return None
        if lossy_cast(dtype, report):
            return None  # NB: a stray an integer op needs is mended where code made it float
        if shape == ():
            return None  # NB: a count or a scalar, not data (a cpu one mixes with any device)
        c = Operand("read by the cell", named, device, dtype, shape)
        return _fix_line(c, report), c
    if report.kind == "device":
        return None  # NB: an array is on the cpu, and moves only as a tensor
    import numpy as np

    dtype = str(np.ndarray.dtype.__get__(obj))
    target = "int64" if report.kind == "index_dtype" else report.expected
    if dtype not in wrong or target not in _NUMPY or lossy_cast(dtype, report):
        return None
    shape = tuple(np.ndarray.shape.__get__(obj))
    if shape == ():
        return None
    c = Operand("read by the cell", named, "cpu", dtype, shape,
                f"numpy {dtype}[{', '.join(map(str, shape))}]")
    return _fix_line(c, report), c


def _split(ns: dict[str, Any], read: list[str]) -> bool:
    """Whether a model the cell reads is split over several accelerators on purpose."""
    import torch

    return any(issubclass(type(m), torch.nn.Module) and is_pipeline(m)
               for m in (dict.get(ns, name) for name in read))


def _names(filename: str) -> tuple[list[str], frozenset[str]]:
    """The global names a cell's code reads and never binds at its top level, in order; the
    names it binds there."""
    try:
        tree = ast.parse(python_text(source_lines(filename)))
    except (SyntaxError, ValueError):
        return [], frozenset()
    bound: set[str] = set()
    todo: list[ast.AST] = list(tree.body)
    while todo:  # NB: the top level only: a function's own names are not the namespace's
        node = todo.pop()
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            bound.add(node.id)
        elif not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
                            | ast.ClassDef):
            todo += ast.iter_child_nodes(node)
    read = sorted((n for n in ast.walk(tree) if isinstance(n, ast.Name)
                   and isinstance(n.ctx, ast.Load)), key=lambda n: (n.lineno, n.col_offset))
    return [n for n in dict.fromkeys(n.id for n in read) if n not in bound], frozenset(bound)


def _handle(c: Operand) -> bool:
    """The object whose method holds an edit's line (:mod:`..diagnosis._handle`): no
    tensor of its own, named for the edit."""
    return c.named.role == "code" and not c.device and not c.named.name.startswith("`")


def named_from(report: MismatchReport, kept: list[Operand],
               read: set[str] | frozenset[str] = frozenset()) -> MismatchReport:
    """``report`` whose culprits are the data the rehearsed fix mends, the locals that failed
    said to be made from it; a namespace name that failed stays a culprit where the cell reads
    it (``read``: the names the failing cell mentions)."""
    from dataclasses import replace

    # NB: never the handle of an edit (``model.encoder``, "its forward has the line to edit"):
    # the fix is no edit now
    culprits = [c for c in report.culprits if not _handle(c)]
    strays = [c.named.name for c in culprits if c.named.name.startswith("`")
              or (c.named.code and c.named.code == c.named.name and c not in kept)]
    said = ", ".join(strays) if strays else "the tensor that failed"
    verb = "is" if len(strays) < 2 else "are"
    # NB: a name of the cell's that failed stays a culprit beside its source (``labels`` of
    # ``loss_function(outputs, labels)``, made again from ``train_ds.labels`` each batch)
    held = tuple(c for c in culprits if c.named.code and c.named.code == c.named.name
                 and c.named.root in read and c not in kept)
    return replace(report, culprits=(*held, *kept), fixes=(), edits=(), notes=(
        f"{said} {verb} made from data the cell reads: the fix mends that data",))
