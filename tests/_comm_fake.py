"""A recording stand-in for a kernel comm: what the bridge sends, as the panel would read it."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from devicelens.jupyter._protocol import PROTOCOL_VERSION


class FakeComm:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.sizes: list[int] = []
        self.closed = False
        self._on_msg: Callable[[Any], None] | None = None
        self._on_close: Callable[[Any], None] | None = None

    # the comm API the bridge uses
    def send(self, data: Any = None, metadata: Any = None, buffers: Any = None) -> None:
        text = json.dumps(data, ensure_ascii=False)  # NB: what the kernel session does to it
        self.sizes.append(len(text.encode()))
        self.sent.append(json.loads(text))

    def on_msg(self, callback: Callable[[Any], None]) -> None:
        self._on_msg = callback

    def on_close(self, callback: Callable[[Any], None]) -> None:
        self._on_close = callback

    def close(self, data: Any = None, metadata: Any = None, buffers: Any = None) -> None:
        self.closed = True

    # what the panel does
    def deliver(self, data: Any) -> None:
        assert self._on_msg is not None
        self._on_msg({"content": {"comm_id": "c1", "data": data}})

    def request(self, method: str, params: dict[str, Any] | None = None, rid: str = "r1",
                **extra: Any) -> list[dict[str, Any]]:
        self.sent.clear()
        self.deliver({"type": "request", "protocol": PROTOCOL_VERSION, "request_id": rid,
                      "method": method, "params": params or {}, **extra})
        return self.take()

    def panel_close(self) -> None:
        assert self._on_close is not None
        self._on_close({"content": {"comm_id": "c1", "data": {}}})

    def take(self) -> list[dict[str, Any]]:
        out, self.sent = self.sent, []
        return out
