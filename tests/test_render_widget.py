"""The ipywidgets view, driven from Python as a front end would: set the dropdown, click buttons,
then check the *namespace* (real cpu/meta tensors and modules), not just what the view says."""

from __future__ import annotations

import sys
import types
from typing import Any

import pytest
import torch
from torch import nn

from devicelens.analysis import diagnose
from devicelens.inspect import take_snapshot
from devicelens.jupyter._frontends import prefer_widget
from devicelens.render import DevicesView, RenderedView
from devicelens.render._rows import MAX_FINDINGS, device_colour
from devicelens.render.html import chip
from devicelens.render.text import snapshot_text
from devicelens.render.widget import DevicesWidget, devices_widget, table_html

from .conftest import to_in_place


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.enc = nn.Linear(4, 8)
        self.dec = nn.Linear(8, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.dec(self.enc(x).relu())


def trained() -> tuple[Net, torch.optim.Optimizer]:
    """A model with an optimizer that has state (one real step on the CPU)."""
    torch.manual_seed(0)
    model = Net()
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    model(torch.randn(3, 4)).sum().backward()
    opt.step()
    opt.zero_grad()
    return model, opt


@pytest.fixture
def on_cpu() -> dict[str, Any]:
    model, opt = trained()
    return {"model": model, "opt": opt, "x": torch.randn(3, 4), "batch": {"y": torch.ones(3)}}


@pytest.fixture
def broken() -> dict[str, Any]:
    """The model went to meta by hand; its data and optimizer state stayed on the CPU."""
    model, opt = trained()
    to_in_place(model, "meta")
    return {"model": model, "opt": opt, "batch": {"x": torch.randn(3, 4), "n": torch.tensor(3)},
            "w": torch.ones(2)}


def devices_of(ns: dict[str, Any]) -> set[str]:
    """Where the namespace's tensors are. NB: Adam's 0-dim ``step`` counters stay on the cpu."""
    return {t.device for t in take_snapshot(ns).tensors()
            if t.role != "opt_param" and not t.path.endswith("['step']")}


def kinds(view: DevicesWidget) -> list[str]:
    return sorted(f.kind for f in view.findings)


def finding(view: DevicesWidget, kind: str, obj: str) -> Any:
    (f,) = [f for f in view.findings if f.kind == kind and obj in f.objects]
    return f


def test_view_shows_the_core_snapshot_and_findings(broken):
    view = DevicesWidget(broken)
    snap = take_snapshot(broken)
    assert [f.id for f in view.findings] == [f.id for f in diagnose(snap)]
    assert kinds(view) == ["loose_device", "loose_device", "optimizer_state"]
    assert view.table.value == table_html(snap, diagnose(snap))
    assert f"background:{device_colour('meta')}" in view.table.value
    assert "<code>batch[&#x27;x&#x27;]</code>" in view.table.value
    # one Apply per finding, each next to that finding's own fix code
    assert set(view.apply_buttons) == {f.id for f in view.findings}
    for row in view.findings_box.children:
        html, button = row.children
        (f,) = [f for f in view.findings if view.apply_buttons[f.id] is button]
        assert f.fix.splitlines()[0].replace("'", "&#x27;").replace('"', "&quot;") in html.value
    assert [label for label, _ in view.device.options] == ["cpu", "meta (drops the data)"]
    assert view.device.value == "cpu"


def test_move_all_to_meta_from_the_dropdown(on_cpu):
    model, opt = on_cpu["model"], on_cpu["opt"]
    weight, state = model.enc.weight, opt.state[model.enc.weight]
    view = DevicesWidget(on_cpu)
    seen: list[tuple[int, int]] = []
    view.progress.observe(lambda ch: seen.append((ch["new"], view.progress.max)), "value")
    view.device.value = "meta"
    view.move_button.click()
    assert devices_of(on_cpu) == {"meta"}
    assert model.enc.weight is weight and opt.state[weight] is state  # moved in place
    assert state["exp_avg"].device.type == "meta"
    assert on_cpu["x"].device.type == "meta" and on_cpu["batch"]["y"].device.type == "meta"
    assert view.progress.value == view.progress.max == 100
    assert any(0 < v < m for v, m in seen), seen  # it moved forward step by step, not at once
    assert [v for v, _ in seen] == sorted(v for v, _ in seen)
    assert view.progress.bar_style == "success"
    assert "Moved" in view.status.value and "meta" in view.status.value
    assert f"<code>x</code></td><td>Tensor</td><td>{chip('meta')}</td>" in view.table.value
    assert view.device.value == "meta"  # the choice survives the refresh


def test_apply_button_fixes_one_finding_and_the_list_updates(broken):
    view = DevicesWidget(broken)
    target = finding(view, "loose_device", "batch")
    others = {f.id for f in view.findings} - {target.id}
    x = broken["batch"]["x"]
    view.apply_buttons[target.id].click()
    assert broken["batch"]["x"].device.type == "meta"
    assert broken["batch"]["x"] is not x  # tensors are rebound, never modified
    assert broken["w"].device.type == "cpu"  # only what this finding named
    assert {f.id for f in view.findings} == others
    assert set(view.apply_buttons) == others
    assert len(view.findings_box.children) == len(others)
    assert "Moved" in view.status.value and "batch" in view.status.value


def test_apply_every_finding_leaves_a_clean_view(broken):
    view = DevicesWidget(broken)
    while view.apply_buttons:
        before = set(view.apply_buttons)
        next(iter(view.apply_buttons.values())).click()
        assert set(view.apply_buttons) < before, view.status.value
    assert view.findings == []
    assert devices_of(broken) == {"meta", "cpu"}  # the 0-dim counter `n` stays on the cpu
    assert broken["batch"]["n"].device.type == "cpu"
    assert "No device or dtype problems found." in view.findings_box.children[0].value


def test_stale_apply_moves_nothing(broken):
    view = DevicesWidget(broken)
    target = finding(view, "loose_device", "w")
    broken["w"] = broken["w"].to("meta")  # the user fixed it by hand meanwhile
    x = broken["batch"]["x"]
    view.apply_buttons[target.id].click()
    assert "no longer applies" in view.status.value
    assert broken["batch"]["x"] is x and x.device.type == "cpu"
    assert target.id not in {f.id for f in view.findings}


def test_refresh_button_rerenders_the_namespace(on_cpu):
    view = DevicesWidget(on_cpu)
    assert "late" not in view.table.value and view.findings == []
    to_in_place(on_cpu["model"], "meta")
    on_cpu["late"] = torch.zeros(5, dtype=torch.float64)
    view.status.value = "old news"
    view.refresh_button.click()
    assert "<code>late</code>" in view.table.value
    assert {"optimizer_state", "loose_dtype"} <= set(kinds(view))
    assert view.status.value == ""


def test_failed_move_changes_nothing_and_says_so(on_cpu):
    view = DevicesWidget(on_cpu)
    report = view.move_all("cuda:7")
    assert report is None or not report.ok
    assert "Nothing was changed" in view.status.value
    assert devices_of(on_cpu) == {"cpu"}
    assert not view.move_button.disabled and not view.refresh_button.disabled


def test_one_action_at_a_time(on_cpu):
    view = DevicesWidget(on_cpu)
    view.device.value = "meta"
    with view._lock:  # another action is running
        view.move_button.click()
    assert "still busy" in view.status.value
    assert devices_of(on_cpu) == {"cpu"}


def test_mimebundle_carries_the_widget_and_the_plain_views(broken):
    view = DevicesWidget(broken)
    bundle = view._repr_mimebundle_()
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == view.root.model_id
    snap = take_snapshot(broken)
    assert bundle["text/plain"] == snapshot_text(snap, diagnose(snap))
    assert "opt state left behind" in bundle["text/plain"]
    assert '<table class="dl-t">' in bundle["text/html"]


def test_names_limit_the_view_and_the_move(on_cpu):
    view = DevicesWidget(on_cpu, ["x"])
    assert [o.name for o in view.snapshot.objects] == ["x"]
    view.move_all("meta")
    assert on_cpu["x"].device.type == "meta"
    assert on_cpu["model"].enc.weight.device.type == "cpu"


def test_without_ipywidgets_the_html_table(monkeypatch, broken):
    monkeypatch.setitem(sys.modules, "ipywidgets", None)
    view = devices_widget(broken)
    assert isinstance(view, DevicesView)
    assert [f.id for f in view.findings] == [f.id for f in diagnose(take_snapshot(broken))]
    assert "text/html" in view._repr_mimebundle_()


def test_terminal_ipython_gets_text(ip, broken):
    ip.user_ns.update(broken)
    view = ip.run_line_magic("devices", "--widget")
    assert isinstance(view, DevicesView)
    assert "opt state left behind" in repr(view)
    default = ip.run_line_magic("devices", "")
    assert isinstance(default, RenderedView) and repr(default) == repr(view)


def test_default_view_rule(monkeypatch):
    """Widget by default only in a kernel, with ipywidgets, no panel, in VS Code or Colab.
    (The real-kernel version, with a real panel comm, is in test_widget_kernel.py.)"""
    from ipykernel.zmqshell import ZMQInteractiveShell
    from IPython.core.interactiveshell import InteractiveShell

    kernel = object.__new__(ZMQInteractiveShell)  # NB: only its type is read
    for var in ("VSCODE_PID", "VSCODE_CWD"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.delitem(sys.modules, "google.colab", raising=False)
    assert not prefer_widget(kernel)  # JupyterLab / Notebook 7: the HTML table
    monkeypatch.setenv("VSCODE_PID", "4242")
    assert prefer_widget(kernel)
    assert not prefer_widget(object.__new__(InteractiveShell))  # terminal IPython in VS Code
    assert not prefer_widget(None)
    monkeypatch.setitem(sys.modules, "ipywidgets", None)  # not importable
    assert not prefer_widget(kernel)
    monkeypatch.delitem(sys.modules, "ipywidgets")
    monkeypatch.delenv("VSCODE_PID")
    monkeypatch.setitem(sys.modules, "google.colab", types.ModuleType("google.colab"))
    assert prefer_widget(kernel)


def test_refresh_closes_the_widgets_it_replaces(broken):
    from ipywidgets.widgets.widget import _instances

    view = DevicesWidget(broken)
    first = list(view.apply_buttons.values())
    assert all(b.comm is not None for b in first)
    live = len(_instances)
    view.refresh_button.click()
    assert all(b.comm is None for b in first)  # closed, not leaked
    assert len(_instances) == live  # the new rows replace the old, layouts and styles too
    assert all(b.comm is not None for b in view.apply_buttons.values())


def test_many_findings_show_the_first_cards_and_a_line_for_the_rest():
    from ipywidgets.widgets.widget import _instances

    ns: dict[str, Any] = {"model": nn.Linear(2, 2)}
    ns.update({f"d{i}": torch.zeros(2, dtype=torch.float64) for i in range(MAX_FINDINGS + 7)})
    view = DevicesWidget(ns)
    assert len(view.findings) == MAX_FINDINGS + 7
    *cards, note = view.findings_box.children
    assert len(cards) == MAX_FINDINGS == len(view.apply_buttons)
    assert [f.id for f in view.findings[:MAX_FINDINGS]] == list(view.apply_buttons)
    assert "… and 7 more findings (7 warnings): %devices --all lists every one." in (
        note.children[0].value)
    live = len(_instances)
    view.refresh_button.click()  # the note is closed with the cards it came with
    assert len(_instances) == live
    assert len(DevicesWidget(ns, show_all=True).findings_box.children) == MAX_FINDINGS + 7


def test_what_devices_returns_keeps_the_standard_display_methods(ip, broken):
    """``HTML(view._repr_html_())``: code that asks for the HTML by name keeps working."""
    ip.user_ns.update(broken)
    default = ip.run_line_magic("devices", "")
    bundle = default._repr_mimebundle_()
    assert default._repr_html_() == bundle.get("text/html")
    assert repr(default) == bundle["text/plain"]
    assert RenderedView({"text/plain": "x"})._repr_html_() is None
    assert RenderedView({"text/plain": "x", "text/html": "<b>x</b>"})._repr_html_() == "<b>x</b>"
