"""Pre-flight for ``%%cuda_safe``: read the cell, never run it, and check what it will combine.

The cell's AST is followed statement by statement with a small device inference (a module call
returns its module's device, ``.to(d)`` moves, factories use ``device=``); namespace objects are
resolved through :mod:`devicelens.inspect._tree` (no properties, no user code). Module calls,
tensors combined in one expression, optimizer state, loss-module weights and the ``forward`` of
every module class used are checked. The result is a frozen report; nothing is printed or changed.
"""

from __future__ import annotations

import ast
import sys
import warnings
from dataclasses import dataclass
from typing import Any

from ..inspect import _tree
from .running._forward_lint import Issue, lint_forward
from .running._preflight_calls import call
from .running._preflight_flow import Flow

__all__ = ["Issue", "PreflightReport", "lint_forward", "lint_modules", "preflight"]

_FINDING_KINDS = ("module_split", "trap_attribute", "trap_module", "trap_container",
                  "dataparallel_device", "optimizer_state", "optimizer_orphan")
_DTYPE_FINDINGS = ("module_mixed_dtype", "optimizer_state_dtype")


@dataclass(frozen=True)
class PreflightReport:
    issues: tuple[Issue, ...]

    @property
    def errors(self) -> tuple[Issue, ...]:
        return tuple(i for i in self.issues if i.severity == "error")

    def text(self) -> str:
        if not self.issues:
            return ""
        n = len(self.issues)
        out = [f"%%cuda_safe pre-flight: {n} problem{'s' if n > 1 else ''} found before running "
               "the cell"]
        for i in self.issues:
            at = f" (cell line {i.line})" if i.line else ""
            out.append(f"  {i.severity}{at}: {i.message}")
            out += ["      " + ln for ln in i.fix.splitlines()]
        return "\n".join(out)

    def __str__(self) -> str:
        return self.text()


def preflight(source: str, namespace: dict[str, Any], *, check_dtype: bool = False,
              line_offset: int = 0) -> PreflightReport:
    """Check ``source`` against ``namespace`` without running it."""
    if "torch" not in sys.modules:
        return PreflightReport(())
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return PreflightReport(())  # NB: running the cell reports it, with IPython's own traceback
    ast.increment_lineno(tree, line_offset)
    used = _used_names(tree, namespace)
    flow = Flow(namespace, check_dtype, used, call)
    flow.block(tree.body)
    issues = _namespace_findings(namespace, used, tree, check_dtype, flow.rebound) + flow.issues
    issues += lint_modules(flow.modules)
    return PreflightReport(tuple(dict.fromkeys(issues)))


def _used_names(tree: ast.AST, ns: dict[str, Any]) -> list[str]:
    names = (n.id for n in ast.walk(tree) if isinstance(n, ast.Name))
    return [n for n in dict.fromkeys(names) if n in ns]


def _namespace_findings(ns: dict[str, Any], used: list[str], tree: ast.AST,
                        check_dtype: bool, rebound: dict[str, int]) -> list[Issue]:
    """The snapshot analysis, restricted to the objects the cell uses.

    NB: a finding about an object the cell re-binds or changes before using it is dropped:
    the pre-flight cannot know what it will look like by then.
    """
    from ..analysis import diagnose
    from ..inspect import take_snapshot

    kinds = _FINDING_KINDS + (_DTYPE_FINDINGS if check_dtype else ())
    first = {}
    for n in ast.walk(tree):
        if isinstance(n, ast.Name) and n.id not in first:
            first[n.id] = n.lineno
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # NB: reading .grad of a non-leaf warns; harmless here
        snap = take_snapshot(ns, names=used)
    for f in diagnose(snap):
        line = min((first[o] for o in f.objects if o in first), default=0)
        if any(rebound.get(o, line + 1) <= line for o in f.objects):
            continue
        if f.kind == "trap_module" and _named_elsewhere(ns, snap, f):
            continue
        if f.kind in kinds and f.severity != "info":
            names = f.paths if f.kind.startswith("loose") else f.objects
            out.append(Issue(f.severity, f.kind, line, f.message, f.fix, names=tuple(names)))
    return out


def _named_elsewhere(ns: dict[str, Any], snap: Any, f: Any) -> bool:
    """The module a "held in a plain list" finding is about is also bound to a name of its own
    (ema-pytorch keeps ``online_model = [model]`` so that the EMA's ``to()`` leaves the user's
    model alone): the user moves it by that name. NB: what the whole snapshot's diagnosis reads
    (``_not_references``), read here by identity: the pre-flight's snapshot holds only the
    cell's names. Resolved through ``__dict__``s and plain containers: no user code runs."""
    rec = next((m for m in snap[f.objects[0]].modules if m.path in f.paths), None) \
        if f.objects and f.objects[0] in snap else None
    if rec is None:
        return False
    try:
        obj = _tree.resolve(ns, rec.ref)
    except LookupError:
        return False
    return any(v is obj for k, v in dict.items(ns) if type(k) is str and not k.startswith("_"))


def lint_modules(modules: list[Any]) -> list[Issue]:
    """Forward lint of every module class reachable from ``modules``, each class once."""
    from .diagnosis._decide import is_pipeline

    classes: dict[type, list[Any]] = {}
    for root in modules:
        if is_pipeline(root):
            continue  # NB: model parallel code moves tensors between GPUs on purpose
        for m in _tree.submodules(root):
            classes.setdefault(type(m), []).append(m)
    replicated = any(_replicates(root) for root in modules)
    # NB: a tensor made on the default device beside modules that are all there meets nothing
    # elsewhere now; the line is worth a word once a module sits on another device
    home = not replicated and _all_on_default(modules)
    return [i for cls, found in classes.items() for i in lint_forward(cls)
            if not (i.scalar_if and all(_numbers(m, i.scalar_if) for m in found))
            and not (i.pinned and not replicated and all(_on(m, i.pinned) for m in found))
            and not (home and i.kind == "forward_no_device")
            and not (i.handed and all(_moved_by_callees(m, i.handed) for m in found))]


def _moved_by_callees(module: Any, handed: tuple[tuple[str, int | str], ...]) -> bool:
    """Each submodule of ``module`` the tensor is handed to (``self.loss(emb, labels)``) moves
    that argument to a device itself (pytorch-metric-learning's losses: ``labels =
    to_device(labels, embeddings)``): where it was made fails nothing. NB: the submodules are
    read from the module's own table, no user code runs."""
    from .running._forward_lint import forward_params, moved_parameters

    table = dict(_tree.module_parts(module).children)
    for attr, slot in handed:
        sub = table.get(attr)
        if sub is None:
            return False
        cls: Any = type(sub)
        params = forward_params(cls)
        name = slot if isinstance(slot, str) else (params[slot] if slot < len(params) else "")
        if name not in moved_parameters(cls):
            return False
    return True


def _all_on_default(modules: list[Any]) -> bool:
    """Every parameter of ``modules`` is on torch's default device (the cpu, unless the user
    chose another)."""
    import torch

    from .diagnosis._blame import iter_params

    default = str(torch.get_default_device())
    return all(str(p.device) == default for m in modules for p in iter_params(m, limit=10_000))


def _replicates(m: Any) -> bool:
    """``DataParallel`` (torch's, or one like it): its replicas run the code on other GPUs."""
    from ..inspect._types import type_mro, type_name

    return any(type_name(k) == "DataParallel" for k in type_mro(type(m)))


def _on(module: Any, pinned: str) -> bool:
    """Every parameter of ``module`` is on ``pinned`` ("cuda" for ``.cuda()``):
    the line pins its tensor where the module already is, and nothing fails; under
    ``DataParallel`` or once the module moves it would (no warning until then)."""
    from .diagnosis._blame import iter_params

    devices = {str(p.device) for p in iter_params(module, limit=10_000)}
    if len(devices) != 1:
        return False
    d = devices.pop()
    # NB: ``.cuda()`` and "cuda" pin to the current device, cuda:0 unless the code chose one
    return d == pinned or (pinned == "cuda" and d == "cuda:0")


def _numbers(module: Any, attrs: tuple[str, ...]) -> bool:
    """Each of ``attrs`` is a plain number in ``module``'s own ``__dict__`` (no code runs)."""
    d = _tree.instance_dict(module)
    return d is not None and all(type(d.get(a)) in (int, float) for a in attrs)
