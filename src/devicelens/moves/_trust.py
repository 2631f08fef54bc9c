"""Which tensor classes a move may read like a ``torch.Tensor``.

A class of the user's that redefines ``.device``, ``.grad`` or ``__getattribute__`` would run
user code (or lie) while a move is planned, so its tensors are refused, never read.
"""

from __future__ import annotations

from types import FunctionType
from typing import Any

# NB: what a move reads or relies on
_METADATA = frozenset({
    "device", "dtype", "shape", "layout", "grad", "requires_grad", "is_leaf", "data", "_base",
    "is_floating_point", "dim", "numel", "size", "stride", "storage_offset", "untyped_storage",
    "is_quantized", "is_nested", "grad_fn", "_backward_hooks", "_post_accumulate_grad_hooks",
    "__getattribute__", "__dict__", "_use_count",
})


def type_name(tp: type) -> str:
    """``tp.__name__`` without a metaclass's ``__getattribute__`` (user code)."""
    return str(type.__getattribute__(tp, "__name__"))


def is_fake(obj: Any) -> bool:
    return type_name(type(obj)) == "FakeTensor"


_PLAIN_KEYS = frozenset((str, int, float, bool, complex, bytes, type(None)))


def plain_key(key: Any, depth: int = 0) -> bool:
    """Whether hashing and comparing ``key`` (to rebind a value under it) runs no user code:
    builtin scalars, tuples of them, identity-hashed objects, C types, torch's own classes."""
    tp = type(key)
    if tp in _PLAIN_KEYS:
        return True
    if tp is tuple or tp is frozenset:
        return depth < 8 and all(plain_key(k, depth + 1) for k in tp.__iter__(key))
    for name in ("__hash__", "__eq__"):
        fn = _type_lookup(tp, name)
        if fn is None:
            return False
        module = getattr(fn, "__module__", None) if type(fn) is FunctionType else "C"
        if not (type(module) is str and (module in ("C", "enum") or module == "torch"
                                         or module.startswith("torch."))):
            return False
    return True


def _type_lookup(tp: type, name: str) -> Any:
    for klass in type.__getattribute__(tp, "__mro__"):
        d = type.__getattribute__(klass, "__dict__")
        if name in d:
            return d[name]
    return None


class Trust:
    """Which tensor classes a plan may read like a ``torch.Tensor``: '' or why not (cached)."""

    def __init__(self, torch: Any) -> None:
        self.base = torch._C.TensorBase
        self.known: dict[type, str] = {torch.Tensor: "", torch.nn.Parameter: ""}

    def __call__(self, tp: type) -> str:
        why = self.known.get(tp)
        if why is None:
            why = self.known[tp] = self._judge(tp)
        return why

    def _judge(self, tp: type) -> str:
        for klass in type.__getattribute__(tp, "__mro__"):
            if klass is self.base:
                break
            d = type.__getattribute__(klass, "__dict__")
            module = d.get("__module__")
            if type(module) is str and (module == "torch" or module.startswith("torch.")):
                continue  # NB: torch's own subclasses (FakeTensor, jagged nested) are no user code
            bad = sorted(_METADATA.intersection(d))
            if bad:
                return (f"its class {type_name(tp)} redefines .{bad[0]}, so devicelens cannot "
                        f"trust what it says; move it with its own .to()")
        return ""
