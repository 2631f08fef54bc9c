"""devicelens: see, explain and fix device/dtype mismatches of PyTorch objects in notebooks.

NB: importing this package must stay cheap and side-effect free: no torch, no IPython widgets,
no CUDA initialisation. Every public function imports what it needs when it is called.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

__all__ = [
    "DeviceMismatchError",
    "Finding",
    "MoveReport",
    "Snapshot",
    "__version__",
    "apply_fix",
    "diagnose",
    "load_ipython_extension",
    "move_all",
    "snapshot",
    "unload_ipython_extension",
]

# NB: the submodule ``snapshot`` shares its name with the function below. Importing it here, first,
# means a later ``import devicelens.snapshot`` finds it in sys.modules and never rebinds the
# package attribute, so ``devicelens.snapshot`` stays the function. (It imports no torch.)
from . import snapshot as _snapshot_module  # noqa: F401

if TYPE_CHECKING:
    from .analysis import Finding
    from .guard import DeviceMismatchError
    from .moves import MoveReport
    from .snapshot import Snapshot


def snapshot(namespace: dict[str, Any] | None = None, **options: Any) -> Snapshot:
    """Metadata-only snapshot of every tensor, module and optimizer in ``namespace``.

    ``namespace`` defaults to the IPython user namespace. See :mod:`devicelens.snapshot`.
    """
    from .snapshot import take_snapshot

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


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext devicelens``: magics, the panel's comm target and the post-mortem handler."""
    from ._extension import load

    load(ipython)


def unload_ipython_extension(ipython: Any) -> None:
    """``%unload_ext devicelens``: undo everything :func:`load_ipython_extension` did."""
    from ._extension import unload

    unload(ipython)


_LAZY = {"DeviceMismatchError": "guard", "Finding": "analysis", "MoveReport": "moves",
         "Snapshot": "snapshot"}


def __getattr__(name: str) -> Any:
    """Public classes, imported on first use (NB: the guard imports torch)."""
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module 'devicelens' has no attribute {name!r}")


def _jupyter_labextension_paths() -> list[dict[str, str]]:
    return [{"src": "labextension", "dest": "devicelens"}]
