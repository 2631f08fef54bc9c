"""The device the user's configuration names decides where a model a library placed elsewhere
goes (:mod:`devicelens.guard.diagnosis._declared`).

LeRobot's ``--policy.device=cpu`` with Accelerate putting the policy on its best device, and
rl_games' network on its default ``cuda:0`` beside an environment configured on ``cuda:1``:
the data is where the user said, the model is the stray. Without a configuration the model
still decides (the data moves to it).
"""

from __future__ import annotations

import re
from argparse import Namespace
from dataclasses import dataclass
from types import SimpleNamespace

import pytest
import torch

from devicelens.guard.diagnosis._declared import declared_device
from tests._traces import VERIFIED

pytestmark = pytest.mark.filterwarnings("ignore:PyTorch was compiled without cuDNN")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@dataclass
class TrainConfig:
    device: str = "cuda:1"


class Agent:
    def __init__(self) -> None:
        self.ppo_device = "cuda:0"  # NB: a library's default, not the user's configuration


def test_names_and_plain_configurations_declare_a_device_agents_do_not() -> None:
    assert declared_device({"device": torch.device("cuda")}) == "cuda:0"
    assert declared_device({"DEVICE": "cuda:1", "lr": 0.1}) == "cuda:1"
    assert declared_device({"cfg": {"rl_device": "cuda:1", "sim_device": "cuda:1"}}) == "cuda:1"
    assert declared_device({"cfg": SimpleNamespace(policy=SimpleNamespace(device="cpu"))}) \
        == "cpu"
    assert declared_device({"args": Namespace(device="mps")}) == "mps:0"
    assert declared_device({"config": TrainConfig()}) == "cuda:1"
    assert declared_device({"agent": Agent()}) is None
    assert declared_device({"device": "cuda:0", "cfg": {"device": "cuda:1"}}) is None  # two
    assert declared_device({"device": "the gpu", "_device": "cuda:1"}) is None
    assert declared_device({"device_ids": [0, 1], "devices": 2}) is None
    assert declared_device({"args": SimpleNamespace(cuda=0, style_size=32)}) == "cpu"
    assert declared_device({"use_cuda": False}) == "cpu"
    assert declared_device({"cfg": {"no_cuda": True}}) == "cpu"
    assert declared_device({"args": Namespace(cuda=1)}) is None  # NB: only the off side
    assert declared_device({"args": Namespace(gpu=0)}) is None  # NB: an index as often
    # NB: a long session: IPython's ``_iN`` names before the user's are not counted
    session = {f"_i{i}": "x = 1" for i in range(500)} | {"device": "cuda:1"}
    assert declared_device(session) == "cuda:1"


SETUP = """
import torch
from torch import nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(4, 3)
    def forward(self, x):
        return self.body(x)
"""


def failing_fix(ip, capsys, fake_cuda, config: bool) -> str:
    assert ip.run_cell(SETUP, store_history=False).error_in_exec is None
    with fake_cuda:
        made = ip.run_cell("with torch.no_grad():\n    policy = Net().to('cuda:0')\n"
                           "obs = torch.randn(2, 4, device='cuda:1')\n", store_history=False)
    assert made.error_in_exec is None
    if config:
        ip.user_ns["cfg"] = {"rl_device": "cuda:1"}
    capsys.readouterr()
    with fake_cuda:
        err = ip.run_cell("with torch.no_grad():\n    act = policy(obs)\n",
                          store_history=False).error_in_exec
    assert err is not None
    out = ANSI.sub("", capsys.readouterr().out)
    return out[out.index("devicelens: "):]


def test_a_model_off_the_configured_device_is_moved_to_it(ip, capsys, fake_cuda) -> None:
    text = failing_fix(ip, capsys, fake_cuda, config=True)
    assert "expected cuda:1" in text and "culprit: policy" in text
    assert 'policy.to("cuda:1")' in text and VERIFIED in text
    assert "obs = obs.to(" not in text


def test_without_a_configuration_the_model_decides(ip, capsys, fake_cuda) -> None:
    text = failing_fix(ip, capsys, fake_cuda, config=False)
    assert "expected cuda:0" in text and "culprit: obs" in text


def test_a_model_kept_on_the_cpu_as_configured_keeps_the_data_there(ip, capsys, fake_cuda):
    """MSG-Net with ``--cuda 0``: the net stays on the cpu, and a style loader that sends its
    images to the GPU by default made the stray: the image goes back, the net stays. Without
    the flag, a model left on the cpu while the data was moved is the one to move."""
    assert ip.run_cell(SETUP, store_history=False).error_in_exec is None
    with fake_cuda:
        made = ip.run_cell("net = Net()\nstyle_v = torch.randn(2, 4, device='cuda:0')\n",
                           store_history=False)
    assert made.error_in_exec is None

    def failing() -> str:
        capsys.readouterr()
        with fake_cuda:
            err = ip.run_cell("with torch.no_grad():\n    y = net(style_v)\n",
                              store_history=False).error_in_exec
        assert err is not None
        out = ANSI.sub("", capsys.readouterr().out)
        return out[out.index("devicelens: "):]

    text = failing()
    assert "expected cuda:0" in text and 'net.to("cuda:0")' in text
    ip.user_ns["args"] = SimpleNamespace(cuda=0)
    text = failing()
    assert "culprit: style_v (float32[2, 4] on cuda:0)" in text and "expected cpu" in text, text
    assert "net.to(" not in text and VERIFIED in text
