"""Renderers: views of core objects (snapshot, findings, move reports). A layer, no logic.

Every bundle carries ``text/plain``; HTML escaping lives in :func:`devicelens.render.html.esc`;
the ipywidgets view loads lazily and only when asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._fold import table
from .html import report_html, snapshot_html
from .text import report_text, snapshot_text

if TYPE_CHECKING:
    from ..analysis import Finding
    from ..inspect import Snapshot
    from ..moves import MoveReport

__all__ = ["DevicesView", "RenderedView", "mimebundle", "report_mimebundle"]


def mimebundle(snap: Snapshot | None, findings: list[Finding] | None, *,
               show_all: bool = False) -> dict[str, str]:
    findings = findings or []
    rs = table(snap, findings, show_all=show_all) if snap is not None else None  # NB: once
    return {
        "text/plain": snapshot_text(snap, findings, show_all=show_all, rs=rs),
        "text/html": snapshot_html(snap, findings, show_all=show_all, rs=rs),
    }


def report_mimebundle(report: MoveReport) -> dict[str, str]:
    return {"text/plain": report_text(report), "text/html": report_html(report)}


class DevicesView:
    """What ``%devices`` returns: a snapshot and its findings, displayed by the front end."""

    def __init__(self, snap: Snapshot, findings: list[Finding], *, show_all: bool = False):
        self.snapshot = snap
        self.findings = findings
        self.show_all = show_all

    def _repr_mimebundle_(self, include: object = None, exclude: object = None) -> dict[str, str]:
        return mimebundle(self.snapshot, self.findings, show_all=self.show_all)

    def __repr__(self) -> str:
        return snapshot_text(self.snapshot, self.findings, show_all=self.show_all)

    def rendered(self) -> RenderedView:
        """This view as its two strings, rendered now: what ``%devices`` hands back, so that
        the output history keeps text instead of the snapshot's thousands of records."""
        return RenderedView(self._repr_mimebundle_())


class RenderedView:
    """A :class:`DevicesView` already rendered: displays the same, holds only strings."""

    def __init__(self, bundle: dict[str, str]) -> None:
        self.bundle = bundle

    def _repr_mimebundle_(self, include: object = None, exclude: object = None) -> dict[str, str]:
        return dict(self.bundle)

    def __repr__(self) -> str:
        return self.bundle["text/plain"]

    def _repr_html_(self) -> str | None:
        """The HTML view, for code that asks for it by name (``HTML(view._repr_html_())``);
        ``None`` where the view has no HTML form, as IPython's display protocol expects."""
        return self.bundle.get("text/html")
