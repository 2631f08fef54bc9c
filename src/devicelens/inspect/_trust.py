"""Which tensor classes may be read like a ``torch.Tensor``: judged from their class dicts.

A class of the user's that redefines ``.device``, ``.grad`` or ``__getattribute__`` would run
user code (or lie) when read: a snapshot shows its tensors as opaque rows, a move refuses them.
"""

from __future__ import annotations

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


class Trust:
    """Which tensor classes can be read like a ``torch.Tensor``: '' or why not (cached)."""

    def __init__(self, torch: Any) -> None:
        self.base = torch._C.TensorBase
        # NB: keyed by id, the type kept alive beside its verdict: hashing a class would run its
        # metaclass's ``__hash__`` (user code)
        self.known: dict[int, tuple[type, str]] = {
            id(tp): (tp, "") for tp in (torch.Tensor, torch.nn.Parameter)}

    def __call__(self, tp: type) -> str:
        known = self.known.get(id(tp))
        if known is None or known[0] is not tp:
            known = self.known[id(tp)] = (tp, self._judge(tp))
        return known[1]

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
                return f"its class {type_name(tp)} redefines .{bad[0]}"
        return ""
