"""A stray made by the user's code is named by the user's handle on that code, and labels from
NumPy with the wrong dtype are named (and fixed) as the array the user holds.

Real IPython shell with devicelens loaded; ``meta`` is the second device. Each case asserts the
culprit lines exactly, then applies the printed fix and re-runs the cell.
"""

from __future__ import annotations

import re

import pytest

from devicelens import DeviceMismatchError
from tests.test_guard_messages import IMPORTS, _apply, _edits, _fix_code, _run

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")
ANSI = re.compile(r"\x1b\[[0-9;]*m")

TRANSFORM = IMPORTS + '''
from torch.distributions import Uniform

class BandPass:
    def __init__(self):
        self.params = {}

    def randomize(self, samples):
        self.params["center"] = torch.rand(samples.shape[0], device=samples.device)
        width = Uniform(low=torch.tensor(0.5), high=torch.tensor(2.0), validate_args=False)
        self.params["width"] = width.sample((samples.shape[0],)) * self.params["center"]

transform = BandPass()
audio = torch.randn(4, 100, device="meta")
'''

HELPERS = IMPORTS + '''
def noise(shape):
    return torch.rand(shape)

def sample(logits):
    return logits + noise(logits.shape)

def soft_sample(logits, tau=1.0):
    return torch.softmax(sample(logits) / tau, dim=-1)

logits = torch.randn(4, 5, device="meta")
'''

NUMPY_LABELS = IMPORTS + '''
import numpy as np

def fit(module, X, y, batch_size=8):
    loss_fn = nn.BCEWithLogitsLoss()
    for i in range(0, len(X), batch_size):
        xb, yb = torch.as_tensor(X[i:i + batch_size]), torch.as_tensor(y[i:i + batch_size])
        loss = loss_fn(module(xb).squeeze(-1), yb)
    return loss

net = nn.Linear(3, 1)
X_np = np.random.default_rng(0).normal(size=(16, 3)).astype(np.float32)
y_np = (X_np[:, 0] > 0).astype(np.int64)
'''


def _diagnosis(text: str) -> list[str]:
    text = ANSI.sub("", text)
    start = text.index("devicelens: ") if "devicelens: " in text else 0
    return text[start:].splitlines()


def _culprits(lines: list[str]) -> list[str]:
    return [ln for ln in lines if ln.startswith("  culprit: ")]


def _post_mortem(ip, capsys, setup: str, cell: str) -> list[str]:
    assert _run(ip, setup, None) is None
    capsys.readouterr()
    assert _run(ip, cell, None) is not None
    return _diagnosis("".join(capsys.readouterr()))


def test_a_method_that_makes_the_stray_is_named_by_its_object(ip, capsys) -> None:
    lines = _post_mortem(ip, capsys, TRANSFORM, "transform.randomize(audio)\n")
    assert _culprits(lines) == [
        "  culprit: transform (its BandPass.randomize has the line to edit); expected meta"], lines
    old, new = _edits("\n".join(lines))[0]
    assert _run(ip, _apply(TRANSFORM, old, new), None) is None
    assert _run(ip, "transform.randomize(audio)\n", None) is None


def test_cuda_safe_names_the_same_object(ip) -> None:
    assert _run(ip, TRANSFORM, None) is None
    err = _run(ip, "%%cuda_safe --no-preflight\ntransform.randomize(audio)\n", None)
    assert isinstance(err, DeviceMismatchError), repr(err)
    # NB: the op's own unnamed operand may follow: what the user holds comes first
    assert _culprits(str(err).splitlines())[0] == (
        "  culprit: transform (its BandPass.randomize has the line to edit); expected meta"), err


def test_a_helper_chain_is_named_by_the_function_the_cell_called(ip, capsys) -> None:
    lines = _post_mortem(ip, capsys, HELPERS, "probs = soft_sample(logits)\n")
    culprits = _culprits(lines)
    assert culprits[0] == ("  culprit: soft_sample (a function: it runs the line to edit, in "
                           "sample); expected meta"), lines
    # NB: the function whose line made the stray is the same stray: not a second culprit
    assert not any(ln.startswith("  culprit: sample ") for ln in culprits), culprits
    old, new = _edits("\n".join(lines))[0]
    assert _run(ip, _apply(HELPERS, old, new), None) is None
    assert _run(ip, "probs = soft_sample(logits)\n", None) is None


def test_a_culprit_the_namespace_holds_gets_no_handle(ip, capsys) -> None:
    setup = IMPORTS + "model = nn.Linear(3, 2).to('meta')\nx = torch.randn(4, 3)\n"
    lines = _post_mortem(ip, capsys, setup, "out = model(x)\n")
    assert [ln.split(" (")[0] for ln in _culprits(lines)] == ["  culprit: x"]


def test_numpy_labels_with_the_wrong_dtype_are_the_culprit_and_their_fix(ip, capsys) -> None:
    cell = "loss = fit(net, X_np, y_np)\n"
    lines = _post_mortem(ip, capsys, NUMPY_LABELS, cell)
    assert _culprits(lines) == [
        "  culprit: y_np (NumPy int64[16]), `target` in binary_cross_entropy_with_logits; "
        "expected float32"], lines
    fix = _fix_code("\n".join(lines))
    assert fix == "y_np = y_np.astype('float32')"
    assert _run(ip, fix, None) is None
    assert _run(ip, cell, None) is None
    assert str(ip.user_ns["y_np"].dtype) == "float32"


def test_numpy_data_is_never_blamed_for_a_device(ip, capsys) -> None:
    setup = NUMPY_LABELS.replace("net = nn.Linear(3, 1)", "net = nn.Linear(3, 1).to('meta')")
    lines = _post_mortem(ip, capsys, setup, "loss = fit(net, X_np, y_np)\n")
    assert lines[0].startswith("devicelens: tensors on different devices"), lines
    assert not any("X_np" in ln or "y_np" in ln for ln in _culprits(lines)), lines
