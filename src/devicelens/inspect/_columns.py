"""A namespace read as columns, at C speed: which names are shown, which plain tensors are
compact rows, and which of them changed between two reads (:class:`._live.Live`'s sweep).

NB: ``map``/``compress`` over the lists, never a Python step per name in the usual case.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import accumulate, compress, repeat
from operator import add, and_, is_, itemgetter, ne, or_
from typing import Any

from ._types import all_exact

_LAYOUT, _RG, _BASE = itemgetter(3), itemgetter(4), itemgetter(5)  # of a sweep's header
HIDDEN = ("In", "Out")  # IPython's input/output history


def private_positions(keys: list[str]) -> list[int]:
    """Where the keys that start with ``_`` are, for keys that are all ``str``. NB: at C speed:
    the keys joined by NUL (one scan finds every ``"\\0_"``, and NUL counts turn those places into
    positions), one by one only where a key itself holds a NUL."""
    joined = "\0" + "\0".join(keys)
    if joined.count("\0") != len(keys):
        return list(compress(range(len(keys)), map(str.startswith, keys, repeat("_"))))
    pieces = joined.split("\0_")
    if len(pieces) == 1:  # NB: the usual case: no private key at all
        return []
    # NB: the key after the j-th split follows as many NULs as there are in the pieces before it,
    # plus the j split NULs themselves
    nuls = accumulate(map(str.count, pieces[:-1], repeat("\0")))
    return list(map(add, nuls, range(len(pieces) - 1)))


def compact_rows(metas: list[tuple[Any, ...]], strided: Any) -> list[bool]:
    """Which plain tensors are compact rows (strided, no autograd, no view), at C speed."""
    return list(map(and_, map(is_, map(_LAYOUT, metas), repeat(strided)), map(
        and_, map(is_, map(_RG, metas), repeat(False)), map(is_, map(_BASE, metas), repeat(None)))))


def changed_names(old_names: list[str], old_ids: Sequence[int], old_metas: list[tuple[Any, ...]],
          names: list[str], ids: Sequence[int], metas: list[tuple[Any, ...]]) -> set[str]:
    """The plain-tensor names whose tensor or header differs between two sweeps."""
    if names == old_names:  # NB: the common case: compared position by position, at C speed
        moved = map(or_, map(ne, ids, old_ids), map(ne, metas, old_metas))
        return set(compress(names, moved))
    n = len(old_names)
    if len(names) > n and names[:n] == old_names:  # NB: a cell added names (they come last)
        moved = map(or_, map(ne, ids[:n], old_ids), map(ne, metas[:n], old_metas))
        return set(compress(old_names, moved)) | set(names[n:])
    before = dict(zip(old_names, zip(old_ids, old_metas, strict=True), strict=True))
    moved = map(ne, zip(ids, metas, strict=True), map(before.get, names))  # NB: new: None
    return set(compress(names, moved)) | (before.keys() - set(names))


def shown(keys: list[Any]) -> list[bool]:
    """Which namespace keys are shown: strings, not private, not ``In``/``Out``. NB: at C speed
    when every key is a ``str`` (a namespace's usual case), else one by one, types first."""
    if not all_exact(keys, str):
        return [type(k) is str and k[:1] != "_" and k not in HIDDEN for k in keys]
    public = [True] * len(keys)
    for i in private_positions(keys):
        public[i] = False
    for hidden in HIDDEN:
        if hidden in keys:
            public[keys.index(hidden)] = False
    return public
