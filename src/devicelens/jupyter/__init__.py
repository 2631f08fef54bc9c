"""The kernel's doors: ``%load_ext`` hooks, magics, the panel's comm bridge and its wire protocol.

Thin adapters over the layers below; the protocol (:mod:`._protocol`) is the only place that
knows the wire format, mirrored in ``labextension/src/tokens.ts``.
"""
