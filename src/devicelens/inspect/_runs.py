"""Runs of alike compact loose tensors, read from a snapshot's columns: what a folded view of a
long namespace shows as one row (``t0 … t9999  Tensor ×10,000``), with no header or record
built for each of 100k names.
"""

from __future__ import annotations

from collections.abc import Collection
from itertools import compress, repeat
from math import prod
from operator import eq, is_, ne, not_, sub
from typing import TYPE_CHECKING, Any, NamedTuple

from ._names import device_name, dtype_info

if TYPE_CHECKING:
    from .records import Snapshot


class LooseRun(NamedTuple):
    """Compact loose tensors next to each other in namespace order, alike in device and dtype."""

    position: int  # the first one's, in namespace order
    length: int
    first: str  # the first one's name
    last: str
    device: str
    dtype: str
    nbytes: int
    shapes: frozenset[Any]  # the distinct shapes (torch.Size)


def loose_runs(snap: Snapshot, alone: Collection[str] = ()) -> list[LooseRun]:
    """Each run of compact rows with no other object between them, alike in device and dtype,
    in namespace order; a row bound to one of the names ``alone`` is a run by itself.

    NB: reads the snapshot's columns as its own fast readers do; the breaks between runs are
    found at C speed (dtypes are singletons: compared by identity), then one step per run.
    """
    loose = snap._loose
    n = len(loose)
    if not n:
        return []
    where = snap.loose_index().where  # row -> position
    devices, dtypes = loose.devices, loose.dtypes
    breaks = map(not_, map(min, map(eq, devices[1:], devices), map(is_, dtypes[1:], dtypes)))
    if len(where) < len(snap):  # NB: other objects between some rows: they break runs too
        breaks = map(max, breaks, map(ne, map(sub, where[1:], where), repeat(1)))
    starts = {0, *compress(range(1, n), breaks)}
    for i in compress(range(n), map(alone.__contains__, loose.names)) if alone else ():
        starts.update((i, i + 1))
    bounds = sorted(s for s in starts if s < n)
    out: list[LooseRun] = []
    for s, e in zip(bounds, [*bounds[1:], n], strict=True):
        name, size, _q = dtype_info(loose.dtypes[s])
        shapes = frozenset(loose.shapes[s:e])
        numel = (prod(next(iter(shapes))) * (e - s) if len(shapes) == 1
                 else sum(map(prod, loose.shapes[s:e])))
        out.append(LooseRun(where[s], e - s, loose.names[s], loose.names[e - 1],
                            device_name(devices[s]), name, numel * size, shapes))
    return out
