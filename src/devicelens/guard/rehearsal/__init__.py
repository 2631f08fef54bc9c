"""The rehearsal: every fix is proven on a sandboxed copy of the failing cell before it is shown.

:func:`verify` forks the process (:mod:`._sandbox`), applies the fix exactly as printed
(:mod:`._apply`), checks it breaks no training link (:mod:`._harm`), runs the cell again
(:mod:`._attempt`) and repeats until the cell runs (:mod:`._loop`): the fix shown is complete,
harmless, and marked ``verified`` or ``not verified: why``. :func:`rehearsed_findings` does
the same for ``%devices``, which has no failing cell: each fix is run on a copy of the
namespace, which is then diagnosed again (:mod:`._findings`); :func:`rehearsed_apply` does it
for ``%devices --fix``, every fix at once, before they are applied for real, and
:func:`rehearsed_code` for the panel's "Insert as cell": one fix's code, run as shown.
"""

from __future__ import annotations

from ._findings import rehearsed as rehearsed_findings
from ._findings import rehearsed_apply, rehearsed_code, snapshot_diagnosis
from ._loop import Cell, seconds, verify

__all__ = ["Cell", "rehearsed_apply", "rehearsed_code", "rehearsed_findings", "seconds",
           "snapshot_diagnosis", "verify"]
