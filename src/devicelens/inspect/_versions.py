"""Proof that a dict is unchanged since it was last read, in one C read: its version tag.

CPython stamps every dict with a version that changes on every mutation and is never given to
another dict (PEP 509; the interpreter's own caches still rely on it), and torch's guards read
it for ``torch.compile``. Equal versions of a module's ``__dict__`` and tables prove the same keys
bound to the very same values, without reading a key.

NB: private to torch and to CPython's dict layout: probed once against real mutations
(:func:`reader`); where torch lacks it or any probe fails, :func:`reader` gives None and the
caller compares the dicts' contents instead.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_read: Callable[[dict[Any, Any]], int] | None = None
_probed = False


def reader() -> Callable[[dict[Any, Any]], int] | None:
    """torch's dict version reader where it behaves as PEP 509 says, else None."""
    global _read, _probed
    if _probed:
        return _read
    _probed = True
    try:
        from torch._C._dynamo.guards import dict_version
    except Exception:
        return None
    if _faithful(dict_version):
        _read = dict_version
    return _read


def _faithful(version: Callable[[dict[Any, Any]], int]) -> bool:
    """Whether every mutation a cell can make changes the version, reading does not, and no two
    dicts (one freed, one new, often at the same address) share one."""
    try:
        d: dict[Any, Any] = {}
        seen = [version(d)]

        def changed(mutate: Callable[[dict[Any, Any]], object]) -> bool:
            mutate(d)
            v = version(d)
            fresh = v not in seen and version(d) == v
            seen.append(v)
            return fresh

        mutations: list[Callable[[dict[Any, Any]], object]] = [
            lambda d: d.__setitem__("a", 1), lambda d: d.__setitem__("a", 2),
            lambda d: d.__setitem__("b", 1), lambda d: d.pop("a"),
            lambda d: d.update(a=3), lambda d: d.setdefault("c", []), lambda d: d.clear(),
        ]
        if not all(map(changed, mutations)):
            return False
        for _ in range(3):  # NB: a dict freed and a new one made, likely at the same address
            e: dict[Any, Any] = {"a": 1}
            if version(e) in seen:
                return False
            seen.append(version(e))
            del e
        return True
    except Exception:
        return False
