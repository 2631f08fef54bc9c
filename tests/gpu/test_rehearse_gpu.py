"""``%%cuda_safe --rehearse cuda:0`` against the real GPU: the cells the CPU-only tests rehearse
(``tests/test_guard_rehearse_device.py``) are rehearsed, then run for real on the device, and
the rehearsal's verdict must be what the real run does: a mismatch where the real run raises
one, "no device or dtype mismatch" where it runs through.

NB: the rehearsal still simulates here (a child forked from a process that may have used CUDA
must not touch it); only the real run uses the GPU. The model-parallel split needs two GPUs.
"""

from __future__ import annotations

import pytest
import torch

from tests.test_guard_rehearse_device import CASES, CLEAN, DEFS

pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA"),
              pytest.mark.filterwarnings("ignore:PyTorch was compiled without cuDNN")]

#: the real run's words for a device mismatch (cuDNN's RNN says it its own way)
MISMATCH = ("Expected all tensors to be on the same device", "are not at the same device")


@pytest.fixture
def user(ip, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ip.run_cell(DEFS, store_history=False)
    return ip


def verdict(ip, capsys, devices: str, cell: str) -> str:
    """The rehearsal's first line."""
    capsys.readouterr()
    result = ip.run_cell(f"%%cuda_safe --rehearse {devices}\n{cell}", store_history=False)
    assert result.error_in_exec is None, result.error_in_exec
    return capsys.readouterr().out.strip().splitlines()[0]


def real_run(ip, cell: str) -> BaseException | None:
    """The cell run for real on the GPU, as plain torch runs it (no guard)."""
    return ip.run_cell(cell, store_history=False).error_in_exec


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_mismatch_rehearsed_is_one_the_gpu_raises(user, capsys, case):
    devices, cell, _ = CASES[case]
    if torch.cuda.device_count() < devices.count(",") + 1:
        pytest.skip(f"needs {devices}")
    said = verdict(user, capsys, devices, cell)
    assert said == f"rehearsed on {devices}: the GPU run would hit 1 mismatch"
    err = real_run(user, cell)
    assert isinstance(err, RuntimeError), err
    assert any(m in str(err) for m in MISMATCH), str(err)


def test_a_cell_rehearsed_clean_runs_clean_on_the_gpu(user, capsys):
    said = verdict(user, capsys, "cuda:0", CLEAN)
    assert said == "rehearsed on cuda:0: no device or dtype mismatch"
    assert real_run(user, CLEAN) is None
    assert next(user.user_ns["model"].parameters()).device.type == "cuda"  # it did run there


def test_the_rehearsal_leaves_the_gpu_untouched(user, capsys):
    """Rehearsing allocates nothing on the real device."""
    torch.cuda.synchronize()
    before = torch.cuda.memory_allocated()
    verdict(user, capsys, "cuda:0", CLEAN)
    assert torch.cuda.memory_allocated() == before
