"""`x[idx] = v` with a boolean mask on a 0-d float64 tensor fails when `v` is a float32 0-d tensor.

Source: https://github.com/pytorch/pytorch/issues/150017
"`__setitem__` with bool mask and dtype mismatch fails for scalar arrays": for a 0-d `x`
(float64), a 0-d boolean mask `idx = x == 0` and a 0-d value `v` of another dtype (float32),
`x[idx] = v` raises "Index put requires the source and destination dtypes match, got Double for
the destination and Float for the source", although the same assignment promotes fine for a 1-d
`x` or with `x[()] = v`. The report's own working variant gives the value the destination's
dtype (`xp.asarray(1, dtype=xp.float64)`), i.e. `v` must match `x.dtype` for the masked put.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import torch as xp

x = xp.asarray(0, dtype=xp.float64)
idx = x == 0
v = xp.asarray(1, dtype=xp.float32)
'''
CELL = '''
x[idx] = v
'''
EXPECT_ERROR = "Index put requires the source and destination dtypes match"
CULPRITS = ["v"]
FIX = "namespace"
REFERENCE_FIX = '''
v = v.to(x.dtype)
'''
REFERENCE_EDIT = None
CLEAN = False
