"""Apply a :class:`~devicelens.moves._final.Plan` in two phases, all or nothing.

Phase 1 (:func:`allocate`) makes every new tensor and rebuilds every immutable container into a
side table; if anything raises (out of memory, a bad device) the table is dropped and no user
object was touched. Phase 2 (:func:`commit`) only swaps and assigns, keeping an undo log, so even
an unexpected failure there puts everything back as it was.
"""

from __future__ import annotations

import collections
import contextlib
import types
import weakref
from collections.abc import Callable
from functools import partial
from typing import Any

from ..inspect import _tree
from ..inspect._tree import Step
from ..inspect._types import type_mro, type_name
from . import _swap
from ._containers import Node, Slot
from ._final import MISSING, Entry, Literal, Plan, read_slot
from ._layout import copy_group, copy_single
from ._loose import Loose, copy_into, rebind, stale

Progress = Callable[[int, int], None]
_CLASS_DICT = type.__dict__["__dict__"].__get__  # NB: a class's dict past any metaclass


class Failed(Exception):
    """Phase 1 failed while making the new copy of ``entry``; nothing was changed. ``held``:
    views or an autograd graph hold a tensor that must be swapped."""

    def __init__(self, entry: Entry, cause: BaseException | str, held: bool = False) -> None:
        super().__init__(str(cause))
        self.entry = entry
        self.cause = cause
        self.held = held


class Stale(Exception):
    """The namespace changed between planning and committing; nothing was changed."""


class Unrestored(Exception):
    """The commit failed with ``cause`` and the undo could not put back ``left``: (what, why)
    for each reference that still holds the new value."""

    def __init__(self, cause: BaseException, left: list[tuple[str, BaseException]]) -> None:
        super().__init__(str(cause))
        self.cause = cause
        self.left = left


class Side:
    """The side table: new tensors by ``id`` of the old one, swap partners, rebuilt containers."""

    def __init__(self, known_refs: set[int], graphs: list[str]) -> None:
        self.new: dict[int, Any] = {}
        self.swaps: dict[int, Any] = {}
        self.built: dict[int, Any] = {}
        self.known_refs = known_refs  # NB: weak references the commit releases (RNN weights)
        self.graphs = graphs
        self.loose: list[Any] = []  # the new tensors of the names moved as columns, in order

    def value(self, prod: Any) -> Any:
        if isinstance(prod, Entry):
            return self.new[id(prod.t)]
        if isinstance(prod, Node):
            return self.built[id(prod)]
        assert isinstance(prod, Literal), prod
        return prod.value


# --- phase 1 -------------------------------------------------------------------------------

def allocate(torch: Any, plan: Plan, progress: Progress | None) -> Side:
    side = Side(_swap.rnn_refs(plan.rnns), plan.graphs)
    done, total = 0, plan.total
    if progress is not None:
        progress(0, total)
    with torch.no_grad():
        for group, nbytes in zip(plan.groups, plan.group_bytes, strict=True):
            try:
                if len(group) == 1:
                    side.new[id(group[0].t)] = copy_single(torch, group[0])
                else:
                    copy_group(torch, group, side.new)
            except KeyboardInterrupt:
                raise
            except BaseException as ex:  # NB: SystemExit from a subclass's .to() too
                raise Failed(group[0], ex) from ex
            done += nbytes
            if progress is not None:
                progress(done, total)
        if plan.loose is not None:
            _copy_loose(torch, plan.loose, side, progress, done, total)
        for e in plan.entries:
            _finish(torch, e, side)
    for _slot, prod, _old in plan.assigns:
        if isinstance(prod, Node):
            _build(prod, side)
    return side


def _copy_loose(torch: Any, loose: Loose, side: Side, progress: Progress | None, done: int,
                total: int) -> None:
    """The new tensors of the names that move as columns, into ``side.loose``."""
    def step(nbytes: int) -> None:
        nonlocal done
        done += nbytes
        progress(done, total)  # type: ignore[misc]

    try:
        copy_into(torch, loose, side.loose, None if progress is None else step)
    except KeyboardInterrupt:
        raise
    except BaseException as ex:  # NB: SystemExit too: a move never raises it
        k = len(side.loose)  # NB: the one that failed, as an entry for the report to name
        e = Entry(loose.tensors[k], (Step("name", loose.names[k]),), loose.names[k])
        e.device = loose.device
        raise Failed(e, ex) from ex


def _finish(torch: Any, e: Entry, side: Side) -> None:
    """Rebound leaves keep ``requires_grad``, hooks and their grad; in-place tensors that cannot
    take ``.data =`` (cpu <-> meta, fake tensors) get a swap partner."""
    n = side.new[id(e.t)]
    t = e.t
    try:
        if not e.inplace:
            if t.is_leaf and t.requires_grad:
                n.requires_grad_(True)
                _swap.carry_hooks(torch, t, n)
            if e.grad is not None:
                n.grad = side.new.get(id(e.grad), e.grad)
            return
        if not _swap.needs_swap(torch, t, n):
            return
        why = _swap.blocker(torch, t, n.device, side.known_refs, side.graphs)
        if why is not None:
            raise Failed(e, why.reason, why.held)
        side.swaps[id(t)] = _swap.partner(torch, t, n)
    except (Failed, KeyboardInterrupt):
        raise
    except BaseException as ex:
        raise Failed(e, ex) from ex


def _build(node: Node, side: Side) -> Any:
    """A new immutable container with the moved children. NB: built by the base types alone
    (``tuple.__new__``, ``frozenset.__new__``, ``object.__new__``, then the instance dict and
    slots copied through their descriptors): no ``__init__``, ``__new__``, ``__copy__`` or
    ``__reduce_ex__`` of the user's runs, so no user validation either."""
    if id(node) in side.built:
        return side.built[id(node)]
    for prod in node.replace.values():
        if isinstance(prod, Node):
            _build(prod, side)
    obj, tp = node.obj, type(node.obj)
    if node.kind in ("tuple", "namedtuple", "set"):
        base: Any = frozenset if node.kind == "set" else tuple
        items = list(base.__iter__(obj))
        for k, prod in node.replace.items():
            items[k] = side.value(prod)
        out: Any = base.__new__(tp, items)  # NB: the items hash as plain keys (see _plan)
        _copy_state(obj, out)
    else:
        out = object.__new__(tp)
        _copy_state(obj, out)
        for k, prod in node.replace.items():
            object.__setattr__(out, k, side.value(prod))
    side.built[id(node)] = out
    return out


def _copy_state(obj: Any, out: Any) -> None:
    """``obj``'s instance dict and ``__slots__`` members onto ``out`` (``copy.copy`` without the
    user's ``__reduce_ex__``/``__copy__``)."""
    d = _tree.instance_dict(obj)
    if d:
        new = _tree.instance_dict(out)
        if new is None:
            raise TypeError(f"cannot rebuild a {type_name(type(obj))}: no __dict__")
        dict.update(new, d)
    for klass in type_mro(type(obj)):
        for member in list(_CLASS_DICT(klass).values()):
            if type(member) is types.MemberDescriptorType:
                with contextlib.suppress(AttributeError):  # NB: an unset slot stays unset
                    member.__set__(out, member.__get__(obj, type(obj)))


# --- phase 2 -------------------------------------------------------------------------------

def commit(torch: Any, plan: Plan, side: Side, deferred: DeferredInterrupt) -> None:
    """Swap everything in. NB: allocates nothing; on any failure the undo log restores all, and
    a Ctrl-C meanwhile only sets ``deferred.hit`` (the caller raises it when all is settled).
    Each undo step is logged *before* its change and is harmless if the change never happened,
    so a failure between any two lines is undone completely; a step that cannot be undone is
    raised as :class:`Unrestored`, naming it."""
    with deferred:
        _verify(plan)
        undo: Undo = []
        rnns = plan.rnns if side.swaps else []
        try:
            if rnns:
                undo.append(("the weight references of RNN modules",
                             partial(_swap.relink_rnn_refs, torch, rnns)))
                _swap.release_rnn_refs(rnns)
            _swap_in(torch, plan, side, undo)
            for slot, prod, old in plan.assigns:
                value = side.value(prod)
                undo.append((_what(prod), partial(write_slot, slot, old, value)))
                write_slot(slot, value, old)
            if plan.loose is not None:
                names = plan.loose.names
                undo.append((_few(names), partial(rebind, plan.namespace, names,
                                                  plan.loose.tensors)))
                rebind(plan.namespace, names, side.loose)
            cuda = any(e.device is not None and e.device.type == "cuda" for e in plan.entries)
            _swap.relink_rnn_refs(torch, plan.rnns, flatten=cuda)
            deferred.done = True  # NB: the last line that may fail: from here on it is done
        except BaseException as ex:
            left, interrupted = _undo(undo)
            deferred.hit = deferred.hit or interrupted
            if left:
                raise Unrestored(ex, left) from None
            raise


#: (what it restores, the step) for every change the commit makes
Undo = list[tuple[str, Callable[[], None]]]


def _few(names: list[str]) -> str:
    return ", ".join(names[:3]) + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def _what(prod: Any) -> str:
    if isinstance(prod, Entry):
        return prod.path
    if isinstance(prod, Node):
        return "a container holding tensors"
    return "an optimizer or DataParallel setting"


def _swap_in(torch: Any, plan: Plan, side: Side, undo: Undo) -> None:
    """In-place tensors take their new bodies; their grads are set aside and put back moved."""
    inplace = [e for e in plan.entries if e.inplace]
    for e in inplace:
        if e.grad is not None:
            undo.append((f"{e.path}.grad", partial(setattr, e.t, "grad", e.grad)))
            e.t.grad = None
    for e in inplace:
        t = e.t
        if id(t) in side.swaps:
            if weakref.getweakrefs(t):
                raise RuntimeError(f"{e.path}: something else holds a weak reference to it")
            other = side.swaps[id(t)]
            do = _swap.swapper(torch, t, other)
            undo.append((e.path, partial(_unswap, do, t, other._cdata)))
            do()
        else:
            old = t.data
            undo.append((e.path, partial(setattr, t, "data", old)))
            t.data = side.new[id(t)]
    for e in inplace:
        if e.grad is not None:
            undo.append((f"{e.path}.grad", partial(setattr, e.t, "grad", None)))
            e.t.grad = side.new.get(id(e.grad), e.grad)


def _unswap(do: Callable[[], None], t: Any, new_body: int) -> None:
    """Undo a swap only if it happened (``t`` holds the new body)."""
    if t._cdata == new_body:
        do()


class DeferredInterrupt:
    """Holds back SIGINT (Ctrl-C, a kernel interrupt) while user state is half changed; then
    :meth:`deliver` hands it on. NB: signals reach only the main thread; elsewhere there is
    nothing to defer."""

    def __init__(self) -> None:
        self.hit = False
        self.done = False  # NB: set by the commit once everything is in place
        self.old: Any = None

    def _note(self, signum: int, frame: Any) -> None:
        self.hit = True

    def __enter__(self) -> DeferredInterrupt:
        import signal
        import threading

        if threading.current_thread() is not threading.main_thread():
            return self
        current = signal.getsignal(signal.SIGINT)
        if current is None:  # NB: installed outside Python: leave it alone
            return self
        try:
            signal.signal(signal.SIGINT, self._note)
        except (ValueError, OSError):  # NB: not the main interpreter
            return self
        self.old = current
        return self

    def __exit__(self, et: Any, ev: Any, tb: Any) -> None:
        import signal

        if self.old is not None:
            signal.signal(signal.SIGINT, self.old)

    def deliver(self, message: str) -> None:
        """Raise the interrupt that was held back (or that arrived outside, then ``old`` is
        None), as ``KeyboardInterrupt(message)`` or through the handler that was there."""
        import signal

        if self.old is None or self.old is signal.default_int_handler:
            raise KeyboardInterrupt(message)
        if callable(self.old):
            self.old(signal.SIGINT, None)


def _undo(undo: Undo) -> tuple[list[tuple[str, BaseException]], bool]:
    """Run every undo step, last first; (what could not be restored and why, interrupted?).

    NB: nothing stops it: every step is idempotent (it writes back a value taken before the
    commit, or checks that its swap happened), so one that a KeyboardInterrupt cut short is
    run again, and one that fails still leaves the others to run."""
    left: list[tuple[str, BaseException]] = []
    interrupted = False
    for what, step in reversed(undo):
        error, cut = _run_step(step)
        interrupted = interrupted or cut
        if error is not None:
            left.append((what, error))
    return left, interrupted


def _run_step(step: Callable[[], None]) -> tuple[BaseException | None, bool]:
    """(the error that stopped ``step`` for good or None, was it interrupted?)."""
    cut = False
    error: BaseException | None = None
    for _ in range(_TRIES):
        try:
            step()
            return None, cut
        except KeyboardInterrupt as ex:
            cut, error = True, ex
        except BaseException as ex:
            return ex, cut
    return error, cut


_TRIES = 3


def write_slot(slot: Slot, value: Any, old: Any) -> None:
    kind, h, key = slot
    if kind == "map" and value is MISSING:  # NB: undoing an assignment that created the key
        dict.pop(h, key, None)
    elif kind == "map":
        dict.__setitem__(h, key, value)
    elif kind == "list":
        list.__setitem__(h, key, value)
    elif kind == "deque":
        collections.deque.__setitem__(h, key, value)
    elif kind == "set":
        set.discard(h, old)
        set.add(h, value)
    elif kind == "member":
        _tree._type_dict_lookup(type(h), key).__set__(h, value)
    elif kind == "grad":
        h.grad = value
    else:
        raise AssertionError(f"no writer for slot kind {kind}")


def _verify(plan: Plan) -> None:
    """Every planned reference still holds what the plan saw, or nothing happens."""
    for ns, name, obj in plan.anchors:
        if dict.get(ns, name, MISSING) is not obj:
            raise Stale(f"{name} was changed or deleted after the move was planned")
    gone = stale(plan.namespace, plan.loose) if plan.loose is not None else None
    if gone is not None:
        raise Stale(f"{gone} was changed or deleted after the move was planned")
    for slot, prod, old in plan.assigns:
        if read_slot(slot, old) is not old:
            what = prod.path if isinstance(prod, Entry) else "a container holding tensors"
            raise Stale(f"a reference to {what} changed after the move was planned")
    for e in plan.entries:
        if e.inplace and e.grad is not None and e.t.grad is not e.grad:
            raise Stale(f"{e.path}.grad changed after the move was planned")
