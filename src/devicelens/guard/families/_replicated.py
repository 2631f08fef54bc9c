"""A plain tensor attribute that every ``DataParallel`` replica shares with the module it copies.

``DataParallel`` copies a module onto each GPU for every forward: parameters and buffers are
broadcast, one copy per GPU, but ``__dict__`` is copied shallowly, so a tensor kept as a plain
attribute (``self.pos_weight = pos_weight``) is the *same* tensor in every replica, on one GPU.
The replica on another GPU fails on it. Moving it cannot help: the next replica fails on the
other GPU (the rehearsal saw the fix ping-pong ``pos_weight.to("cuda:1")`` then ``.to("cuda:0")``).
What helps is what the library's own fix does: register it as a buffer, so each replica gets
its own copy. The fix registers it now, on the model in the namespace, and the edit of
``__init__`` (:func:`..diagnosis._naming._buffer_edit`) does it next time.

Recognised by identity only: a module on the failing call stack, not the namespace's own, of
the same type, whose ``__dict__`` holds the very tensor the namespace's module holds as a plain
attribute. NB: reads ``__dict__``s only, never a user ``__getattr__``.
"""

from __future__ import annotations

from typing import Any

from ...inspect import _tree
from ..diagnosis._blame import iter_params
from ..diagnosis._context import Ctx
from ..diagnosis._trace import Origin


def shared_by_copies(ctx: Ctx, o: Origin) -> tuple[str, str] | None:
    """``(owner_code, attr)`` when ``o`` is a plain tensor attribute of the namespace module
    ``owner_code`` that a copy of that module on the failing call stack holds too."""
    import torch

    code = o.code
    if not code or "." not in code or code.endswith("]") or not ctx.stack:
        return None
    owner_code, attr = code.rsplit(".", 1)
    if not attr.isidentifier():
        return None
    owner = ctx.resolve(owner_code)
    if not issubclass(type(owner), torch.nn.Module):
        return None
    held = _plain(owner, attr)
    if held is None or held is not o.obj or isinstance(held, torch.nn.Parameter):
        return None
    copies = [m for m in ctx.stack if m is not owner and type(m) is type(owner)
              and _plain(m, attr) is held]
    return (owner_code, attr) if copies else None


def register_now(owner_code: str, attr: str, device: str | None) -> str:
    """The namespace fix: the same tensor re-registered as a (non-persistent) buffer, so
    ``state_dict`` is unchanged and each replica gets its own copy; moved to the module's own
    device where it is elsewhere."""
    moved = f'_t.to("{device}")' if device else "_t"
    return (f"_t = {owner_code}.{attr}\ndel {owner_code}.{attr}\n"
            f'{owner_code}.register_buffer("{attr}", {moved}, persistent=False)')


def why_registered(code: str) -> str:
    return (f"every replica DataParallel makes reads this one tensor ({code} is a plain "
            "attribute, copied by reference, not broadcast): moving it only moves the failure "
            "to another GPU; as a buffer each replica gets its own copy")


def owner_device(ctx: Ctx, owner_code: str, tensor: Any) -> str | None:
    """The module's one device where ``tensor`` is not on it; ``None`` when it is (or the
    module has no single device)."""
    owner = ctx.resolve(owner_code)
    devices = {str(p.device) for p in iter_params(owner, limit=10_000)}
    if len(devices) != 1:
        return None
    d = devices.pop()
    return d if d != str(getattr(tensor, "device", d)) else None


def _plain(m: Any, attr: str) -> Any:
    d = _tree.instance_dict(m)
    return dict.get(d, attr) if d is not None else None
