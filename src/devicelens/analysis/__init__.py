"""Snapshot -> findings: what will break, which objects, why, and the fix as code.

Pure functions over :mod:`devicelens.inspect` records, one module per rule family; nothing here
touches user objects or state.
"""

from __future__ import annotations

from ._diagnose import diagnose
from ._rules_dist import (
    DIST_KINDS,
    RANK_DEVICE_CODE,
    RANK_INDEX_CODE,
    device_code,
    diagnose_ranks,
)
from .findings import DEVICE_KINDS, DTYPE_KINDS, Action, Finding, Memo, Severity

__all__ = ["DEVICE_KINDS", "DIST_KINDS", "DTYPE_KINDS", "RANK_DEVICE_CODE", "RANK_INDEX_CODE",
           "Action", "Finding", "Memo", "Severity", "device_code", "diagnose", "diagnose_ranks"]
