"""accelerate layouts: a model built with empty weights is a note, never a destructive fix; a
dispatched model makes ``%devices --to`` refuse as a whole, never half-move its inputs.

accelerate is not a dependency: its structures are reproduced here (parameters on meta with
buffers on cpu, ``hf_device_map``, ``_hf_hook``); the last test runs the real thing where it is
installed.
"""

from __future__ import annotations

from typing import Any

import pytest
import torch
from torch import nn

from devicelens import moves
from devicelens.analysis import diagnose
from devicelens.inspect import take_snapshot
from devicelens.render.text import report_text


class Rotary(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        inv_freq = 1.0 / (10000 ** (torch.arange(0, 8, 2).float() / 8))
        self.register_buffer("inv_freq", inv_freq, persistent=False)  # in no checkpoint


class Block(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.q = nn.Linear(8, 8)
        self.k = nn.Linear(8, 8)
        self.rotary = Rotary()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.k(self.q(x)) * self.rotary.inv_freq.repeat(2)


def empty_weights() -> Block:
    """What ``accelerate.init_empty_weights()`` builds: parameters on meta, buffers real."""
    m = Block()
    for sub in m.modules():
        for name, p in list(sub._parameters.items()):
            if p is not None:
                sub._parameters[name] = nn.Parameter(p.to("meta"), p.requires_grad)
    return m


def dispatched() -> Block:
    """What ``dispatch_model`` leaves: a device map over two devices, a hook per module."""
    m = Block()
    m.k.to("meta")  # offloaded: its weights live elsewhere until the hook brings them
    m.hf_device_map = {"q": "cpu", "k": "disk", "rotary": "cpu"}
    for sub in m.modules():
        sub._hf_hook = object()
    return m


def kinds(ns: dict[str, Any]) -> list[tuple[str, str]]:
    return [(f.kind, f.severity) for f in diagnose(take_snapshot(ns))]


def test_an_empty_weights_model_is_a_note_and_fix_all_never_touches_its_buffers() -> None:
    model = empty_weights()
    inv = model.rotary.inv_freq
    before = inv.clone()
    ns = {"model": model, "x": torch.randn(2, 8)}
    (f,) = diagnose(take_snapshot(ns))  # before: "model is partly moved", model.to("meta")
    assert (f.kind, f.severity, f.action, f.fix) == ("empty_weights", "info", None, "")
    assert f.paths == ("model.rotary.inv_freq",) and "load_checkpoint_and_dispatch" in f.message
    report = moves.apply_all_fixes(ns)
    assert report.ok and report.moved == () and report.applied == ()
    assert model.rotary.inv_freq is inv and inv.device.type == "cpu"
    assert torch.equal(inv, before)


def test_moving_an_empty_weights_model_to_meta_is_refused_with_the_reason() -> None:
    model = empty_weights()
    inv = model.rotary.inv_freq
    ns = {"model": model, "x": torch.randn(2, 8)}
    for dry in (True, False):
        report = moves.move_all("meta", ns, dry_run=dry)
        assert not report.ok and report.moved == ()
        ((path, why),) = report.refused
        assert path == "model" and "(inv_freq) that no checkpoint restores" in why
    assert report_text(report).startswith("Nothing was changed: model cannot be moved")
    assert model.rotary.inv_freq is inv and inv.device.type == "cpu"
    assert ns["x"].device.type == "cpu"
    assert moves.move_all("meta", ns, names=["x"]).ok and ns["x"].device.type == "meta"


def test_a_dispatched_model_makes_a_move_refuse_as_a_whole(ip: Any) -> None:
    model = dispatched()
    ip.user_ns.update(model=model, inputs=torch.randn(2, 8), torch=torch)
    report = ip.run_line_magic("devices", "--to meta")
    # before: the model was refused but its inputs moved, and the report said ok
    assert not report.ok and ip.user_ns["inputs"].device.type == "cpu"
    text = report_text(report)
    assert text.splitlines()[:3] == [
        "Nothing was changed: model cannot be moved (see below), so nothing was moved; to leave "
        "it out, name the objects to move",
        "Refused:",
        "  model: dispatched by accelerate (hf_device_map / hooks): its layout is intentional; "
        "change it with accelerate, not by moving it"]
    assert model.q.weight.device.type == "cpu"
    assert kinds(ip.user_ns) == []
    assert ip.run_line_magic("devices", "--to meta inputs").ok


def test_real_accelerate_layouts_where_installed() -> None:
    accelerate = pytest.importorskip("accelerate")
    with accelerate.init_empty_weights():
        model = Block()
    ns = {"model": model, "x": torch.randn(2, 8)}
    assert kinds(ns) == [("empty_weights", "info")]
    assert not moves.move_all("meta", ns).ok and model.rotary.inv_freq.device.type == "cpu"
    offloaded = accelerate.cpu_offload(Block(), execution_device=torch.device("cpu"))
    ns = {"model": offloaded, "x": torch.randn(2, 8)}
    assert kinds(ns) == [] and not moves.move_all("meta", ns).ok
    assert ns["x"].device.type == "cpu"
