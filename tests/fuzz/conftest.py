"""Prints the fuzz figures (namespaces tried, crashes, state changes, user-code calls, slowest
case) after a run that included the fuzz suite; ``make fuzz`` quotes them."""

from __future__ import annotations

from typing import Any

from .checks import FIGURES, SCALE


def pytest_terminal_summary(terminalreporter: Any) -> None:
    f = FIGURES
    if not (f.namespaces or f.moves):
        return
    w = terminalreporter.write_line
    w("")
    w(f"devicelens fuzz (scale {SCALE}): {f.namespaces:,} namespaces read "
      f"({f.tensors:,} tensors), {f.moves:,} moves and fixes with {f.injected:,} injected "
      f"failures")
    w(f"  crashes: {f.crashes}  state changes: {f.state_changes}  user-code calls: "
      f"{f.user_code_calls}")
    w(f"  slowest case: {f.slowest * 1000:.0f} ms: {f.slowest_case}")
