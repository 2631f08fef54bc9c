"""accelerate gradient-accumulation docs example: the "model" is a bare tensor that `prepare()` never moves.

Source: https://github.com/huggingface/accelerate/pull/3157
The self-contained example in the gradient-accumulation guide used `model = torch.zeros((1, 1))`
and passed it through `accelerator.prepare(...)` with the dataloader; the batches came back on
cuda:0, the tensor "model" stayed on the CPU, and `outputs = inputs @ model` failed with "found at
least two devices, cuda:0 and cpu! (when checking argument for argument mat2 in method
wrapper_CUDA_mm)". "accelerator.prepare() will not move the tensor model to device." Stand-in: an
Accelerator whose `prepare` moves nn.Modules and wraps dataloaders to yield device batches, and
passes any other object through unchanged.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

class Accelerator:
    def __init__(self, gradient_accumulation_steps=1):
        self.device = torch.device("cuda:0")
        self.gradient_accumulation_steps = gradient_accumulation_steps

    def _prepare_one(self, obj):
        if isinstance(obj, nn.Module):
            return obj.to(self.device)
        if isinstance(obj, list) and obj and isinstance(obj[0], tuple):   # a dataloader
            return [tuple(t.to(self.device) for t in batch) for batch in obj]
        return obj                                                          # tensors pass through

    def prepare(self, *args):
        return tuple(self._prepare_one(a) for a in args)

x = torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]).view(-1, 1)
y = 2 * x
dataloader = [(x[i:i + 2], y[i:i + 2]) for i in range(0, 8, 2)]     # DataLoader(batch_size=2)

accelerator = Accelerator(gradient_accumulation_steps=2)
model = torch.zeros((1, 1))
model, dataloader = accelerator.prepare(model, dataloader)
'''
CELL = '''
for (inputs, labels) in dataloader:
    outputs = inputs @ model
    loss = torch.nn.functional.mse_loss(outputs, labels)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
model = model.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
