"""devicelens: see, explain and fix device/dtype mismatches of PyTorch objects in notebooks.

NB: importing this package must stay cheap and side-effect free: no torch, no IPython widgets,
no CUDA initialisation. Every public function imports what it needs when it is called.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._version import __version__

__all__ = [
    "DeviceMismatchError",
    "Finding",
    "MoveReport",
    "Snapshot",
    "__version__",
    "apply_fix",
    "check",
    "diagnose",
    "guard",
    "load_ipython_extension",
    "move_all",
    "snapshot",
    "unload_ipython_extension",
]

if TYPE_CHECKING:
    from .analysis import Finding
    from .guard import DeviceMismatchError
    from .inspect import Snapshot
    from .moves import MoveReport


def snapshot(namespace: dict[str, Any] | None = None, **options: Any) -> Snapshot:
    """Metadata-only snapshot of every tensor, module and optimizer in ``namespace``.

    ``namespace`` defaults to the IPython user namespace. See :mod:`devicelens.inspect`.
    """
    from .inspect import take_snapshot

    _displayable()
    return take_snapshot(namespace, **options)


def diagnose(snap: Snapshot) -> list[Finding]:
    """Findings (what will break, who, why, and the fix as code) for a snapshot."""
    from .analysis import diagnose as _diagnose

    return _diagnose(snap)


def move_all(
    device: str,
    namespace: dict[str, Any] | None = None,
    *,
    names: list[str] | None = None,
    dry_run: bool = False,
    progress: Any = None,
) -> MoveReport:
    """Move every tensor, module and optimizer state in ``namespace`` to ``device``.

    Identity-preserving and all-or-nothing; see :mod:`devicelens.moves`.
    """
    from .moves import move_all as _move_all

    return _move_all(device, namespace, names=names, dry_run=dry_run, progress=progress)


def apply_fix(
    finding: Finding, namespace: dict[str, Any] | None = None, *, dry_run: bool = False
) -> MoveReport:
    """Apply the move or cast that ``finding`` suggests; all-or-nothing."""
    from .moves import apply_fix as _apply_fix

    return _apply_fix(finding, namespace, dry_run=dry_run)


def check(*objects: Any, dtype: bool = False) -> None:
    """Raise ``DeviceMismatchError`` when the given modules, optimizers and batches disagree
    about devices (``dtype=True``: also dtypes); an assertion for a training loop's first step.

    See :mod:`devicelens.scripts.check`. ``devicelens.guard(dtype=False)`` is the guard as a
    context manager.
    """
    import sys

    from .scripts.check import check_objects

    check_objects(objects, dtype=dtype, caller=sys._getframe(1))


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext devicelens``: magics, the panel's comm target and the post-mortem handler."""
    from .jupyter.extension import load

    load(ipython)


def unload_ipython_extension(ipython: Any) -> None:
    """``%unload_ext devicelens``: undo everything :func:`load_ipython_extension` did."""
    from .jupyter.extension import unload

    unload(ipython)


def _displayable() -> None:
    """Results show as tables in IPython even before ``%load_ext`` (the types know no view)."""
    from .jupyter._display import register_current

    register_current()


_LAZY = {"DeviceMismatchError": "guard", "Finding": "analysis", "MoveReport": "moves",
         "Snapshot": "inspect"}


def __getattr__(name: str) -> Any:
    """Public classes, imported on first use (NB: the guard imports torch)."""
    import importlib

    if name in _LAZY:
        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    if name == "guard":  # NB: the subpackage itself is callable: devicelens.guard(dtype=False)
        return importlib.import_module(".guard", __name__)
    raise AttributeError(f"module 'devicelens' has no attribute {name!r}")


def _jupyter_labextension_paths() -> list[dict[str, str]]:
    return [{"src": "labextension", "dest": "devicelens"}]
