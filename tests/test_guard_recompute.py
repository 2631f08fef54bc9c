"""A custom autograd Function whose backward re-runs its block (gradient checkpointing) without
the autocast its forward ran under: the Function is named and decorated, not the block cast.
Post-mortems of real failing cells on the CPU, CPU autocast in bfloat16 playing CUDA's fp16."""

from __future__ import annotations

import re

import pytest
import torch

from devicelens.guard.diagnosis._edits import Edit
from devicelens.guard.rehearsal._apply import NotApplied, Texts, added_decorators, apply_edit
from tests._traces import VERIFIED

ANSI = re.compile(r"\x1b\[[0-9;]*m")

CHECKPOINTED = """
import torch
from torch import nn

class Ckpt:
    class Function(torch.autograd.Function):
        @staticmethod
        def forward(ctx, run_function, *args):
            ctx.run_function = run_function
            ctx.save_for_backward(*args)
            with torch.no_grad():
                return run_function(*args)

        @staticmethod
        def backward(ctx, *grads):
            inputs = [t.detach().requires_grad_(t.requires_grad) for t in ctx.saved_tensors]
            with torch.enable_grad():
                outputs = ctx.run_function(*inputs)
            torch.autograd.backward(outputs, grads)
            return (None,) + tuple(t.grad for t in inputs)

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Linear(8, 8)
        self.block = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 8))
    def forward(self, x):
        return Ckpt.Function.apply(self.block, self.stem(x))
"""

STEP = """
with torch.autocast("cpu", dtype=torch.bfloat16):
    loss = model(x).float().pow(2).mean()
loss.backward()
"""


def run(ip, cell: str):
    return ip.run_cell(cell, store_history=False).error_in_exec


def diagnosis(capsys) -> str:
    out = ANSI.sub("", capsys.readouterr().out)
    assert "devicelens: " in out, out[-2000:]
    return out[out.index("devicelens: "):]


def test_the_function_that_recomputes_without_autocast_is_decorated(ip, capsys):
    """The block handed in is a ``Sequential``: ``custom_fwd(cast_inputs=...)`` would turn it
    into a generator, so the fix re-enters the forward's autocast in the backward instead."""
    assert run(ip, CHECKPOINTED) is None
    ip.user_ns.update(model=ip.user_ns["Net"](), x=torch.randn(4, 8))
    capsys.readouterr()
    assert run(ip, STEP) is not None
    text = diagnosis(capsys)
    # NB: named by the edit in the function that failed, its backward (both are edited)
    assert ("  culprit: Ckpt.Function (its Ckpt.Function.backward has the line to edit)"
            in text), text
    assert ("  note: Ckpt.Function.backward re-runs the forward without the autocast it ran "
            "under: the bfloat16 inputs it saved meet float32 weights") in text
    assert ("      - def forward(ctx, run_function, *args):\n"
            "      + @torch.amp.custom_fwd(device_type='cpu')\n"
            "      + def forward(ctx, run_function, *args):\n") in text
    assert ("      - def backward(ctx, *grads):\n"
            "      + @torch.amp.custom_bwd(device_type='cpu')\n"
            "      + def backward(ctx, *grads):\n") in text
    assert "x = x.to(" not in text and ".float()" not in text  # NB: the block is left alone
    assert VERIFIED in text


def test_a_backward_that_fails_on_its_own_line_is_no_recompute(ip, capsys):
    """A Function whose backward mixes dtypes itself calls nothing that re-runs a block: the
    decorators would change nothing, and none is offered."""
    assert run(ip, """
import torch
class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w):
        ctx.save_for_backward(w)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        (w,) = ctx.saved_tensors
        return g @ w, None
""") is None
    ip.user_ns.update(x=torch.randn(2, 3, requires_grad=True),
                      w=torch.randn(3, 3, dtype=torch.bfloat16))
    capsys.readouterr()
    assert run(ip, "Scale.apply(x, w).sum().backward()\n") is not None
    text = diagnosis(capsys)
    assert "custom_fwd" not in text and "custom_bwd" not in text
    assert "re-runs the forward" not in text


def test_a_helper_the_backward_calls_is_no_recompute(ip, capsys):
    """A Function whose backward hands its grads to a plain helper re-runs no block: a dtype
    mix in the helper is the helper's, and no decorator is offered."""
    assert run(ip, """
import torch
def project(g, w):
    return g @ w
class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w):
        ctx.save_for_backward(w)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        (w,) = ctx.saved_tensors
        return project(g, w), None
""") is None
    ip.user_ns.update(x=torch.randn(2, 3, requires_grad=True),
                      w=torch.randn(3, 3, dtype=torch.bfloat16))
    capsys.readouterr()
    assert run(ip, "Scale.apply(x, w).sum().backward()\n") is not None
    text = diagnosis(capsys)
    assert "custom_fwd" not in text and "re-runs the forward" not in text


def _edit(qualname: str, old: str, new: tuple[str, ...], file: str) -> Edit:
    return Edit(f"{file} line 1 (in {qualname})", (old,), new, file, qualname)


def test_added_decorators_wrap_the_live_method_under_its_staticmethod(tmp_path):
    """The rehearsal adds a decorator as re-running the class would: the nested class's
    static method is wrapped, the staticmethod kept around it."""
    src = ("import torch\nclass Outer:\n    class F(torch.autograd.Function):\n"
           "        @staticmethod\n        def forward(ctx, x):\n            return x * 2\n")
    path = tmp_path / "fn.py"
    path.write_text(src)
    ns: dict = {"__name__": "fn"}
    exec(compile(src, str(path), "exec"), ns)
    before = vars(ns["Outer"].F)["forward"].__func__
    line = "        def forward(ctx, x):"
    edit = _edit("Outer.F.forward", line,
                 ("        @torch.amp.custom_fwd(device_type='cpu')", line), str(path))
    assert added_decorators(edit) == ["        @torch.amp.custom_fwd(device_type='cpu')"]
    apply_edit(edit, ns, Texts(str(path)))
    raw = vars(ns["Outer"].F)["forward"]
    assert type(raw) is staticmethod and raw.__func__ is not before
    assert raw.__func__.__wrapped__ is before  # NB: functools.wraps of custom_fwd
    assert ns["Outer"].F.apply(torch.ones(2)).tolist() == [2.0, 2.0]


def test_a_decorator_over_a_wrapped_method_is_refused(tmp_path):
    """A method already under a wrapper (``@torch.no_grad()``) would need the class re-run:
    the rehearsal says so rather than wrap the wrong object."""
    src = ("import torch\nclass F:\n    @torch.no_grad()\n"
           "    def forward(self, x):\n        return x\n")
    path = tmp_path / "wrapped.py"
    path.write_text(src)
    ns: dict = {"__name__": "wrapped"}
    exec(compile(src, str(path), "exec"), ns)
    line = "    def forward(self, x):"
    edit = _edit("F.forward", line, ("    @torch.amp.custom_fwd(device_type='cpu')", line),
                 str(path))
    with pytest.raises(NotApplied, match="is wrapped already"):
        apply_edit(edit, ns, Texts(str(path)))
