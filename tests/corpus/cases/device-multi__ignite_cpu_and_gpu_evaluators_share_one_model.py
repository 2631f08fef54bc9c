"""Two ignite evaluators, one for the CPU and one for the GPU, built on the same model: the last one built moved it.

Source: https://github.com/pytorch/ignite/issues/830
"model is moved too early in create_supervised_trainer/evaluator": the user wanted one evaluator on
the CPU (a library without GPU support) and one on the GPU for the same model. In ignite 0.3
`create_supervised_evaluator(model, ..., device=device)` called `model.to(device)` at creation,
not in `_inference`, so after building both, "the run steps will not work, as the model is not
moved again in the inference stage": the CPU evaluator feeds CPU batches to a CUDA model. Fixed by
pytorch/ignite#835 and later #910 (the model is no longer moved; the user moves it). Stand-in:
ignite 0.3's `Engine`/`create_supervised_evaluator` (reduced).
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
import torch.nn as nn

class Engine:
    def __init__(self, process_function):
        self._process_function = process_function
        self.output = None

    def run(self, data, max_epochs=1):
        for _ in range(max_epochs):
            for batch in data:
                self.output = self._process_function(self, batch)
        return self

def _prepare_batch(batch, device=None, non_blocking=False):
    x, y = batch
    return x.to(device), y.to(device)

def create_supervised_evaluator(model, metrics=None, device=None, non_blocking=False,
                                prepare_batch=_prepare_batch):
    """ignite 0.3: the model is moved here, once, when the evaluator is created."""
    if device:
        model.to(device)

    def _inference(engine, batch):
        model.eval()
        with torch.no_grad():
            x, y = prepare_batch(batch, device=device, non_blocking=non_blocking)
            y_pred = model(x)
            return y_pred, y
    return Engine(_inference)

model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
val_loader = [(torch.randn(8, 16), torch.randint(0, 4, (8,))) for _ in range(2)]

cpu_evaluator = create_supervised_evaluator(model, device="cpu")     # for the CPU-only library
gpu_evaluator = create_supervised_evaluator(model, device="cuda:0")
gpu_evaluator.run(val_loader)
'''
CELL = '''
cpu_evaluator.run(val_loader)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
model.to("cpu")
'''
REFERENCE_EDIT = None
CLEAN = False
