"""Half precision, two ways a diagnosis used to stop short (held-out corpus set 2):

- ``model.half()`` leaves a plain float32 attribute (RT-DETR's ``pos_embed2``); added to the
  activations it makes them float32, and the failing layer sees a local the user never named:
  the diagnosis names the attribute and casts it;
- autocast's fp16 output written into a float32 buffer with an index (Casanovo's beam search):
  the edit casts the written values, and ``%%cuda_safe --dtype`` lets autocast's own mixes
  through but stops that write.

Every fix and edit printed is run, and the cell then runs.
"""

from __future__ import annotations

import re

import pytest

from tests._traces import VERIFIED
from tests.test_guard_postmortem import diagnosis, run

pytestmark = pytest.mark.filterwarnings("ignore:PyTorch was compiled without cuDNN")
ANSI = re.compile(r"\x1b\[[0-9;]*m")

ENCODER = '''
import torch
from torch import nn

class Layer(nn.Module):
    def __init__(self, d=8):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, 2, batch_first=True)

    def forward(self, src, pos):
        q = src + pos
        return self.attn(q, q, src)[0]

class Encoder(nn.Module):
    def __init__(self, d=8):
        super().__init__()
        self.proj = nn.Linear(4, d)
        self.layer = Layer(d)
        self.idx = 2
        # NB: as RT-DETR does: a plain attribute under a computed name (.half() leaves it)
        setattr(self, f"pos{self.idx}", torch.zeros(1, 6, d))
        self.spare = torch.zeros(3)         # float32 too, never used

    def forward(self, x):
        pos = getattr(self, f"pos{self.idx}").to(x.device)
        return self.layer(self.proj(x), pos)
'''


def test_a_plain_float32_table_behind_an_untraced_local_is_named_and_cast(ip, capsys):
    ip.run_cell(ENCODER + "enc = Encoder().eval().half()\nx = torch.randn(1, 6, 4).half()\n",
                store_history=False)
    err, out, _ = run(ip, capsys, "with torch.no_grad():\n    y = enc(x)\n")
    assert err is not None
    text = diagnosis(out)
    assert "culprit: enc.pos2 (float32[1, 6, 8] on cpu)" in text
    assert "enc.spare" not in text  # NB: float32 too, but (3,) never met the (1, 6, 8) activations
    assert ("note: enc.pos2 is a plain tensor attribute in float32: .half() and .to(dtype) "
            "cast only parameters and buffers") in text
    fix, verdict = text.split("fix:\n", 1)[1].strip().split("\n", 1)
    assert fix == "enc.pos2 = enc.pos2.half()"  # NB: no edit: setattr has no line to change
    assert verdict == VERIFIED
    ip.run_cell(fix, store_history=False)
    assert ip.run_cell("with torch.no_grad():\n    y = enc(x)\n",
                       store_history=False).error_in_exec is None
    assert ip.user_ns["y"].dtype.is_floating_point and str(ip.user_ns["y"].dtype) == "torch.float16"


def test_no_table_is_blamed_when_the_model_itself_is_not_the_expected_dtype(ip, capsys):
    # NB: float32 weights fed half inputs: the input is the culprit, whatever tables it holds
    ip.run_cell(ENCODER + "enc = Encoder().eval()\nx = torch.randn(1, 6, 4).half()\n",
                store_history=False)
    _err, out, _ = run(ip, capsys, "with torch.no_grad():\n    y = enc(x)\n")
    text = diagnosis(out)
    assert "enc.pos2" not in text and "culprit: x (float16[1, 6, 4] on cpu)" in text


DECODER = '''
import torch
from torch import nn

class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = nn.Linear(4, 5)

    def decode(self, h):
        scores = torch.zeros(3, 5)
        keep = torch.tensor([True, False, True])
        out = self.head(h)
        scores[keep] = out
        return scores

dec = Decoder().eval()
h = torch.randn(2, 4)
'''
CELL = 'with torch.no_grad(), torch.autocast("cpu", dtype=torch.float16):\n    s = dec.decode(h)\n'


def _edit_and_rerun(ip, text: str) -> None:
    old = re.search(r"^\s+- (.+)$", text, re.M).group(1)
    new = re.search(r"^\s+\+ (.+)$", text, re.M).group(1)
    src = DECODER.replace(old, new, 1)
    assert src != DECODER
    ip.run_cell(src, store_history=False)
    assert ip.run_cell(CELL, store_history=False).error_in_exec is None
    assert ip.user_ns["s"].dtype.is_floating_point and str(ip.user_ns["s"].dtype) == "torch.float32"


def test_half_values_written_with_an_index_get_an_edit_of_the_write(ip, capsys):
    ip.run_cell(DECODER, store_history=False)
    err, out, _ = run(ip, capsys, CELL)
    assert "Index put requires the source and destination dtypes match" in str(err)
    text = diagnosis(out)
    assert "culprit: `out` in Decoder.decode (float16[2, 5] on cpu); expected float32" in text
    assert "writes float16 values into a float32 tensor, and an indexed write does not cast" in text
    assert "edit: in `dec` (Decoder.decode, cell In[1] line 13)" in text
    assert "\n      - scores[keep] = out\n      + scores[keep] = out.to(scores.dtype)\n" in text
    _edit_and_rerun(ip, text)


def test_cuda_safe_dtype_lets_autocast_mix_and_stops_the_indexed_write(ip, capsys):
    ip.run_line_magic("load_ext", "devicelens")
    ip.run_cell(DECODER, store_history=False)
    # NB: autocast's own mix (a float32 bias added to fp16 matmul output) is no error
    ok = ip.run_cell('%%cuda_safe --dtype\nwith torch.autocast("cpu", dtype=torch.float16):\n'
                     '    z = dec.head(h) + torch.ones(5)\n', store_history=False)
    assert ok.error_in_exec is None
    capsys.readouterr()
    res = ip.run_cell("%%cuda_safe --dtype\n" + CELL, store_history=False)
    err = res.error_in_exec
    assert type(err).__name__ == "DeviceMismatchError"
    text = str(err)
    assert text.startswith("Tensor.__setitem__(): the values written and the tensor written "
                           "into have different dtypes")
    assert "DeviceGuard" not in text  # NB: the guard's own frames name nothing
    assert "`out` in Decoder.decode" in text
    _edit_and_rerun(ip, text)


def test_a_plain_indexed_copy_with_an_int_index_is_not_stopped(ip):
    ip.run_line_magic("load_ext", "devicelens")
    ip.run_cell("import torch\nbuf = torch.zeros(3, 5)\nrow = torch.ones(5).half()\n",
                store_history=False)
    # NB: `buf[0] = row` copies and casts in PyTorch; only an index tensor makes an index put
    res = ip.run_cell("%%cuda_safe --dtype\nbuf[0] = row\n", store_history=False)
    assert res.error_in_exec is None and float(ip.user_ns["buf"][0].sum()) == 5.0


def test_a_failure_the_guard_lets_through_names_no_local_of_the_guard(ip, capsys):
    # NB: without --dtype the guard checks devices only; the op fails inside the guard's own
    # frames, and the explanation must still name the user's `out`
    ip.run_line_magic("load_ext", "devicelens")
    ip.run_cell(DECODER, store_history=False)
    res = ip.run_cell("%%cuda_safe\n" + CELL, store_history=False)
    text = str(res.error_in_exec)
    assert text.startswith("the values written and the tensor written into have different dtypes")
    assert "DeviceGuard" not in text
    assert "culprit: `out` in Decoder.decode (float16[2, 5] on cpu); expected float32" in text
