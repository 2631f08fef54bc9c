"""``%%cuda_safe --rehearse cuda:0`` on one training step: what knowing it will run on a GPU
costs, on a machine without one, beside running the same step on the cpu.

Workloads:
- README: the README's namespace (10k loose tensors, a 2k-parameter model of 1000 Linear
  layers); the step moves the model to the device, makes its optimizer and steps it. NB: with the
  namespace's own Adam, stepped on the cpu, the rehearsal finds the real bug instead (its state
  stays on the cpu when the model moves), which is a different measurement.
- GPT-2: a GPT-2-size model (124M parameters: 12 blocks, 768 wide, 12 heads, a 50257-token
  vocabulary tied to the output, 1024 positions) built from a config by hand (transformers is no
  dependency); the step is AdamW on one sequence of 64 tokens.
Columns: the step run for real on the cpu (``device = "cpu"``), and rehearsed as on ``cuda:0`` in
the forked sandbox (simulated tensors, ``backward()`` skipped), wall time, best of the
interleaved rounds, in a real IPython shell with devicelens loaded. Rehearsals and real steps
alternate, so each rehearsal after the first follows a real step (the graph it left, ``loss``,
still held). ``first``: the first rehearsal of the workload, before any real step of it (the
README's also imports ``torch._dynamo`` once); the verdict is the last rehearsal's first line.
The rehearsal's own time limit is lifted to 600 s.
Run: .venv/bin/python benchmarks/bench_rehearse_device.py
"""

from __future__ import annotations

import contextlib
import io
import math
import os
import sys
import time
from typing import Any

import torch
from torch import nn
from torch.nn import functional as F

sys.path.insert(0, os.path.dirname(__file__))
from _workload import namespace

STEP = """\
device = "{device}"
model.to(device)
opt = torch.optim.Adam(model.parameters())
x = torch.randn(4, 2, device=device)
loss = model(x).sum()
opt.zero_grad()
loss.backward()
opt.step()
"""

GPT_STEP = """\
device = "{device}"
gpt.to(device)
opt = torch.optim.AdamW(gpt.parameters(), lr=3e-4)
ids = torch.randint(0, 50257, (1, 65), device=device)
logits = gpt(ids[:, :-1])
loss = F.cross_entropy(logits.view(-1, logits.size(-1)), ids[:, 1:].reshape(-1))
opt.zero_grad()
loss.backward()
opt.step()
"""


class Block(nn.Module):
    """One GPT-2 block: pre-norm causal self-attention and a 4x MLP, each a residual."""

    def __init__(self, width: int, heads: int) -> None:
        super().__init__()
        self.heads = heads
        self.ln_1, self.ln_2 = nn.LayerNorm(width), nn.LayerNorm(width)
        self.c_attn, self.c_proj = nn.Linear(width, 3 * width), nn.Linear(width, width)
        self.c_fc, self.mlp_proj = nn.Linear(width, 4 * width), nn.Linear(4 * width, width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, t, c = x.shape
        q, k, v = self.c_attn(self.ln_1(x)).split(c, dim=2)
        q, k, v = (z.view(b, t, self.heads, c // self.heads).transpose(1, 2) for z in (q, k, v))
        att = (q @ k.transpose(-2, -1)) / math.sqrt(c // self.heads)
        causal = torch.ones(t, t, dtype=torch.bool, device=x.device).tril()
        att = att.masked_fill(~causal, float("-inf")).softmax(dim=-1)
        x = x + self.c_proj((att @ v).transpose(1, 2).reshape(b, t, c))
        return x + self.mlp_proj(F.gelu(self.c_fc(self.ln_2(x))))


class GPT(nn.Module):
    """GPT-2 small from its config: token and position embeddings, the blocks, a final norm,
    and the output layer tied to the token embedding."""

    def __init__(self, vocab: int = 50257, positions: int = 1024, width: int = 768,
                 layers: int = 12, heads: int = 12) -> None:
        super().__init__()
        self.wte, self.wpe = nn.Embedding(vocab, width), nn.Embedding(positions, width)
        self.h = nn.ModuleList(Block(width, heads) for _ in range(layers))
        self.ln_f = nn.LayerNorm(width)
        self.lm_head = nn.Linear(width, vocab, bias=False)
        self.lm_head.weight = self.wte.weight

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        pos = torch.arange(ids.size(1), device=ids.device)
        x = self.wte(ids) + self.wpe(pos)
        for block in self.h:
            x = block(x)
        return self.lm_head(self.ln_f(x))  # type: ignore[no-any-return]


def shell() -> Any:
    from IPython.core.interactiveshell import InteractiveShell

    ip = InteractiveShell.instance()
    ip.run_line_magic("load_ext", "devicelens")
    torch.manual_seed(0)
    ip.user_ns.update(namespace(10_000), torch=torch, F=F, gpt=GPT())
    return ip


def timed(ip: Any, cell: str) -> tuple[float, str]:
    buf = io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
        result = ip.run_cell(cell, store_history=False)
    if result.error_in_exec is not None:
        raise result.error_in_exec
    return time.perf_counter() - start, buf.getvalue()


def measure(ip: Any, step: str, rounds: int) -> tuple[dict[str, float], float, str]:
    """(best cpu step, best rehearsal), the first rehearsal, the last verdict's first line."""
    rehearse = "%%cuda_safe --rehearse cuda:0\n" + step.format(device="cuda")
    first, out = timed(ip, rehearse)
    best = {"cpu": math.inf, "rehearsal": math.inf}
    for _ in range(rounds):
        best["cpu"] = min(best["cpu"], timed(ip, step.format(device="cpu"))[0])
        took, out = timed(ip, rehearse)
        best["rehearsal"] = min(best["rehearsal"], took)
    verdict = out.strip().splitlines()[0] if out.strip() else "(no output)"
    return best, first, verdict


def main() -> None:
    os.environ["DEVICELENS_REHEARSAL_SECONDS"] = "600"  # NB: measured, not cut off
    ip = shell()
    gpt_params = sum(p.numel() for p in ip.user_ns["gpt"].parameters())
    print(f"{'workload':14} {'params':>8} {'cpu step':>10} {'rehearsal':>10} {'ratio':>7} "
          f"{'first':>8}  verdict")
    for name, params, step, rounds in (("README", 2000, STEP, 5),
                                       ("GPT-2 (124M)", gpt_params, GPT_STEP, 2)):
        best, first, verdict = measure(ip, step, rounds)
        size = f"{params / 1e6:.0f}M" if params >= 1e6 else f"{params / 1e3:.0f}k"
        print(f"{name:14} {size:>8} {best['cpu']:9.3f}s {best['rehearsal']:9.3f}s "
              f"{best['rehearsal'] / best['cpu']:6.1f}x {first:7.2f}s  {verdict}", flush=True)


if __name__ == "__main__":
    main()
