"""``python -m devicelens run``: a script runs exactly as ``python`` runs it (compared with a real
``python`` on the same script), and an uncaught mismatch gets the notebook's diagnosis.

Scripts live in ``tests/train/``. Subprocesses where the process itself is under test (argv,
exit status, signals; and under torchrun, see test_scripts_torchrun.py); in-process :func:`run`
for the torch cases (PyTorch is slow to start, and the runner is the same code).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from devicelens.scripts._args import RunOptions, parse
from devicelens.scripts.run import main, run
from tests._traces import VERIFIED, ours_in

ROOT = Path(__file__).resolve().parents[1]
TRAIN = ROOT / "tests" / "train"
ENV = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}{os.pathsep}{ROOT}"}


def python(*args: str, cwd: Path = ROOT / "tests") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=120,
                          cwd=cwd, env=ENV)


@pytest.mark.parametrize("args", [
    [], ["--lr", "3e-4", "-m", "x"], ["exit", "3"], ["exit", "0"], ["exit-message"], ["raise"],
    ["interrupt"], ["sigterm"]], ids=lambda a: " ".join(a) or "plain")
def test_a_script_runs_exactly_as_with_python(args):
    # NB: a relative path from another folder: __file__ and sys.path[0] come out absolute
    plain = python("train/probe.py", *args)
    ours = python("-m", "devicelens", "run", "train/probe.py", *args)
    assert (ours.returncode, ours.stdout, ours.stderr) == (
        plain.returncode, plain.stdout, plain.stderr)
    expected_status = {"exit": int(args[-1]) if args[:1] == ["exit"] else 0, "exit-message": 1,
                       "raise": 1, "interrupt": -2, "sigterm": -15}
    assert ours.returncode == expected_status.get(args[0] if args else "", 0)
    assert f"argv ['train/probe.py'{''.join(', ' + repr(a) for a in args)}]" in ours.stdout
    assert f"path0 {TRAIN}\nfile {TRAIN / 'probe.py'}\n" in ours.stdout


def test_the_failing_scripts_traceback_is_pythons():
    ours = python("-m", "devicelens", "run", "train/probe.py", "raise")
    assert ours.stderr.startswith("Traceback (most recent call last):\n  File \"")
    assert ours_in(ours.stderr) == [] and "runpy" not in ours.stderr  # no frame of ours
    assert ours.stderr.rstrip().endswith("ValueError: boom")
    assert "The above exception was the direct cause" in ours.stderr


def test_a_module_runs_as_with_python_m(tmp_path):
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "mod.py").write_text(
        "import sys\nprint(sys.argv, sys.path[0], __file__, __name__, __spec__.name)\n"
        "sys.exit(int(sys.argv[1]))\n")
    plain = python("-m", "pkg.mod", "4", cwd=tmp_path)
    ours = python("-m", "devicelens", "run", "-m", "pkg.mod", "4", cwd=tmp_path)
    assert (ours.returncode, ours.stdout, ours.stderr) == (4, plain.stdout, plain.stderr)
    assert ours.stdout == f"['{pkg / 'mod.py'}', '4'] {tmp_path} {pkg / 'mod.py'} __main__ " \
                          "pkg.mod\n"
    missing = python("-m", "devicelens", "run", "-m", "pkg.nope", cwd=tmp_path)
    assert (missing.returncode, missing.stderr) == (1, f"{sys.executable}: No module named "
                                                       "pkg.nope\n")


def test_a_missing_script_fails_as_with_python(tmp_path):
    plain = python("nope.py", cwd=tmp_path)
    ours = python("-m", "devicelens", "run", "nope.py", cwd=tmp_path)
    assert (ours.returncode, ours.stderr) == (plain.returncode, plain.stderr) == (
        2, f"{sys.executable}: can't open file '{tmp_path / 'nope.py'}': [Errno 2] No such file "
           "or directory\n")


# --- the command line -----------------------------------------------------------------------

def test_options_go_before_the_script_and_the_rest_is_the_scripts():
    assert parse(["--dtype", "t.py", "--guard", "-m", "x"]) == RunOptions(
        "t.py", args=("--guard", "-m", "x"), guard=True, dtype=True)
    assert parse(["--guard", "--device=cuda:1", "-m", "pkg.mod", "-v"]) == RunOptions(
        "pkg.mod", module=True, args=("-v",), guard=True, device="cuda:1")
    assert parse(["--autofix", "--allow-autofix", "--", "-odd.py"]) == RunOptions(
        "-odd.py", guard=True, autofix=True)


@pytest.mark.parametrize(("argv", "message"), [
    (["run"], "devicelens run: no script to run: give a path or -m MODULE"),
    (["run", "--autofix", "t.py"], "devicelens run: --autofix is refused in scripts: it moves "
                                   "tensors while the script runs and hides the bug"),
    (["run", "--allow-autofix", "t.py"], "devicelens run: --allow-autofix only goes with "
                                         "--autofix"),
    (["run", "--fast", "t.py"], "devicelens run: unknown option '--fast' (options go before "
                                "the script)"),
    (["run", "--device"], "devicelens run: --device needs a device, e.g. --device cuda:0"),
    (["frob"], "devicelens: unknown command 'frob'"),
    ([], "usage: python -m devicelens run"),
])
def test_bad_command_lines_exit_2_with_the_reason(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith(message) and "usage: python -m devicelens run" in err


# --- the guard over a whole script (in-process: the runner is the same code) -----------------

@pytest.fixture
def in_process(monkeypatch):
    """Run the runner here; restore what it sets up as python would (argv, sys.path[0])."""
    monkeypatch.setattr(sys, "argv", list(sys.argv))
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.setattr(sys, "excepthook", sys.__excepthook__)

    def go(*options: str) -> int:
        return run(parse(list(options)))
    return go


def test_a_device_mismatch_keeps_its_traceback_and_gets_the_diagnosis(in_process, capsys):
    assert in_process(str(TRAIN / "meta_step.py"), "device") == 1
    out = capsys.readouterr()
    assert out.out == ""
    trace, _, diagnosis = out.err.partition("\n\ndevicelens: ")
    assert trace.startswith("Traceback (most recent call last):\n  File \"" + str(TRAIN))
    assert ours_in(trace) == []  # python's traceback: no frame of the runner
    assert trace.endswith("RuntimeError: Tensor on device meta is not on the expected device cpu!")
    assert diagnosis == (
        "tensors on different devices: cpu, meta\n"
        "  culprit: batch (float32[2, 8] on cpu), `input` in Linear.forward; expected meta\n"
        "  inside: model.fc (Linear)\n"  # model and batch are main()'s locals
        "  at: meta_step.py line 19 (in Net.forward): return self.fc(x).relu()\n"
        "  from: meta_step.py line 29 (in main): out = model(batch)\n"
        # NB: a script has no next cell: its fix goes into the script, where main's names are
        "  edit: meta_step.py line 29 (in main)\n"
        "      - out = model(batch)\n"
        "      + batch = batch.to(\"meta\")\n"
        "      + out = model(batch)\n"
        "  verified: rehearsed in a sandbox, meta_step.py runs from its top to its end after "
        "this fix\n")


def test_guard_names_main_locals_and_the_line_in_main(in_process, capsys):
    assert in_process("--guard", str(TRAIN / "meta_step.py"), "device") == 1
    err = capsys.readouterr().err
    assert re.search(r"DeviceMismatchError: linear\(\) got tensors on different devices: cpu, "
                     r"meta\n  culprit: batch \(float32\[2, 8\] on cpu\), argument 1; expected "
                     r"meta\n  inside: model.fc \(Linear\)\n", err)
    assert "  from: meta_step.py line 29 (in main): out = model(batch)\n" in err
    assert err.rstrip().endswith('batch = batch.to("meta")')
    assert "\ndevicelens: " not in err  # the error's message is the report; not said twice


def test_dtype_guard_catches_a_float64_batch(in_process, capsys):
    assert in_process("--dtype", str(TRAIN / "meta_step.py"), "dtype") == 1
    err = capsys.readouterr().err
    assert "DeviceMismatchError: linear() got tensors on different dtypes: float32, float64\n" \
           "  culprit: batch (float64[2, 8] on cpu), argument 1; expected float32\n" in err
    assert err.rstrip().endswith("batch = batch.float()")


def test_autofix_when_allowed_reports_every_move_at_exit(in_process, capsys):
    assert in_process("--autofix", "--allow-autofix", str(TRAIN / "meta_step.py"), "device") == 0
    out = capsys.readouterr()
    assert out.out == "output (2, 4) meta\n"  # the script ran to its end
    assert out.err == (
        "devicelens: --autofix moved 1 op argument(s) while meta_step.py ran:\n"
        "  batch: cpu -> meta, 1x (linear, meta_step.py line 19 (in Net.forward))\n"
        "To make it permanent:\n"
        "  batch = batch.to(\"meta\")\n")


# --- a rank, in-process: torchrun's environment, simulated GPUs (FakeTensorMode) -------------

RANK_STEP = '''
import os
import torch
from torch import nn
from torch._subclasses.fake_tensor import FakeTensorMode

fake = FakeTensorMode(allow_non_fake_inputs=True)
fake.fake_tensor_converter.set_tensor_memo = lambda *a, **k: None  # Module.to() in place
local_rank = int(os.environ["LOCAL_RANK"])
model = nn.Linear(4, 2)
with fake, torch.no_grad():
    model.to("cuda:0")
    x = torch.randn(3, 4, device=f"cuda:{local_rank}")
    STEP
'''


@pytest.fixture
def rank1(monkeypatch):
    monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)
    for k, v in dict(RANK="1", WORLD_SIZE="2", LOCAL_RANK="1", LOCAL_WORLD_SIZE="2").items():
        monkeypatch.setenv(k, v)


def test_guard_on_a_rank_repeats_its_report_tagged_with_this_ranks_gpu(
        in_process, capsys, rank1, tmp_path):
    script = tmp_path / "step.py"
    script.write_text(RANK_STEP.replace("STEP", "out = model(x)"))
    assert in_process("--guard", str(script)) == 1
    err = capsys.readouterr().err
    # the guard judged by the model (cuda:0); this rank's GPU is cuda:1, so the model is wrong
    assert "DeviceMismatchError: linear() got tensors on different devices: cuda:0, cuda:1\n" \
           "  culprit: x (float32[3, 4] on cuda:1), argument 1; expected cuda:0" in err
    tagged = err[err.index("\ndevicelens [rank 1/2, local_rank 1]: "):]
    assert "  culprit: model.weight (float32[2, 4] on cuda:0), argument 2; expected cuda:1\n" \
        in tagged
    assert tagged.endswith('  fix:\n      model.to(f"cuda:{local_rank}")\n')


def test_nccls_duplicate_gpu_error_names_the_model(in_process, capsys, rank1, tmp_path):
    """NCCL's words for "every rank on cuda:0" (its text as NCCL raises it on a GPU machine)."""
    script = tmp_path / "step.py"
    script.write_text(RANK_STEP.replace("STEP", 'raise RuntimeError("NCCL error: invalid usage, '
                                              'Duplicate GPU detected : rank 1 and rank 0 both '
                                              'on CUDA device 0")'))
    assert in_process(str(script)) == 1
    err = capsys.readouterr().err
    assert err[err.index("\ndevicelens"):] == (
        "\ndevicelens [rank 1/2, local_rank 1]: NCCL found two ranks on one GPU; this process is "
        "local_rank 1, whose GPU is cuda:1\n"
        f"  at: step.py line {RANK_STEP.count(chr(10))}: raise RuntimeError(\"NCCL error: "
        "invalid usage, Duplicate GPU detected : rank 1 and rank 0 both on CUDA device 0\")\n"
        "  note: model is on cuda:0 on every rank: the code does not use LOCAL_RANK, so all ranks "
        "of this node share one GPU (with NCCL: \"Duplicate GPU detected\"); this process is "
        "local_rank 1 of 2, whose GPU is cuda:1.\n"
        "  fix:\n"
        "      model.to(f\"cuda:{local_rank}\")\n"
        "  not verified: a rank of a distributed run is not rehearsed\n")


def test_a_script_and_a_notebook_cell_get_the_same_diagnosis(in_process, capsys, ip, tmp_path):
    """One post-mortem (guard.postmortem.explain) behind both front ends."""
    code = ("import torch\nfrom torch import nn\n"
            "model = nn.Sequential(nn.Linear(8, 4), nn.ReLU()).to('meta')\n"
            "labels = torch.randn(2, 8)\n"
            "out = model(labels)\n")
    script = tmp_path / "step.py"
    script.write_text(code)
    assert in_process(str(script)) == 1
    ran = capsys.readouterr().err.split("\ndevicelens: ")[1].splitlines()
    ip.run_cell(code, store_history=False)
    cell = capsys.readouterr().out.split("\ndevicelens: ")[1].splitlines()
    assert ran[0] == cell[0] == "tensors on different devices: cpu, meta"
    assert ran[1] == cell[1] == ("  culprit: labels (float32[2, 8] on cpu), `input` in "
                                 "Linear.forward; expected meta")
    # NB: each is rehearsed: the cell on a copy of the kernel, the script from its top
    assert cell[-1] == VERIFIED and ran[-1] == (
        "  verified: rehearsed in a sandbox, step.py runs from its top to its end after this fix")
    cell, ran = cell[:-1], ran[:-1]
    where = ("  at:", "  edit:")  # NB: a file's name against a cell's
    assert [ln for ln in ran if not ln.startswith(where)] == [
        re.sub(r"\x1b\[[0-9;]*m", "", ln) for ln in cell if not ln.startswith(where)]
    assert ran[3] == "  at: step.py line 5: out = model(labels)" and cell[3] == (
        "  at: cell line 5: out = model(labels)")


def test_a_trace_is_checked_for_our_frames_not_for_the_word() -> None:
    """What the traceback tests above rely on: a clone in ``devicelens/`` is no frame of ours."""
    from tests._traces import PACKAGE_DIR

    user = '  File "/home/me/devicelens/tests/train/probe.py", line 3, in <module>'
    ours = f'  File "{PACKAGE_DIR}/scripts/run.py", line 12, in run'
    assert ours_in(user) == [] and ours_in(ours) == [ours]
    assert ours_in("ValueError: boom\n\ndevicelens: tensors on different devices") == [
        "devicelens: "]


# --- a script's fix, rehearsed ------------------------------------------------------------------

TRAIN_LOOP = '''\
import sys
import torch
from torch import nn


def main(out_dir):
    model = nn.Sequential(nn.Linear(8, 4), nn.ReLU(), nn.Linear(4, 2))
    model[0].to("meta")
    print("built", flush=True)
    for step in range(2):
        x = torch.randn(3, 8, device="meta")
        out = model(x)
    torch.save(model.state_dict(), out_dir + "/ckpt.pt")


if __name__ == "__main__":
    main(sys.argv[1])
'''


def test_a_scripts_fix_goes_into_the_script_and_is_rehearsed_from_its_top(
        in_process, capsys, tmp_path):
    """``model`` is main()'s local: a line run after the failure could not reach it, and the
    script builds it anew when run again. The fix is an edit before the failing statement, and
    the script is run again from its top in the sandbox: its output goes nowhere, and the
    checkpoint it writes once past the failing line is where the rehearsal stops."""
    script = tmp_path / "loop.py"
    script.write_text(TRAIN_LOOP)
    assert in_process(str(script), str(tmp_path)) == 1
    out = capsys.readouterr()
    assert out.out == "built\n"  # the rehearsal's run printed nothing
    report = out.err.split("\ndevicelens: ")[1]
    assert report.endswith(
        "  edit: loop.py line 12 (in main)\n"
        "      - out = model(x)\n"
        "      + model.to(\"meta\")\n"
        "      + out = model(x)\n"
        "  verified up to loop.py line 14: the rehearsal ran past the failing line with no "
        "mismatch, to where the code saves with torch.save (not rehearsed)\n"), report
    assert sorted(p.name for p in tmp_path.iterdir()) == ["loop.py"]  # nothing written
    # the edit as printed, applied: the script runs to its end
    script.write_text(TRAIN_LOOP.replace("        out = model(x)\n",
                                         "        model.to(\"meta\")\n        out = model(x)\n"))
    assert in_process(str(script), str(tmp_path)) == 0
    assert (tmp_path / "ckpt.pt").exists()


def test_a_scripts_fix_that_leaves_the_next_mismatch_is_completed(in_process, capsys, tmp_path):
    """Two strays in turn: the first fix alone would stop at the second; the fix shown is both."""
    script = tmp_path / "two.py"
    script.write_text(
        "import torch\nfrom torch import nn\n"
        "model = nn.Linear(8, 2).to('meta')\n"
        "x = torch.randn(3, 8)\n"
        "w = torch.ones(2)\n"
        "out = model(x)\n"
        "loss = (out * w).sum()\n")
    assert in_process(str(script)) == 1
    report = capsys.readouterr().err.split("\ndevicelens: ")[1]
    assert "culprit: x (float32[3, 8] on cpu)" in report
    assert "+ w = torch.ones(2, device=" in report, report
    assert report.rstrip().endswith(
        "verified: rehearsed in a sandbox, two.py runs from its top to its end after this fix")
