"""``%devices`` through a real IPython shell, and the import contract checked in fresh processes."""

from __future__ import annotations

import gc
import subprocess
import sys

import pytest
from IPython.core.error import UsageError


def setup_ns(ip):
    ip.run_cell(
        "import torch\nfrom torch import nn\n"
        "model = nn.Sequential(nn.Linear(4, 8), nn.Linear(8, 2))\nmodel[1].to('meta')\n"
        "x = torch.ones(2, 4)\n", store_history=False)


def test_devices_returns_a_rich_view(ip):
    setup_ns(ip)
    view = ip.run_line_magic("devices", "")
    assert {type(v) for v in vars(view).values()} == {dict}  # NB: Out[] keeps text, no records
    bundle = view._repr_mimebundle_()
    assert set(map(type, bundle.values())) == {str}
    assert set(bundle) == {"text/plain", "text/html"}
    assert bundle["text/plain"].splitlines()[0] == (
        "devicelens — 2 objects · cpu: 2 objects, 192 B · meta: 1 object, 72 B")
    assert "model is partly moved" in bundle["text/plain"]
    assert 'title="meta">meta</span>' in bundle["text/html"]


def test_devices_names_all_and_text(ip, capsys):
    setup_ns(ip)
    capsys.readouterr()
    assert ip.run_line_magic("devices", "x --text") is None  # printed, not returned
    text = capsys.readouterr().out
    assert text.splitlines()[0] == "devicelens — 1 object · cpu: 1 object, 32 B"
    assert ip.run_line_magic("devices", "model --all --text") is None
    assert "  model.1.weight    parameter   meta" in capsys.readouterr().out


def test_devices_text_in_a_cell_prints_real_lines(ip, capsys):
    """``%devices --text`` as a cell's last line: no Out[] with a quoted str and literal \\n."""
    setup_ns(ip)
    capsys.readouterr()
    result = ip.run_cell("%devices x --text", store_history=False)
    out = capsys.readouterr().out
    assert result.result is None
    assert out.splitlines()[0] == "devicelens — 1 object · cpu: 1 object, 32 B"
    assert "\\n" not in out and "Out[" not in out


def test_devices_frees_its_records_before_the_collector_runs_again(ip, capsys):
    """The walk's records are many small objects: ``%devices`` renders and drops them while the
    collector is paused, so no collection has to scan them; the collector is as the user left
    it."""
    from devicelens.inspect import TensorRecord

    ip.run_cell("import torch\nfrom torch import nn\n"
                "models = [nn.Sequential(*[nn.Linear(4, 4) for _ in range(20)])"
                " for _ in range(10)]", store_history=False)
    ip.run_line_magic("devices", "--text")  # NB: its first call imports what it needs
    scanned: list[int] = []

    def watch(phase: str, info: dict) -> None:
        if phase == "start":  # NB: what this collection is about to scan
            young = gc.get_objects(generation=0)
            scanned.append(sum(type(o) is TensorRecord for o in young))

    gc.collect()
    gc.callbacks.append(watch)
    try:
        for _ in range(3):
            ip.run_line_magic("devices", "--text")
            ip.run_line_magic("devices", "")  # NB: rendered before it is returned
    finally:
        gc.callbacks.remove(watch)
    assert "models" in capsys.readouterr().out and gc.isenabled()
    assert sum(scanned) == 0, scanned
    gc.disable()
    try:
        ip.run_line_magic("devices", "--text")
        assert not gc.isenabled()  # NB: a pause of the user's own is kept
    finally:
        gc.enable()


def test_devices_json(ip):
    setup_ns(ip)
    data = ip.run_line_magic("devices", "--json")
    assert [o["name"] for o in data["objects"]] == ["model", "x"]
    assert [f["kind"] for f in data["findings"]] == ["module_split"]
    assert data["findings"][0]["fix"] == 'model.to("meta")'


def test_devices_unknown_name_is_a_usage_error(ip):
    setup_ns(ip)
    with pytest.raises(UsageError, match="no such name"):
        ip.run_line_magic("devices", "nope")


def test_devices_help_is_the_docstring(ip):
    assert "Show where every tensor" in ip.find_line_magic("devices").__doc__


def run_py(code: str) -> str:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=True)
    return out.stdout.strip()


def test_import_pulls_in_neither_torch_nor_widgets():
    out = run_py("import sys, devicelens; print(sorted(m for m in ('torch', 'ipywidgets', "
                 "'IPython') if m in sys.modules))")
    assert out == "[]"


def test_load_ext_without_torch_gives_one_line():
    out = run_py(
        "from IPython.core.interactiveshell import InteractiveShell\nimport sys\n"
        "ip = InteractiveShell.instance()\nip.run_line_magic('load_ext', 'devicelens')\n"
        "r = ip.run_line_magic('devices', '')\nprint(r, 'torch' in sys.modules)")
    assert out == ("devicelens: torch is not imported in this kernel yet; run `import torch` "
                   "first.\nNone False")


def test_snapshot_does_not_initialise_cuda():
    out = run_py("import torch, devicelens\nm = torch.nn.Linear(2, 2)\n"
                 "devicelens.diagnose(devicelens.snapshot({'m': m}))\n"
                 "print(torch.cuda.is_initialized())")
    assert out == "False"


def test_public_snapshot_stays_a_function_after_submodule_imports():
    out = run_py("import devicelens\nimport devicelens.inspect.snapshot\n"
                 "from devicelens.inspect import take_snapshot\nfrom devicelens import snapshot\n"
                 "import sys\n"
                 "print(callable(snapshot) and snapshot.__module__ == 'devicelens', "
                 "'torch' in sys.modules)")
    assert out == "True False"


def test_public_classes_are_lazy_attributes():
    out = run_py("import sys, devicelens\nbefore = 'torch' in sys.modules\n"
                 "names = [devicelens.Finding.__name__, devicelens.MoveReport.__name__, "
                 "devicelens.Snapshot.__name__]\nprint(before, names)")
    assert out == "False ['Finding', 'MoveReport', 'Snapshot']"
