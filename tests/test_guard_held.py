"""A structured input object (a plain class, a dataclass, a UserDict) passed whole to a model
with several tensors left on the cpu: every one is a culprit, and one printed fix lets the cell
run: the object's own ``to`` when its source visibly moves them all in place, else one line per
tensor.
"""

from __future__ import annotations

import re

import pytest

from devicelens.guard import DeviceMismatchError
from tests.test_guard_messages import IMPORTS, _fix_code, _run

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")
ANSI = re.compile(r"\x1b\[[0-9;]*m")

MODEL = (
    "from collections import UserDict\n"
    "class Enc(UserDict):\n"
    "    def to(self, device):\n"
    "        self.data = {k: v.to(device) for k, v in self.data.items()}\n"
    "        return self\n"
    "class Net(nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.emb = nn.Embedding(10, 4)\n"
    "    def forward(self, inp):\n"
    "        h = self.emb(inp.enc['ids'])\n"
    "        return torch.bmm(inp.mask.float(), h)\n"
    "model = Net().to('cuda:0')\n"
)
INPUT = (
    "class Inp:\n"
    "    def __init__(self, enc, mask):\n"
    "        self.enc = enc\n"
    "        self.mask = mask\n"
    "{to}"
    "inp = Inp(Enc({{'ids': torch.randint(0, 10, (2, 5))}}), torch.ones(2, 3, 5))\n"
)
MOVES = ("    def to(self, device):\n        self.enc.to(device)\n"
         "        self.mask = self.mask.to(device)\n")
FORGETS_MASK = "    def to(self, device):\n        self.enc.to(device)\n"
CELL = "with torch.no_grad():\n    out = model(inp)\n"  # NB: autograd on fake cuda aborts
CULPRITS = ["inp.enc['ids'] (int64[2, 5] on cpu)", "inp.mask (float32[2, 3, 5] on cpu)"]


def _post_mortem(ip, capsys, fake_cuda, to: str, cell: str = CELL) -> str:
    assert _run(ip, IMPORTS + MODEL + INPUT.format(to=to), fake_cuda) is None
    capsys.readouterr()
    assert _run(ip, cell, fake_cuda) is not None
    out = ANSI.sub("", "".join(capsys.readouterr()))
    return out[out.index("devicelens: "):]


def _culprits(text: str) -> list[str]:
    return re.findall(r"^  culprit: (.+? \([^)]*\))", text, re.M)


def test_the_object_s_own_to_moves_every_stray(ip, capsys, fake_cuda) -> None:
    text = _post_mortem(ip, capsys, fake_cuda, MOVES)
    assert _culprits(text) == CULPRITS, text
    assert _fix_code(text) == 'inp.to("cuda:0")', text
    assert _run(ip, _fix_code(text), fake_cuda) is None
    assert _run(ip, CELL, fake_cuda) is None


@pytest.mark.parametrize("to", ["", FORGETS_MASK], ids=["no_to", "to_forgets_one"])
def test_one_line_per_tensor_when_its_to_does_not_visibly_move_them(
        ip, capsys, fake_cuda, to: str) -> None:
    text = _post_mortem(ip, capsys, fake_cuda, to)
    assert _culprits(text) == CULPRITS, text
    assert _fix_code(text).splitlines() == [
        "inp.enc['ids'] = inp.enc['ids'].to(\"cuda:0\")",
        'inp.mask = inp.mask.to("cuda:0")'], text
    assert _run(ip, _fix_code(text), fake_cuda) is None
    assert _run(ip, CELL, fake_cuda) is None


def test_a_part_passed_alone_blames_only_that_part(ip, capsys, fake_cuda) -> None:
    text = _post_mortem(ip, capsys, fake_cuda, MOVES,
                         "with torch.no_grad():\n    h = model.emb(inp.enc['ids'])\n")
    assert _culprits(text) == CULPRITS[:1], text


def test_cuda_safe_names_every_stray_and_the_same_fix(ip, fake_cuda) -> None:
    assert _run(ip, IMPORTS + MODEL + INPUT.format(to=MOVES), fake_cuda) is None
    err = _run(ip, f"%%cuda_safe --no-preflight\n{CELL}", fake_cuda)
    assert isinstance(err, DeviceMismatchError), repr(err)
    assert [o.named.name for o in err.report.culprits] == ["inp.enc['ids']", "inp.mask"]
    assert err.report.fixes == ('inp.to("cuda:0")',)
