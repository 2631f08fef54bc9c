"""The user's handle on a stray their own code makes: the object or function the cell reached the
edited line through.

A tensor made inside a method or a helper (``torch.hann_window(n)`` in Preprocessor.forward, a
``Uniform`` on the cpu in BandPassFilter.randomize_parameters) has no name in the namespace, and a
culprit called "a temporary" or `window` in stft tells the user nothing they hold. What they hold
is the object whose method runs that code (``model.prep``, ``transform``) or the function their
cell called (``gumbel_softmax``): that is named, first, beside what the edit rewrites. Where the
edited line is in a plain function they hold by its own name (advertorch's ``rand_init_delta``,
run by ``adversary.perturb``), that function is named first and the object after it: the one
has the bug, the other is how the cell reached it. One rule for every family: it applies
whenever the fix is an edit and no culprit has a namespace name, and after the held culprits
where the fix is the edit alone (they stay where they are).
NB: reads frames, ``__dict__``s and the namespace only; no user code runs.
"""

from __future__ import annotations

import ast
import types
from dataclasses import replace
from typing import Any

from ..running._frames import CellFiles, Frame, frame_locals
from ._blame import Named, Namer, Operand
from ._edits import Edit
from ._lookup import IPYTHON_CACHE
from ._mismatch import MismatchReport
from ._owners import with_owners
from ._recompute import function_class
from ._source import load, unwrapped


def with_handle(report: MismatchReport, frames: list[Frame], namer: Namer,
                is_cell: CellFiles) -> MismatchReport:
    """``report`` with its edits' owners and, when no culprit has a namespace name, the user's
    handle on the edited code as its first culprit; with no edit, the function the cell handed
    the very device its culprits should be on (:func:`_given_a_device`)."""
    if not report.edits:
        return _given_a_device(report, frames, namer, is_cell)
    edits = with_owners(report.edits, frames, namer)
    report = _without_innocents(report)
    if any(_held(c, namer.ns) for c in report.culprits):
        found = [] if report.fixes else handles(edits, frames, namer, is_cell)
        named = {c.named.name for c in report.culprits}
        ops = tuple(_operand(name, what) for name, what in found if name not in named)
        if not ops:
            return replace(report, edits=edits) if edits != report.edits else report
        # NB: the fix is the edit alone (the held tensors stay where they are): whose code it
        # changes is named too, after them
        return replace(report, culprits=(*report.culprits, *ops), edits=edits)
    found = handles(edits, frames, namer, is_cell)
    if not found:
        return replace(report, edits=edits)
    ops = tuple(_operand(name, what) for name, what in found)
    # NB: a culprit named after the function whose line made it is that same stray: the handle
    # takes its place rather than naming it twice
    rest = tuple(c for c in report.culprits if not _function(c.named.name, namer.ns))
    return replace(report, culprits=(*ops, *rest), edits=edits)


def _given_a_device(report: MismatchReport, frames: list[Frame], namer: Namer,
                    is_cell: CellFiles) -> MismatchReport:
    """``report`` with the user's function named after the held culprits where the cell bound
    them from what that function returned, having handed it the very device they should be on
    (VISTA's ``data, labels = prepare_sam_val_input(..., device=device)`` gives
    ``data[0]['labels']`` on the cpu): the function broke its word, and its code is the bug;
    the move printed still makes the cell run. NB: the cell's own text and the namespace dict
    are read; the device argument is a literal or a name the namespace binds."""
    if report.kind != "device" or not report.expected:
        return report
    cell = _cell_index(frames, is_cell)
    if cell >= len(frames):
        return report

    fr = frames[cell]
    src = load(fr.frame.f_code.co_filename)  # NB: a magic's lines blanked (``%%cuda_safe``)
    if src is None:
        return report
    tree = src.tree
    roots = {c.named.root for c in report.culprits if c.named.root and _held(c, namer.ns)}
    named = {c.named.name for c in report.culprits}
    ops: list[Operand] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Assign) and node.lineno <= fr.lineno
                and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name)):
            continue
        fn = node.value.func.id
        bound = {n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        if fn in named or not bound & roots or not _function(fn, namer.ns):
            continue
        device = next((k.value for k in node.value.keywords if k.arg == "device"), None)
        if device is None or not _names_device(device, namer.ns, report.expected):
            continue
        gave = ", ".join(sorted(bound & roots))
        ops.append(_operand(fn, f"a function: the cell handed it device={report.expected}, and "
                                f"what it gave ({gave}) holds the stray: its code is what to "
                                "change"))
        named.add(fn)
    return replace(report, culprits=(*report.culprits, *ops)) if ops else report


def _names_device(node: Any, ns: dict[str, Any], expected: str) -> bool:
    """``node`` (a literal, or a name the namespace binds to a string or ``torch.device``)
    names ``expected`` (``"cuda"`` names ``cuda:0``, the current device)."""
    import torch

    value: Any
    if isinstance(node, ast.Constant):
        value = node.value
    elif isinstance(node, ast.Name):
        value = dict.get(ns, node.id)
    else:
        return False
    if type(value) is torch.device:
        text = str(value)
    elif type(value) is str:
        text = value
    else:
        return False
    return text == expected or (":" not in text and expected == f"{text}:0")


def _operand(name: str, what: str) -> Operand:
    return Operand("", Named(name, name, "code", _root(name)), "", "", (), what)


def handles(edits: tuple[Edit, ...], frames: list[Frame], namer: Namer,
            is_cell: CellFiles) -> list[tuple[str, str]]:
    """The plain function with the first edit's line, where the user holds it by its name, then
    :func:`handle`'s object or function where that is another."""
    found: list[tuple[str, str]] = []
    edits = _innermost_first(edits, frames)
    fn = next((n for n in (_namespace_function(e, namer.ns) for e in edits) if n), "")
    if fn:
        found.append((fn, "a function: the line to edit is in it"))
    name, what = handle(edits, frames, namer, is_cell)
    if name and name != fn:
        found.append((name, what))
    return found


def _innermost_first(edits: tuple[Edit, ...], frames: list[Frame]) -> tuple[Edit, ...]:
    """``edits`` with those in the innermost running function that has one first: where the op
    failed (alpaca_lora_4bit's ``_matmul4bit_v1_recons``), not a caller whose argument a
    further round of the rehearsal also cast (``matmul4bit``)."""
    for fr in frames:
        co = fr.frame.f_code
        here = [e for e in edits if e.file == co.co_filename and e.qualname == co.co_qualname]
        if here:
            return (*here, *(e for e in edits if e not in here))
    return edits


def handle(edits: tuple[Edit, ...], frames: list[Frame], namer: Namer,
           is_cell: CellFiles) -> tuple[str, str]:
    """(the user's name, what it is) for the code the first edit changes, or ("", "")."""
    for e in edits:
        if e.owner:
            return e.owner, f"its {e.qualname} has the line to edit"
    cell = _cell_index(frames, is_cell)
    for e in edits:
        found = _edited_frame(e, frames, cell)
        if found < 0:
            # NB: a helper that ran and returned before the failure (deepinv's ``dirac_like``,
            # a NumPy cast's helper called by a method for the image it stacks) left no frame:
            # the user holds it under its own name
            name = _namespace_function(e, namer.ns)
            if name:
                return name, "a function: the line to edit is in it"
            name = _namespace_class(e, namer.ns)
            if name:
                return name, f"a class: its {e.qualname} has the line to edit"
            continue
        name = _function_name(frames[found], namer.ns)
        if name:
            # NB: a custom autograd Function's ``backward`` has no ``self``; torch's engine ran
            # it, so the next object outward (``loss``, by its ``backward()``) only says how the
            # cell got there: the Function the user holds is the code to change
            return name, f"an autograd Function: its {e.qualname} has the line to edit"
        # NB: outward from the edited frame: the first object of the user's whose method ran it
        for i in range(found, cell):
            f = frames[i].frame
            me = frame_locals(f).get("self") if "self" in f.f_code.co_varnames else None
            name = namer.owner(me) if me is not None else ""
            if name:
                return name, (f"its {f.f_code.co_qualname} has the line to edit"
                              if i == found else
                              f"its {f.f_code.co_qualname} runs the line to edit, in {e.qualname}")
        name = _called_function(frames, cell, namer.ns)
        if name:
            return name, ("a function: the line to edit is in it" if cell - 1 == found else
                          f"a function: it runs the line to edit, in {e.qualname}")
        name = _namespace_class(e, namer.ns)
        if name:
            return name, f"a class: its {e.qualname} has the line to edit"
    return "", ""


def _function_name(fr: Frame, ns: dict[str, Any]) -> str:
    """The namespace name of the autograd Function whose ``backward`` the frame ``fr`` runs,
    when exactly one name binds that very class."""
    cls = function_class(fr)
    if cls is None:
        return ""
    names = [k for k, v in list(dict.items(ns))
             if v is cls and type(k) is str and k.isidentifier() and not IPYTHON_CACHE.fullmatch(k)]
    return names[0] if len(names) == 1 else ""


def _namespace_class(e: Edit, ns: dict[str, Any]) -> str:
    """The namespace name of the class whose method ``e`` edits, when exactly one, where no
    object of the user's ran it: a static method called on the class (threestudio's
    ``StableDiffusionPromptProcessor.spawn_func(...)``), or an ``__init__`` that failed before
    its object was bound (byol-pytorch's ``BYOL(resnet, ...)``)."""
    cls_name, _, method = e.qualname.partition(".")
    if not e.file or not method or "." in method or "<locals>" in cls_name:
        return ""
    names = []
    for k, v in list(dict.items(ns)):
        if type(k) is not str or not k.isidentifier() or IPYTHON_CACHE.fullmatch(k) \
                or not isinstance(v, type) or type.__dict__["__qualname__"].__get__(v) != cls_name:
            continue
        raw = type.__dict__["__dict__"].__get__(v).get(method)
        # NB: a staticmethod's or classmethod's function; nothing else is read from ``raw``
        fn = raw.__func__ if type(raw) in (staticmethod, classmethod) else raw
        if type(fn) is types.FunctionType and unwrapped(fn).__code__.co_filename == e.file:
            names.append(k)
    return names[0] if len(names) == 1 else ""


def _namespace_function(e: Edit, ns: dict[str, Any]) -> str:
    """The namespace name of the plain function whose code ``e`` edits, when exactly one: the
    function itself, or the one that defines it (SAELens's ``get_recons_loss``, whose hook
    ``get_recons_loss.<locals>.standard_replacement_hook`` the user never holds)."""
    outer = e.qualname.split(".<locals>.", 1)[0]
    if not e.file or not outer or "." in outer:
        return ""
    # NB: under its decorators (``@torch.no_grad()`` keeps it as ``__wrapped__``)
    # NB: a private helper (torchvision's ``_normalized_flow_to_image``) is the user's too;
    # IPython's output cache (``_``, ``_3``) may hold the same function and is not
    names = [k for k, v in list(dict.items(ns)) if type(k) is str and k.isidentifier()
             and not IPYTHON_CACHE.fullmatch(k) and type(v) is types.FunctionType
             and (f := unwrapped(v)).__code__.co_filename == e.file
             and f.__code__.co_qualname == outer]
    return names[0] if len(names) == 1 else ""


def _cell_index(frames: list[Frame], is_cell: CellFiles) -> int:
    """The innermost frame of a cell's top level (frames are innermost first): the cell that
    ran, not an outer one that ran ``%%cuda_safe``."""
    for i in range(len(frames)):
        code = frames[i].frame.f_code
        if code.co_name == "<module>" and is_cell(code.co_filename):
            return i
    return len(frames)


def _edited_frame(e: Edit, frames: list[Frame], cell: int) -> int:
    for i in range(min(cell, len(frames))):
        code = frames[i].frame.f_code
        if code.co_filename == e.file and (code.co_qualname == e.qualname or not e.qualname):
            return i
    return -1


def _called_function(frames: list[Frame], cell: int, ns: dict[str, Any]) -> str:
    """The namespace name of the plain function the cell's line called, when it is one."""
    if not 0 < cell < len(frames):
        return ""
    code = frames[cell - 1].frame.f_code
    for name, v in list(ns.items()):
        if type(v) is types.FunctionType and unwrapped(v).__code__ is code \
                and name.isidentifier():
            return str(name)
    return ""


def _without_innocents(report: MismatchReport) -> MismatchReport:
    """``report`` without the culprits that already are what the op expects (an int64
    ``batch['label']`` that the edited line casts to float32 before a loss that wants int64):
    the edit fixes the code, and the data was right."""
    attr = "device" if report.kind == "device" else "dtype"
    right = [c for c in report.culprits if getattr(c, attr) == report.expected != ""]
    if not right:
        return report
    return replace(report, culprits=tuple(c for c in report.culprits if c not in right))


def _held(c: Operand, ns: dict[str, Any]) -> bool:
    """The culprit is something the user holds: a namespace path, not a local, a temporary or
    the function whose line made it, nor an expression of a module's (``torch.hann_window(n)``,
    made anew each time the line runs)."""
    if c.named.root:
        return type(ns.get(c.named.root)) is not types.ModuleType
    root = _root(c.named.name)
    return root.isidentifier() and root in ns and not _function(root, ns) \
        and type(ns[root]) is not types.ModuleType


def _function(name: str, ns: dict[str, Any]) -> bool:
    return name.isidentifier() and type(ns.get(name)) is types.FunctionType


def _root(path: str) -> str:
    for i, ch in enumerate(path):
        if ch in ".[":
            return path[:i]
    return path
