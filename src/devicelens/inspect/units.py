"""Byte counts for people: one formatting rule shared by reports and every view."""

from __future__ import annotations


def human_bytes(n: int) -> str:
    if n < 1024:
        return f"{n} B"
    for unit in ("KiB", "MiB", "GiB", "TiB"):
        n_f = n / 1024
        if n_f < 1024 or unit == "TiB":
            return f"{n_f:.1f} {unit}"
        n = int(n_f)
    return f"{n} B"  # pragma: no cover
