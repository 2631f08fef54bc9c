"""The rehearsal: each printed fix is proven on a forked copy of the failing cell first.

Through a real IPython shell: the fix shown is complete in one round (the cell runs after it,
applied exactly as printed), harmless (a trained Parameter stays that Parameter), and marked;
the user's namespace, files and RNG are as they were; a cell that writes files, never ends or
crashes the sandbox is reported as not verified. NB: each test fails on the engine without the
rehearsal (one round of fixes, no verdict).
"""

from __future__ import annotations

import os
import re

import pytest
import torch

from devicelens.guard.rehearsal import _harm
from devicelens.guard.rehearsal._sandbox import Refused, run_forked
from tests._traces import VERIFIED
from tests.corpus import _parse
from tests.test_guard_postmortem import diagnosis, run

pytestmark = pytest.mark.filterwarnings("ignore:PyTorch was compiled without cuDNN")

QUICKSTART = """
import numpy as np
import torch.nn.functional as F
torch.__future__.set_swap_module_params_on_conversion(True)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 16)
        self.pos = torch.randn(4, 16) * 0.02
        self.head = nn.Linear(16, 4)
    def forward(self, x):
        return self.head(self.proj(x) + self.pos).mean(dim=1)

def train_step(model, optimizer, batch, class_weights):
    loss = F.cross_entropy(model(batch["x"]), batch["y"], weight=class_weights)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
    return loss.detach()

model = Net()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
class_weights = torch.tensor([1.0, 2.0, 2.0, 0.5])
train_step(model, optimizer, {"x": torch.randn(2, 4, 8), "y": torch.randint(0, 4, (2,))},
           class_weights)
model.to("meta")
batch = {"x": torch.randn(2, 4, 8), "y": torch.randint(0, 4, (2,))}
"""
STEP = "loss = train_step(model, optimizer, batch, class_weights)\n"


@pytest.fixture
def ns(ip):
    ip.run_cell("import torch\nfrom torch import nn\n", store_history=False)
    yield ip.user_ns
    torch.__future__.set_swap_module_params_on_conversion(False)


def _apply_printed(ip, text: str, cell: str) -> str:
    """Run the printed fix exactly as shown, edits made to ``cell``; the cell to run after."""
    code = _parse.fix_code(text)
    if code:
        assert ip.run_cell(code, store_history=False).error_in_exec is None
    for e in _parse.edits(text):
        cell = _parse.apply_edit(cell, e) or cell
    return cell


def test_the_quickstart_step_is_fixed_in_one_round(ip, ns, capsys):
    assert ip.run_cell(QUICKSTART, store_history=False).error_in_exec is None
    err, out, _ = run(ip, capsys, STEP)
    assert err is not None
    text = diagnosis(out)
    # NB: the failing op met batch['x'] and model.pos; the rest of the step needs the labels,
    # the loss weight and Adam's state too: all in the one fix shown
    for culprit in ("batch['x']", "model.pos", "optimizer", "batch['y']", "class_weights"):
        assert f"culprit: {culprit} (" in text, text
    assert text.rstrip().endswith("\n" + VERIFIED)
    cell = _apply_printed(ip, text, STEP)
    assert ip.run_cell(cell, store_history=False).error_in_exec is None


def test_a_name_the_cell_makes_itself_is_fixed_where_the_cell_makes_it(ip, ns, capsys):
    assert ip.run_cell(QUICKSTART + "batch = {k: v.to('meta') for k, v in batch.items()}\n"
                       "class_weights = class_weights.to('meta')\n"
                       "for _s in optimizer.state.values():\n"
                       "    _s.update({k: v.to('meta') for k, v in _s.items() if k != 'step'})\n"
                       "model.register_buffer('pos2', model.pos.to('meta'))\n"
                       "del model.pos\nmodel.pos = model.pos2\n",
                       store_history=False).error_in_exec is None
    cell = ('extra = {"x": torch.randn(2, 4, 8), "y": torch.randint(0, 4, (2,))}\n'
            "loss = train_step(model, optimizer, extra, class_weights)\n")
    err, _out, _ = run(ip, capsys, "%%cuda_safe --no-preflight\n" + cell)
    assert type(err).__name__ == "DeviceMismatchError"
    text = str(err)
    # NB: moving extra['x'] in the namespace would be undone by the cell's own first line
    assert "  fix:" not in text
    assert "      + extra['x'] = extra['x'].to(\"meta\")\n" in text
    assert "      + extra['y'] = extra['y'].to(class_weights.device)\n" in text
    assert text.endswith("\n" + VERIFIED)
    fixed = _apply_printed(ip, text, cell)
    assert ip.run_cell(fixed, store_history=False).error_in_exec is None


def test_a_tensor_a_hook_holds_itself_is_moved_in_place(ip, ns, capsys):
    """FishLeg's gradient mask: a hook's closure holds the namespace tensor ``mask`` itself,
    so ``mask = mask.to(...)`` rebinds a name the hook never reads and the cell still fails.
    The rehearsal sees that and shows the tensor moved in place (``.data`` on a GPU; a swap
    where ``.data`` cannot change the device type, cpu to meta), which the hook then reads."""
    assert ip.run_cell("def zero_grad_hook(mask):\n"
                       "    def hook(grad):\n"
                       "        return grad * mask\n"
                       "    return hook\n"
                       "w = nn.Parameter(torch.ones(4, device='meta'))\n"
                       "mask = torch.ones(4)\n"
                       "w.register_hook(zero_grad_hook(mask))\n",
                       store_history=False).error_in_exec is None
    cell = "(w * 2).sum().backward()\n"
    err, out, _ = run(ip, capsys, cell)
    assert err is not None
    text = diagnosis(out)
    assert "culprit: mask (float32[4] on cpu); expected meta" in text, text
    assert ("      torch.utils.swap_tensors(mask, mask.detach().to(\"meta\")"
            ".requires_grad_(mask.requires_grad))\n") in text, text
    assert text.rstrip().endswith("\n" + VERIFIED)
    fixed = _apply_printed(ip, text, cell)
    assert ip.run_cell(fixed, store_history=False).error_in_exec is None


def test_the_namespace_and_the_rng_are_as_the_failing_cell_left_them(ip, ns, capsys):
    ns.update(net=nn_linear(), x64=torch.randn(2, 8, dtype=torch.float64), seen=[])
    cell = "torch.manual_seed(3)\na = torch.randn(2)\nseen.append(1)\nout = net(x64)\n"
    err, out, _ = run(ip, capsys, cell)
    assert err is not None and diagnosis(out).rstrip().endswith(VERIFIED)
    assert ns["seen"] == [1] and ns["x64"].dtype == torch.float64 and "out" not in ns
    after = torch.randn(2)
    torch.manual_seed(3)
    torch.randn(2)
    assert torch.equal(after, torch.randn(2))  # the rehearsal drew nothing from this RNG


def nn_linear() -> torch.nn.Module:
    return torch.nn.Linear(8, 4)


def test_a_cell_that_saves_after_the_failing_line_is_verified_up_to_the_save_and_writes_nothing(
        ip, ns, capsys, tmp_path):
    path = tmp_path / "out.pt"
    ns.update(net=nn_linear(), x64=torch.randn(2, 8, dtype=torch.float64), path=str(path))
    for save in ("torch.save(out, path)", "open(path, 'wb').write(b'x')"):
        _err, out, _ = run(ip, capsys, f"out = net(x64)\n{save}\n")
        text = diagnosis(out)
        assert "fix:\n      x64 = x64.float()\n" in text
        why = ("saves with torch.save" if save.startswith("torch") else
               f"writes the file {str(path)!r}")
        assert text.rstrip().endswith(
            "line 2: the rehearsal ran past the failing line with no mismatch, to where the "
            f"code {why} (not rehearsed)"), text
        assert "  verified up to cell" in text
        assert not path.exists()


def test_a_cell_that_saves_before_the_failing_line_is_not_verified(ip, ns, capsys, tmp_path):
    path = tmp_path / "first.pt"
    ns.update(net=nn_linear(), x64=torch.randn(2, 8, dtype=torch.float64), path=str(path))
    _err, out, _ = run(ip, capsys, "torch.save(x64, path)\nout = net(x64)\n")
    text = diagnosis(out)
    assert text.rstrip().endswith("  not verified: the code saves with torch.save"), text
    assert path.exists() and "out" not in ns  # the cell's own save ran; the rehearsal's did not


def test_a_cell_that_runs_on_is_verified_up_to_where_the_time_limit_stopped_it(
        ip, ns, capsys, monkeypatch):
    # NB: 2 s, not 1: on a loaded CI machine the fork and the fix alone can take a second
    monkeypatch.setenv("DEVICELENS_REHEARSAL_SECONDS", "2")
    ns.update(net=nn_linear(), x64=torch.randn(2, 8, dtype=torch.float64))
    _err, out, _ = run(ip, capsys, "out = net(x64)\nwhile True:\n    pass\n")
    last = diagnosis(out).rstrip().splitlines()[-1]
    assert re.fullmatch(r"  verified up to cell In\[\d+\] line 2: the rehearsal ran past the "
                        r"failing line for 2 s with no mismatch", last), last


def test_a_trained_parameter_is_changed_in_place_never_rebound(ip, ns, capsys):
    ip.run_cell("prompt = nn.Parameter(torch.randn(2, 8))\n"
                "head = nn.Linear(8, 4).half()\n"
                "popt = torch.optim.Adam([prompt], lr=1e-3)\n", store_history=False)
    prompt = ns["prompt"]
    _err, out, _ = run(ip, capsys, "with torch.no_grad():\n    out = head(prompt)\n")
    text = diagnosis(out)
    assert "culprit: prompt (" in text
    # NB: `prompt = prompt.half()` runs, and leaves popt training a tensor nothing uses
    assert "prompt = prompt.half()" not in text.replace("prompt.data = prompt.data.half()", "")
    assert "fix:\n      prompt.data = prompt.data.half()\n" in text
    assert "note: a fix that would do harm is not shown: `prompt` would be rebound" in text
    assert text.rstrip().endswith(VERIFIED)
    _apply_printed(ip, text, "")
    assert ns["prompt"] is prompt and prompt.dtype == torch.float16 and prompt.is_leaf
    assert ns["popt"].param_groups[0]["params"][0] is prompt


def test_harms_in_the_users_names() -> None:
    head, prompt = torch.nn.Linear(8, 4).half(), torch.nn.Parameter(torch.randn(2, 8))
    x, labels = torch.randn(2, 8).half(), torch.tensor([1, 2])
    ns = {"head": head, "prompt": prompt, "popt": torch.optim.Adam([prompt]), "x": x,
          "labels": labels}
    before = _harm.links(ns)
    assert _harm.harms(before, ns) == []
    ns["popt"] = torch.optim.Adam(head.parameters())  # a "stale" optimizer rebuilt
    ns["x"] = x.float()  # a right tensor cast the wrong way
    ns["labels"] = labels.to("meta")  # an innocent moved off the model's device
    assert _harm.harms(before, ns) == [
        "`popt` would no longer train prompt",
        "`x` is already where the model is (cpu/torch.float16); the fix would move it to "
        "cpu/torch.float32",
        "`labels` is already where the model is (cpu); the fix would move it to meta"]


def test_harms_reach_the_dicts_a_batch_list_holds() -> None:
    """DETR's ``targets`` is a list of one dict per image: its boxes already in the model's
    dtype are data a fix must not cast away from it, as a top-level tensor is."""
    targets = [{"boxes": torch.rand(2, 4), "labels": torch.tensor([1, 2])}]
    ns = {"model": torch.nn.Linear(4, 3), "targets": targets}
    before = _harm.links(ns)
    targets[0]["labels"] = targets[0]["labels"] + 0  # NB: rebound where it is: no harm
    assert _harm.harms(before, ns) == []
    targets[0]["boxes"] = targets[0]["boxes"].bfloat16()
    assert _harm.harms(before, ns) == [
        "`targets[0]['boxes']` is already where the model is (cpu/torch.float32); the fix "
        "would move it to cpu/torch.bfloat16"]


CRITERION = """
import torch
from torch import nn

class Criterion(nn.Module):
    def forward(self, logits, targets):
        ious = torch.cat([t["boxes"][:, 2] - t["boxes"][:, 0] for t in targets])
        cls_targets = torch.zeros_like(logits)
        pos = torch.arange(ious.shape[0])
        cls_targets[pos, 0] = ious
        return (cls_targets - logits).abs().mean()

model = nn.Linear(4, 3)
criterion = Criterion()
targets = [{"boxes": torch.rand(2, 4)}, {"boxes": torch.rand(1, 4)}]
x = torch.randn(3, 4)
"""


def test_a_write_into_an_autocast_temporary_is_cast_at_the_write_not_in_the_data(ip, capsys):
    """RF-DETR's loss under bfloat16 autocast writes float32 IoUs, made of the targets' boxes,
    into a bfloat16 temporary: casting the user's boxes to bfloat16 runs, and halves their
    precision beside a float32 model (before: that was the fix); the write casts instead."""
    ip.run_cell(CRITERION, store_history=False)
    _err, out, _ = run(ip, capsys, 'with torch.autocast("cpu", dtype=torch.bfloat16):\n'
                                   "    loss = criterion(model(x), targets)\n")
    text = diagnosis(out)
    assert "culprit: criterion (its Criterion.forward has the line to edit)" in text, text
    assert "+ cls_targets[pos, 0] = ious.to(cls_targets.dtype)" in text, text
    assert ".bfloat16()" not in text and text.rstrip().endswith(VERIFIED), text


def test_the_sandbox_reports_a_crash_and_refuses_side_effects(tmp_path) -> None:
    assert run_forked(lambda: 41 + 1, 5).value == 42
    crashed = run_forked(os.abort, 5)
    assert crashed.value is None and crashed.problem == (
        "the rehearsal's process crashed (signal 6)")

    def write() -> str:
        try:
            with open(tmp_path / "f.txt", "w"):
                pass
        except Refused as e:
            return str(e)
        return "written"

    assert run_forked(write, 5).value == f"the code writes the file {str(tmp_path / 'f.txt')!r}"
    assert not (tmp_path / "f.txt").exists()
    assert run_forked(lambda: os.system("true"), 5).problem.endswith(
        "Refused: the code runs a shell command")


def test_the_sandbox_lets_a_folder_that_exists_be_asked_for_and_refuses_a_new_one(
        tmp_path) -> None:
    """``os.makedirs(exist_ok=True)`` audits an ``os.mkdir`` even for a folder that exists
    (torch's first import of ``torch._dynamo`` asks for its cache folder that way): no side
    effect, so no refusal. A folder that does not exist yet is the cell's side effect."""
    def make(path: object) -> str:
        try:
            os.makedirs(path, exist_ok=True)  # type: ignore[call-overload]
        except Refused as e:
            return str(e)
        return "made"

    assert run_forked(lambda: make(tmp_path), 5).value == "made"
    new = tmp_path / "new"
    assert run_forked(lambda: make(new), 5).value == f"the code creates a folder ({new})"
    assert not new.exists()


def test_the_temp_folder_a_first_import_asks_for_is_not_a_write_of_the_cells(
        monkeypatch) -> None:
    """Python finds its temp folder by writing a probe file there on the first ask (a first
    ``import torch._dynamo``, reached only once a fix lets the cell get further, asks): the
    child has its answer before it is sealed, so the fix is not refused as writing a file."""
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)  # NB: as in a kernel that never asked
    assert run_forked(tempfile.gettempdir, 5).value == tempfile.gettempdir()


def test_a_name_that_is_no_identifier_is_spelled_through_globals(ip, ns, capsys):
    ns.update({"net": nn_linear(), "x;__import__('os')": torch.randn(2, 8, dtype=torch.float64)})
    _err, out, _ = run(ip, capsys, "out = net(globals()[\"x;__import__('os')\"])\n")
    text = diagnosis(out)
    assert "globals()[\"x;__import__('os')\"] = globals()[\"x;__import__('os')\"].float()" in text


def test_an_optimizer_over_a_standalone_parameter_is_never_rebuilt(ip, ns, capsys):
    ip.run_cell("torch.__future__.set_swap_module_params_on_conversion(True)\n"
                "head = nn.Linear(8, 4)\nprompt = nn.Parameter(torch.randn(2, 8))\n"
                "opt = torch.optim.Adam(head.parameters())\npopt = torch.optim.Adam([prompt])\n"
                "head.to('meta')\nx = torch.randn(2, 8, device='meta')\n", store_history=False)
    prompt, popt = ns["prompt"], ns["popt"]
    _err, out, _ = run(ip, capsys, "out = head(torch.cat([prompt, x]))\n")
    text = diagnosis(out)
    # NB: popt trains the soft prompt on purpose: rebuilding it over head's parameters would run
    # NB: popt is not even proposed (and left out as harmful): it is no stale optimizer
    assert "head.parameters()" not in text and "popt" not in text
    assert text.rstrip().endswith(VERIFIED)
    _apply_printed(ip, text, "")
    assert ns["popt"] is popt and popt.param_groups[0]["params"][0] is prompt is ns["prompt"]
    assert prompt.device.type == "meta" and prompt.is_leaf
    assert ip.run_cell("out = head(torch.cat([prompt, x]))\n").error_in_exec is None


def test_a_fix_line_that_cannot_run_is_left_out_with_its_culprit(ip, ns, capsys):
    ip.run_cell("teacher = nn.Linear(8, 4).to('meta')\nstudent = nn.Linear(8, 4)\n"
                "xs = torch.randn(2, 8)\n", store_history=False)
    cell = ("with torch.no_grad():\n    t = teacher(xs)\n    s = student(xs)\n"
            "    loss = (t - s).pow(2).mean()\n")
    _err, out, _ = run(ip, capsys, cell)
    text = diagnosis(out)
    assert "culprit: s (" not in text and "s = s.to(" not in text
    assert ("note: a fix line that cannot run is not shown: the fix itself raises NameError: "
            "name 's' is not defined") in text
    assert text.rstrip().endswith(VERIFIED)
    assert ip.run_cell(_apply_printed(ip, text, cell)).error_in_exec is None


def test_from_numpy_gets_a_cast_it_can_take(ip, ns, capsys):
    """Harm 6: ``from_numpy`` takes no ``dtype=``; the float64 array the cell reads is the data
    to mend (``astype``), named as the user named it."""
    ip.run_cell("import numpy as np\nnet = nn.Linear(8, 4)\narr = np.random.rand(2, 8)\n",
                store_history=False)
    cell = "out = net(torch.from_numpy(arr))\n"
    _err, out, _ = run(ip, capsys, cell)
    text = diagnosis(out)
    assert "dtype=" not in text and _parse.culprits(text) == ["arr"], text
    assert _parse.fix_code(text) == 'arr = arr.astype("float32")'
    assert text.rstrip().endswith(VERIFIED)
    assert ip.run_cell(_apply_printed(ip, text, cell)).error_in_exec is None


def test_on_fake_tensors_the_fix_and_the_cell_compute_nothing(tmp_path) -> None:
    """The path a process that uses CUDA takes (its forked child cannot): fix and cell run
    under FakeTensorMode, so the cell's result has metadata and no data."""
    import linecache

    from devicelens.guard.rehearsal._attempt import attempt

    cell = str(tmp_path / "cell.py")
    linecache.cache[cell] = (0, None, ["out = net(x)\n"], cell)
    ns: dict = {"net": torch.nn.Linear(8, 4), "x": torch.randn(2, 8, dtype=torch.float64),
                "torch": torch}

    def run_cell(code, namespace):
        exec(code, namespace)

    def explain(exc, namespace):
        return None

    done = attempt(["x = x.float()"], cell, ns, run_cell, explain, fake=True)
    assert done.ran and not done.error and not done.problem
    assert type(ns["out"]).__name__ == "FakeTensor" and ns["out"].shape == (2, 4)
    # NB: fake matmul checks no dtypes (TOOLCHAIN.md), devices it does
    failed = attempt([], cell, {**ns, "x": torch.randn(2, 8, device="meta")}, run_cell,
                     explain, fake=True)
    assert "Expected all tensors to be on the same device" in failed.error and not failed.ran


def test_a_private_name_is_named_as_written_never_through_ipythons_own_objects(ip, ns, capsys):
    ns.update(net=nn_linear(), _x=torch.randn(2, 8, dtype=torch.float64))
    _err, out, _ = run(ip, capsys, "out = net(_x)\n")
    text = diagnosis(out)
    assert "_user_ns" not in text and "exit." not in text
    assert "culprit: _x (float64[2, 8] on cpu), `input` in Linear.forward; expected float32" in text
    assert text.rstrip().endswith("fix:\n      _x = _x.float()\n" + VERIFIED)


def test_a_broken_rehearsal_never_hides_the_error_or_its_diagnosis(ip, ns, capsys, monkeypatch):
    from devicelens.guard import rehearsal

    def broken(*args, **kwargs):
        raise RuntimeError("rehearsal bug")

    monkeypatch.setattr(rehearsal, "verify", broken)
    ns.update(net=nn_linear(), x64=torch.randn(2, 8, dtype=torch.float64))
    err, out, _ = run(ip, capsys, "out = net(x64)\n")
    assert "mat1 and mat2 must have the same dtype" in str(err)
    assert diagnosis(out).rstrip().endswith("fix:\n      x64 = x64.float()")
    err, _out, _ = run(ip, capsys, "%%cuda_safe --no-preflight --dtype\nout = net(x64)\n")
    assert type(err).__name__.startswith("DeviceMismatchError")
    assert str(err).rstrip().endswith("fix:\n      x64 = x64.float()")


def test_nothing_the_user_holds_open_or_shares_is_written_by_the_rehearsal(ip, ns, capsys,
                                                                            tmp_path):
    """The audit hook sees files opened, not writes to files already open, and a fork shares
    shared-memory tensors: a log file the cell writes to gets one line, a shared tensor one
    increment, as from the one run the user made."""
    log = tmp_path / "train.log"
    shared = torch.zeros(3).share_memory_()
    ns.update(net=nn_linear(), x64=torch.randn(2, 8, dtype=torch.float64), shared=shared,
              log=open(log, "a"))  # noqa: SIM115 - the user's own open file
    cell = "log.write('step\\n'); log.flush()\nshared.add_(1)\nout = net(x64)\n"
    _err, out, _ = run(ip, capsys, cell)
    ns["log"].close()
    assert diagnosis(out).rstrip().endswith(VERIFIED)
    assert log.read_text() == "step\n"
    assert shared.tolist() == [1.0, 1.0, 1.0]


def test_an_optimizer_that_keeps_no_state_of_its_own_does_not_stop_the_rehearsal(ip, ns, capsys):
    """ParlAI's ``MemoryEfficientFP16Optimizer`` subclasses Optimizer without its
    ``__init__``: it has no ``state`` attribute. The sandbox's look for shared memory read
    ``opt.state`` and failed ("the rehearsal failed: AttributeError"); it reads optimizers
    through their ``__dict__`` now, and the fix is rehearsed."""
    ip.run_cell(
        "class Wrapper(torch.optim.Optimizer):\n"
        "    def __init__(self, optimizer):\n"
        "        self.optimizer = optimizer\n"
        "net = nn.Linear(8, 4)\n"
        "opt = Wrapper(torch.optim.SGD(net.parameters(), lr=0.1))\n"
        "x64 = torch.randn(2, 8, dtype=torch.float64)\n", store_history=False)
    _err, out, _ = run(ip, capsys, "out = net(x64)\n")
    assert diagnosis(out).rstrip().endswith(VERIFIED), out


# --- fixes the rules did not write: the failing line's own operands, rehearsed (issue 36) ----

def test_a_cast_the_line_makes_is_dropped_and_named_as_written(ip, ns, capsys):
    """Harm 8: ``model(x.double())`` named `input` in Linear.forward, with a comment for a fix."""
    ip.run_cell("model = nn.Sequential(nn.Linear(8, 4), nn.ReLU())\nx = torch.randn(2, 8)\n",
                store_history=False)
    cell = "h = model(x.double())\n"
    _err, out, _ = run(ip, capsys, cell)
    text = diagnosis(out)
    assert "  culprit: x.double() (float64[2, 8] on cpu), `input` in Linear.forward; " \
           "expected float32\n" in text
    assert "      - h = model(x.double())\n      + h = model(x)\n" in text
    assert "# pass" not in text and text.rstrip().endswith(VERIFIED)
    assert ip.run_cell(_apply_printed(ip, text, cell)).error_in_exec is None
    assert ns["h"].dtype == torch.float32 and ns["x"].dtype == torch.float32


def test_an_operand_without_a_name_is_cast_where_the_line_passes_it(ip, ns, capsys):
    ip.run_cell("emb = nn.Embedding(10, 8).half()\nhead = nn.Linear(8, 2)\n"
                "ids = torch.randint(0, 10, (2, 3))\n", store_history=False)
    cell = "out = head(emb(ids))\n"
    _err, out, _ = run(ip, capsys, cell)
    text = diagnosis(out)
    # NB: ids (int64, right for an embedding) is never cast
    assert "ids = ids." not in text and "culprit: emb(ids) (float16[2, 3, 8] on cpu)" in text
    assert "      + out = head(emb(ids).float())\n" in text and text.rstrip().endswith(VERIFIED)
    assert ip.run_cell(_apply_printed(ip, text, cell)).error_in_exec is None


def test_a_teacher_on_another_device_gets_its_input_moved_not_the_student(ip, ns, capsys):
    """Harm 4: distillation; the rules' fix moves ``x`` and then the student after it (two
    changes to the user's placement); one edit of the teacher's line is smaller and runs."""
    ip.run_cell("teacher = nn.Linear(8, 4).to('meta')\nstudent = nn.Linear(8, 4)\n"
                "opt = torch.optim.SGD(student.parameters(), lr=0.1)\nx = torch.randn(2, 8)\n",
                store_history=False)
    cell = ("with torch.no_grad():\n    t = teacher(x)\ns = student(x)\n"
            "loss = (s.to(t.device) - t).pow(2).mean()\n")
    _err, out, _ = run(ip, capsys, cell)
    text = diagnosis(out)
    assert "student.to(" not in text and 'x = x.to("meta")' not in text
    assert '      + t = teacher(x.to("meta"))\n' in text and text.rstrip().endswith(VERIFIED)
    assert ip.run_cell(_apply_printed(ip, text, cell)).error_in_exec is None
    assert ns["student"].weight.device.type == "cpu" and ns["x"].device.type == "cpu"


def test_a_soft_prompt_into_a_half_model_casts_neither_the_prompt_nor_the_right_input(
        ip, ns, capsys):
    """Harm 3: ``torch.cat([soft_prompt, x])`` into a half model: the fix cast ``x`` (already
    right) to float32 and the cell still failed."""
    ip.run_cell("model = nn.Linear(8, 4).half()\nsoft_prompt = nn.Parameter(torch.randn(2, 8))\n"
                "popt = torch.optim.Adam([soft_prompt])\nx = torch.randn(3, 8).half()\n",
                store_history=False)
    prompt = ns["soft_prompt"]
    cell = "inp = torch.cat([soft_prompt, x])\nout = model(inp)\n"
    _err, out, _ = run(ip, capsys, cell)
    text = diagnosis(out)
    assert "x = x.to(torch.float32)" not in text and "x = x.float()" not in text
    assert "soft_prompt = soft_prompt." not in text and text.rstrip().endswith(VERIFIED)
    assert ip.run_cell(_apply_printed(ip, text, cell)).error_in_exec is None
    assert ns["soft_prompt"] is prompt and prompt.is_leaf and prompt.dtype == torch.float32
    assert ns["popt"].param_groups[0]["params"][0] is prompt and ns["x"].dtype == torch.float16


def test_a_cpu_temperature_is_moved_never_the_labels_already_on_the_models_device(
        ip, ns, capsys):
    """Harm 5: the fix moved ``labels`` off the model's device."""
    ip.run_cell("model = nn.Linear(8, 4).to('meta')\nx = torch.randn(2, 8, device='meta')\n"
                "labels = torch.randint(0, 4, (2,), device='meta')\n"
                "temperature = torch.full((1, 1), 2.0)\n", store_history=False)
    cell = "loss = F.cross_entropy(model(x) / temperature, labels)\n"
    ip.run_cell("import torch.nn.functional as F\n", store_history=False)
    _err, out, _ = run(ip, capsys, cell)
    text = diagnosis(out)
    assert "labels = labels.to" not in text and "culprit: temperature (" in text
    assert "temperature = temperature.to(" in text and text.rstrip().endswith(VERIFIED)
    assert ip.run_cell(_apply_printed(ip, text, cell)).error_in_exec is None
    assert ns["labels"].device.type == "meta"


# --- %devices: each fix rehearsed on a copy of the namespace, then diagnosed again ----------

DEVICES_NS = """
torch.__future__.set_swap_module_params_on_conversion(True)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(8, 16)
        self.pos = torch.randn(4, 16)
    def forward(self, x):
        return self.proj(x) + self.pos
model = Net()
opt = torch.optim.AdamW(model.parameters())
prompt = nn.Parameter(torch.randn(4, 16))
popt = torch.optim.Adam([prompt])
model.to('meta')
x = torch.randn(2, 4, 8)
"""
DEVICES_VERIFIED = ("  verified: rehearsed on a copy of this kernel's state, the fix runs, does no "
                    "harm and clears this finding")


def _finding_block(text: str, title: str) -> str:
    start = text.index(title)
    end = min((i for i in (text.find("\n✖ ", start), text.find("\n▲ ", start)) if i > 0),
              default=len(text))
    return text[start:end]


@pytest.fixture
def history(ip):
    """The shell's ``In``, as cells stored in it leave it: restored afterwards (the shell is
    shared by the whole test session, and later tests read ``In`` for usage)."""
    cells = ip.user_ns["In"]
    n = len(cells)
    yield cells
    del cells[n:]


def test_devices_marks_each_fix_with_what_rehearsing_it_showed(ip, ns, capsys, history):
    history += [DEVICES_NS, "out = model(x) + prompt\n"]  # NB: as store_history=True records
    ip.run_cell(DEVICES_NS, store_history=False)
    ip.run_cell("out = model(x) + prompt\n", store_history=False)
    x, pos = ns["x"], ns["model"].pos
    capsys.readouterr()
    ip.run_line_magic("devices", "--text")
    text = capsys.readouterr().out
    assert _finding_block(text, "error: model.pos was left on cpu").rstrip().endswith(
        DEVICES_VERIFIED)
    assert _finding_block(text, "warning: x is not on meta").rstrip().endswith(DEVICES_VERIFIED)
    # NB: a trained Parameter's .data cannot go from cpu to meta: said, never claimed
    assert _finding_block(text, "warning: prompt is not on meta").rstrip().endswith(
        "  not verified: the fix itself raises RuntimeError: Attempted to call "
        "`variable.set_data(tensor)`, but `variable` and `tensor` have incompatible tensor "
        "type.")
    # NB: rehearsed on a copy: the user's objects are as they were
    assert ns["x"] is x and x.device.type == "cpu" and ns["model"].pos is pos
    ip.run_line_magic("devices", "--text --no-rehearse")
    assert "verified" not in capsys.readouterr().out


def test_inside_a_function_a_guess_takes_another_operands_dtype_never_a_literal() -> None:
    """The guesses for a helper's line (``lightly``'s ``set_at_index``): the target is an
    operand the op already accepts, read from the failing frame's locals; at a cell's top
    level a literal is right (the user's own objects)."""
    import linecache

    from devicelens.guard.diagnosis._mismatch import MismatchReport
    from devicelens.guard.rehearsal._candidates import line_guesses

    name = "<ipython-input-99-guesses>"
    src = ["def fill(tokens, index, value):", "    return torch.scatter(tokens, 1, index, value)"]
    linecache.cache[name] = (0, None, [ln + "\n" for ln in src], name)
    report = MismatchReport("dtype", "scatter", "float32", (), ())
    scope = {"tokens": torch.zeros(2, 4), "index": torch.zeros(2, 2, dtype=torch.long),
             "value": torch.ones(2, 2).half()}
    inside = [g.edit.new[0] for g in line_guesses(report, name, 2, "fill", scope)]
    assert "    return torch.scatter(tokens, 1, index, value.to(tokens.dtype))" in inside
    assert not any(".float()" in g or "tokens.to(" in g for g in inside), inside
    # NB: with no operand to take it from, a dtype literal is the last resort; a device never
    last = [g.edit.new[0] for g in line_guesses(report, name, 2, "fill", {})]
    assert "    return torch.scatter(tokens, 1, index, value.float())" in last
    moved = MismatchReport("device", "scatter", "cuda:0", (), ())
    assert line_guesses(moved, name, 2, "fill", {}) == []
    assert not any("torch." in g.operand for g in line_guesses(report, name, 2, "fill", scope))
    top = [g.edit.new[0] for g in line_guesses(report, name, 2, "", {})]
    assert "    return torch.scatter(tokens, 1, index, value.float())" in top


def test_a_list_whose_items_sit_on_two_devices_is_rebuilt_where_an_item_already_is() -> None:
    """MONAI's ensembler: ``torch.stack(list(img))`` where ``img[1]`` stayed on the cpu. The
    list is no tensor (no ``.to()`` of its own): the guess rebuilds it, each item moved to where
    an item the op accepts already is, read off that item (never a literal); the stray is named
    as the user would write it. A list all in one place, or none where the op wants, gets none."""
    import linecache

    from devicelens.guard.diagnosis._mismatch import MismatchReport
    from devicelens.guard.rehearsal._candidates import line_guesses

    name = "<ipython-input-96-guesses>"
    src = ["def mean(img, t):", "    return torch.stack(list(img)).mean(dim=0) + t"]
    linecache.cache[name] = (0, None, [ln + "\n" for ln in src], name)
    report = MismatchReport("device", "stack", "meta", (), ())
    img = [torch.zeros(2, device="meta"), torch.zeros(2), torch.zeros(2, device="meta")]
    scope = {"img": img, "t": torch.zeros(2, device="meta")}
    guesses = line_guesses(report, name, 2, "mean", scope)
    fixed = [g for g in guesses if "for " in g.edit.new[0]]
    assert [g.edit.new[0] for g in fixed] == [
        "    return torch.stack([t_.to(img[0].device) for t_ in img]).mean(dim=0) + t"], guesses
    assert fixed[0].operand == "img[1]"
    dtype = MismatchReport("dtype", "stack", "float16", (), ())
    scope["img"] = [torch.zeros(2), torch.zeros(2).half()]
    assert "    return torch.stack([t_.to(img[1].dtype) for t_ in img]).mean(dim=0) + t" in [
        g.edit.new[0] for g in line_guesses(dtype, name, 2, "mean", scope)]
    for same in ([torch.zeros(2), torch.zeros(2)], [torch.zeros(2).double(), torch.zeros(2)]):
        scope["img"] = same
        assert not any("for " in g.edit.new[0]
                       for g in line_guesses(dtype, name, 2, "mean", scope))


def test_a_held_tensor_that_gives_way_to_the_edited_local_leaves_its_path_behind() -> None:
    """OpenNMT's beam: the float ``beam.prev_ks[0]`` (an earlier step's index, kept) is the
    culprit until the rehearsed edit casts the local ``prev_k`` it comes from; the culprit is
    then that local, and no longer the namespace path, so the user's handle on the edited code
    (``beam``) is named beside it. A slice is never an operand (``x[(:).long()]``)."""
    import linecache

    from devicelens.guard.diagnosis._blame import Named, Operand
    from devicelens.guard.diagnosis._mismatch import MismatchReport
    from devicelens.guard.rehearsal._candidates import line_guesses
    from devicelens.guard.rehearsal._loop import _renamed

    name = "<ipython-input-95-guesses>"
    src = ["def advance(self, attn_out, prev_k):",
           "    return attn_out.index_select(0, prev_k)", "out = beam_attn[:, :n]"]
    linecache.cache[name] = (0, None, [ln + "\n" for ln in src], name)
    held = Operand("argument 3", Named("beam.prev_ks[0]", "beam.prev_ks[0]", "tensor", "beam"),
                   "cpu", "float32", (4,))
    report = MismatchReport("index_dtype", "index_select", "int64", (held,), (held,))
    scope = {"attn_out": torch.zeros(4, 3), "prev_k": torch.zeros(4)}
    guess = next(g for g in line_guesses(report, name, 2, "advance", scope)
                 if "prev_k.long()" in g.edit.new[0])
    (c,) = _renamed(report, guess).culprits
    assert (c.named.name, c.named.code, c.named.root) == ("`prev_k` in advance", "", "")
    assert not any("(:" in g.edit.new[0] or "(:n)" in g.edit.new[0]
                   for g in line_guesses(report, name, 3, "", {"beam_attn": torch.zeros(2, 2)}))


def test_a_guess_never_casts_float_data_to_an_integer_unless_it_is_the_named_stray() -> None:
    """Retinanet's float indices (made by ``/`` inside ``decode``): ``decode(cls_head.long(),
    ...)`` runs, because scores cast to long are all 0 and nothing passes the threshold. Floats
    cast to integers lose their values: on a caller's line only a named culprit gets such a cast."""
    import linecache

    from devicelens.guard.diagnosis._blame import Named, Operand
    from devicelens.guard.diagnosis._mismatch import MismatchReport
    from devicelens.guard.rehearsal._candidates import line_guesses

    name = "<ipython-input-97-guesses>"
    linecache.cache[name] = (0, None, ["boxes = decode(cls_head, rows)\n"], name)
    rows = Operand("argument 2", Named("rows", "rows", "tensor", "rows"), "cpu", "float32", (3,))
    report = MismatchReport("index_dtype", "index", "int64", (rows,), (rows,))
    ns = {"cls_head": torch.rand(1, 27, 8, 8), "rows": torch.tensor([0.0, 2.0, 1.0])}
    guesses = [g.edit.new[0] for g in line_guesses(report, name, 1, "", ns, outer=True)]
    assert guesses == ["boxes = decode(cls_head, rows.long())"], guesses
    # NB: on the op's own line an operand is what the op reads as an index: it may be cast
    assert "boxes = decode(cls_head.long(), rows)" in [
        g.edit.new[0] for g in line_guesses(report, name, 1, "", ns)]
    # NB: integer data is no loss: an int32 tensor is cast like the named one
    ns["cls_head"] = torch.zeros(2, dtype=torch.int32)
    assert "boxes = decode(cls_head.long(), rows)" in [
        g.edit.new[0] for g in line_guesses(report, name, 1, "", ns, outer=True)]


def test_a_guess_never_rewrites_what_an_op_writes_into() -> None:
    """``ema.weight.to("cuda:0").lerp_(w, 0.01)`` runs, and the EMA never changes: an in-place
    method's receiver and an ``out=`` are never rewritten."""
    import linecache

    from devicelens.guard.diagnosis._mismatch import MismatchReport
    from devicelens.guard.rehearsal._candidates import line_guesses

    name = "<ipython-input-98-guesses>"
    src = ["ema.weight.lerp_(w, 0.01)", "torch.add(a, b, out=c)"]
    linecache.cache[name] = (0, None, [ln + "\n" for ln in src], name)
    report = MismatchReport("device", "lerp_", "cuda:0", (), ())
    assert [g.edit.new[0] for g in line_guesses(report, name, 1)] == [
        'ema.weight.lerp_(w.to("cuda:0"), 0.01)']
    assert [g.edit.new[0] for g in line_guesses(report, name, 2)] == [
        'torch.add(a.to("cuda:0"), b, out=c)', 'torch.add(a, b.to("cuda:0"), out=c)']
    # NB: a temporary written in place is all the op returns: it may be rewritten
    linecache.cache[name] = (0, None, ["torch.full((2, 3), 0.0).scatter_(1, i, 1.0)\n"], name)
    assert 'torch.full((2, 3), 0.0).to("cuda:0").scatter_(1, i, 1.0)' in [
        g.edit.new[0] for g in line_guesses(report, name, 1)]


def test_a_devices_fix_that_leaves_its_finding_or_does_harm_is_not_verified() -> None:
    """What ``%devices``' rehearsal rejects, each for its own reason: a fix that runs and clears
    nothing, one that rebinds a trained Parameter, and one that brings a new error."""
    from dataclasses import replace

    from devicelens.analysis import diagnose
    from devicelens.guard.rehearsal import rehearsed_findings
    from devicelens.inspect import take_snapshot

    model = torch.nn.Linear(8, 4).to("meta")
    prompt = torch.nn.Parameter(torch.randn(2, 8))
    ns = {"torch": torch, "model": model, "x": torch.randn(2, 8), "prompt": prompt,
          "popt": torch.optim.Adam([prompt])}

    def again(copy):
        return diagnose(take_snapshot({k: v for k, v in copy.items() if k != "torch"}))

    found = again(ns)
    x = next(f for f in found if f.objects == ("x",))
    fixes = [replace(x, fix='x = x.to("cpu")'),  # runs, clears nothing
             replace(x, id="harm", fix='prompt = prompt.to("meta")'),  # rebinds a Parameter
             replace(x, id="new", fix='x = x.to("meta")'),  # the fix as it should be
             replace(x, id="worse", fix='x = x.to("meta")\nmodel.extra = torch.ones(2)')]
    others = [f for f in found if f is not x]  # NB: what was there before is no new finding
    verdicts = [f.verdict for f in rehearsed_findings(fixes + others, ns, again)[:4]]
    assert verdicts[0] == "not verified: after this fix, still: x is not on meta"
    assert verdicts[1].startswith("not verified: the fix would do harm: `prompt` would be "
                                  "rebound to a copy that its optimizer never trains")
    assert verdicts[2].startswith("verified: rehearsed on a copy of this kernel's state")
    assert verdicts[3] == ("not verified: after this fix, a new error: model.extra was left on "
                           "cpu")
    assert ns["x"].device.type == "cpu" and ns["prompt"] is prompt and "extra" not in vars(model)


def test_a_model_split_on_purpose_stays_split(fake_cuda) -> None:
    """Model parallelism (each part whole on its own GPU) is a placement, not a stray: a fix
    that puts the whole model on one GPU runs and undoes it (SAM on a two-GPU model)."""
    model = torch.nn.Sequential(fake_cuda.to(torch.nn.Linear(4, 4), "cuda:0"),
                                fake_cuda.to(torch.nn.Linear(4, 2), "cuda:1"))
    ns = {"model": model}
    before = _harm.links(ns)
    assert _harm.harms(before, ns) == []
    fake_cuda.to(model, "cuda:0")
    assert _harm.harms(before, ns) == [
        "`model` is split over cuda:0, cuda:1 on purpose (each part whole on one device); the "
        "fix would put it all on cuda:0"]
    # NB: a part left on the cpu is a stray: moving the whole model is the fix, not a harm
    stray = torch.nn.Sequential(fake_cuda.to(torch.nn.Linear(4, 4), "cuda:0"),
                                torch.nn.Linear(4, 2))
    ns = {"stray": stray}
    before = _harm.links(ns)
    fake_cuda.to(stray, "cuda:0")
    assert _harm.harms(before, ns) == []


def test_where_the_parts_of_a_two_gpu_placement_meet_is_the_fix_that_lasts(
        ip, ns, capsys, fake_cuda):
    """SAELens's evaluation with the LLM on cuda:0 and the SAE on cuda:1, on purpose: the mask
    made from the tokens meets the SAE's output in the user's function. ``sae.to("cuda:0")``
    runs the cell and undoes the layout the user chose; the edit where the parts meet, the mask
    taken to the SAE's output, runs too and keeps both models where they are. The edited
    function is named first, and the mask is the culprit."""
    ip.run_cell('''
def recons(sae, model, tokens):
    acts = model(tokens)
    mask = torch.ones(tokens.shape[0], 1, dtype=torch.bool, device=tokens.device)
    out = sae(acts.to(next(sae.parameters()).device))
    return torch.where(mask, out, torch.zeros_like(out))
''', store_history=False)
    # NB: no autograd on fake cuda tensors (it aborts the process)
    cell = "with torch.no_grad():\n    r = recons(sae, model, tokens)\n"
    ns["model"] = fake_cuda.to(torch.nn.Linear(4, 4), "cuda:0")
    ns["sae"] = fake_cuda.to(torch.nn.Linear(4, 4), "cuda:1")
    ns["tokens"] = fake_cuda.randn(3, 4, device="cuda:0")
    _err, out, _ = run(ip, capsys, cell, fake_cuda)
    text = diagnosis(out)
    assert "  culprit: recons (a function: the line to edit is in it); expected cuda:1\n" in text
    assert "culprit: `mask` in recons (bool[3, 1] on cuda:0); expected cuda:1" in text, text
    assert "+ return torch.where(mask.to(out.device), out, torch.zeros_like(out))" in text, text
    assert "sae.to(" not in text and text.rstrip().endswith(VERIFIED), text
    # NB: both models on one GPU, the tokens on the other: a stray, moved in the namespace
    ns["sae"] = fake_cuda.to(torch.nn.Linear(4, 4), "cuda:0")
    ns["tokens"] = fake_cuda.randn(3, 4, device="cuda:1")
    _err, out, _ = run(ip, capsys, cell, fake_cuda)
    text = diagnosis(out)
    assert _parse.fix_code(text) == 'tokens = tokens.to("cuda:0")', text


def test_an_optimizer_s_stale_parameters_may_be_relinked() -> None:
    """``model.to()`` after the optimizer was made (a move that made new Parameters): the
    optimizer's are held by nothing else, so relinking it to the model's is the fix."""
    model = torch.nn.Linear(3, 2)
    opt = torch.optim.SGD([torch.nn.Parameter(p.detach().clone()) for p in model.parameters()])
    ns = {"model": model, "opt": opt}
    before = _harm.links(ns)
    ns["opt"] = torch.optim.SGD(model.parameters())
    assert _harm.harms(before, ns) == []
    # NB: an optimizer over the model's own parameters, rebuilt over others, is harm
    ns = {"model": model, "opt": torch.optim.SGD(model.parameters())}
    before = _harm.links(ns)
    ns["opt"] = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))])
    assert _harm.harms(before, ns) == ["`opt` would no longer train 2 of its parameters"]


def test_the_next_in_place_update_of_the_same_tensor_is_the_rehearsals_next_round(ip, ns, capsys):
    """``count.clamp_(0, bound)`` on an int64 tensor with a float bound, then ``count.mul_(lo)``:
    the first line's out-of-place edit alone would stop at the second. No rule looks ahead for
    it: the rehearsal runs the function with the first edit, meets the second line and adds its
    edit. A product by 0.5 is no whole number: ``count`` takes the float result (written back
    into int64 it would be truncated), so the third line has nothing left to mend."""
    cell = ("def squash(count, lo, hi):\n"
            "    count.clamp_(0, hi)\n"
            "    count.mul_(lo)\n"
            "    count.clamp_(lo, hi)\n"
            "    return count\n"
            "out = squash(torch.arange(6), 0.5, 3.5)\n")
    _err, out, _ = run(ip, capsys, cell)
    text = diagnosis(out)
    assert text.count("  edit: ") == 2, text
    assert "+ count.copy_(count.clamp(0, hi))" in text and "+ count = count.mul(lo)" in text
    assert text.rstrip().endswith(VERIFIED), text
    fixed = _apply_printed(ip, text, cell)
    assert ip.run_cell(fixed, store_history=False).error_in_exec is None
    assert ns["out"].tolist() == [0.5, 0.5, 1.0, 1.5, 1.5, 1.5]  # NB: no product truncated


def test_past_the_failing_line_is_read_in_the_same_function_and_net_of_the_lines_edits_add():
    """A stop (time limit, a refused write) counts as past the failing line only later in the
    same function, or later at the top level; lines an edit inserted push the rest down."""
    from devicelens.guard.diagnosis._edits import Edit
    from devicelens.guard.rehearsal._attempt import Attempt
    from devicelens.guard.rehearsal._loop import Cell, _past

    src = "def step():\n    a = 1\n    raise RuntimeError('x')\n\nstep()\n"
    try:
        exec(compile(src, "train.py", "exec"), {})
    except RuntimeError as e:
        tb = e.__traceback__
    cell = Cell("train.py", 5, lambda code, ns: None, tb)
    stop = lambda *where: Attempt(ran=True, reached=where[-1][1], stopped="10 s", where=where)  # noqa: E731
    assert _past(stop(("<module>", 5), ("step", 4)), cell)  # later in step()
    assert not _past(stop(("<module>", 5), ("step", 2)), cell)  # before the failing line
    assert _past(stop(("<module>", 7),), cell)  # later at the top level
    # one line inserted above by the fix: step()'s line 4 is the old failing line 3
    edit = Edit("train.py line 3 (in step)", ("    raise RuntimeError('x')",),
                ("    a = 2", "    raise RuntimeError('x')"), "train.py", "step")
    assert not _past(stop(("<module>", 6), ("step", 4)), cell, [edit])
    assert _past(stop(("<module>", 6), ("step", 5)), cell, [edit])
    # a stop in another function says nothing, whatever its line number
    assert not _past(stop(("<module>", 5), ("load_data", 40)), cell)


# --- guesses outward, names where the stray is made --------------------------------------

def test_a_stray_passed_in_by_a_caller_is_moved_where_the_caller_passes_it(ip, ns, capsys):
    """A helper's ``self.model.generate(ids)`` with the cpu ``ids``: moving it inside the model
    leaves the loop's next line; the caller's code, one frame out, is the fix that runs: the
    line that makes ``ids``, on the device of the one model the helper holds."""
    ip.run_cell('''
class Tiny(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
    def forward(self, x):
        return self.lin(x)
    def generate(self, x, steps):
        for _ in range(steps):
            x = x + self(x)
        return x
class Agent:
    def __init__(self, model):
        self.model = model
    def chat(self, text):
        ids = torch.tensor([[float(ord(c) % 10) for c in text[:4]]])
        return self.model.generate(ids, steps=2)
agent = Agent(Tiny().to("meta"))
''', store_history=False)
    cell = 'out = agent.chat("hello")\n'
    _err, out, _ = run(ip, capsys, cell)
    text = diagnosis(out)
    assert "      + ids = torch.tensor([[float(ord(c) % 10) for c in text[:4]]], " \
           "device=next(self.model.parameters()).device)\n" in text, text
    assert "Tiny.forward, cell" not in text.split("edit:", 1)[1], text
    assert text.rstrip().endswith(VERIFIED)


def test_the_culprit_is_the_local_the_edited_line_makes(ip, ns, capsys):
    """`distinct` is derived from `eye`, which the edited line makes on the cpu: `eye` is
    the culprit (the stray is where it was made)."""
    ip.run_cell('''
def mask(labels):
    eye = torch.eye(labels.size(0)).bool()
    distinct = ~eye
    return (labels.unsqueeze(0) == labels.unsqueeze(1)) & distinct
labels = torch.randint(0, 3, (4,)).to("meta")
''', store_history=False)
    _err, out, _ = run(ip, capsys, "m = mask(labels)\n")
    text = diagnosis(out)
    assert "culprit: `eye` in mask (bool[4, 4] on cpu)" in text, text
    assert "+ eye = torch.eye(labels.size(0), device=labels.device).bool()" in text


def test_values_written_into_a_tensor_take_its_dtype(ip, ns, capsys):
    """``a[idx] = v`` with int32 values into an int64 tensor: no culprit in the message; the
    values' local, cast to what they are written into, gets the cell past it, and the int32
    array it was made from is then the culprit, mended to that dtype."""
    ip.run_cell('''
def targets(gt, idx):
    out = torch.full((10,), -100, dtype=torch.long)
    gt_tensor = torch.from_numpy(gt)
    out[idx] = gt_tensor[idx]
    return out
import numpy as np
gt = np.arange(10).astype(np.int32)
idx = torch.tensor([1, 3])
''', store_history=False)
    cell = "t = targets(gt, idx)\n"
    _err, out, _ = run(ip, capsys, cell)
    text = diagnosis(out)
    assert "culprit: gt (numpy int32[10]), read by the cell; expected int64" in text, text
    assert "note: `gt_tensor` in targets is made from data the cell reads" in text
    assert _parse.fix_code(text) == 'gt = gt.astype("int64")' and text.rstrip().endswith(VERIFIED)
    assert ip.run_cell(_apply_printed(ip, text, cell)).error_in_exec is None
    assert ns["t"].dtype == torch.int64 and ns["gt"].dtype.name == "int64"


def test_a_tensor_the_edit_leaves_as_it_is_is_named_by_the_local_it_changes(ip, ns, capsys):
    """``prev_k = best / n`` (true division) kept in ``beam.prev_ks``: the edit casts the local
    ``prev_k``; ``beam.prev_ks[0]`` stays float, so it is not what the fix changes."""
    ip.run_cell('''
class Beam:
    def __init__(self):
        self.prev_ks = []
    def advance(self, scores, att):
        best = scores.topk(2).indices
        prev_k = best / 3
        self.prev_ks.append(prev_k)
        return att.index_select(0, prev_k)
beam = Beam()
scores, att = torch.randn(6), torch.randn(4, 5)
''', store_history=False)
    _err, out, _ = run(ip, capsys, "a = beam.advance(scores, att)\n")
    text = diagnosis(out)
    assert "culprit: `prev_k` in Beam.advance" in text, text
    assert "beam.prev_ks[0] (" not in text


def test_lengths_that_must_be_on_the_cpu_are_moved_there_and_nothing_else() -> None:
    """``pack_padded_sequence(embedded, lengths)`` inside a model: the cpu is the one device a
    literal names rightly everywhere; only the culprit goes there, never the data; a size or
    a shape is never moved."""
    import linecache

    from devicelens.guard.diagnosis._blame import Named, describe_tensor
    from devicelens.guard.diagnosis._mismatch import MismatchReport
    from devicelens.guard.rehearsal._candidates import line_guesses

    name = "<ipython-input-97-guesses>"
    src = ["def forward(self, embedded, lengths):",
           "    return pack_padded_sequence(embedded, lengths, lengths.size(0))"]
    linecache.cache[name] = (0, None, [ln + "\n" for ln in src], name)
    lengths = torch.tensor([3, 2], device="meta")  # NB: meta plays the GPU
    culprit = describe_tensor(lengths, "lengths", Named("lengths", "", "local", ""))
    report = MismatchReport("device", "pack_padded_sequence", "cpu", (culprit,), (culprit,))
    scope = {"embedded": torch.zeros(3, 2, 4, device="meta"), "lengths": lengths}
    assert [g.edit.new[0] for g in line_guesses(report, name, 2, "Net.forward", scope)] == [
        "    return pack_padded_sequence(embedded, lengths.cpu(), lengths.size(0))"]


def test_an_index_is_cast_inside_a_lookup_and_the_indexed_tensor_never() -> None:
    """``emission[tokens.clamp(min=0)]`` with float ``tokens``: the index inside the brackets
    is an operand (cast to long); the tensor it indexes is not."""
    import linecache

    from devicelens.guard.diagnosis._mismatch import MismatchReport
    from devicelens.guard.rehearsal._candidates import line_guesses

    name = "<ipython-input-95-guesses>"
    src = ["def pick(emission, tokens):", "    return emission[tokens.clamp(min=0)]"]
    linecache.cache[name] = (0, None, [ln + "\n" for ln in src], name)
    report = MismatchReport("index_dtype", "index", "int64", (), ())
    scope = {"emission": torch.zeros(5), "tokens": torch.zeros(0)}
    got = [g.edit.new[0] for g in line_guesses(report, name, 2, "pick", scope)]
    assert got == ["    return emission[tokens.clamp(min=0).long()]",
                   "    return emission[tokens.long().clamp(min=0)]"], got


def test_a_guess_edit_a_later_one_made_needless_is_dropped_and_the_first_edit_never() -> None:
    """Completing a fix can add an edit that got past a line by moving an innocent operand,
    then a later one that fixes the stray where it is made: the earlier guess goes, the
    diagnosis's own edit stays even where the cell would run without it, and a guess the cell
    still needs stays."""
    from devicelens.guard.diagnosis._edits import Edit
    from devicelens.guard.rehearsal._attempt import Attempt
    from devicelens.guard.rehearsal._loop import _needed_edits

    first = Edit("cell line 2", ("a = f(x)",), ("a = f(x.cpu())",))
    innocent = Edit("cell line 3", ("b = g(a, w)",), ("b = g(a, w.cpu())",))
    real = Edit("cell line 1", ("x = make()",), ("x = make(device=d)",))
    needed_together = Edit("cell line 4", ("c = h(b)",), ("c = h(b.long())",))
    tried: list[list[str]] = []

    def run(units):
        tried.append([u.where for u in units])
        ok = real in units and (needed_together in units)
        return Attempt(ran=ok), ""

    units = [first, innocent, real, needed_together]
    got = _needed_edits(units, [first], run, deadline=float("inf"))
    assert got == [first, real, needed_together]
    # NB: the last guess is tried first, and the start's edit is never tried without
    assert tried == [["cell line 2", "cell line 3", "cell line 1"],
                     ["cell line 2", "cell line 3", "cell line 4"],
                     ["cell line 2", "cell line 1", "cell line 4"]]
    # a run that stops at the time limit past the failing line, or does harm, keeps the edit
    assert _needed_edits(units, [first], lambda u: (Attempt(ran=True, harm="x"), ""),
                         float("inf")) == units
    assert _needed_edits(units, [first], lambda u: (Attempt(ran=True, reached=3), ""),
                         float("inf")) == units
    assert _needed_edits(units, [first], lambda u: (Attempt(ran=True), "fork failed"),
                         float("inf")) == units


LIBRARY = """
import numpy as np
import torch.nn.functional as F
class Classifier:
    def __init__(self):
        self.model = nn.Linear(4, 3)
    def fit(self, x, y):
        text, label = torch.from_numpy(x), torch.from_numpy(y)
        return F.cross_entropy(self.model(text), label)
class Split:
    def __init__(self, x, y):
        self.x, self.y = x, y
clf = Classifier()
train = Split(np.random.rand(6, 4).astype(np.float32), np.array([0, 1, 2, 0, 1, 2], np.int32))
"""


def test_a_local_made_from_the_cells_data_is_named_by_that_data_and_the_data_mended(
        ip, ns, capsys):
    """A library function makes the int32 ``label`` from the array the cell hands it: the
    culprit a user can mend is ``train.y``, and its fix (rehearsed) makes the cell run; the
    library's code is not edited."""
    assert ip.run_cell(LIBRARY, store_history=False).error_in_exec is None
    cell = "loss = clf.fit(train.x, train.y)\n"
    _err, out, _ = run(ip, capsys, cell)
    text = diagnosis(out)
    assert _parse.culprits(text) == ["train.y"], text
    assert _parse.fix_code(text) == 'train.y = train.y.astype("int64")' and not _parse.edits(text)
    assert "note: `label` in Classifier.fit is made from data the cell reads" in text
    assert text.rstrip().endswith(VERIFIED)
    assert ip.run_cell(_apply_printed(ip, text, cell)).error_in_exec is None
    assert ns["train"].y.dtype.name == "int64" and ns["train"].x.dtype.name == "float32"


def test_of_the_cells_data_only_what_made_the_stray_is_named(ip, ns, capsys):
    """Two float64 arrays read by the cell, one of them only printed: the rehearsal mends both,
    drops the one the cell runs without, and names the other; a list of arrays, every one
    wrong, is mended in one line."""
    ip.run_cell("import numpy as np\nmodel = nn.Linear(3, 1)\n"
                "class Slices:\n    def __init__(self):\n"
                "        self.parts = [np.ones((2, 3)), np.ones((2, 3))]\n"
                "data = Slices()\nstats = np.zeros(3)\n", store_history=False)
    cell = ("def run(ds, stats):\n    print(stats.shape)\n"
            "    return [model(torch.from_numpy(p)) for p in ds.parts]\nout = run(data, stats)\n")
    _err, out, _ = run(ip, capsys, cell)
    text = diagnosis(out)
    assert _parse.culprits(text) == ["data.parts"], text
    assert _parse.fix_code(text) == 'data.parts = [v.astype("float32") for v in data.parts]'
    assert ip.run_cell(_apply_printed(ip, text, cell)).error_in_exec is None
    assert ns["stats"].dtype.name == "float64"


def test_data_whose_mending_does_not_make_the_cell_run_leaves_the_code_fix(ip, ns, capsys):
    """The stray is made inside the function (``torch.zeros(3, dtype=torch.float64)``), not
    from the float64 array the cell reads: mending the array does not make the cell run, so the
    fix stays an edit of the function (the rules' own)."""
    ip.run_cell("import numpy as np\nmodel = nn.Linear(3, 1)\nscale = np.ones(3)\n",
                store_history=False)
    cell = ("def step(scale):\n    bias = torch.zeros(3, dtype=torch.float64)\n"
            "    return model(bias) * float(scale.sum())\nout = step(scale)\n")
    _err, out, _ = run(ip, capsys, cell)
    text = diagnosis(out)
    assert "scale" not in _parse.fix_code(text) and _parse.edits(text), text
    assert _parse.edits(text)[0].where.endswith("(in step)") and "scale" not in _parse.culprits(
        text), text
    assert ip.run_cell(_apply_printed(ip, text, cell)).error_in_exec is None


def test_a_dtype_error_is_traced_to_where_the_dtypes_first_met(ip, ns, capsys):
    """A float32 mask multiplied into bfloat16 activations is promoted without an error; PyTorch
    raises two lines later, in the bfloat16 Linear. The guard, run again on a sandboxed copy,
    stops where they met: the culprit is the mask, and the edit is of the line that made it."""
    ip.run_cell("head = nn.Linear(8, 2).bfloat16()\n", store_history=False)
    cell = ("def pool(h, attention):\n"
            "    mask = attention.unsqueeze(-1).expand(h.size()).float()\n"
            "    pooled = (h * mask).sum(1)\n"
            "    return head(pooled)\n"
            "out = pool(torch.randn(2, 3, 8).bfloat16(), torch.ones(2, 3))\n")
    _err, out, _ = run(ip, capsys, cell)
    text = diagnosis(out)
    assert "`mask` in pool" in " ".join(_parse.culprits(text)), text
    assert [e.old for e in _parse.edits(text)] == [
        ("mask = attention.unsqueeze(-1).expand(h.size()).float()",)], text
    assert "note: the dtypes first met here, promoted without an error; PyTorch raised later, " \
           "at cell" in text and text.rstrip().endswith(VERIFIED)
    assert ip.run_cell(_apply_printed(ip, text, cell)).error_in_exec is None


def test_a_count_is_never_taken_for_the_data_a_stray_came_from(ip, ns, capsys):
    """Averaging state dicts whose ``num_batches_tracked`` is a 0-dim int64: mending the count in
    the namespace would make the cell run, but a count is no data; the fix stays the edit of
    the in-place line."""
    ip.run_cell("states = [{'w': torch.ones(2), 'n': torch.tensor(3)} for _ in range(2)]\n",
                store_history=False)
    cell = ("def average(states):\n    avg = {k: v.clone() for k, v in states[0].items()}\n"
            "    for k in avg:\n        avg[k] += states[1][k] / 2\n    return avg\n"
            "out = average(states)\n")
    _err, out, _ = run(ip, capsys, cell)
    text = diagnosis(out)
    assert "states" not in _parse.fix_code(text) and _parse.edits(text), text
    assert ip.run_cell(_apply_printed(ip, text, cell)).error_in_exec is None
    assert ns["states"][0]["n"].dtype == torch.int64


def test_an_index_error_with_no_culprit_of_its_own_is_traced_to_the_data(ip, ns, capsys):
    """``scatter_`` with int8 category codes: the message names no operand, so the first
    diagnosis has only an edit; the guess that casts the local ``y`` names a culprit, and the
    data it was made from (a list of int8 tensors the cell loops over) is mended in one line."""
    ip.run_cell("codes = [torch.tensor([0, 2, 1], dtype=torch.int8) for _ in range(2)]\n",
                store_history=False)
    cell = ("def ohe(v, dim):\n    y = v.reshape(-1, 1)\n    out = torch.zeros(len(v), dim)\n"
            "    out.scatter_(1, y, 1)\n    return out\n"
            "preds = [ohe(cd, 3) for cd in codes]\n")
    _err, out, _ = run(ip, capsys, cell)
    text = diagnosis(out)
    assert _parse.culprits(text) == ["codes"], text
    assert _parse.fix_code(text) == "codes = [v.long() for v in codes]" and not _parse.edits(text)
    assert text.rstrip().endswith(VERIFIED)
    assert ip.run_cell(_apply_printed(ip, text, cell)).error_in_exec is None


def test_a_trainers_batch_is_traced_to_the_data_a_benchmark_wraps(ip, ns, capsys):
    """avalanche: ``strategy.mbatch[1]`` (int32 labels) is what the loss met, a batch the
    strategy's loop makes again from the data each step; mending it in the namespace is no
    fix. The data it comes from sits five steps below the name the cell reads
    (``scenario.stream[0].dataset.inner.targets``) and is mended where the user holds it."""
    ip.run_cell(
        "class Sets(torch.utils.data.Dataset):\n"
        "    def __init__(self):\n"
        "        self.x = torch.randn(8, 3)\n"
        "        self.targets = torch.tensor([0, 1, 2, 1, 0, 1, 2, 0], dtype=torch.int32)\n"
        "    def __len__(self):\n        return 8\n"
        "    def __getitem__(self, i):\n        return self.x[i], self.targets[i]\n"
        "class Wrapped(torch.utils.data.Dataset):\n"
        "    def __init__(self, inner):\n        self.inner = inner\n"
        "    def __len__(self):\n        return len(self.inner)\n"
        "    def __getitem__(self, i):\n        return self.inner[i]\n"
        "class Exp:\n    def __init__(self, d):\n        self.dataset = d\n"
        "class Scenario:\n    def __init__(self, ds):\n"
        "        self.stream = [Exp(Wrapped(d)) for d in ds]\n"
        "class Strategy:\n"
        "    def __init__(self, model):\n        self.model, self.mbatch = model, None\n"
        "    def train(self, exp):\n"
        "        for self.mbatch in torch.utils.data.DataLoader(exp.dataset, batch_size=4):\n"
        "            out = self.model(self.mbatch[0])\n"
        "            loss = torch.nn.functional.cross_entropy(out, self.mbatch[1])\n"
        "sets = [Sets() for _ in range(2)]\n"
        "scenario = Scenario(sets)\n"
        "strategy = Strategy(torch.nn.Linear(3, 3))\n", store_history=False)
    cell = "for exp in scenario.stream:\n    strategy.train(exp)\n"
    _err, out, _ = run(ip, capsys, cell)
    text = diagnosis(out)
    assert {"sets[0].targets", "sets[1].targets"} <= set(_parse.culprits(text)), text
    assert "strategy.mbatch" not in _parse.fix_code(text) and not _parse.edits(text), text
    assert text.rstrip().endswith(VERIFIED)
    assert ip.run_cell(_apply_printed(ip, text, cell)).error_in_exec is None
    assert ns["sets"][1].targets.dtype == torch.int64


def test_a_running_objects_own_data_stays_a_source(ip, ns, capsys):
    """stable-baselines3: the float64 actions a replay buffer keeps, held by the agent whose
    ``train`` failed. Only the stray the step made is remade each step; the agent's data is
    data, and mending it is the fix."""
    import numpy as np

    ns["np"] = np
    ip.run_cell(
        "class Agent:\n"
        "    def __init__(self):\n"
        "        self.actions = np.random.rand(16, 3)\n"
        "        self.net = torch.nn.Linear(3, 1)\n"
        "    def train(self):\n"
        "        self.batch = torch.as_tensor(self.actions[:4])\n"
        "        return self.net(self.batch)\n"
        "agent = Agent()\n", store_history=False)
    cell = "out = agent.train()\n"
    _err, out, _ = run(ip, capsys, cell)
    text = diagnosis(out)
    assert _parse.fix_code(text) == 'agent.actions = agent.actions.astype("float32")', text
    assert text.rstrip().endswith(VERIFIED)


def test_a_models_own_attributes_are_never_a_running_objects_state() -> None:
    """Only what a plain object's running method assigns counts as remade each step (its
    batch); a model's attributes are weights and buffers, and what the code only reads (a
    distribution's ``loc``) is the user's to mend."""
    from devicelens.guard.diagnosis._blame import Named, Operand
    from devicelens.guard.diagnosis._mismatch import MismatchReport
    from devicelens.guard.rehearsal._sources import loose, running_objects

    class Trainer:
        pass

    trainer, model = Trainer(), torch.nn.Linear(2, 2)
    ns = {"trainer": trainer, "model": model, "alias": trainer, "other": Trainer()}
    found = running_objects(ns, [(model, frozenset({"weight"})), (trainer, frozenset({"batch"}))])
    assert found == {"trainer": {"batch"}, "alias": {"batch"}}

    def held(code: str) -> Operand:
        return Operand("", Named(code, code, "tensor", code.split(".")[0]), "cpu", "int32", (4,))

    culprits = (held("trainer.batch[1]"), held("trainer.data"), held("model.weight"))
    report = MismatchReport("dtype", "cross_entropy", "int64", culprits, culprits)
    assert [c.named.code for c in loose(report, frozenset(), found)] == ["trainer.batch[1]"]


def test_no_input_is_moved_for_a_model_split_over_gpus_on_purpose(fake_cuda) -> None:
    """A stray local met inside a model split over cuda:0 and cuda:1 (a reward head's
    ``ends``): the cell's cpu input is no data to move to the second GPU (the model takes it on
    its first); beside a model on one GPU it is."""
    import linecache

    from devicelens.guard.diagnosis._blame import Named, describe_tensor
    from devicelens.guard.diagnosis._mismatch import MismatchReport
    from devicelens.guard.rehearsal._sources import source_fixes

    name = "<ipython-input-93-sources>"
    linecache.cache[name] = (0, None, ["scores = model(ids)\n"], name)
    ends = fake_cuda.to(torch.zeros(2, 1), "cuda:0")
    culprit = describe_tensor(ends, "`ends`", Named("`ends` in Head.forward", "", "local", ""))
    report = MismatchReport("device", "gather", "cuda:1", (culprit,), (culprit,))
    ids = fake_cuda.to(torch.zeros(2, 9), "cuda:0")
    split = torch.nn.Sequential(fake_cuda.to(torch.nn.Linear(4, 4), "cuda:0"),
                                fake_cuda.to(torch.nn.Linear(4, 2), "cuda:1"))
    assert source_fixes(report, name, {"model": split, "ids": ids}) == {}
    whole = fake_cuda.to(torch.nn.Linear(4, 2), "cuda:1")
    assert list(source_fixes(report, name, {"model": whole, "ids": ids})) == [
        'ids = ids.to("cuda:1")']


def test_a_model_the_running_code_never_meets_with_its_data_is_moved_to_the_data(
        ip, ns, capsys, fake_cuda):
    """pytorch-ignite: an evaluator made for the cpu moves each batch to the cpu, and the model
    it was given was since moved to the GPU (by the evaluator made for the GPU). Moving the
    batch to the model is undone by the evaluator itself ("after this fix the cell still
    fails"): the model, moved to where the evaluator puts the data, is the fix that runs."""
    # NB: the evaluator is a library's (no source to edit, as code installed elsewhere)
    exec(compile('def evaluate(model, batch, device="cpu"):\n'
                 '    x = batch.to(device)\n'
                 '    return model(x)\n', "<library evaluator>", "exec"), ns)
    ns["model"] = fake_cuda.to(torch.nn.Sequential(torch.nn.Linear(4, 2)), "cuda:0")
    ns["batch"] = torch.randn(3, 4)
    err, _out, _ = run(ip, capsys, "%%cuda_safe --no-preflight\nout = evaluate(model, batch)\n",
                       fake_cuda)
    text = str(err)
    assert "culprit: model (Sequential, on cuda:0: the module the op ran in); expected cpu" in text
    assert '      model.to("cpu")\n' in text and text.endswith("\n" + VERIFIED), text


def test_the_cells_own_name_that_failed_stays_a_culprit_beside_its_source(ip, ns, capsys):
    """MONAI's densenet example on Windows: ``labels`` of ``loss_function(outputs, labels)`` is
    an int32 batch the loop makes from the dataset's int32 array each step. The fix mends the
    array, and the name the failing line reads is named too (it was only in a note)."""
    ip.run_cell('''
import numpy as np
class Ds:
    def __init__(self, labels):
        self.labels = labels
    def __getitem__(self, i):
        return torch.randn(4), self.labels[i]
train_ds = Ds(np.array([0, 1, 0, 1], dtype=np.int32))
net = torch.nn.Linear(4, 2)
loss_function = torch.nn.CrossEntropyLoss()
''', store_history=False)
    cell = ("for i in range(2):\n    x, y = train_ds[2 * i], train_ds[2 * i + 1]\n"
            "    inputs = torch.stack([x[0], y[0]])\n"
            "    labels = torch.from_numpy(np.array([x[1], y[1]]))\n"
            "    loss = loss_function(net(inputs), labels)\n")
    _err, out, _ = run(ip, capsys, cell)
    text = diagnosis(out)
    assert "culprit: labels (int32[2] on cpu), `target` in cross_entropy; expected int64" in text, \
        text
    assert "culprit: train_ds.labels (numpy int32[4]), read by the cell; expected int64" in text
    assert _parse.fix_code(text) == 'train_ds.labels = train_ds.labels.astype("int64")'
    assert text.rstrip().endswith(VERIFIED), text


def test_an_edit_of_a_class_whose_name_now_holds_its_instance_is_rehearsed(ip, ns, capsys):
    """SpeechBrain's VAD: ``VAD = VAD.from_hparams(...)`` rebinds the class's name to its
    instance; an edit of ``VAD.get_speech_prob`` is still the class's method, rehearsed."""
    setup = ("class VAD(nn.Module):\n"
             "    def __init__(self):\n        super().__init__()\n"
             "        self.fc = nn.Linear(4, 2)\n"
             "    def get_speech_prob(self, n):\n"
             "        feats = torch.ones(n, 4)\n"
             "        return self.fc(feats)\n"
             "VAD = VAD().to('meta')\n")
    assert ip.run_cell(setup, store_history=False).error_in_exec is None
    cell = "prob = VAD.get_speech_prob(3)\n"
    err, out, _ = run(ip, capsys, cell)
    assert err is not None
    text = diagnosis(out)
    assert "edit: in `VAD` (VAD.get_speech_prob" in text, text
    assert text.rstrip().endswith("\n" + VERIFIED), text


def test_a_culprit_the_verified_fix_leaves_alone_is_not_named(ip, ns, capsys):
    """PyKEEN's loop: its Adagrad state was made on the cpu, and its ``heads`` sit on the cpu
    too, moved where ``train`` reads them. The step fails on the state alone; the rehearsal
    proves the optimizer's fix enough, and ``loop.heads``, which it leaves alone, is not named.
    """
    setup = ("torch.__future__.set_swap_module_params_on_conversion(True)\n"
             "class Loop:\n"
             "    def __init__(self, model, opt, heads):\n"
             "        self.model, self.opt, self.heads = model, opt, heads\n"
             "    def train(self):\n"
             "        h = self.heads.to('meta')\n"
             "        for p in self.model.parameters():\n"
             "            p.grad = torch.ones_like(p)\n"
             "        self.opt.step()\n"
             "        return h\n"
             "model = nn.Linear(4, 4)\n"
             "opt = torch.optim.Adagrad(model.parameters(), lr=0.1)\n"
             "model.to('meta')\n"
             "loop = Loop(model, opt, torch.zeros(8, dtype=torch.long))\n")
    assert ip.run_cell(setup, store_history=False).error_in_exec is None
    err, out, _ = run(ip, capsys, "h = loop.train()\n")
    assert err is not None
    text = diagnosis(out)
    assert "culprit: loop.opt (" in text, text
    assert "loop.heads" not in text, text
    assert text.rstrip().endswith("\n" + VERIFIED), text


PRIVATE = """
import torch
from torch import nn

class Sampler(nn.Module):
    def __init__(self):
        super().__init__()
        self.scale = nn.Parameter(torch.ones(1))
    def __clamp(self):
        return torch.max(torch.Tensor([0.]), self.scale - 10)
    def forward(self):
        return self.__clamp()

q = Sampler().to("meta")
"""


def test_an_edit_of_a_private_method_is_rehearsed(ip, capsys):
    """s-vae's ``VonMisesFisher.__sample_w_rej``: the class's ``__dict__`` holds a private
    method under its mangled name (``_Sampler__clamp``); the rehearsal finds it there and
    proves the edit (before: "Sampler.__clamp is no longer defined", not verified)."""
    ip.run_cell(PRIVATE, store_history=False)
    _err, out, _ = run(ip, capsys, "s = q()\n")
    text = diagnosis(out)
    assert "(in Sampler.__clamp)" in text and "torch.Tensor([0.])" in text, text
    assert text.rstrip().endswith(VERIFIED), text


AWAITED = """
import asyncio
import torch
from torch import nn

class Diarizer:
    def __init__(self):
        self.model = nn.Linear(3, 2).to("meta")
    async def diarize(self, chunk):
        await asyncio.sleep(0)
        feats = torch.ones(2, 3)
        return self.model(feats)

class Waits:
    def __await__(self):
        yield "a future of the kernel's loop"
        return 1

diarizer = Diarizer()
"""


def test_a_cell_that_awaits_at_its_top_level_is_rehearsed_and_guarded(ip, capsys):
    """WhisperLiveKit's streaming diarizer is a coroutine the notebook awaits at the top of a
    cell (IPython's autoawait). The rehearsal compiled the edited cell as plain Python ("not
    valid Python: 'await' outside function") and ``%%cuda_safe`` raised a SyntaxError. Now the
    sandbox runs the cell on an event loop of its own, and ``%%cuda_safe`` runs it where it
    is; a cell that must wait on IPython's loop is stopped with an error that says so."""
    from devicelens.guard import DeviceMismatchError

    assert run(ip, capsys, AWAITED)[0] is None
    err, out, _ = run(ip, capsys, "out = await diarizer.diarize(None)\n")
    assert err is not None
    text = diagnosis(out)
    assert "+ feats = torch.ones(2, 3, device=" in text, text
    assert VERIFIED in text, text
    err, _, _ = run(ip, capsys, "%%cuda_safe --no-preflight\nout = await diarizer.diarize(None)\n")
    assert isinstance(err, DeviceMismatchError), repr(err)
    assert VERIFIED in str(err), str(err)
    err, _, _ = run(ip, capsys, "%%cuda_safe --no-preflight\nn = await Waits()\n")
    assert "needs IPython's event loop, which a cell magic cannot reach" in str(err), repr(err)
    cell = "%%cuda_safe --no-preflight\nn = await asyncio.sleep(0, result=3)\n"
    err, _, _ = run(ip, capsys, cell)
    assert err is None and ip.user_ns["n"] == 3
