"""Post-mortem and ``%%cuda_safe`` in a real ipykernel: what a notebook actually receives."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from jupyter_client.manager import start_new_kernel

from tests._traces import VERIFIED

pytestmark = pytest.mark.kernel
ANSI = re.compile(r"\x1b\[[0-9;]*m")

SETUP = """%load_ext devicelens
import torch
from torch import nn
net = nn.Sequential(nn.Linear(8, 4))
x64 = torch.randn(2, 8, dtype=torch.float64)
a, b = torch.ones(2), torch.ones(2, device="meta")
"""


@pytest.fixture(scope="module")
def kc() -> Iterator[Any]:
    km, client = start_new_kernel(kernel_name="python3")
    try:
        yield client
    finally:
        client.stop_channels()
        km.shutdown_kernel(now=True)


def execute(kc: Any, code: str) -> list[dict[str, Any]]:
    """Run a cell to idle; the iopub messages it produced."""
    msg_id = kc.execute(code)
    out, deadline = [], time.monotonic() + 60
    while time.monotonic() < deadline:
        msg = kc.get_iopub_msg(timeout=60)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            return out
        out.append(msg)
    raise AssertionError("cell did not finish")


def error_of(msgs: list[dict[str, Any]]) -> dict[str, Any]:
    errors = [m["content"] for m in msgs if m["msg_type"] == "error"]
    assert len(errors) == 1, msgs
    return errors[0]


def test_failing_cell_gets_a_diagnosis_in_the_error_message(kc):
    assert not [m for m in execute(kc, SETUP) if m["msg_type"] == "error"]
    err = error_of(execute(kc, "out = net(x64)\n"))
    assert err["ename"] == "RuntimeError"
    assert err["evalue"].startswith("mat1 and mat2 must have the same dtype")
    text = ANSI.sub("", "\n".join(err["traceback"]))
    assert text.index("RuntimeError: mat1 and mat2") < text.index("devicelens: ")
    assert "culprit: x64 (float64[2, 8] on cpu), `input` in Linear.forward" in text
    assert "at: cell line 1: out = net(x64)" in text
    assert text.rstrip().endswith("x64 = x64.float()\n" + VERIFIED)


def test_cuda_safe_in_a_kernel(kc):
    msgs = execute(kc, "%%cuda_safe\nprint('running')\nc = a + b\n")
    err = error_of(msgs)
    assert err["ename"] == "DeviceMismatchError"
    assert "at: cell line 3: c = a + b" in err["evalue"]
    assert "culprit: b (float32[2] on meta), argument 2; expected cpu" in err["evalue"]
    assert "from:" not in err["evalue"]  # the kernel's own launcher is not a cell
    # NB: nothing can be copied out of meta: the line that made b there is the fix
    assert err["evalue"].endswith('edit: cell In[1] line 6\n'
                                  '      - a, b = torch.ones(2), torch.ones(2, device="meta")\n'
                                  '      + a, b = torch.ones(2), torch.ones(2, device="cpu")\n'
                                  + VERIFIED)
    # NB: the rehearsal ran the cell again in a sandbox whose output goes nowhere
    printed = "".join(m["content"].get("text", "") for m in msgs).splitlines()
    assert printed.count("running") == 1


def test_devices_rehearses_its_fixes_in_a_kernel_and_the_kernel_goes_on(kc):
    """``%devices`` forks a real ipykernel (its heartbeat, iopub and control threads running)
    once per fix: each verdict arrives, nothing of the child reaches the notebook, and the
    kernel answers the next cell."""
    execute(kc, SETUP)
    execute(kc, "try:\n    net(x64)\nexcept RuntimeError:\n    pass\n")  # NB: x64 meets net
    msgs = execute(kc, "%devices --text\n")
    text = "".join(m["content"].get("text", "") for m in msgs if m["msg_type"] == "stream")
    # NB: the warning's fix is rehearsed; an info's is not (it is no promise that anything fails)
    assert ("▲ warning: x64 is float64\n"
            "  x64 is float64 but net is float32: matmuls with its weights raise \"must have the "
            "same dtype\".\n  fix:\n    x64 = x64.float()\n  verified: rehearsed on a copy of "
            "this kernel's state, the fix runs, does no harm and clears this finding\n") in text
    assert text.rstrip().endswith('net.to("meta")'), text
    # NB: one print, the child's none. Counted in the text, not in messages: ipykernel may send
    # one print as two stream messages (its flush timer can fire between print's two writes)
    assert text.count("▲ warning: x64 is float64") == 1, text
    after = execute(kc, "print(1 + 1)\n")
    assert [m["content"]["text"] for m in after if m["msg_type"] == "stream"] == ["2\n"]
