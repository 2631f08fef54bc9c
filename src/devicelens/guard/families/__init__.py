"""Families of bug whose culprit or fix the general diagnosis would not find alone: code that
makes a tensor wrong, in-place writes, EMA updates across models, ``pack_padded_sequence``
lengths, and the like. Each module is one family."""
