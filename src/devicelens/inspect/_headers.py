"""Proof that plain tensors' headers are as last read, in one C++ pass instead of six getters
each: torch's own tensor guard, the check ``torch.compile`` runs before its compiled code.

The guard compares, per tensor, its Python type, dispatch keys (they fix the device type and
the layout), dtype, device index, sizes, strides and ``requires_grad``. A header here also holds
``_base`` and ``is_leaf``: those are read beside it, two C getters. So a guard that holds means
every header field the sweep and the watch compare is unchanged, whatever a cell did to the very
same object (``.data =``, ``resize_``, ``requires_grad_``, ``Module.to``, ``swap_tensors``).

NB: the guard is private to torch. It is probed once against real changes (:func:`_probe`);
any failure to build or check means no proof, so the caller reads the headers, never a wrong row.
NB: the guard's C++ aborts the process on a tensor whose sizes or strides it cannot read
(nested, sparse compressed). A guard is therefore built only from strided, non-nested tensors,
and every check first proves that none is nested now (``swap_tensors`` can make the very same
object nested; a sparse compressed one it reads safely).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from itertools import repeat
from operator import attrgetter, is_, itemgetter
from typing import Any, NamedTuple

#: what :func:`holds` asks of each tensor besides the guard: not nested, no base (and a leaf)
_NESTED, _BASE, _LEAF = attrgetter("is_nested"), attrgetter("_base"), attrgetter("is_leaf")
#: a plain tensor's header as the sweep reads it; NB: ``_base`` is checked before any compare
SWEEP = attrgetter("device", "dtype", "shape", "layout", "requires_grad", "_base")
_M_BASE, _M_LAYOUT = itemgetter(5), itemgetter(3)
#: how many tensors one guard covers: a rebound name re-reads only its chunk
CHUNK = 256
_make: Callable[..., Any] | None = None  # torch's guard type, once it passed the probe


def _no_tls() -> tuple[Any, Any]:
    return (None, None)


_tls: Callable[[], tuple[Any, Any]] = _no_tls  # the dispatch state every check runs in
_probed = False


class Guard(NamedTuple):
    """What proves one list of tensors' headers: each tensor once, strided, not nested, not a
    view, and (with ``leaf``) a leaf."""

    check: Any  # torch's guard, built from those tensors
    tls: tuple[Any, Any]  # the thread's dispatch key sets it was built under
    leaf: bool


def guard(tensors: list[Any], leaf: bool = False) -> Guard | None:
    """A guard of ``tensors``, which the caller has read as exact ``Tensor``/``Parameter``,
    strided and no view (and leaves with ``leaf``); None where none can prove them."""
    make = _make if _probed else _probe()
    if make is None or len(set(map(id, tensors))) != len(tensors):
        return None  # NB: the guard fails any list that holds a tensor twice
    n = len(tensors)
    if list(map(_NESTED, tensors)).count(False) != n:
        return None
    try:
        return Guard(make(*tensors, dynamic_dims_sizes=None, dynamic_dims_strides=None),
                     _tls(), leaf)
    except Exception:
        return None


def holds(g: Guard, tensors: list[Any]) -> bool:
    """Whether every header reads as when ``g`` was built (the same tensors, in order)."""
    n = len(tensors)
    # NB: before the guard, which would abort on a nested tensor. ``_base`` by identity: a
    # count would call the base's ``__eq__``, which a tensor subclass may define (an exact
    # tensor can be a view of one)
    if (list(map(_NESTED, tensors)).count(False) != n
            or list(map(is_, map(_BASE, tensors), repeat(None))).count(True) != n
            or (g.leaf and list(map(_LEAF, tensors)).count(True) != n)):
        return False
    try:
        return _tls() == g.tls and g.check.check(*tensors) is True
    except Exception:
        return False


def _probe() -> Callable[..., Any] | None:
    """torch's guard type where it catches every change a header can see here, else None."""
    global _make, _tls, _probed
    import torch

    if torch._C._len_torch_dispatch_stack():
        return None  # NB: a mode the user left on would make the probe's tensors: probe later
    _probed = True
    try:
        from torch._C._dynamo import guards

        make: Any = guards.TensorGuards  # NB: its stub omits the tensors it takes
        swap: Any = torch.utils.swap_tensors
        tls = torch._C._dispatch_tls_local_include_set, torch._C._dispatch_tls_local_exclude_set

        def now() -> tuple[Any, Any]:
            return tls[0](), tls[1]()

        def same(change: Callable[[Any], object]) -> bool:
            t = torch.zeros(2, 3)
            g = make(t, dynamic_dims_sizes=None, dynamic_dims_strides=None)
            change(t)
            return g.check(t) is True

        with torch._C.DisableTorchFunction():
            moves: list[Callable[[Any], object]] = [
                lambda t: setattr(t, "data", t.data.double()),
                lambda t: swap(t, torch.zeros(2, 3, device="meta")),
                lambda t: t.resize_(3, 2),
                lambda t: t.resize_(6),
                lambda t: t.requires_grad_(),
                lambda t: swap(t, torch.zeros(2, 3).to_sparse()),
            ]
            if same(lambda t: t.add_(1)) and not any(map(same, moves)):
                _make, _tls = make, now
    except Exception:
        _make = None
    return _make


class Sweep:
    """The headers of the namespace's plain tensors (as :data:`SWEEP` reads them, any base
    replaced by its id), re-read only in the chunks no guard proves unchanged.
    NB: holds no tensor: ids, headers and guards (which keep no reference either)."""

    def __init__(self) -> None:
        self.ids: array[int] = array("Q")
        self.metas: list[tuple[Any, ...]] = []
        self.guards: list[Guard | None] = []

    def read(self, tensors: list[Any], ids: array[int], keep: int, guarded: bool = True
             ) -> tuple[list[Any], list[tuple[int, int]]]:
        """Every header now, and the chunks (start, end) read again: outside them, each header
        is proven the same as at the last read. The first ``keep`` tensors are bound to the
        names they were bound to then, in order. Not ``guarded``: every chunk is read (and
        no guard kept): a cell running on another thread could swap a nested tensor in
        between a guard's two checks."""
        import torch

        old_ids, old_metas, old_guards = self.ids, self.metas, self.guards
        n, same_ids = len(tensors), ids == old_ids
        metas: list[Any] = []
        guards: list[Guard | None] = []
        fresh: list[tuple[int, int]] = []
        for start in range(0, n, CHUNK):
            end = min(start + CHUNK, n)
            # NB: a guard of another length (a short last chunk) never holds: torch counts
            g = old_guards[start // CHUNK] if end <= keep and guarded else None
            part = tensors[start:end]
            if g is not None and (same_ids or ids[start:end] == old_ids[start:end]) and holds(
                    g, part):
                metas += old_metas[start:end]
            else:
                fresh.append((start, end))
                got = sweep(part)
                metas += got
                plain = (list(map(_M_LAYOUT, got)).count(torch.strided) == len(got)
                         and list(map(_M_BASE, got)).count(None) == len(got))  # NB: ids now
                g = guard(part) if guarded and plain else None
            guards.append(g)
        self.ids, self.metas, self.guards = ids, metas, guards
        return metas, fresh


def sweep(tensors: list[Any]) -> list[tuple[Any, ...]]:
    """Every plain tensor's header, with any base replaced by its id (never kept, never
    compared). NB: one C call per tensor; a nested tensor, whose shape raises, one by one."""
    try:
        metas = list(map(SWEEP, tensors))
    except RuntimeError:
        return _interned([_one(t) for t in tensors])
    if list(map(is_, map(_M_BASE, metas), repeat(None))).count(True) != len(metas):
        metas = [m if m[5] is None else (*m[:5], id(m[5])) for m in metas]
    return _interned(metas)


def _interned(metas: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """``metas`` with equal headers one object: the sweep keeps every header it read, and a
    big namespace's tensors mostly share a few (each read makes a new tuple, device and size).
    NB: hashing a header runs no user code: torch's device, dtype, size and layout, a bool,
    None or an id."""
    table: dict[tuple[Any, ...], tuple[Any, ...]] = {}
    return list(map(table.setdefault, metas, metas))


def _one(t: Any) -> tuple[Any, ...]:
    try:
        m: tuple[Any, ...] = SWEEP(t)
        return m if m[5] is None else (*m[:5], id(m[5]))
    except RuntimeError:  # NB: a nested tensor: never compact, so its header is its id
        return (None, None, None, None, None, id(t))
