"""``%%cuda_safe``: pre-flight, then run the cell under the device guard (a thin adapter)."""

from __future__ import annotations
import __future__

from typing import Any

from IPython.core.error import UsageError
from IPython.core.magic import Magics, cell_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring

_FUTURE_FLAGS = 0
for _name in __future__.all_feature_names:
    _FUTURE_FLAGS |= getattr(__future__, _name).compiler_flag


@magics_class
class CudaSafeMagics(Magics):
    @magic_arguments()
    @argument("--strict", action="store_true",
              help="refuse to run when the pre-flight finds errors")
    @argument("--dtype", action="store_true", help="also check floating dtypes")
    @argument("--autofix", action="store_true",
              help="move stray op arguments to the expected device instead of raising")
    @argument("--device", metavar="DEVICE", help="the expected device for --autofix")
    @argument("--no-preflight", action="store_true", help="skip the pre-flight")
    @argument("--rehearse", metavar="DEVICES",
              help="do not run the cell: rehearse it as on these GPUs (cuda:0 or cuda:0,cuda:1)")
    @argument("--steps", type=int, default=0, metavar="N",
              help="with --rehearse: stop after N optimizer steps")
    @cell_magic
    def cuda_safe(self, line: str, cell: str) -> Any:
        """Check a cell for device (and, with --dtype, dtype) mismatches before and while it runs.

        Before: the cell is read (not run) and the objects it uses are checked against each other.
        While: every torch op's tensor arguments are checked; a mismatch raises
        DeviceMismatchError naming the culprits, the module, the cell line and the fix.
        ``--autofix [--device cuda:0]`` moves stray arguments instead (never parameters) and
        prints what it moved.

        ``--rehearse cuda:0`` (or ``cuda:0,cuda:1``) does not run the cell: it rehearses it in a
        forked copy of the kernel as on a machine with those GPUs (``torch.cuda.is_available()``
        is true there; tensors on them are simulated, nothing is computed) and prints every
        mismatch the GPU run would hit, each with its culprits and its fix, or "rehearsed on
        cuda:0: no device or dtype mismatch". Where the cell needs tensor values (``.item()``,
        ``if loss < best``) or the rehearsal cannot follow it, it says how far it got.
        ``backward()`` and ``torch.save`` are skipped and listed; ``--steps N`` stops after N
        optimizer steps. Your variables, files and random state stay as they were.
        """
        args = parse_argstring(self.cuda_safe, line)
        assert self.shell is not None
        try:
            import torch
        except ImportError:
            raise UsageError("%%cuda_safe needs PyTorch, which is not installed") from None

        from ..guard import make_guard, run_cell
        from ..guard.preflight import preflight

        try:
            device = str(torch.device(args.device)) if args.device else None
        except (RuntimeError, TypeError, ValueError):
            raise UsageError(f"%%cuda_safe: unknown device {args.device!r}") from None
        ns = self.shell.user_ns
        if args.rehearse:
            return self._rehearse(args, line, cell)
        if not args.no_preflight:
            report = preflight(cell, ns, check_dtype=args.dtype, line_offset=1)
            if report.issues:
                print(report.text())
            if args.strict and report.errors:
                raise UsageError(f"%%cuda_safe --strict: {len(report.errors)} error(s) found "
                                 "before running; the cell was not run")
        text = f"%%cuda_safe {line}\n{cell}"
        filename = self.shell.compile.cache(text, self.shell.execution_count, raw_code=text)
        guard = make_guard(ns, dtype=args.dtype, autofix=args.autofix, device=device,
                           filename=filename)
        try:
            return run_cell(cell, ns, guard, filename=filename, line_offset=1,
                            flags=self.shell.compile.flags & _FUTURE_FLAGS)
        finally:
            moved = guard.autofix_report().text()
            if moved:
                print(moved)

    def _rehearse(self, args: Any, line: str, cell: str) -> None:
        from ..guard.running._on_device import parse_devices, rehearse_cell

        assert self.shell is not None
        try:
            devices = parse_devices(args.rehearse)
        except ValueError as e:
            raise UsageError(f"%%cuda_safe --rehearse: {e}") from None
        text = f"%%cuda_safe {line}\n{cell}"
        filename = self.shell.compile.cache(text, self.shell.execution_count, raw_code=text)
        print(rehearse_cell(self.shell.user_ns, devices, filename=filename, dtype=True,
                            steps=max(args.steps, 0)).text())
