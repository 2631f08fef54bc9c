"""The ipywidgets view of ``%devices`` for front ends without the devicelens panel (VS Code, Colab).

Wiring only: every button calls the same core as the panel (snapshot → diagnose → moves) and
shows the result through the shared rows and HTML helpers. ipywidgets is imported lazily, so
the default-view rule (:mod:`devicelens.jupyter._frontends`) stays cheap on every ``%devices``.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from .. import moves
from ..analysis import diagnose
from ..inspect import take_snapshot
from ..inspect.units import human_bytes
from . import DevicesView, mimebundle
from ._rows import MAX_FINDINGS, more_findings
from .html import esc, finding_html, report_html, table_html
from .text import findings_text

if TYPE_CHECKING:
    from ..analysis import Finding
    from ..inspect import DeviceInfo, Snapshot
    from ..moves import MoveReport

__all__ = ["DevicesWidget", "devices_widget", "is_kernel"]

_BUSY = "devicelens is still busy with the previous action; try again when it has finished."

# NB: a finding is one card: the row (text + its Apply button) carries the border, so the button
# sits inside the card, under the fix it applies, aligned with the text
_CARD_CSS = (
    "<style>.dl-w-finding{border-left:4px solid #E69F00;padding:4px 8px 6px;margin:6px 0;"
    "background:rgba(127,127,127,.06)}.dl-w-sev-error{border-left-color:#D55E00}"
    ".dl-w-sev-info{border-left-color:#0072B2}.dl-w-finding .dl-f{border-left:0;margin:0;"
    "padding:0}.dl-w-finding .dl-w-apply{align-self:flex-start;margin:2px 2px 0}</style>"
)


# --- which view ----------------------------------------------------------------------------

def is_kernel(shell: Any) -> bool:
    """A Jupyter kernel shell (ipykernel's, or a subclass such as Colab's), not terminal IPython."""
    return shell is not None and any(
        k.__name__ == "ZMQInteractiveShell" for k in type(shell).__mro__)


Mark = Callable[[list["Finding"]], list["Finding"]]


def devices_widget(namespace: dict[str, Any], names: list[str] | None = None, *,
                   show_all: bool = False, mark: Mark | None = None) -> DevicesWidget | DevicesView:
    """The interactive view, or the HTML/text view where widgets cannot be shown.

    Terminal IPython gets text, a kernel without ipywidgets the HTML table; outside IPython
    (scripts, tests) the widget is built all the same. ``mark``: gives each finding its
    rehearsal's verdict (``%devices`` passes it; a renderer never rehearses by itself).
    """
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    try:
        import ipywidgets  # noqa: F401
    except ImportError:
        has_widgets = False
    else:
        has_widgets = True
    if not has_widgets or (shell is not None and not is_kernel(shell)):
        snap = take_snapshot(namespace, names=names)
        findings = diagnose(snap)
        return DevicesView(snap, mark(findings) if mark else findings, show_all=show_all)
    return DevicesWidget(namespace, names, show_all=show_all, mark=mark)


# --- the view ------------------------------------------------------------------------------

def device_options(devices: tuple[DeviceInfo, ...]) -> list[tuple[str, str]]:
    """Dropdown entries (label, device): free memory where known, and a warning on ``meta``."""
    out = []
    for d in devices:
        if d.kind == "meta":
            label = f"{d.name} (drops the data)"
        elif d.free_bytes is not None:
            label = f"{d.name} ({human_bytes(d.free_bytes)} free)"
        else:
            label = d.name
        out.append((label, d.name))
    return out


class DevicesWidget:
    """Table (folded; "Every row" opens it), findings with an Apply button each, Move all to
    [device ▾] with progress, Refresh.

    NB: a button never acts on what it showed but on a fresh snapshot: Apply re-diagnoses and
    applies the finding with the same id only if it still exists, so a stale view cannot move
    anything the user did not see. One action runs at a time; errors land in ``status``.
    """

    def __init__(self, namespace: dict[str, Any], names: list[str] | None = None, *,
                 show_all: bool = False, mark: Mark | None = None) -> None:
        import ipywidgets as w

        self.mark = mark
        self.namespace = namespace
        self.names = names
        self.show_all = show_all
        self.snapshot: Snapshot | None = None
        self.findings: list[Finding] = []
        self.apply_buttons: dict[str, Any] = {}
        self._lock = threading.Lock()
        self.device = w.Dropdown(description="Move all to", options=[("cpu", "cpu")],
                                 layout=w.Layout(width="auto"))
        self.move_button = w.Button(description="Move", icon="arrow-right",
                                    tooltip="Move every tensor, module and optimizer state")
        self.progress = w.IntProgress(value=0, min=0, max=100, description="",
                                      layout=w.Layout(width="160px"))
        self.refresh_button = w.Button(description="Refresh", icon="refresh")
        # NB: the table folds alike rows to fit a screen; this opens every row (--all's table)
        self.rows_button = w.ToggleButton(value=show_all, description="Every row", icon="list",
                                          tooltip="Every name and tensor, nothing folded")
        self.rows_button.observe(lambda _c: self._draw_table(), names="value")
        self.table = w.HTML()
        self.findings_box = w.VBox()
        self._card_css = w.HTML(_CARD_CSS)
        self.status = w.HTML()
        self._no_findings = w.HTML(f"<div>{esc(findings_text([])[0])}</div>")
        self.move_button.on_click(lambda _b: self.move_all())
        self.refresh_button.on_click(lambda _b: self._refresh_clicked())
        toolbar = w.HBox([self.device, self.move_button, self.progress, self.refresh_button,
                          self.rows_button])
        self.root = w.VBox([self._card_css, toolbar, self.table, self.findings_box,
                            self.status])
        for widget, cls in ((self.root, "dl-widget"), (self.device, "dl-w-device"),
                            (self.move_button, "dl-w-move"), (self.progress, "dl-w-progress"),
                            (self.refresh_button, "dl-w-refresh"), (self.table, "dl-w-table"),
                            (self.rows_button, "dl-w-rows"),
                            (self.status, "dl-w-status")):
            widget.add_class(cls)  # NB: stable hooks for browser tests and user CSS
        self.refresh()

    # -- actions (what the buttons call; public so scripts and tests can call them too)
    def refresh(self) -> None:
        """Re-snapshot the namespace and redraw the table, findings and device list."""
        snap = take_snapshot(self.namespace, names=self.names)
        findings = diagnose(snap)
        self.snapshot, self.findings = snap, self.mark(findings) if self.mark else findings
        self._draw_table()
        old = [r for r in self.findings_box.children if r is not self._no_findings]
        self.apply_buttons = {}
        shown = self.findings if self.show_all else self.findings[:MAX_FINDINGS]
        more = ([self._note(more_findings(self.findings[MAX_FINDINGS:]))]
                if len(shown) < len(self.findings) else [])
        self.findings_box.children = (*map(self._finding_row, shown), *more) or (
            self._no_findings,)
        for row in old:  # NB: close the replaced widgets, or every refresh leaks comms
            for child in (*row.children, row):
                _close(child)
        self._update_devices(snap)

    def _draw_table(self) -> None:
        """The table, folded to fit a screen unless every row is asked for."""
        if self.snapshot is not None:
            self.table.value = table_html(self.snapshot, self.findings,
                                          show_all=self.show_all or bool(self.rows_button.value))

    def move_all(self, device: str | None = None) -> MoveReport | None:
        """Move everything shown to ``device`` (default: the dropdown's), reporting progress."""
        target = device or str(self.device.value)
        with self._action() as ok:
            if not ok:
                return None
            self.progress.value, self.progress.bar_style = 0, ""
            report = moves.move_all(target, self.namespace, names=self.names,
                                    progress=self._on_progress)
            if report.ok:
                self.progress.value = self.progress.max
            self.progress.bar_style = "success" if report.ok else "danger"
            return self._done(report)
        return None

    def apply(self, finding_id: str) -> MoveReport | None:
        """Apply the fix of finding ``finding_id`` if a fresh diagnosis still reports it."""
        with self._action() as ok:
            if not ok:
                return None
            snap = take_snapshot(self.namespace, names=self.names)
            current = next((f for f in diagnose(snap) if f.id == finding_id), None)
            if current is None:
                self.refresh()
                self.status.value = ("<div>That finding no longer applies (the namespace "
                                     "changed); nothing was moved. The view is refreshed.</div>")
                return None
            return self._done(moves.apply_fix(current, self.namespace))
        return None

    # -- helpers
    @contextmanager
    def _action(self) -> Iterator[bool]:
        """One action at a time, buttons disabled meanwhile, every error shown, none raised."""
        if not self._lock.acquire(blocking=False):
            self.status.value = f"<div>{esc(_BUSY)}</div>"
            yield False
            return
        buttons = [self.move_button, self.refresh_button, *self.apply_buttons.values()]
        for b in buttons:
            b.disabled = True
        try:
            yield True
        except Exception as e:  # NB: a click must never leave a traceback in the log only
            self.status.value = (f"<div><b>Nothing was changed:</b> {esc(type(e).__name__)}: "
                                 f"{esc(e)}</div>")
        finally:
            for b in buttons:
                b.disabled = False
            self._lock.release()

    def _done(self, report: MoveReport) -> MoveReport:
        self.refresh()
        self.status.value = report_html(report)
        return report

    def _on_progress(self, done: int, total: int) -> None:
        """NB: in whole percent, so a move of 100k tensors sends at most 100 updates."""
        self.progress.value = 100 if total <= 0 else min(100, int(done) * 100 // int(total))

    def _refresh_clicked(self) -> None:
        with self._action() as ok:
            if ok:
                self.status.value = ""
                self.refresh()

    @staticmethod
    def _note(text: str) -> Any:
        """A line among the finding cards (a VBox, as each card is: closed the same way)."""
        import ipywidgets as w

        return w.VBox([w.HTML(f"<div>{esc(text)}</div>")])

    def _finding_row(self, f: Finding) -> Any:
        import ipywidgets as w

        text = w.HTML(finding_html(f))
        row = w.VBox([text])
        for cls in ("dl-w-finding", f"dl-w-{f.kind}", f"dl-w-sev-{f.severity}"):
            row.add_class(cls)
        if f.action is None:
            return row
        button = w.Button(description="Apply", icon="wrench", tooltip=f.fix,
                          button_style="warning" if f.severity != "error" else "danger")
        button.add_class("dl-w-apply")
        button.on_click(_bind(self.apply, f.id))
        self.apply_buttons[f.id] = button
        row.children = (text, button)
        return row

    def _update_devices(self, snap: Snapshot) -> None:
        options = device_options(snap.devices)
        values = [v for _, v in options]
        keep = self.device.value if self.device.value in values else None
        accel = [d.name for d in snap.devices if d.kind not in ("cpu", "meta")]
        self.device.options = options
        self.device.value = keep or (accel[0] if accel else "cpu")

    # -- display
    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        """The live widget, plus the same text and HTML as ``%devices`` for front ends without
        a widget manager (nbconvert, GitHub, a kernel whose page lacks ipywidgets)."""
        bundle: dict[str, Any] = dict(self.root._repr_mimebundle_() or {})
        bundle.update(mimebundle(self.snapshot, self.findings, show_all=self.show_all))
        return bundle

    def __repr__(self) -> str:
        return str(mimebundle(self.snapshot, self.findings, show_all=self.show_all)["text/plain"])


def _close(widget: Any) -> None:
    """Close a widget with its layout and style (widgets of their own, with their own comms)."""
    for part in (getattr(widget, "layout", None), getattr(widget, "style", None)):
        if part is not None:
            part.close()
    widget.close()


def _bind(fn: Callable[[str], object], arg: str) -> Callable[[Any], None]:
    def on_click(_button: Any) -> None:
        fn(arg)

    return on_click
