"""tests/gpu: real CUDA devices only. Every test here is marked ``gpu`` and skipped without CUDA.

NB: ``torch.cuda.is_available()`` does not initialise CUDA, so collecting these tests is cheap.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    import torch

    skip = pytest.mark.skip(reason="needs a CUDA device")
    for item in items:
        if HERE in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.gpu)
            if not torch.cuda.is_available():
                item.add_marker(skip)
