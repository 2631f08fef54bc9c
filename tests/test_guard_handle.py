"""A culprit in the user's own names, and a fix where it lasts: a stray made by their code is
named by their handle on it (the object or the function the cell called); data with the wrong
dtype is named where it comes from (NumPy arrays, a DataLoader's dataset, the tensor a cell slices
again), a tuple's items are fixed by making the tuple again, and data that already is what the op
wants is never blamed.

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


def test_a_torch_call_the_method_makes_is_no_handle_of_the_user_s(ip, capsys) -> None:
    """``torch.hann_window(n)`` as a culprit's name starts with ``torch``, which the namespace
    holds: it is made anew each time the line runs, and what the user holds is the object whose
    method makes it."""
    setup = IMPORTS + '''
class Prep(nn.Module):
    def forward(self, x):
        return F.layer_norm(x, (x.shape[-1],), weight=torch.hann_window(x.shape[-1]))

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.prep = Prep()

    def forward(self, x):
        return self.prep(x)

net = Net()
wave = torch.randn(2, 16, device="meta")
'''
    lines = _post_mortem(ip, capsys, setup, "out = net(wave)\n")
    assert _culprits(lines)[0] == (
        "  culprit: net.prep (its Prep.forward has the line to edit); expected meta"), lines
    old, new = _edits("\n".join(lines))[0]
    assert _run(ip, _apply(setup, old, new), None) is None
    assert _run(ip, "out = net(wave)\n", None) is None


def test_a_helper_chain_is_named_by_the_function_with_the_line_to_edit_then_the_called_one(
        ip, capsys) -> None:
    """The cell called ``soft_sample``; the line to edit is in ``sample``, which the user holds
    by that name: the function with the bug first, then the one the cell called."""
    lines = _post_mortem(ip, capsys, HELPERS, "probs = soft_sample(logits)\n")
    assert _culprits(lines)[:2] == [
        "  culprit: sample (a function: the line to edit is in it); expected meta",
        "  culprit: soft_sample (a function: it runs the line to edit, in sample); expected meta",
    ], lines
    old, new = _edits("\n".join(lines))[0]
    assert _run(ip, _apply(HELPERS, old, new), None) is None
    assert _run(ip, "probs = soft_sample(logits)\n", None) is None


def test_a_function_an_object_s_method_runs_is_named_itself(ip, capsys) -> None:
    """advertorch's ``rand_init_delta``: a plain function the user holds, run by a method of
    ``adversary``. The bug is in the function, named first; the object after it is how the
    cell reached it."""
    setup = IMPORTS + '''
def rand_init(delta):
    return delta + torch.rand(delta.shape)

class Attack:
    def perturb(self, x):
        delta = torch.zeros_like(x)
        return x + rand_init(delta)

adversary = Attack()
x = torch.randn(4, 3, device="meta")
'''
    lines = _post_mortem(ip, capsys, setup, "adv = adversary.perturb(x)\n")
    assert _culprits(lines)[:2] == [
        "  culprit: rand_init (a function: the line to edit is in it); expected meta",
        "  culprit: adversary (its Attack.perturb runs the line to edit, in rand_init); "
        "expected meta"], lines
    old, new = _edits("\n".join(lines))[0]
    assert _run(ip, _apply(setup, old, new), None) is None
    assert _run(ip, "adv = adversary.perturb(x)\n", None) is None


def test_a_decorated_function_with_the_line_to_edit_is_named_too(ip, capsys) -> None:
    """coqui's Bark: ``generate_text_semantic`` is a ``@torch.inference_mode()`` function, which
    the namespace holds as torch's wrapper; the function under it has the line."""
    setup = IMPORTS + '''
@torch.no_grad()
def pad_history(x):
    return torch.cat([torch.full((4,), 7.0), x])

class Voice:
    def generate(self, x):
        return pad_history(x)

voice = Voice()
x = torch.randn(3, device="meta")
'''
    lines = _post_mortem(ip, capsys, setup, "out = voice.generate(x)\n")
    assert _culprits(lines)[:2] == [
        "  culprit: pad_history (a function: the line to edit is in it); expected meta",
        "  culprit: voice (its Voice.generate runs the line to edit, in pad_history); "
        "expected meta"], lines


def test_a_function_s_inner_function_with_the_line_to_edit_is_named_by_the_outer(
        ip, capsys) -> None:
    """SAELens's ``get_recons_loss`` defines the hook that has the line to edit, and a hook
    point of the model runs it; the user holds the function that defines it, never the hook."""
    setup = IMPORTS + '''
class HookPoint:
    def run_with(self, hook, v):
        return hook(v)

hook_point = HookPoint()

def evaluate(x):
    def shift(v):
        return v + torch.ones(3)
    return hook_point.run_with(shift, x * 2)

x = torch.randn(3, device="meta")
'''
    lines = _post_mortem(ip, capsys, setup, "out = evaluate(x)\n")
    assert _culprits(lines)[:2] == [
        "  culprit: evaluate (a function: the line to edit is in it); expected meta",
        "  culprit: hook_point (its HookPoint.run_with runs the line to edit, in "
        "evaluate.<locals>.shift); expected meta"], lines


def test_a_private_helper_with_the_line_to_edit_is_named_too(ip, capsys) -> None:
    """torchvision's ``flow_to_image`` calls ``_normalized_flow_to_image``, whose colour wheel
    is made on the cpu: a leading underscore is a helper's name the user holds, not IPython's
    output cache (``_``), which may hold the same function and is never named."""
    setup = IMPORTS + '''
def _colour(flow):
    return flow * torch.ones(3)

def flow_to_image(flow):
    return _colour(flow)

flow = torch.randn(3, device="meta")
'''
    assert _run(ip, setup, None) is None
    ip.user_ns["_"] = ip.user_ns["_2"] = ip.user_ns["_colour"]  # NB: shown, so cached too
    lines = _post_mortem(ip, capsys, "", "img = flow_to_image(flow)\n")
    assert _culprits(lines)[:2] == [
        "  culprit: _colour (a function: the line to edit is in it); expected meta",
        "  culprit: flow_to_image (a function: it runs the line to edit, in _colour); "
        "expected meta"], lines


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


LOADER = IMPORTS + '''
import numpy as np
from torch.utils.data import DataLoader, Dataset

class Labelled(Dataset):
    def __init__(self, x, y):
        self.x_data, self.y_data = x, y

    def __getitem__(self, i):
        return self.x_data[i], self.y_data[i]

    def __len__(self):
        return len(self.x_data)

x_np = np.random.default_rng(0).normal(size=(12, 3)).astype(np.float32)
y_np = np.array([0, 1, 2] * 4, dtype=np.int32)
dataset = Labelled(x_np, y_np)
loader = DataLoader(dataset, batch_size=4)
clf = nn.Linear(3, 3)
criterion = nn.CrossEntropyLoss()
'''
LOADER_CELL = '''
for xb, yb in loader:
    loss = criterion(clf(xb), yb)
'''


def test_a_batch_from_a_loader_is_named_by_the_dataset_field_it_was_collated_from(
        ip, capsys) -> None:
    lines = _post_mortem(ip, capsys, LOADER, LOADER_CELL)
    assert [ln.split(" (")[0] for ln in _culprits(lines)] == ["  culprit: dataset.y_data"], lines
    fix = _fix_code("\n".join(lines))
    # NB: through the dataset: rebinding `y_np` would leave the dataset reading the old array
    assert fix == "dataset.y_data = dataset.y_data.astype('int64')"
    assert _run(ip, fix, None) is None
    assert _run(ip, LOADER_CELL, None) is None


def test_a_name_the_cell_slices_again_is_fixed_at_its_source(ip, capsys) -> None:
    setup = IMPORTS + ("clf = nn.Linear(3, 2)\nX_all = torch.randn(8, 3, dtype=torch.float64)\n")
    cell = "for i in range(0, 8, 4):\n    xb = X_all[i:i + 4]\n    out = clf(xb)\n"
    lines = _post_mortem(ip, capsys, setup, cell)
    assert [ln.split(" (")[0] for ln in _culprits(lines)] == ["  culprit: X_all"], lines
    assert _fix_code("\n".join(lines)) == "X_all = X_all.float()"
    assert _run(ip, "X_all = X_all.float()", None) is None
    assert _run(ip, cell, None) is None


def test_a_tuple_item_is_named_as_the_cell_reads_it_and_the_tuple_is_made_again(
        ip, capsys) -> None:
    setup = IMPORTS + '''
class TwoTower(nn.Module):
    def __init__(self):
        super().__init__()
        self.a, self.b = nn.Linear(4, 2), nn.Linear(3, 2)

    def forward(self, features):
        x, y = features
        return self.a(x) + self.b(y)

model = TwoTower().to("meta")
raw = {"features": (torch.randn(5, 4), torch.randn(5, 3))}
batch = {k: v.to("meta") if torch.is_tensor(v) else v for k, v in raw.items()}
'''
    cell = 'out = model(batch["features"])\n'
    lines = _post_mortem(ip, capsys, setup, cell)
    # NB: `raw` holds the very same tuple; the cell reads it as `batch`
    assert [ln.split(" (")[0] for ln in _culprits(lines)] == [
        "  culprit: batch['features'][0]", "  culprit: batch['features'][1]"], lines
    fix = _fix_code("\n".join(lines))
    assert fix == """batch['features'] = tuple(t.to("meta") for t in batch['features'])"""
    assert _run(ip, fix, None) is None
    assert _run(ip, cell, None) is None
    assert ip.user_ns["raw"]["features"][0].device.type == "cpu"


def test_data_that_already_is_what_the_op_wants_is_not_blamed(ip, capsys) -> None:
    setup = IMPORTS + '''
class Task:
    def __init__(self):
        self.model, self.criterion = nn.Linear(3, 4), nn.CrossEntropyLoss()

    def step(self, batch):
        out = self.model(batch["x"])
        return self.criterion(out, batch["y"].to(torch.float32))

task = Task()
batch = {"x": torch.randn(5, 3), "y": torch.randint(0, 4, (5,))}
'''
    lines = _post_mortem(ip, capsys, setup, "loss = task.step(batch)\n")
    # NB: batch['y'] is int64, what cross_entropy wants: the cast in Task.step is the bug
    assert [ln.split(" (")[0] for ln in _culprits(lines)] == ["  culprit: task"], lines
    old, new = _edits("\n".join(lines))[0]
    assert _run(ip, _apply(setup, old, new), None) is None
    assert _run(ip, "loss = task.step(batch)\n", None) is None


BASELINE = IMPORTS + '''
class Actor:
    def __init__(self):
        self.alpha = 0.9
        self.avg_baseline = torch.tensor([-1.0])

    def update(self, reward):
        self.avg_baseline = self.alpha * self.avg_baseline + (1.0 - self.alpha) * reward.mean()

actor = Actor()
reward = torch.randn(8, device="meta")
'''


def test_cuda_safe_names_the_operand_behind_a_temporary_as_the_post_mortem_does(ip) -> None:
    assert _run(ip, BASELINE, None) is None
    err = _run(ip, "%%cuda_safe --no-preflight\nactor.update(reward)\n", None)
    assert isinstance(err, DeviceMismatchError), repr(err)
    # NB: the op saw `self.alpha * self.avg_baseline`, a temporary; the user holds the tensor
    assert _culprits(str(err).splitlines()) == [
        "  culprit: actor.avg_baseline (float32[1] on cpu); expected meta"], str(err)
    fix = _fix_code(str(err))
    assert fix == 'actor.avg_baseline = actor.avg_baseline.to("meta")'
    assert _run(ip, fix, None) is None
    assert _run(ip, "actor.update(reward)\n", None) is None


def test_cuda_safe_names_the_statement_s_other_stray_too(ip) -> None:
    setup = IMPORTS + '''
class TwoTower(nn.Module):
    def __init__(self):
        super().__init__()
        self.a, self.b = nn.Linear(4, 2), nn.Linear(3, 2)

    def forward(self, x, y):
        return self.a(x) + self.b(y)

model = TwoTower().to("meta")
xs, ys = torch.randn(5, 4), torch.randn(5, 3)
'''
    assert _run(ip, setup, None) is None
    err = _run(ip, "%%cuda_safe --no-preflight\nout = model(xs, ys)\n", None)
    assert isinstance(err, DeviceMismatchError), repr(err)
    # NB: the op that failed saw `xs` only; `ys` fails next on the same statement
    assert [ln.split(" (")[0] for ln in _culprits(str(err).splitlines())] == [
        "  culprit: xs", "  culprit: ys"], str(err)


def test_cuda_safe_names_a_function_s_locals_behind_a_temporary_as_the_post_mortem_does(
        ip) -> None:
    setup = IMPORTS + '''
def zeros_state(x, size):
    return torch.zeros(1, x.size(0), size)

class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(7, 2)

    def forward(self, x):
        h = zeros_state(x, 3)
        c = zeros_state(x, 2)
        z = torch.cat((h.permute(1, 0, 2).squeeze(1), c.permute(1, 0, 2).squeeze(1),
                       x[:, :2]), dim=1)
        return self.lin(z)

tagger = Tagger().to("meta")
xb = torch.randn(4, 5, device="meta")
'''
    assert _run(ip, setup, None) is None
    err = _run(ip, "%%cuda_safe --no-preflight\nout = tagger(xb)\n", None)
    assert isinstance(err, DeviceMismatchError), repr(err)
    # NB: the op saw `h.permute(...).squeeze(1)`, a temporary; the user's code calls it `h`;
    # the helper that made both has returned, and the user holds it by its own name
    assert [ln.split(" (")[0] for ln in _culprits(str(err).splitlines())] == [
        "  culprit: zeros_state", "  culprit: `h` in Tagger.forward",
        "  culprit: `c` in Tagger.forward"], str(err)
    assert "+ return torch.zeros(1, x.size(0), size, device=x.device)" in str(err)


AGENT = IMPORTS + '''
class Agent:  # RLHive's DQN agent: the Q-network and its optimizer as private attributes
    def __init__(self, device):
        self._device = torch.device(device)
        self._qnet = nn.Sequential(nn.Linear(16, 8), nn.ReLU(), nn.Linear(8, 4))
        self._optimizer = torch.optim.Adam(self._qnet.parameters(), lr=1e-3)

    @torch.no_grad()
    def act(self, observation):
        return self._qnet(torch.as_tensor(observation, device=self._device)).argmax()

agent = Agent("meta")
observation = [0.5] * 16
'''


def test_a_model_a_plain_object_holds_beside_its_optimizer_is_named_by_its_own_path(
        ip, capsys) -> None:
    """The Q-network was never moved to the agent's device. The snapshot sees its weights
    only through ``agent._optimizer`` (the agent reads as a wrapped optimizer), but the fix is
    the model's: named and moved by its own path, not passed through the optimizer's groups."""
    lines = _post_mortem(ip, capsys, AGENT, "action = agent.act(observation)\n")
    text = "\n".join(lines)
    assert _culprits(lines)[0].startswith("  culprit: agent._qnet[0].weight (float32[8, 16] on "
                                          "cpu)"), text
    assert "param_groups" not in text and "agent._optimizer" not in text, text
    fix = _fix_code(text)
    assert fix == 'agent._qnet.to("meta")', text
    assert _run(ip, fix, None) is None
    assert _run(ip, "action = agent.act(observation)\n", None) is None


PINNED_OUTPUT = IMPORTS + '''
class QuantProj(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("scales", torch.ones(4))

    def forward(self, x):
        out = torch.zeros((x.shape[0], 4), device="cpu")
        out = out + 1
        return out

proj = QuantProj().to("meta")
residual = torch.randn(2, 4, device="meta")
hidden = torch.randn(2, 4, device="meta")
'''


def test_a_module_called_on_the_failing_line_is_named_where_its_forward_pins_the_output(
        ip, capsys) -> None:
    # NB: GPTQ-for-LLaMa's QuantLinear made its output on the default GPU: the layer called on
    # the line is the culprit and its ``forward`` the line to edit, not a move of its result
    lines = _post_mortem(ip, capsys, PINNED_OUTPUT, "h = residual + proj(hidden)\n")
    assert _culprits(lines)[0] == "  culprit: proj (made on cpu), a temporary; expected meta", lines
    (old, new), = _edits("\n".join(lines))
    assert old == ['out = torch.zeros((x.shape[0], 4), device="cpu")'], lines
    assert _run(ip, _apply(PINNED_OUTPUT, old, new), None) is None
    assert _run(ip, "h = residual + proj(hidden)\n", None) is None


FUNCTION_BACKWARD = IMPORTS + '''
class ScaledMatmul(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight_hp):
        ctx.save_for_backward(weight_hp)
        return x.to(torch.bfloat16) @ weight_hp.to(torch.bfloat16)

    @staticmethod
    def backward(ctx, grad_output):
        (weight_hp,) = ctx.saved_tensors
        grad_input = torch.mm(grad_output, weight_hp.t())
        return grad_input, None

x = torch.randn(2, 4, requires_grad=True)
weight = torch.randn(4, 4)
'''


def test_an_autograd_function_whose_backward_has_the_line_to_edit_is_named_itself(
        ip, capsys) -> None:
    # NB: torchao's float8 matmul with backward scaling disabled: the handle is the Function,
    # not ``loss`` (whose ``backward()`` only reached it through torch's engine)
    lines = _post_mortem(ip, capsys, FUNCTION_BACKWARD,
                         "loss = ScaledMatmul.apply(x, weight).float().sum()\nloss.backward()\n")
    assert _culprits(lines)[0] == (
        "  culprit: ScaledMatmul (an autograd Function: its ScaledMatmul.backward has the line "
        "to edit); expected float32"), lines
    assert not any(ln.startswith("  culprit: loss") for ln in lines), lines


def _outer_caller(x):
    return _inner_failing(x)


def _inner_failing(x):
    raise RuntimeError("expected m1 and m2 to have the same dtype")


def test_the_function_where_the_op_failed_is_named_before_a_caller_a_later_round_edited() -> None:
    """%%cuda_safe --dtype's rounds may add an edit in a caller (alpaca_lora_4bit's
    ``matmul4bit``, whose argument a later round cast) before, in file order, the one in the
    function where the op failed (``_matmul4bit_v1_recons``): that function is named."""
    from devicelens.guard.diagnosis._blame import Namer
    from devicelens.guard.diagnosis._edits import Edit
    from devicelens.guard.diagnosis._handle import handles
    from devicelens.guard.running._frames import traceback_frames

    try:
        _outer_caller(1)
    except RuntimeError as e:
        frames = traceback_frames(e.__traceback__)
    ns = {"_outer_caller": _outer_caller, "_inner_failing": _inner_failing}
    here = _inner_failing.__code__.co_filename
    edits = (Edit("caller", ("a",), ("b",), here, "_outer_caller"),
             Edit("failing", ("c",), ("d",), here, "_inner_failing"))
    found = handles(edits, frames, Namer(ns, frames, lambda f: f == here), lambda f: f == here)
    assert found[0] == ("_inner_failing", "a function: the line to edit is in it"), found


FUNCTION_FORWARD = IMPORTS + '''
class FusedMatmulFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, input_, weight):
        ctx.save_for_backward(weight)
        wide = input_.double()
        return torch.mm(wide, weight)

    @staticmethod
    def backward(ctx, grad_output):
        (weight,) = ctx.saved_tensors
        return torch.mm(grad_output, weight.t()), None

class FusedProj(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(4, 4))

    def forward(self, x):
        return FusedMatmulFunction.apply(x, self.weight)

model = nn.Sequential(FusedProj())
h = torch.randn(2, 4)
'''


def test_an_autograd_function_s_forward_is_named_by_the_module_that_applies_it(
        ip, capsys) -> None:
    # NB: apex's FusedLayerNorm and mmcv's RoIAlign run their Function through ``apply`` in
    # the module's own ``forward``: the user holds the module (only a ``backward``, which
    # torch's engine runs, is named by its Function)
    lines = _post_mortem(ip, capsys, FUNCTION_FORWARD, "out = model(h)\n")
    assert _culprits(lines)[0].startswith(
        "  culprit: model[0] (its FusedProj.forward runs the line to edit, in "
        "FusedMatmulFunction.forward)"), lines
