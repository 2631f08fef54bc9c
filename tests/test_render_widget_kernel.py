"""The widget view in a real kernel, driven over the real widget protocol (what JupyterLab, VS Code
and Colab send): the default-view rule per front end, Apply and Move all clicked through comm
messages, and the progress bar's updates as the front end receives them on iopub."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from jupyter_client.blocking.client import BlockingKernelClient
from jupyter_client.manager import start_new_kernel

from devicelens.jupyter._protocol import PROTOCOL_VERSION

pytestmark = pytest.mark.kernel

WIDGET = "application/vnd.jupyter.widget-view+json"

SETUP = """
%load_ext devicelens
import torch
from torch import nn
torch.manual_seed(0)
torch.__future__.set_swap_module_params_on_conversion(True)  # cpu->meta keeps Parameters
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
opt = torch.optim.AdamW(model.parameters())
model(torch.randn(2, 4)).sum().backward(); opt.step(); opt.zero_grad()
model.to("meta")
batch = {"x": torch.randn(2, 4), "y": torch.ones(2, dtype=torch.long)}
def train_step():  # NB: the cells use batch with model: its device is judged against model's
    return nn.functional.cross_entropy(model(batch["x"]), batch["y"])
"""


class Frontend:
    """The kernel side of a notebook page: runs cells and mirrors widget state from iopub."""

    def __init__(self, kc: BlockingKernelClient) -> None:
        self.kc = kc
        self.models: dict[str, dict[str, Any]] = {}
        self.updates: list[tuple[str, dict[str, Any]]] = []

    def _drain(self, parent: str) -> list[dict[str, Any]]:
        out = []
        while True:
            msg = self.kc.get_iopub_msg(timeout=60)
            if msg["parent_header"].get("msg_id") != parent:
                continue
            out.append(msg)
            kind, content = msg["msg_type"], msg["content"]
            if kind == "comm_open" and content.get("target_name") == "jupyter.widget":
                self.models[content["comm_id"]] = dict(content["data"]["state"])
            elif kind == "comm_msg" and content["data"].get("method") == "update":
                state = content["data"]["state"]
                self.models.setdefault(content["comm_id"], {}).update(state)
                self.updates.append((content["comm_id"], state))
            elif kind == "status" and content["execution_state"] == "idle":
                return out

    def run(self, code: str) -> list[dict[str, Any]]:
        msgs = self._drain(self.kc.execute(code))
        errors = [m["content"] for m in msgs if m["msg_type"] == "error"]
        assert not errors, errors
        return msgs

    def result(self, code: str) -> dict[str, Any]:
        (data,) = [m["content"]["data"] for m in self.run(code)
                   if m["msg_type"] in ("execute_result", "display_data")]
        return data  # type: ignore[no-any-return]

    def text(self, code: str) -> str:
        return "".join(m["content"]["text"] for m in self.run(code) if m["msg_type"] == "stream")

    def _shell(self, msg_type: str, content: dict[str, Any]) -> list[dict[str, Any]]:
        msg = self.kc.session.msg(msg_type, content)
        self.kc.shell_channel.send(msg)
        return self._drain(msg["header"]["msg_id"])

    def send(self, comm_id: str, data: dict[str, Any]) -> None:
        self._shell("comm_msg", {"comm_id": comm_id, "data": data})

    def comm_open(self, target: str, data: dict[str, Any]) -> str:
        comm_id = uuid.uuid4().hex
        replies = self._shell("comm_open", {"comm_id": comm_id, "target_name": target,
                                            "data": data})
        assert any(m["msg_type"] == "comm_msg" and m["content"]["comm_id"] == comm_id
                   for m in replies), "the kernel did not answer the comm"
        return comm_id

    def comm_close(self, comm_id: str) -> None:
        self._shell("comm_close", {"comm_id": comm_id, "data": {}})

    def click(self, comm_id: str) -> None:
        self.send(comm_id, {"method": "custom", "content": {"event": "click"}})

    def find(self, model: str, **state: Any) -> str:
        (cid,) = [c for c, s in self.models.items() if s.get("_model_name") == model
                  and all(s.get(k) == v for k, v in state.items())]
        return cid


@pytest.fixture(scope="module")
def page() -> Iterator[Frontend]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("VSCODE_")}
    km, kc = start_new_kernel(kernel_name="python3", env=env)
    try:
        front = Frontend(kc)
        front.run(SETUP)
        yield front
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def test_default_view_follows_the_front_end(page):
    lab = page.result("%devices")
    assert WIDGET not in lab and '<table class="dl-t">' in lab["text/html"]
    page.run("import os; os.environ['VSCODE_PID'] = '4242'")
    vscode = page.result("%devices")
    assert WIDGET in vscode
    assert "batch is not on meta" in vscode["text/plain"]  # fallback for widget-less viewers
    printed = page.text("%devices --text")  # printed text, never a quoted str
    assert printed.startswith("devicelens — ") and "batch is not on meta" in printed
    assert "\\n" not in printed and not printed.startswith("'")
    # VS Code can host JupyterLab's page too: an open panel comm means the panel is there
    panel = page.comm_open("devicelens", {"protocol": PROTOCOL_VERSION})
    assert WIDGET not in page.result("%devices")
    page.comm_close(panel)
    assert WIDGET in page.result("%devices")
    page.run("del os.environ['VSCODE_PID']")
    assert WIDGET not in page.result("%devices")
    assert WIDGET in page.result("%devices --widget")


def test_apply_and_move_all_over_the_widget_protocol(page):
    page.models.clear()
    page.run("view = %devices --widget")
    fix = page.find("ButtonModel", description="Apply",
                    tooltip="batch['x'] = batch['x'].to(next(model.parameters()).device)\n"
                            "batch['y'] = batch['y'].to(next(model.parameters()).device)")
    page.click(fix)
    assert page.text("print(batch['x'].device, batch['y'].device)") == "meta meta\n"
    assert page.text("print(sorted(f.kind for f in view.findings))") == "['optimizer_state']\n"

    dropdown = page.find("DropdownModel", description="Move all to")
    labels = page.models[dropdown]["_options_labels"]
    assert list(labels) == ["cpu", "meta (drops the data)"]
    page.send(dropdown, {"method": "update", "state": {"index": 1}, "buffer_paths": []})
    assert page.text("print(view.device.value)") == "meta\n"
    progress = page.find("IntProgressModel")
    page.updates.clear()
    page.click(page.find("ButtonModel", description="Move"))
    values = [s["value"] for c, s in page.updates if c == progress and "value" in s]
    assert values and values[-1] == page.models[progress]["max"]
    assert any(0 < v < page.models[progress]["max"] for v in values), values
    state = "{str(v.device) for s in opt.state.values() for k, v in s.items() if k != 'step'}"
    assert page.text(f"print(sorted({state}))") == "['meta']\n"
    assert page.text("print(view.findings)") == "[]\n"
