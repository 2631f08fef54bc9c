"""The wheel users install: Python package + pre-built panel + install.json, each exactly once.

NB: builds from this checkout with its already-built panel (hatch-jupyter-builder skips the
frontend build when it exists), so this checks the packaging, not webpack, in a few seconds.
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARE = "devicelens-0.1.0.data/data/share/jupyter/labextensions/devicelens/"


@pytest.mark.skipif(not (ROOT / "src/devicelens/labextension/static").is_dir(),
                    reason="the panel is built by `make setup` (pip install -e .)")
def test_wheel_ships_the_panel_and_its_install_json_once(tmp_path: Path) -> None:
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-build-isolation",
                    "--no-deps", "-q", "-w", str(tmp_path)], check=True, capture_output=True,
                   timeout=300)
    (wheel,) = tmp_path.glob("devicelens-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert [n for n, c in Counter(names).items() if c > 1] == []
    shared = {n[len(SHARE):] for n in names if n.startswith(SHARE)}
    assert {"package.json", "install.json"} <= shared
    assert any(n.startswith("static/remoteEntry.") for n in shared)
    assert any(n.startswith("schemas/devicelens/") for n in shared)
    assert {"devicelens/__init__.py", "devicelens/inspect/snapshot.py",
            "devicelens/moves/__init__.py", "devicelens/jupyter/comm.py"} <= set(names)
