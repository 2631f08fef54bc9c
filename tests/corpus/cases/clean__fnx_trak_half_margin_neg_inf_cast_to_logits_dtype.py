"""TRAK's current margin function: per-sample gradients of a float16 model, the `-inf` mask made in the logits' dtype.

Source: https://github.com/MadryLab/trak/blob/main/trak/modelout_functions.py
`ImageClassificationModelOutput.get_output` runs under `torch.func.grad` + `vmap`; it builds the
batch index with `ch.arange(...).to(logits.device)` and writes `ch.tensor(-ch.inf,
device=logits.device, dtype=logits.dtype)` into a clone of the half logits, with int64 labels and
float16 images side by side. Look-alike: a float16 model, an int64 index and a constant created inside
a transformed function, all consistent; it runs. Stand-in: `FunctionalGradientComputer` reduced to its
torch.func core, a small fp16 CNN; CPU.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch as ch
from torch import nn

class ImageClassificationModelOutput:
    @staticmethod
    def get_output(model, weights, buffers, image, label):
        logits = ch.func.functional_call(model, (weights, buffers), image.unsqueeze(0))
        bindex = ch.arange(logits.shape[0]).to(logits.device, non_blocking=False)
        logits_correct = logits[bindex, label.unsqueeze(0)]
        cloned_logits = logits.clone()
        cloned_logits[bindex, label.unsqueeze(0)] = ch.tensor(
            -ch.inf, device=logits.device, dtype=logits.dtype
        )
        margins = logits_correct - cloned_logits.logsumexp(dim=-1)
        return margins.sum()

class FunctionalGradientComputer:
    def __init__(self, model, task):
        self.model = model
        self.modelout_fn = task
        self.func_weights = dict(model.named_parameters())
        self.func_buffers = dict(model.named_buffers())

    def compute_per_sample_grad(self, batch):
        grads_loss = ch.func.grad(self.modelout_fn.get_output, has_aux=False, argnums=1)
        return ch.func.vmap(grads_loss, in_dims=(None, None, None, *([0] * len(batch))),
                            randomness="different")(self.model, self.func_weights,
                                                    self.func_buffers, *batch)

model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                      nn.Flatten(), nn.Linear(8, 10)).half().eval()
task = ImageClassificationModelOutput()
gradient_computer = FunctionalGradientComputer(model, task)
batch = (ch.randn(4, 3, 16, 16).half(), ch.randint(0, 10, (4,)))
'''
CELL = '''
grads = gradient_computer.compute_per_sample_grad(batch)
print({k: (v.shape, v.dtype) for k, v in grads.items()})
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
