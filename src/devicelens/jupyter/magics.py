"""IPython magics: thin adapters that parse options, call the core and hand back a renderer."""

from __future__ import annotations

import sys
from functools import partial
from typing import Any

from IPython.core.error import UsageError
from IPython.core.magic import Magics, line_magic, magics_class
from IPython.core.magic_arguments import argument, magic_arguments, parse_argstring

NO_TORCH = "devicelens: torch is not imported in this kernel yet; run `import torch` first."


@magics_class
class DeviceMagics(Magics):
    @magic_arguments()
    @argument("names", nargs="*", help="only these namespace names (default: all)")
    @argument("--all", action="store_true",
              help="every name, tensor and finding: one row per tensor, nothing folded")
    @argument("--json", action="store_true", help="return the machine-readable form (a dict)")
    @argument("--to", metavar="DEVICE", help="move everything (or NAMES) to DEVICE")
    @argument("--fix", action="store_true", help="apply every suggested fix")
    @argument("--dry-run", action="store_true", help="with --to/--fix: show the plan only")
    @argument("--widget", action="store_true", help="interactive ipywidgets view")
    @argument("--text", action="store_true", help="print plain text, even in a notebook")
    @argument("--no-rehearse", action="store_true",
              help="show the fixes without rehearsing them on a copy of the kernel first")
    @line_magic
    def devices(self, line: str = "") -> Any:
        """Show where every tensor, module and optimizer state lives, and what will break.

        The table fits a screen (at most 40 rows: alike layers and runs of alike tensors as one
        row, errors and warnings open); ``--all`` shows every row.

        Flags mismatched devices and dtypes with a fix as code, each rehearsed first on a forked
        copy of the kernel (``verified: ...`` or ``not verified: why``; ``--no-rehearse`` skips
        it). ``--to cuda:1`` moves everything
        (identity-preserving, all-or-nothing), ``--fix`` applies every fix, rehearsed on a copy
        first: it says ``verified`` or why not, and applies nothing that would do harm; add
        ``--dry-run`` to see the plan first.
        """
        args = parse_argstring(self.devices, line)
        if "torch" not in sys.modules:
            print(NO_TORCH)
            return None
        from ..analysis import diagnose
        from ..inspect import gc_paused, take_snapshot
        from ..render import DevicesView

        ns = self.shell.user_ns if self.shell is not None else {}
        missing = [n for n in args.names if n not in ns]
        if missing:
            raise UsageError(f"%devices: no such name(s): {', '.join(missing)}")
        names = args.names or None
        if args.to or args.fix:
            return _move(args, ns, names)
        if not (args.json or args.text):
            from ..render.widget import devices_widget
            from ._frontends import prefer_widget

            if args.widget or prefer_widget(self.shell):
                mark = None if args.no_rehearse else partial(_rehearsed, ns=ns, names=names)
                return devices_widget(ns, names=names, show_all=args.all, mark=mark)
        with gc_paused():  # NB: the walk's records are many small acyclic objects
            snap = take_snapshot(ns, names=names)
            findings = diagnose(snap)
            if args.json:
                from ._protocol import finding_to_wire, snapshot_to_wire

                return {**snapshot_to_wire(snap, all_tensors=args.all),
                        "findings": [finding_to_wire(f) for f in findings]}
            if not args.no_rehearse:
                findings = _rehearsed(findings, ns, names)
            view = DevicesView(snap, findings, show_all=args.all)
            shown = view.rendered() if not args.text else repr(view)
            del snap, findings, view  # NB: freed while paused: no collection ever scans them
        if isinstance(shown, str):
            print(shown)  # NB: a returned str would show quoted, with literal \n escapes
            return None
        return shown


def _rehearsed(findings: list[Any], ns: dict[str, Any], names: list[str] | None) -> list[Any]:
    """Each fix marked with what rehearsing it on a copy of the namespace showed."""
    from ..guard import rehearsal

    return rehearsal.rehearsed_findings(findings, ns, rehearsal.snapshot_diagnosis(names))


def _move(args: Any, ns: dict[str, Any], names: list[str] | None) -> Any:
    from .. import moves

    if args.to and args.fix:
        raise UsageError("%devices: use either --to DEVICE or --fix, not both")
    if args.to:
        try:  # NB: move_all reports a bad device; a magic's user gets a UsageError first
            moves.parse_device(args.to)
        except ValueError as e:
            raise UsageError(f"%devices: {e}") from None
    verdict = "" if args.to or args.dry_run or args.no_rehearse else _rehearsed_fix(ns, names)
    if "would do harm" in verdict:
        print(f"%devices --fix: nothing applied: {verdict.removeprefix('not verified: ')}. "
              "%devices --fix --no-rehearse applies the fixes anyway.")
        return None
    bar = moves.console_progress()
    try:
        if args.to:
            return moves.move_all(args.to, ns, names=names, dry_run=args.dry_run, progress=bar)
        report = moves.apply_all_fixes(ns, names=names, dry_run=args.dry_run, progress=bar)
    finally:
        bar.close()
    if verdict:
        print(verdict)
    return report


def _rehearsed_fix(ns: dict[str, Any], names: list[str] | None) -> str:
    """``--fix``, rehearsed on a forked copy of the namespace before it is applied."""
    from .. import moves
    from ..guard import rehearsal

    return rehearsal.rehearsed_apply(ns, lambda copy: moves.apply_all_fixes(copy, names=names),
                                     rehearsal.snapshot_diagnosis(names))
