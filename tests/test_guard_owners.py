"""A code fix says which of the user's objects runs the code it edits, and ``pack_padded_sequence``
lengths on an accelerator are fixed at the call (``lengths.cpu()``), not by moving the batch.

Real IPython shell with devicelens loaded; the printed text is compared line for line.
"""

from __future__ import annotations

import re

import pytest

from devicelens import DeviceMismatchError
from tests.test_guard_messages import IMPORTS, _apply, _edits, _run

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")
ANSI = re.compile(r"\x1b\[[0-9;]*m")

SEQ2SEQ = IMPORTS + '''
class EncoderRNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(4, 6)

    def init_hidden(self, batch):
        return torch.zeros(1, batch, 6)

    def forward(self, x, h):
        return self.gru(x, h)

class Seq2Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = EncoderRNN()

    def forward(self, x):
        h = self.encoder.init_hidden(x.shape[1])
        return self.encoder(x, h)

model = Seq2Seq().to("meta")
seq = torch.randn(5, 2, 4, device="meta")
'''
CELL = "out, h = model(seq)\n"
# NB: the cell's number depends on the shell's history; the line is the cell's own
OWNED = r"  edit: in `model\.encoder` \(EncoderRNN\.init_hidden, cell In\[\d+\] line 11\)"
EDIT = ["      - return torch.zeros(1, batch, 6)",
        "      + return torch.zeros(1, batch, 6, device=next(self.parameters()).device)"]


def _diagnosis(out: str) -> list[str]:
    out = ANSI.sub("", out)
    assert "devicelens: " in out, out[-1500:]
    return out[out.index("devicelens: "):].splitlines()


def _edit_header(lines: list[str]) -> str:
    return next(ln for ln in lines if ln.startswith("  edit: "))


def test_post_mortem_edit_names_the_submodule_whose_method_it_is(ip, capsys) -> None:
    assert _run(ip, SEQ2SEQ, None) is None
    capsys.readouterr()
    assert _run(ip, CELL, None) is not None
    lines = _diagnosis("".join(capsys.readouterr()))
    i = lines.index(_edit_header(lines))
    assert re.fullmatch(OWNED, lines[i]), lines[i]
    assert lines[i + 1:i + 3] == EDIT
    # NB: the edit still applies to the code it quotes, and then the cell runs
    old, new = _edits("\n".join(lines))[0]
    assert _run(ip, _apply(SEQ2SEQ, old, new), None) is None
    assert _run(ip, CELL, None) is None


def test_cuda_safe_names_the_same_owner(ip) -> None:
    assert _run(ip, SEQ2SEQ, None) is None
    err = _run(ip, f"%%cuda_safe --no-preflight\n{CELL}", None)
    assert isinstance(err, DeviceMismatchError), repr(err)
    lines = str(err).splitlines()
    assert re.fullmatch(OWNED, _edit_header(lines)), str(err)


def test_an_edit_of_a_plain_function_names_no_owner(ip, capsys) -> None:
    setup = IMPORTS + ("def causal(q):\n"
                       "    mask = torch.ones(q.shape[0], q.shape[0]).tril()\n"
                       "    return q @ q.T * mask\n"
                       "q = torch.randn(3, 3, device='meta')\n")
    assert _run(ip, setup, None) is None
    capsys.readouterr()
    assert _run(ip, "s = causal(q)\n", None) is not None
    lines = _diagnosis("".join(capsys.readouterr()))
    assert re.fullmatch(r"  edit: cell In\[\d+\] line 5 \(in causal\)", _edit_header(lines))


PACKED = IMPORTS + '''
from torch.nn.utils.rnn import pack_padded_sequence

class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(40, 8)

    def forward(self, tokens, lengths):
        return pack_padded_sequence(self.embedding(tokens), lengths, batch_first=True)

encoder = Encoder()
'''
PACKED_CELL = "with torch.no_grad():\n    out = encoder(batch['tokens'], batch['lengths'])\n"


def test_lengths_on_the_gpu_are_passed_through_cpu_at_the_call(ip, fake_cuda) -> None:
    assert _run(ip, PACKED, None) is None
    fake_cuda.to(ip.user_ns["encoder"], "cuda:0")
    assert _run(ip, "batch = {'tokens': torch.randint(1, 40, (3, 7), device='cuda:0'), "
                    "'lengths': torch.tensor([7, 5, 2], device='cuda:0')}\n", fake_cuda) is None
    err = _run(ip, f"%%cuda_safe --no-preflight\n{PACKED_CELL}", fake_cuda)
    assert isinstance(err, DeviceMismatchError), repr(err)
    lines = str(err).splitlines()
    assert lines[0] == "pack_padded_sequence() needs lengths as a 1D int64 tensor on the cpu"
    assert lines[1].startswith("  culprit: batch['lengths'] (int64[3] on cuda:0)")
    assert "  fix:" not in lines  # NB: the batch stays on the GPU, as the user meant
    i = lines.index(_edit_header(lines))
    assert re.fullmatch(r"  edit: in `encoder` \(Encoder\.forward, cell In\[\d+\] line 13\)",
                        lines[i]), lines[i]
    assert lines[i + 1:] == [
        "      - return pack_padded_sequence(self.embedding(tokens), lengths, batch_first=True)",
        "      + return pack_padded_sequence(self.embedding(tokens), lengths.cpu(), "
        "batch_first=True)",
        # NB: fake tensors have no values to pack: the rehearsal says how far it could go
        "  not verified: the cell then needs tensor values that a simulated device does not "
        "have (aten._pack_padded_sequence.default)"]
    assert ("  note: pack_padded_sequence() takes lengths on the cpu whatever device the data "
            "is on: pass `lengths.cpu()` there and keep the batch where it is") in lines
    # NB: with the edit the guard lets the call through (fake tensors then cannot pack: their
    # values are unknown, so only the device check is what this can show)
    old, new = _edits(str(err))[0]
    assert _run(ip, _apply(PACKED, old, new), None) is None
    fake_cuda.to(ip.user_ns["encoder"], "cuda:0")
    after = _run(ip, f"%%cuda_safe --no-preflight\n{PACKED_CELL}", fake_cuda)
    assert not isinstance(after, DeviceMismatchError), str(after)
    assert "lengths" not in str(after), str(after)


def test_meta_lengths_get_no_impossible_cpu_edit(ip, capsys) -> None:
    assert _run(ip, PACKED + "encoder = encoder.to('meta')\n"
                "batch = {'tokens': torch.randint(1, 40, (3, 7), device='meta'), "
                "'lengths': torch.tensor([7, 5, 2], device='meta')}\n", None) is None
    capsys.readouterr()
    assert _run(ip, PACKED_CELL, None) is not None
    text = "\n".join(_diagnosis("".join(capsys.readouterr())))
    assert "lengths.cpu()" not in text, text  # NB: a meta tensor has no values to copy


HELPER = IMPORTS + '''
class MaskMaker:
    def make(self, x):
        return torch.ones(x.shape[0], 1)

class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.helper = MaskMaker()

    def forward(self, x):
        mask = self.helper.make(x)
        return self.fc(x) * mask

model = Model().to("meta")
x = torch.randn(3, 4, device="meta")
'''


def test_an_object_the_model_holds_is_named_when_its_method_made_the_tensor(ip, capsys) -> None:
    assert _run(ip, HELPER, None) is None
    capsys.readouterr()
    assert _run(ip, "y = model(x)\n", None) is not None
    lines = _diagnosis("".join(capsys.readouterr()))
    header = _edit_header(lines)
    assert re.fullmatch(r"  edit: in `model\.helper` \(MaskMaker\.make, cell In\[\d+\] line 7\)",
                        header), "\n".join(lines)
    i = lines.index(header)
    assert lines[i + 1:i + 3] == ["      - return torch.ones(x.shape[0], 1)",
                                  "      + return torch.ones(x.shape[0], 1, device=x.device)"]


def test_a_deep_model_a_plain_object_holds_is_named_to_its_last_part() -> None:
    """ComfyUI holds its models in a ``ModelPatcher`` (a plain object): BiRefNet's window
    attention is ``bg_removal_model.model.bb.layers[0].blocks[0].attn``, eight steps down, and
    an edit of its ``forward`` was put on the block above it (the search stopped six steps
    down). A module's registered parts cost the search no depth; a plain object's do."""
    from torch import nn

    from devicelens.guard.diagnosis._lookup import find

    class Patcher:
        def __init__(self, model: nn.Module) -> None:
            self.model = model

    attn = nn.Linear(2, 2)
    model = nn.Sequential(nn.Sequential(nn.ModuleDict({"blocks": nn.ModuleList([
        nn.ModuleDict({"attn": attn})])})))
    ns = {"patcher": Patcher(nn.ModuleDict({"bb": model}))}
    assert find(ns, {id(attn): attn}) == {id(attn): "patcher.model.bb[0][0].blocks[0].attn"}

    class Box:
        def __init__(self, inner: object) -> None:
            self.inner = inner

    deep: object = attn
    for _ in range(8):
        deep = Box(deep)
    assert find({"box": deep}, {id(attn): attn}) == {}
