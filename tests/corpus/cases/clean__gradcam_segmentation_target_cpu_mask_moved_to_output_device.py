"""Look-alike: pytorch-grad-cam's SemanticSegmentationTarget keeps its mask on the CPU and moves it at use.

Source: https://github.com/jacobgil/pytorch-grad-cam/issues/545
After that report, `SemanticSegmentationTarget.__init__` keeps `torch.from_numpy(mask)` on the CPU
and `__call__` multiplies `model_output[self.category, :, :] * self.mask.to(model_output.device)`:
the target object holds a CPU tensor on purpose while the segmentation model runs on the GPU.
Nothing to report. Stand-in: BaseCAM/GradCAM and ActivationsAndGradients reduced to the forward
pass and the target loss.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

class SemanticSegmentationTarget:
    def __init__(self, category, mask):
        self.category = category
        self.mask = torch.from_numpy(mask)

    def __call__(self, model_output):
        return (model_output[self.category, :, :] * self.mask.to(model_output.device)).sum()

class ActivationsAndGradients:
    def __init__(self, model, target_layers):
        self.model = model
        self.activations = []
        self.handles = [layer.register_forward_hook(self.save_activation) for layer in target_layers]

    def save_activation(self, module, input, output):
        self.activations.append(output.cpu().detach())

    def __call__(self, x):
        self.activations = []
        return self.model(x)

    def release(self):
        for handle in self.handles:
            handle.remove()

class GradCAM:
    def __init__(self, model, target_layers):
        self.model = model.eval()
        self.device = next(self.model.parameters()).device
        self.activations_and_grads = ActivationsAndGradients(self.model, target_layers)

    def __call__(self, input_tensor, targets):
        input_tensor = input_tensor.to(self.device)
        outputs = self.activations_and_grads(input_tensor)
        return sum([target(output) for target, output in zip(targets, outputs)])

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, exc_tb):
        self.activations_and_grads.release()

class SegModel(nn.Module):
    def __init__(self, n_classes=4):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.classifier = nn.Conv2d(8, n_classes, 1)

    def forward(self, x):
        return self.classifier(self.backbone(x))

model = SegModel().to("cuda:0")
target_layers = [model.backbone[0]]
input_tensor = torch.rand(1, 3, 64, 64).to("cuda:0")
car_mask_float = np.ones((64, 64), dtype=np.float32)
targets = [SemanticSegmentationTarget(2, car_mask_float)]
'''
CELL = '''
with GradCAM(model=model, target_layers=target_layers) as cam:
    loss = cam(input_tensor=input_tensor, targets=targets)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
