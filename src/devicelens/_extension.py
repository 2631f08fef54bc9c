"""What ``%load_ext devicelens`` installs into a shell, and how ``%unload_ext`` takes it back."""

from __future__ import annotations

from typing import Any


def load(ipython: Any) -> None:
    from .magics import DeviceMagics

    ipython.register_magics(DeviceMagics)
    from ._cuda_safe_magic import CudaSafeMagics
    from .postmortem import install

    ipython.register_magics(CudaSafeMagics)
    install(ipython)  # post-mortem diagnosis of device/dtype errors, in every cell
    from .comm import register

    register(ipython)  # the sidebar panel's comm target


def unload(ipython: Any) -> None:
    from .postmortem import uninstall

    uninstall(ipython)
    from .comm import unregister

    unregister(ipython)
