"""devicelens outside notebooks: ``python -m devicelens run`` for scripts and every rank under
torchrun (:mod:`.run`), and ``devicelens.check`` for a training loop's first step (:mod:`.check`).

The same core as the notebook: the guard, the post-mortem's :func:`~devicelens.guard.postmortem.
explain`, the snapshot and its rules, plus what only distributed training has (:mod:`._dist`).
NB: importing this package imports no torch.
"""

from __future__ import annotations
