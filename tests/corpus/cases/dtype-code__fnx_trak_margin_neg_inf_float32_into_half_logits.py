"""TRAK per-sample gradients in float16: the margin function writes a float32 `-inf` into the half logits.

Source: https://github.com/MadryLab/trak/pull/36
"fixed model output function when computing gradients in float16": TRAK's image-classification
model output (run through `torch.func.grad` + `vmap` for per-sample gradients) masks the correct
class with `cloned_logits[bindex, label] = ch.tensor(-ch.inf, device=logits.device)`, whose
default dtype is float32; with a float16 model the index_put fails (source/destination dtypes).
The fix creates the constant with `dtype=logits.dtype`. Stand-ins: `ImageClassificationModelOutput`
and `FunctionalGradientComputer.compute_per_sample_grad` reduced to their torch.func core, a small
fp16 CNN; CPU (dtype bug only).
"""

SIM = "cpu"
FAMILY = "dtype-code"
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
        cloned_logits[bindex, label.unsqueeze(0)] = ch.tensor(-ch.inf, device=logits.device)
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
images = ch.randn(4, 3, 16, 16).half()
labels = ch.randint(0, 10, (4,))
batch = (images, labels)
'''
CELL = '''
grads = gradient_computer.compute_per_sample_grad(batch)
print({k: v.shape for k, v in grads.items()})
'''
EXPECT_ERROR = ("Index put requires the source and destination dtypes match", "dtype")
CULPRITS = ["task"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("ch.tensor(-ch.inf, device=logits.device)",
                  "ch.tensor(-ch.inf, device=logits.device, dtype=logits.dtype)")
CLEAN = False
