"""Which view ``%devices`` shows by default: the widget only where no panel can be.

The rule reads the front end (VS Code, Colab), whether a devicelens panel is connected, and
whether ipywidgets is importable — without importing ipywidgets or the comm bridge.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from typing import Any

from ..render.widget import is_kernel as _is_kernel


def _panel_connected(shell: Any) -> bool | None:
    """Whether a devicelens panel has its comm open to ``shell``; None when nobody can tell.

    NB: asks :mod:`devicelens.jupyter.comm` only if the extension already imported it (never imports
    it).
    """
    bridge = sys.modules.get("devicelens.jupyter.comm")
    if bridge is None:
        return None
    try:
        return bool(bridge.panel_connected(shell))
    except Exception:  # NB: a broken bridge must not break %devices
        return None


def _panel_less_frontend() -> bool:
    """Front ends known to have no devicelens panel: VS Code and Google Colab."""
    env = os.environ
    return bool(env.get("VSCODE_PID") or env.get("VSCODE_CWD")) or "google.colab" in sys.modules


def _has_ipywidgets() -> bool:
    """Importable, judged without importing it (``%devices`` asks on every call)."""
    try:
        return importlib.util.find_spec("ipywidgets") is not None
    except (ImportError, ValueError):  # NB: ValueError when sys.modules holds None for it
        return False


def prefer_widget(shell: Any) -> bool:
    """The default-view rule of ``%devices``: the widget view only where it beats the HTML table.

    All of: a Jupyter kernel (never terminal IPython), ipywidgets importable, no devicelens panel
    connected, and a front end known to lack the panel (VS Code, Colab). Everywhere else, in
    JupyterLab and Notebook 7 where the panel lives, the rich HTML table stays the default.
    """
    if not _is_kernel(shell) or not _has_ipywidgets():
        return False
    if _panel_connected(shell):
        return False
    return _panel_less_frontend()
