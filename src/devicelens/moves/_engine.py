"""The only module that changes user state: move everything to a device, or apply fixes.

All or nothing: a plan is made first, then every new tensor is allocated, and only then are they
swapped in (modules and optimizer parameters in place, identity kept; loose tensors rebound), so
an out-of-memory error or a bad device leaves the namespace exactly as it was. The public entry
points never raise for what they find: every failure is a report with ``ok=False``.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable
from dataclasses import replace
from itertools import compress, repeat
from typing import TYPE_CHECKING, Any

from ..inspect import gc_paused
from ..inspect._types import one_of
from . import _report as out
from ._device import parse_device, shown
from ._report import MoveReport

if TYPE_CHECKING:
    from ..analysis import Finding
    from ._final import Plan
    from ._loose import Loose
    from ._plan import Target, Walker

Progress = Callable[[int, int], None]


# --- input ---------------------------------------------------------------------------------

def _namespace(namespace: dict[str, Any] | None) -> dict[str, Any]:
    from ..inspect import user_namespace

    return user_namespace() if namespace is None else namespace


def _names(ns: dict[str, Any], names: Iterable[str] | None) -> list[str]:
    from ..inspect._columns import shown as public

    if names is None:  # NB: the names a snapshot shows, picked at C speed
        keys = list(dict.keys(ns))
        return list(compress(keys, public(keys)))
    if type(names) is str:
        raise ValueError(f"names must be a list of names, not the string {names!r}")
    names = list(names)
    bad = [n for n in names if type(n) is not str or n not in ns]
    if bad:
        raise ValueError(f"no such name(s) in the namespace: {', '.join(map(shown, bad))}")
    return list(dict.fromkeys(names))


# --- planning ------------------------------------------------------------------------------

def plan_move(device: Any, namespace: dict[str, Any] | None = None, *,
              names: Iterable[str] | None = None) -> Plan:
    """The plan for :func:`move_all`; apply it with :func:`apply_plan`. Changes nothing;
    raises ``ValueError`` for a bad device or name.

    NB: names bound to a plain tensor that nothing else holds move as columns (:mod:`._loose`);
    the rest is walked. A name that turns out to share its tensor with the walk leaves the
    columns and the walk starts again with it, so the plan is the one a walk of everything
    would make."""
    import torch

    from ._containers import _SCALARS
    from ._final import finalize, namespace_optimizers
    from ._loose import candidates, finish, held, shared
    from ._plan import Target

    dev = parse_device(device)
    ns = _namespace(namespace)
    selected = _names(ns, names)
    target = Target(device=dev)
    with torch._C.DisableTorchFunctionSubclass(), gc_paused():
        values = list(map(dict.get, repeat(ns), selected))
        loose = candidates(torch, selected, values, dev)
        w, rest = _walk(torch, ns, selected, values, loose, target)
        optimizers = namespace_optimizers(w)
        while (loose.names or loose.still) and shared(torch, loose, *held(torch, w, optimizers)):
            w, rest = _walk(torch, ns, selected, values, loose, target)
        finish(loose)
        anchors = [(ns, selected[i], values[i]) for i in rest
                   if not one_of(type(values[i]), _SCALARS)]  # NB: names whose change matters
        return finalize(torch, w, str(dev), anchors, optimizers, loose)


def _walk(torch: Any, ns: dict[str, Any], selected: list[str], values: list[Any], loose: Loose,
          target: Target) -> tuple[Walker, list[int]]:
    """Walk every selected name that does not move as a column: modules first, then
    optimizers, then the rest (only the report's order depends on it). Returns the walker and
    the positions of the names it walked."""
    from ._loose import positions, still_positions
    from ._plan import Walker

    w = Walker(torch, ns)
    rest = positions(loose, values)
    # NB: names already where the move goes are neither walked nor columns
    still = still_positions(loose, values)
    plain = (torch.Tensor, torch.nn.Parameter)
    ranks = [_order(torch, values[i]) for i in rest]
    for j in sorted(range(len(rest)), key=ranks.__getitem__):
        i = rest[j]
        name, obj = selected[i], values[i]
        # NB: how many column names come before it
        w.seq = i - j - bisect_left(still, i) if ranks[j] == 2 else 0
        if one_of(type(obj), plain):
            w.loose(name, obj, target)
        else:
            w.unit(name, name, target)
    return w, rest


def _order(torch: Any, obj: Any) -> int:
    """Modules first, then optimizers, then the rest (only the report order depends on it)."""
    tp = type(obj)
    return 0 if issubclass(tp, torch.nn.Module) else 1 if issubclass(
        tp, torch.optim.Optimizer) else 2


def plan_fixes(findings: Iterable[Finding], namespace: dict[str, Any] | None = None) -> Plan:
    """The plan that applies every finding's :class:`~devicelens.analysis.Action` at once.

    NB: one path for one finding and for all of them: every other reference to a fixed tensor,
    anywhere in the namespace, is found and follows it, so aliases stay aliases."""
    import torch

    from ._final import finalize
    from ._plan import Walker

    ns = _namespace(namespace)
    w = Walker(torch, ns)
    anchors: list[tuple[dict[str, Any], str, Any]] = []
    wanted: dict[Target, tuple[set[int], set[str]]] = {}  # target -> (ids, names walked)
    with torch._C.DisableTorchFunctionSubclass(), gc_paused():
        failure = _walk_findings(torch, w, ns, findings, anchors, wanted)
        aliases = [n for n, _ in _candidates(ns)]
        for target, (want, walked) in wanted.items():
            for name in aliases:
                if name not in walked:
                    w.unit(name, name, target, want, quiet=True)
        _follow_views(torch, w, aliases)
        plan = finalize(torch, w, "", anchors)  # NB: no one target: each fix has its own
    plan.failure = failure
    return plan


def _follow_views(torch: Any, w: Walker, names: list[str]) -> None:
    """One more walk of every name: views of a base that moves go with it (and stay its views);
    what shares its storage but cannot follow is named (:class:`._aliases.Aliases`)."""
    from ._aliases import Aliases
    from ._plan import Target

    w.aliases = Aliases(torch, w.occ)
    if not w.aliases.storages:
        return
    probe = Target()  # NB: a target of its own: the visited keys of the walks above differ
    for name in names:
        w.unit(name, name, probe, set(), quiet=True)


def _walk_findings(torch: Any, w: Walker, ns: dict[str, Any], findings: Iterable[Finding],
                   anchors: list[tuple[dict[str, Any], str, Any]],
                   wanted: dict[Target, tuple[set[int], set[str]]]) -> str | None:
    """Walk the roots each finding names; the first out-of-date reference is the failure."""
    from ..inspect import _tree
    from ._plan import Target
    from ._remap import plan_optimizer

    failure: str | None = None
    for f in findings:
        a = f.action
        if a is None:
            continue
        roots: dict[str, set[int]] = {}
        for ref in a.refs:
            try:
                obj = _tree.resolve(ns, ref)
            except LookupError as e:
                failure = failure or f"{e} (the finding is out of date: run %devices again)"
                continue
            root = str(ref[0].key)
            anchors.append((ns, root, dict.get(ns, root)))
            roots.setdefault(root, set()).add(id(obj))
            failure = failure or plan_optimizer(w, a, obj, ref, anchors)
        target = Target(device=parse_device(a.device) if a.device else None,
                        dtype=_dtype(torch, a.dtype))
        if a.op in ("optimizer_state", "optimizer_remap"):
            continue
        ids, walked = wanted.setdefault(target, (set(), set()))
        for root, want in roots.items():
            label = _tree.display_for(a.refs[0]) if len(a.refs) == 1 else root
            w.unit(root, label, target, want)
            ids.update(want)
            walked.add(root)
    return failure


def _candidates(ns: dict[str, Any]) -> list[tuple[str, Any]]:
    from ..inspect import candidates

    return candidates(ns, None)


def _dtype(torch: Any, name: str | None) -> Any:
    if name is None:
        return None
    dt = getattr(torch, name, None)
    if not isinstance(dt, torch.dtype):
        raise ValueError(f"not a dtype: {name!r}")
    return dt


# --- applying ------------------------------------------------------------------------------

def apply_plan(plan: Plan, *, dry_run: bool = False, progress: Progress | None = None,
               ) -> MoveReport:
    """Carry out ``plan`` (or only describe it, with ``dry_run``). All or nothing: a failure is
    a report with ``ok=False``; a KeyboardInterrupt is raised again once nothing has changed."""
    import torch

    if plan.spent:
        raise ValueError("this plan was already applied; make a new one")
    if plan.failure is not None:
        return out.report(plan, dry_run, ok=False, error=plan.failure)
    if plan.refused:
        return out.report(plan, dry_run, ok=False, error=_refusal(plan))
    try:
        short = out.memory_shortfall(torch, plan, run=not dry_run)
    except KeyboardInterrupt:
        raise
    except BaseException as e:  # NB: a driver that cannot tell its free memory must not stop us
        short, plan.notes = None, [*plan.notes, f"free device memory unknown: {out.cause(e)}"]
    if short is not None:
        return out.report(plan, dry_run, ok=False, error=short[0], missing=short[1])
    if dry_run:
        return _dry_run(torch, plan)
    if not (plan.entries or plan.assigns or plan.loose):
        return out.report(plan, False, ok=True)
    report = _run(torch, plan, progress)
    if report.ok:
        plan.spent = True
        plan.entries, plan.groups, plan.assigns, plan.anchors = [], [], [], []
        plan.loose = None
    return report


def _dry_run(torch: Any, plan: Plan) -> MoveReport:
    """What the real move would say, without allocating: the swaps it could not make."""
    from . import _swap
    from ._lasterror import last_error

    known = _swap.rnn_refs(plan.rnns)
    held = False
    with torch._C.DisableTorchFunctionSubclass():  # NB: a dry run reads, it runs no user code
        for e in plan.entries:
            if not (e.inplace and _swap.predicts_swap(torch, e.t, e.device)):
                continue
            why = _swap.blocker(torch, e.t, e.device, known, plan.graphs)
            if why is None or (why.held and last_error()):
                held = held or why is not None
                continue
            return out.report(plan, True, ok=False,
                              **out.failure(torch, plan, e, False, why.reason))
    return out.report(plan, True, ok=True, notes=(_RELEASE_AHEAD,) if held else ())


def _refusal(plan: Plan) -> str:
    names = list(dict.fromkeys(p for p, _ in plan.refused))
    shown = ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")
    return (f"{shown} cannot be moved (see below), so nothing was moved; to leave "
            f"{'it' if len(names) == 1 else 'them'} out, name the objects to move")


_DONE = "devicelens: interrupted after the move completed; everything was moved"
_UNDONE = "devicelens: the move was interrupted; nothing was changed"
_RELEASE_AHEAD = ("Some parameters are still held, perhaps only by the traceback of the last "
                  "error: the move will release that traceback first (then %debug cannot open "
                  "it).")
_RELEASED = ("Released the traceback of the last error (sys.last_traceback), whose frames held "
             "parameters that had to be swapped; %debug cannot open that error any more.")


def _run(torch: Any, plan: Plan, progress: Progress | None) -> MoveReport:
    """Allocate and commit; once more after releasing the last error's traceback when only
    held tensors stopped it."""
    from ._lasterror import last_error, release_last_error

    failed = _attempt(torch, plan, progress)
    notes: tuple[str, ...] = ()
    if failed is not None and failed[3] and last_error():
        release_last_error()
        notes = (_RELEASED,)
        failed = _attempt(torch, plan, progress)
    if failed is None:
        return out.report(plan, False, ok=True, notes=notes)
    out.release(torch)
    return out.report(plan, False, ok=False, notes=notes, **out.failure(torch, plan, *failed[:3]))


def _attempt(torch: Any, plan: Plan, progress: Progress | None,
             ) -> tuple[Any, bool, str, bool] | None:
    """None when the move is done, else (entry or None, out of memory?, cause, held?).
    NB: a Ctrl-C during the commit waits for it (or its undo) and is raised afterwards."""
    from ._apply import DeferredInterrupt, Failed, Stale, Unrestored, allocate, commit

    deferred = DeferredInterrupt()
    result: tuple[Any, bool, str, bool] | None = None
    interrupted = left = False
    try:
        with gc_paused():
            side = allocate(torch, plan, progress)
            commit(torch, plan, side, deferred)
            del side
    except Failed as f:
        # NB: keep only text: the exception's frames hold the side table (device memory)
        result = (f.entry, out.is_oom(torch, f.cause), out.cause(f.cause), f.held)
    except Stale as s:
        result = (None, False, f"{s}; nothing was moved", False)
    except Unrestored as u:
        left = True  # NB: a restore is never claimed that was not made: the text names it
        result = (None, False, _unrestored(u), False)
    except KeyboardInterrupt:
        interrupted = True
    except BaseException as e:  # NB: SystemExit from user code too: move_all never raises
        if not deferred.done:  # NB: once done, a failure while leaving the commit changes nothing
            result = (None, False, f"the move failed and everything was restored: "
                                   f"{out.cause(e)}", False)
    # NB: raised here, outside the handlers, so no frame holding new copies stays attached
    if interrupted or deferred.hit:
        done = deferred.done and result is None
        if not done:
            out.release(torch)
        deferred.deliver(_DONE if done else f"devicelens: {result[2]}" if left and result
                         else _UNDONE)
    return result


def _unrestored(u: Any) -> str:
    n = len(u.left)
    what = ", ".join(dict.fromkeys(w for w, _ in u.left))
    return (f"the move failed ({out.cause(u.cause)}) and could not be fully undone: {n} "
            f"reference{'s were' if n > 1 else ' was'} not restored: {what} "
            f"({out.cause(u.left[0][1])}); check {'them' if n > 1 else 'it'} by hand")


# --- public entry points -------------------------------------------------------------------

def _unplanned(target: Any, dry_run: bool, e: BaseException) -> MoveReport:
    """A move that could not even be planned: a bad device or name, or an unreadable object."""
    error = str(e) if type(e) is ValueError else (
        f"the move could not be planned: {out.cause(e)}; nothing was changed")
    return MoveReport(False, dry_run, target, error=error)


def move_all(device: Any, namespace: dict[str, Any] | None = None, *,
             names: Iterable[str] | None = None, dry_run: bool = False,
             progress: Progress | None = None) -> MoveReport:
    """Move every tensor, module and optimizer state (or only ``names``) to ``device``.

    Never raises for what it is given or finds: a bad device or name, or any failure, is a
    report with ``ok=False``, and then everything is as it was.
    """
    try:
        plan = plan_move(device, namespace, names=names)
    except KeyboardInterrupt:
        raise KeyboardInterrupt(_UNDONE) from None
    except BaseException as e:  # NB: SystemExit from user code too
        return _unplanned(device if type(device) is str else shown(device), dry_run, e)
    return apply_plan(plan, dry_run=dry_run, progress=progress)


def apply_fix(finding: Finding, namespace: dict[str, Any] | None = None, *,
              dry_run: bool = False, progress: Progress | None = None) -> MoveReport:
    """Apply the move or cast that ``finding`` suggests; all or nothing, as a report."""
    if getattr(finding, "action", None) is None:
        fid = getattr(finding, "id", None)
        return MoveReport(False, dry_run, "", error=(
            f"finding {fid if type(fid) is str else '?'!r} has no automatic fix; apply its "
            f"code by hand"))
    return _apply_findings([finding], namespace, dry_run, progress)


def apply_all_fixes(namespace: dict[str, Any] | None = None, names: Iterable[str] | None = None,
                    dry_run: bool = False, progress: Progress | None = None) -> MoveReport:
    """Apply every finding that has an automatic fix, as one all-or-nothing move."""
    from ..analysis import diagnose
    from ..inspect import take_snapshot

    try:
        ns = _namespace(namespace)
        selected = None if names is None else _names(ns, names)
        found = diagnose(take_snapshot(ns, names=selected))
    except KeyboardInterrupt:
        raise KeyboardInterrupt(_UNDONE) from None
    except BaseException as e:
        return _unplanned("", dry_run, e)
    fixable = [f for f in found if f.action is not None]
    # NB: --fix never skips a finding silently: each one it leaves is listed with the reason
    skipped = tuple((f.title, _not_applied(f)) for f in found
                    if f.action is None and f.severity != "info")
    if not fixable:
        if not skipped:
            return MoveReport(True, dry_run, "")
        n = len(skipped)
        return MoveReport(False, dry_run, "", skipped=skipped,
                          error=f"no automatic fix for the {n} finding{'s' * (n > 1)} below")
    report = _apply_findings(fixable, ns, dry_run, progress)
    return replace(report, applied=tuple(f.title for f in fixable) if report.ok else (),
                   skipped=skipped)


def _not_applied(f: Finding) -> str:
    if not f.fix:
        return "no automatic fix"
    return "no automatic fix: it is your call; run its fix code by hand if you agree"


def _apply_findings(findings: list[Finding], namespace: dict[str, Any] | None, dry_run: bool,
                    progress: Progress | None) -> MoveReport:
    """The one path behind :func:`apply_fix` and :func:`apply_all_fixes`."""
    try:
        plan = plan_fixes(findings, namespace)
    except KeyboardInterrupt:
        raise KeyboardInterrupt(_UNDONE) from None
    except BaseException as e:
        return _unplanned("", dry_run, e)
    return apply_plan(plan, dry_run=dry_run, progress=progress)
