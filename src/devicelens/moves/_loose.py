"""Names bound directly to a plain tensor, the bulk of a big namespace, planned, copied and
rebound as columns: one ``map`` per step, no :class:`~._final.Entry`, slot or undo step each.

A name goes this way only when its move is a ``.to()`` and a rebinding and nothing else: its
tensor is exactly ``torch.Tensor``, strided and contiguous, without autograd state, changes
device, and shares neither its identity nor its storage with anything else the move reaches
(another name, a container, a module, an optimizer). Every other name takes the general way
(:mod:`._plan`, :mod:`._final`), so the plan is the one a walk of everything would make.
NB: reads tensor headers through torch's C getters and hashes only ``str`` keys and ints: no
user code runs.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Callable, Iterator
from itertools import compress, islice, repeat
from operator import and_, attrgetter, eq, is_, is_not, not_, or_
from typing import TYPE_CHECKING, Any

from ._row import Move, Rows

if TYPE_CHECKING:
    from ._plan import Walker

_DEVICE, _LAYOUT, _RG, _GRAD = (attrgetter(a) for a in ("device", "layout", "requires_grad",
                                                        "grad"))
_CPU, _NESTED, _NBYTES = attrgetter("is_cpu"), attrgetter("is_nested"), attrgetter("nbytes")


class Loose:
    """The names that move as columns and their tensors, in selection order; ``labels``: each
    one's device as the report says it (None: all ``cpu``); ``keys``: each one's storage key
    (until :func:`shared` has used them). ``exact``: which selected names hold exactly a
    ``torch.Tensor``; of those, ``dropped`` left the columns (to walk) and ``still`` are already
    where the move goes (nothing to do)."""

    __slots__ = ("device", "dropped", "exact", "keys", "labels", "names", "still", "tensors",
                 "total")

    def __init__(self, device: Any, names: list[str], tensors: list[Any],
                 exact: list[bool] | None = None) -> None:
        self.device = device
        self.names = names
        self.tensors = tensors
        self.exact = exact
        self.dropped: list[Any] = []
        self.still: list[Any] = []
        self.labels: list[str] | None = None
        self.keys: list[int] | None = None
        self.total = 0

    def __len__(self) -> int:
        return len(self.names)

    def keep(self, mask: list[bool], still: bool = False) -> None:
        """Keep only the names where ``mask`` is true; the others are walked (or, ``still``,
        left alone)."""
        (self.still if still else self.dropped).extend(compress(self.tensors, map(not_, mask)))
        self.names = list(compress(self.names, mask))
        self.tensors = list(compress(self.tensors, mask))
        if self.labels is not None:
            self.labels = list(compress(self.labels, mask))
        if self.keys is not None:
            self.keys = list(compress(self.keys, mask))

    def rows(self, own: list[Move], seqs: list[int]) -> Rows:
        """The report's rows: ``own`` (the general ones, ``seqs`` placing them) among one a
        name, made as they are read (they are most of a big report)."""
        return Rows(own, seqs, self.names, self.labels, str(self.device),
                    array("q", map(_NBYTES, self.tensors)))


def candidates(torch: Any, names: list[str], values: list[Any], dev: Any) -> Loose:
    """The names whose own header lets them move as columns (before what else holds them is
    known: :func:`shared` says that). NB: a header that cannot be read (a functorch wrapper has
    no storage) sends every name the general way, which knows how to refuse it."""
    exact = list(map(is_, map(type, values), repeat(torch.Tensor)))
    try:
        return _candidates(torch, names, values, exact, dev)
    except Exception:
        loose = Loose(dev, [], [], exact)
        loose.dropped = list(compress(values, exact))
        return loose


def _candidates(torch: Any, names: list[str], values: list[Any], exact: list[bool],
                dev: Any) -> Loose:
    loose = Loose(dev, list(compress(names, exact)), list(compress(values, exact)), exact)
    if torch._C._get_dispatch_mode(torch._C._TorchDispatchModeKey.FAKE) is not None:
        loose.keep([False] * len(loose))  # NB: fake tensors convert on .to(): the general way
    if not loose.names:
        return loose
    _where(loose, dev)
    ts, T = loose.tensors, torch.Tensor
    strided = torch.strided
    checks: list[Callable[[list[Any]], Iterator[bool]]] = [
        lambda ts: map(is_, map(_LAYOUT, ts), repeat(strided)),
        lambda ts: map(not_, map(_RG, ts)), lambda ts: map(is_, map(_GRAD, ts), repeat(None)),
        lambda ts: map(not_, map(_NESTED, ts)), lambda ts: map(T.is_contiguous, ts)]
    for check in checks:  # NB: each on the names the checks before it kept
        mask = list(check(ts))
        if False in mask:
            loose.keep(mask)
            ts = loose.tensors
    # NB: one storage key each: two names of one tensor, or of two tensors sharing a storage
    # (views, detach()), move together, the general way
    loose.keys = keys = list(map(torch._C._storage_id, ts))
    if len(set(keys)) != len(keys):
        counts = Counter(keys)
        loose.keep(list(map(eq, map(counts.__getitem__, keys), repeat(1))))
    return loose


def _where(loose: Loose, dev: Any) -> None:
    """Keep the names whose tensor changes device and can (nothing leaves meta); note where
    each one is. NB: all on the CPU, the usual case, is one C getter a tensor."""
    if False not in map(_CPU, loose.tensors):
        if dev.type == "cpu":
            loose.keep([False] * len(loose), still=True)
        return
    devices = list(map(_DEVICE, loose.tensors))
    kinds = set(devices)
    label = {d: str(d) for d in kinds}
    loose.labels = list(map(label.__getitem__, devices))
    goes = {d: d != dev for d in kinds}
    mask = list(map(goes.__getitem__, devices))
    loose.keep(mask, still=True)
    devices = list(compress(devices, mask))
    # NB: a meta tensor holds no data: the general way refuses to copy it out
    out_of_meta = {d: not (d.type == "meta" and dev.type != "meta") for d in kinds}
    mask = list(map(out_of_meta.__getitem__, devices))
    if False in mask:
        loose.keep(mask)


def shared(torch: Any, loose: Loose, ids: set[int], storages: set[int],
           protected: set[int]) -> bool:
    """Drop the names whose tensor (by id) or storage (by key) something else in the move
    holds (:func:`held`), and walk the names left alone whose tensor a refused object holds
    (the report names them). True if any was dropped."""
    if protected and loose.still:
        mine = list(map(protected.__contains__, map(id, loose.still)))
        if True in mine:
            loose.dropped += compress(loose.still, mine)
            loose.still = list(compress(loose.still, map(not_, mine)))
            return True
    keys = loose.keys if loose.keys is not None else list(map(torch._C._storage_id,
                                                              loose.tensors))
    mask = list(map(not_, map(ids.__contains__, map(id, loose.tensors))))
    if storages:
        mask = list(map(and_, mask, map(not_, map(storages.__contains__, keys))))
    loose.keys = None
    if False not in mask:
        return False
    loose.keep(mask)
    return True


def finish(loose: Loose) -> None:
    """What the plan needs once the names are final: the bytes they move."""
    loose.keys = loose.exact = None
    loose.dropped, loose.still = [], []
    loose.total = sum(map(_NBYTES, loose.tensors))


def positions(loose: Loose, values: list[Any]) -> list[int]:
    """Where, in the selection ``values``, the names that do not move as columns are."""
    assert loose.exact is not None
    rest = compress(range(len(values)), map(not_, loose.exact))
    if not loose.dropped:
        return list(rest)
    gone = set(map(id, loose.dropped))  # NB: a dropped tensor never shares its id with a kept one
    return sorted([*rest, *compress(range(len(values)), map(gone.__contains__, map(id, values)))])


def still_positions(loose: Loose, values: list[Any]) -> list[int]:
    """Where, in the selection ``values``, the names already where the move goes are (neither
    walked nor moved as columns), in order; [] at once when there are none."""
    if not loose.still:
        return []
    here = set(map(id, loose.still))
    return list(compress(range(len(values)), map(here.__contains__, map(id, values))))


# --- the move ----------------------------------------------------------------------------

def copy_into(torch: Any, loose: Loose, out: list[Any],
              progress: Callable[[int], None] | None) -> None:
    """Append the new tensors to ``out``, in order (on a failure, ``len(out)`` says which one
    failed); ``progress(bytes)`` after each chunk (at most 1,024 chunks)."""
    it = map(torch.Tensor.to, loose.tensors, repeat(loose.device))
    n = len(loose.tensors)
    step = max(1, n if progress is None else -(-n // 1024))
    for start in range(0, n, step):
        out.extend(islice(it, step))
        if progress is not None:
            progress(sum(map(_NBYTES, islice(loose.tensors, start, start + step))))


def rebind(ns: dict[str, Any], names: list[str], values: list[Any]) -> None:
    """Bind each name to its value. NB: ``str`` keys, the base type's method: no user code."""
    dict.update(ns, zip(names, values, strict=True))


def stale(ns: dict[str, Any], loose: Loose) -> str | None:
    """The first name no longer bound to the tensor the plan saw, or None."""
    now = map(dict.get, repeat(ns), loose.names)
    same = list(map(is_, now, loose.tensors))
    return None if False not in same else loose.names[same.index(False)]


def _plain(torch: Any, tensors: list[Any]) -> tuple[list[Any], list[Any]]:
    """``tensors`` split into exact ``Tensor``s and ``Parameter``s, and the others."""
    types = list(map(type, tensors))
    exact = list(map(or_, map(is_, types, repeat(torch.Tensor)),
                     map(is_, types, repeat(torch.nn.Parameter))))
    if False not in exact:
        return list(tensors), []
    return list(compress(tensors, exact)), list(compress(tensors, map(not_, exact)))


def held(torch: Any, w: Walker, optimizers: list[tuple[Any, Any]],
         ) -> tuple[set[int], set[int], set[int]]:
    """(ids, storage keys, ids a refusal protects): what the general walk reached, their
    grads, every optimizer's parameters and state (and their grads), and what refused objects
    hold: a name whose tensor is among them cannot move as a column. NB: a superset is safe
    (that name just takes the general way). Read through torch's C getters: no user code
    runs."""
    from ..inspect._tree import instance_dict
    from ._layout import groupable, storage_key
    from ._plan import optimizer_params

    tensors = [o.t for o in w.occ]
    for opt in {id(o): o for o, _r in optimizers}.values():
        tensors += [p for _g, _i, p in optimizer_params(opt, w.Tensor)]
        state: Any = (instance_dict(opt) or {}).get("state")
        for s in dict.values(state) if issubclass(type(state), dict) else ():
            if issubclass(type(s), dict):
                tensors += [v for v in dict.values(s) if issubclass(type(v), w.Tensor)]
    plain, odd = _plain(torch, tensors)
    grads = list(map(torch._C.TensorBase.grad.__get__, plain))  # NB: C getters, exact types
    for t in odd:
        try:
            grads.append(torch._C.TensorBase.grad.__get__(t))
        except Exception:  # NB: an exotic tensor: its grad, if any, cannot be a plain name's
            continue
    grads = list(compress(grads, map(is_not, grads, repeat(None))))
    tensors += grads
    more, odd_grads = _plain(torch, grads)
    plain += more
    try:
        storages = set(map(torch._C._storage_id, plain))
    except Exception:  # NB: a sparse one has no storage: one by one
        storages = {storage_key(t) for t in plain if groupable(torch, t)}
    storages |= {storage_key(t) for t in (*odd, *odd_grads) if groupable(torch, t)}
    storages.discard(None)
    return set(map(id, tensors)) | w.protected, storages, w.protected
