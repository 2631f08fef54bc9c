"""Float64 from NumPy meeting float32 weights: the fix goes where the dtype is made.

NumPy's floats are float64 and torch's default is float32, so the commonest dtype failure is an
array cast (``astype(float)``) or a tensor made from one, far from the op that fails. The trail
follows the value back through a list filled in a loop and a helper that has returned, and the
edit changes the cast (``astype("float32")``) or converts where the data is made, against the
model the function was handed. Post-mortem diagnoses of real failing cells."""

from __future__ import annotations

import re

import torch

from tests._traces import VERIFIED

ANSI = re.compile(r"\x1b\[[0-9;]*m")

DETECTOR = """
import numpy as np
import torch
from torch import nn

def to_tensor(image):
    image = image.astype(np.float64)
    return torch.from_numpy(image.transpose((2, 0, 1))) / 255

class Detector:
    def __init__(self, net):
        self.net = net
    def detect(self, images):
        batch = []
        for im in images:
            chw = to_tensor(im)
            batch.append(chw)
        batch = torch.stack(batch)
        return self.net(batch)

net = nn.Sequential(nn.Conv2d(3, 4, 3), nn.ReLU())
detector = Detector(net)
frames = [(np.random.rand(8, 8, 3) * 255).astype(np.uint8) for _ in range(2)]
"""

POSE = """
import numpy as np
import torch

def reference_mesh():
    return torch.from_numpy(np.random.default_rng(1).normal(size=(6, 3)).astype(np.float32))

def read_landmarks(table):
    return torch.tensor(table.astype(float)).reshape(-1, 6, 3)

def align(src, dst):
    return src.transpose(-2, -1) @ dst

def pose(landmarks):
    ref = reference_mesh().unsqueeze(0).expand(landmarks.shape[0], -1, -1)
    return align(ref, landmarks)

table = np.random.default_rng(0).normal(size=(2, 18)).astype(np.float32)
"""

TILES = """
import numpy as np
import torch
from torch import nn

def segment(cnn, volume, size):
    out = []
    for start in range(0, volume.shape[0] - size + 1, size):
        tiles = np.array([volume[start:start + size] / volume.max()])
        x = torch.from_numpy(tiles)
        out.append(cnn(x))
    return out

cnn = nn.Sequential(nn.Conv2d(4, 2, 3))
volume = np.random.default_rng(0).integers(0, 4000, (8, 6, 6)).astype(np.uint16)
"""

REPLAY = """
import random
import numpy as np
import torch
from torch import nn

class Replay:
    def __init__(self):
        self.items = []
    def sample(self, n):
        batch = random.sample(self.items, n)
        s_lst = [s for s, _a in batch]
        a_lst = [[a] for _s, a in batch]
        return torch.tensor(np.array(s_lst), dtype=torch.float), torch.tensor(a_lst)

class Critic(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc_s, self.fc_a = nn.Linear(3, 4), nn.Linear(1, 4)
    def forward(self, s, a):
        return self.fc_s(s) + self.fc_a(a)

def train(q, memory):
    s, a = memory.sample(4)
    return q(s, a)

memory = Replay()
rng = np.random.default_rng(0)
memory.items = [(rng.normal(size=3), rng.normal(size=1)[0]) for _ in range(8)]  # NB: NumPy float64
q = Critic()
"""

MELS = """
import numpy as np
import torch
from torch import nn

def np2pt(x):
    return torch.from_numpy(x).unsqueeze(0)

class Inferencer:
    def __init__(self):
        self.model = nn.Conv1d(4, 2, 3)
    def load_mel(self, n):
        return np.random.default_rng(0).normal(size=(4, n))
    def infer(self, n):
        mel = self.load_mel(n)
        mel = np2pt(mel)
        return self.model(mel)

inferencer = Inferencer()
"""


def run(ip, cell: str):
    return ip.run_cell(cell, store_history=False).error_in_exec


def diagnosis(capsys) -> str:
    out = ANSI.sub("", capsys.readouterr().out)
    assert "devicelens: " in out, out[-2000:]
    return out[out.index("devicelens: "):]


def test_the_numpy_cast_of_a_returned_helper_is_edited_through_a_stacked_list(ip, capsys):
    """dface's detector: the images stacked into the batch were appended in a loop from a
    helper that casts them to float64 and has returned before the conv fails. The helper is
    named (the user holds it), and its cast is what changes."""
    assert run(ip, DETECTOR) is None
    capsys.readouterr()
    assert run(ip, "with torch.no_grad():\n    out = detector.detect(frames)\n") is not None
    text = diagnosis(capsys)
    assert "culprit: to_tensor (a function: the line to edit is in it); expected float32" in text
    assert '+ image = image.astype("float32")' in text
    assert VERIFIED in text
    # NB: the rehearsal ran on a copy: the user's helper is as it was
    assert ip.user_ns["to_tensor"](ip.user_ns["frames"][0]).dtype == torch.float64


def test_two_sides_made_by_code_keep_the_default_dtype(ip, capsys):
    """py-feat's head pose: a float32 reference mesh (cast so on purpose) against landmarks
    that ``astype(float)`` made float64. Both are made by code, so the data does not win: the
    landmarks' cast is the fix, not a float64 mesh."""
    assert run(ip, POSE) is None
    capsys.readouterr()
    assert run(ip, "lm = read_landmarks(table)\nr = pose(lm)\n") is not None
    text = diagnosis(capsys)
    assert "culprit: read_landmarks (a function: the line to edit is in it); expected float32" \
        in text
    assert '+ return torch.tensor(table.astype("float32")).reshape(-1, 6, 3)' in text
    assert "astype(\"float64\")" not in text
    assert VERIFIED in text


def test_data_made_in_a_function_takes_the_dtype_of_the_model_it_was_handed(ip, capsys):
    """RootPainter3D's tiles: NumPy's division makes float64 tiles inside a function that was
    handed the float32 network; they take the network's dtype where they are made."""
    assert run(ip, TILES) is None
    capsys.readouterr()
    assert run(ip, "with torch.no_grad():\n    seg = segment(cnn, volume, 4)\n") is not None
    text = diagnosis(capsys)
    assert "culprit: segment (a function: the line to edit is in it); expected float32" in text
    assert "+ x = torch.from_numpy(tiles).to(next(cnn.parameters()).dtype)" in text
    assert VERIFIED in text


def test_a_maker_with_no_tensor_at_hand_takes_the_dtype_it_spells_for_its_siblings(ip, capsys):
    """Hands-On RL's DDPG buffer: ``torch.tensor(a_lst)`` of NumPy float64 actions beside
    ``torch.tensor(s_lst, dtype=torch.float)``. The buffer's own spelling is the fix, in the
    buffer (the object the user holds), not a cast where the batch is unpacked."""
    assert run(ip, REPLAY) is None
    capsys.readouterr()
    assert run(ip, "with torch.no_grad():\n    v = train(q, memory)\n") is not None
    text = diagnosis(capsys)
    assert "culprit: memory (its Replay.sample has the line to edit); expected float32" in text
    assert ("+ return torch.tensor(np.array(s_lst), dtype=torch.float), "
            "torch.tensor(a_lst, dtype=torch.float)") in text
    assert VERIFIED in text


def test_a_name_rebound_after_the_line_that_made_it_is_not_converted_there(ip, capsys):
    """again-VC's inference: ``mel`` is a NumPy array where it is loaded and a tensor one line
    later; what the frame holds now is the tensor, so the conversion goes where the tensor is
    made (the array has no ``.to``)."""
    assert run(ip, MELS) is None
    capsys.readouterr()
    assert run(ip, "with torch.no_grad():\n    out = inferencer.infer(8)\n") is not None
    text = diagnosis(capsys)
    assert "+ mel = np2pt(mel).to(next(self.model.parameters()).dtype)" in text
    assert "self.load_mel(n).to(" not in text
    assert VERIFIED in text
