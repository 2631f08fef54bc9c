"""What a traceback shown to a user must not hold when devicelens has nothing to say: its own code.

NB: look for the package's own folder and its report prefix, never for the word "devicelens": a
checkout made with ``git clone`` lives in a folder of that name, so the path of every test script,
and of the user's own files, contains it.
"""

from __future__ import annotations

import re
from pathlib import Path

import devicelens

PACKAGE_DIR = str(Path(devicelens.__file__).resolve().parent)
_REPORT = re.compile(r"^devicelens: ", re.MULTILINE)


def ours_in(trace: str) -> list[str]:
    """Each trace of devicelens in ``trace``: a frame in its package, or a line of its report."""
    found = [line for line in trace.splitlines() if PACKAGE_DIR in line]
    return found + [m.group(0) for m in _REPORT.finditer(trace)]


#: the line a diagnosis ends with once its fix was rehearsed and the cell ran after it
VERIFIED = "  verified: rehearsed on a copy of this kernel's state, the cell runs after this fix"
