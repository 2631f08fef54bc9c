"""What ``%load_ext devicelens`` installs into a shell, and how ``%unload_ext`` takes it back."""

from __future__ import annotations

from typing import Any


def load(ipython: Any) -> None:
    from .magics import DeviceMagics

    ipython.register_magics(DeviceMagics)


def unload(ipython: Any) -> None:
    pass
