"""Shared fixtures: simulated CUDA devices on a CPU-only machine.

``FakeTensorMode`` gives tensors real ``cuda:N`` metadata and the real mismatch errors. NB (see
TOOLCHAIN.md): never run autograd on a fake cuda tensor (it aborts the process), and skip the
converter's weak memo so ``Module.to("cuda:N")`` swaps parameters in place as on a real GPU.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import torch
from torch._subclasses.fake_tensor import FakeTensorMode


class FakeCuda:
    """A FakeTensorMode that can move modules: ``fc.to(module, "cuda:1")``, ``fc.randn(...)``."""

    def __init__(self) -> None:
        self.mode = FakeTensorMode(allow_non_fake_inputs=True)
        self.mode.fake_tensor_converter.set_tensor_memo = lambda *a, **k: None  # type: ignore

    def to(self, obj: Any, device: str) -> Any:
        with self.mode, torch.no_grad():
            return obj.to(device)

    def randn(self, *shape: int, device: str = "cuda:0", **kw: Any) -> torch.Tensor:
        with self.mode:
            return torch.randn(*shape, device=device, **kw)

    def __enter__(self) -> FakeTensorMode:
        return self.mode.__enter__()

    def __exit__(self, *exc: object) -> None:
        self.mode.__exit__(*exc)


def to_in_place(module: Any, device: str) -> Any:
    """``module.to(device)`` keeping parameter identity, as it does between cpu and cuda.

    NB: between cpu and meta, torch 2.13's ``Module.to`` *replaces* the Parameter objects unless
    swapping is switched on; a real cpu -> cuda move keeps them.
    """
    old = torch.__future__.get_swap_module_params_on_conversion()
    torch.__future__.set_swap_module_params_on_conversion(True)
    try:
        return module.to(device)
    finally:
        torch.__future__.set_swap_module_params_on_conversion(old)


@pytest.fixture
def fake_cuda() -> Iterator[FakeCuda]:
    yield FakeCuda()


@pytest.fixture
def ip() -> Iterator[Any]:
    """A real IPython shell with devicelens loaded; the user namespace is restored afterwards."""
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    shell.run_line_magic("load_ext", "devicelens")
    saved = dict(shell.user_ns)
    yield shell
    shell.user_ns.clear()
    shell.user_ns.update(saved)
