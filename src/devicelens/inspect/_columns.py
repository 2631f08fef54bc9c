"""A namespace read as columns, at C speed: which names are shown, which plain tensors are
compact rows, and which of them changed between two reads (:class:`._live.Live`'s sweep).

NB: ``map``/``compress`` over the lists, never a Python step per name in the usual case.
"""

from __future__ import annotations

from itertools import compress, repeat
from operator import and_, is_, itemgetter, ne, not_, or_
from typing import Any

from .snapshot import HIDDEN

_LAYOUT, _RG, _BASE = itemgetter(3), itemgetter(4), itemgetter(5)  # of a sweep's header


def compact_rows(metas: list[tuple[Any, ...]], strided: Any) -> list[bool]:
    """Which plain tensors are compact rows (strided, no autograd, no view), at C speed."""
    return list(map(and_, map(is_, map(_LAYOUT, metas), repeat(strided)), map(
        and_, map(is_, map(_RG, metas), repeat(False)), map(is_, map(_BASE, metas), repeat(None)))))


def changed_names(old_names: list[str], old_ids: list[int], old_metas: list[tuple[Any, ...]],
          names: list[str], ids: list[int], metas: list[tuple[Any, ...]]) -> set[str]:
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
    if list(map(type, keys)).count(str) != len(keys):
        return [type(k) is str and k[:1] != "_" and k not in HIDDEN for k in keys]
    public = list(map(not_, map(str.startswith, keys, repeat("_"))))
    for hidden in HIDDEN:
        if hidden in keys:
            public[keys.index(hidden)] = False
    return public
