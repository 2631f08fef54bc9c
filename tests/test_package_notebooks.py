"""Both notebooks, executed top to bottom by a real kernel (nbclient, the venv's python3) from an
in-memory copy; the assertions read their outputs: each mistake shows up before the fix, and is
gone after it. NB: the files in notebooks/ must come out byte-for-byte unchanged."""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from typing import Any

import nbformat
import pytest
import torch
from nbclient import NotebookClient

pytestmark = pytest.mark.kernel

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
DEVICE = "cuda:0" if torch.cuda.is_available() else "meta"
REAL_MULTI = torch.cuda.device_count() >= 2
WIDGET = "application/vnd.jupyter.widget-view+json"


class Run:
    """One executed notebook: outputs by cell tag."""

    def __init__(self, nb: Any) -> None:
        self.cells = {t: c for c in nb.cells if c.cell_type == "code"
                      for t in c.metadata.get("tags", ())}

    def outputs(self, tag: str) -> list[Any]:
        return list(self.cells[tag].outputs)

    def text(self, tag: str) -> str:
        """What a reader sees as text: streams and every display's text/plain."""
        parts = []
        for o in self.outputs(tag):
            if o.output_type == "stream":
                parts.append(o.text)
            elif o.output_type in ("execute_result", "display_data"):
                parts.append(o.data.get("text/plain", ""))
        return "\n".join(parts)

    def error(self, tag: str) -> Any:
        (err,) = [o for o in self.outputs(tag) if o.output_type == "error"]
        return err


def execute(name: str, tmp: Path) -> Run:
    path = NOTEBOOKS / name
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    nb = nbformat.read(path, as_version=4)
    env = {k: v for k, v in os.environ.items() if not k.startswith("VSCODE_")}
    client = NotebookClient(nb, timeout=180, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp)}})
    client.execute(env=env)
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before, f"{name} was modified"
    assert list(tmp.iterdir()) == [], "the notebook wrote files"
    return Run(nb)


@pytest.fixture(scope="module")
def quickstart(tmp_path_factory: pytest.TempPathFactory) -> Run:
    return execute("quickstart.ipynb", tmp_path_factory.mktemp("quickstart"))


@pytest.fixture(scope="module")
def multi_gpu(tmp_path_factory: pytest.TempPathFactory) -> Run:
    return execute("multi_gpu.ipynb", tmp_path_factory.mktemp("multi_gpu"))


MISTAKES = (
    "model.pos was left on cpu",  # a positional tensor that is not a buffer
    "optimizer state left behind",  # Adam's moments stayed on the CPU
    f"batch is not on {DEVICE}",  # the data was not moved
    "batch is float64",  # NumPy data
    f"class_weights is not on {DEVICE}",  # the loss weight
)


def findings(text: str) -> list[str]:
    return re.findall(r"^[✖▲●] (?:error|warning|info): (.+)$", text, re.M)


def test_quickstart_before_moving_only_notes_the_attribute(quickstart):
    assert quickstart.text("setup") == f"second device: {DEVICE}\n"
    assert findings(quickstart.text("on-cpu")) == ["model.pos is not a buffer"]


def test_quickstart_shows_the_real_error_then_every_mistake(quickstart):
    err = quickstart.error("first-error")
    assert err.ename == "RuntimeError" and "device" in err.evalue
    before = findings(quickstart.text("before-fix"))
    assert sorted(before) == sorted(MISTAKES)
    html = quickstart.outputs("before-fix")[0].data["text/html"]
    assert "dl-chip" in html and DEVICE in html


def test_quickstart_widget_cell_is_a_live_view_of_the_same_findings(quickstart):
    (out,) = quickstart.outputs("widget")
    assert WIDGET in out.data
    assert sorted(findings(out.data["text/plain"])) == sorted(MISTAKES)


def test_quickstart_fix_removes_every_mistake(quickstart):
    plan = quickstart.text("fix-plan")
    assert plan.startswith("Would move") and "\n  batch: cpu float64 → " in plan
    verdict, report = quickstart.text("fix").split("\n", 1)
    assert verdict.startswith("verified: rehearsed on a copy of this kernel's state first")
    assert report.lstrip("\n").startswith("Moved")
    after = findings(quickstart.text("after-fix"))
    assert after == ["model.pos is not a buffer"]  # on the right device now; not yet a buffer
    assert "No device or dtype problems found." in quickstart.text("clean")
    assert quickstart.text("trained").startswith("training step OK, loss on " + DEVICE)


def test_quickstart_cuda_safe_names_the_variables(quickstart):
    err = quickstart.error("cuda-safe")
    assert "UsageError" not in err.ename, err.evalue  # the magic exists
    assert "culprit: extra['x']" in err.evalue and "extra['x'] = extra['x'].to(" in err.evalue
    fixed = quickstart.text("cuda-safe-autofix")
    assert fixed.startswith(f"extra step OK, loss on {DEVICE}\n")
    assert f"extra['x']: cpu -> {DEVICE}" in fixed and f"extra['y']: cpu -> {DEVICE}" in fixed


def test_multi_gpu_split_model(multi_gpu):
    mode = "running everything for real" if REAL_MULTI else "simulating cuda:0 and cuda:1"
    assert mode in multi_gpu.text("setup")
    err = multi_gpu.error("split-error")
    assert "cuda:0" in err.evalue and "cuda:1" in err.evalue
    assert findings(multi_gpu.text("split-devices")) == [
        "split spans cuda:0, cuda:1 (model parallel?)"]
    assert multi_gpu.text("split-fixed") == "output on cuda:1 with shape (8, 4)\n"
    stray = multi_gpu.text("stray-devices")
    assert re.search(r"^ +split\.stage1\.2 ! +Linear +cpu ", stray, re.M), stray
    fixed = multi_gpu.text("stray-fixed")
    assert fixed.startswith("output on cuda:1\n") and " cpu" not in fixed


def test_multi_gpu_data_parallel(multi_gpu):
    assert "device_ids[0]" in multi_gpu.error("dp-error").evalue
    assert findings(multi_gpu.text("dp-before")) == ["dp.module is not on cuda:0"]
    verdict, report = multi_gpu.text("dp-fix").split("\n", 1)
    assert verdict.startswith("verified: rehearsed on a copy of this kernel's state first")
    assert report.lstrip("\n").startswith("Moved")
    assert "No device or dtype problems found." in multi_gpu.text("dp-after")
    run = multi_gpu.text("dp-run")
    assert ("output on cuda:0 with shape (8, 4)" if REAL_MULTI else "Simulated:") in run
