"""How IPython displays the core's plain results (snapshot, finding, move report).

NB: the core types know no renderer. IPython's own formatter registry connects them to
:mod:`devicelens.render` by name, so nothing is imported until an object is shown.
"""

from __future__ import annotations

from typing import Any

# (module, class) -> function of the object returning a MIME bundle
_PRINTERS = (
    ("devicelens.inspect.records", "Snapshot", "_snapshot"),
    ("devicelens.analysis.findings", "Finding", "_finding"),
    ("devicelens.moves._report", "MoveReport", "_report"),
)


def _snapshot(snap: Any) -> dict[str, str]:
    from ..render import mimebundle

    return mimebundle(snap, None)


def _finding(finding: Any) -> dict[str, str]:
    from ..render import mimebundle

    return mimebundle(None, [finding])


def _report(report: Any) -> dict[str, str]:
    from ..render import report_mimebundle

    return report_mimebundle(report)


def register(shell: Any) -> None:
    """Teach ``shell`` to display devicelens results (idempotent; a shell without a display
    formatter, such as a plain Python REPL's stand-in, is left alone)."""
    formatter = getattr(getattr(shell, "display_formatter", None), "mimebundle_formatter", None)
    if formatter is None:
        return
    for module, name, printer in _PRINTERS:
        formatter.for_type_by_name(module, name, globals()[printer])


def register_current() -> None:
    """:func:`register` on the running IPython shell, if any (never imports IPython itself)."""
    import sys

    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is not None:
        register(shell)
