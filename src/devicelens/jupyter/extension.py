"""What ``%load_ext devicelens`` installs into a shell, and how ``%unload_ext`` takes it back.

NB: nothing here imports torch: a kernel that has not imported it yet pays nothing.
"""

from __future__ import annotations

from typing import Any


def load(ipython: Any) -> None:
    from ..guard.postmortem import install
    from . import _display
    from ._cuda_safe_magic import CudaSafeMagics
    from .comm import register
    from .magics import DeviceMagics

    ipython.register_magics(DeviceMagics)
    ipython.register_magics(CudaSafeMagics)
    install(ipython)  # post-mortem diagnosis of device/dtype errors, in every cell
    register(ipython)  # the sidebar panel's comm target
    _display.register(ipython)  # tables for snapshots, findings and move reports


def unload(ipython: Any) -> None:
    from ..guard.postmortem import uninstall
    from .comm import unregister

    uninstall(ipython)
    unregister(ipython)
