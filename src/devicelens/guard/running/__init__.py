"""Running the guard: the ``TorchFunctionMode`` that catches a mix before the op runs, the
pre-flight that reads a cell before it runs, the runners for cells, scripts and simulated
devices, and the frames of a failure (which are the user's). What they catch,
:mod:`..diagnosis` explains."""
