"""The corpus's fake cuda session runs what a GPU runs, where a CPU-only build refuses it.

Each check runs in a fresh interpreter: a session turns grad off and patches torch for its whole
process (as the worker that scores a case does), which must not reach the other tests.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PRELUDE = '''
import json
from tests.corpus._worker import Session
s = Session("fake_cuda", devicelens=False)
ns = s.shell.user_ns
'''


def in_a_fresh_process(code: str) -> dict[str, object]:
    """Runs ``PRELUDE + code`` in a new interpreter; the JSON its last line prints."""
    env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}{os.pathsep}{ROOT}"}
    out = subprocess.run([sys.executable, "-c", PRELUDE + code], capture_output=True, text=True,
                         cwd=ROOT, env=env, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def test_a_fake_cuda_model_moves_as_on_a_gpu_though_a_weak_reference_holds_a_parameter() -> None:
    """A GPU's ``Module.to()`` moves parameters in place; a fake one swaps them, which torch
    refuses for a tensor with a weak reference (a fake ``deepcopy`` leaves one). The session
    makes that swap anyway, so a right ``model.to(...)`` fix is not failed by the simulation
    (ema-pytorch's cpu EMA copy)."""
    got = in_a_fresh_process('''
ran = s.run("import torch, weakref\\nm = torch.nn.Linear(2, 2)\\nw = weakref.ref(m.weight)\\n"
            "p = m.weight\\nm.to('cuda:0')\\n")
print(json.dumps({"error": ran.error, "device": str(ns["m"].weight.device),
                  "same": ns["p"] is ns["m"].weight and ns["w"]() is ns["p"]}))
''')
    assert got == {"error": "", "device": "cuda:0", "same": True}  # NB: the very Parameter


def test_a_fake_cuda_tensor_is_made_contiguous_and_indexed_as_on_a_gpu() -> None:
    """On a CPU-only build, ``.contiguous()`` of a strided fake cuda tensor and its basic
    indexing (``t[0]``, ``t[:, 1:]``) raise "PyTorch is not linked with support for cuda
    devices", where a GPU runs them; multi-head attention under a guard reaches both
    (``proj.contiguous()``, ``proj[0]``), so look-alikes failed under ``%%cuda_safe`` only.
    The session runs them as the views and clones the fake mode can make."""
    got = in_a_fresh_process('''
ran = s.run("import torch\\nt = torch.zeros(3, 4, 5, device='cuda:0')\\n"
            "c = t.permute(2, 0, 1).contiguous()\\n"
            "a, b, n = t[0], t[:, 1:, ::2], t[..., None]\\n")
print(json.dumps({"error": ran.error, "contiguous": ns["c"].is_contiguous(),
                  "shapes": [list(ns[k].shape) for k in "cabn"],
                  "devices": sorted({str(ns[k].device) for k in "cabn"})}))
''')
    assert got == {"error": "", "contiguous": True,
                   "shapes": [[5, 3, 4], [4, 5], [3, 3, 3], [3, 4, 5, 1]], "devices": ["cuda:0"]}
