"""pytorch-grad-cam SemanticSegmentationTarget: the numpy mask becomes a CPU tensor unless CUDA is detected.

Source: https://github.com/jacobgil/pytorch-grad-cam/issues/545
`targets = [SemanticSegmentationTarget(2, np.ones((128, 128), dtype=np.float32))]` then
`cam(input_tensor=timg, targets=targets)` with the segmentation model on an accelerator that
`torch.cuda.is_available()` does not report (mps) raised "Expected all tensors to be on the same
device, ... mps:0 and cpu!": the target's `__init__` only moves `self.mask` with `.cuda()` when CUDA
is available, so the mask stays on the CPU while `model_output` is on the model's device. Stand-in:
BaseCAM/GradCAM and ActivationsAndGradients reduced to the forward pass and the target loss (the
error is raised before `backward`); in the simulation `torch.cuda.is_available()` is False, as it
was for the reporter's mps device.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import numpy as np
import torch
from torch import nn

class SemanticSegmentationTarget:
    """pytorch_grad_cam.utils.model_targets.SemanticSegmentationTarget (1.5.x)."""
    def __init__(self, category, mask):
        self.category = category
        self.mask = torch.from_numpy(mask)
        if torch.cuda.is_available():
            self.mask = self.mask.cuda()

    def __call__(self, model_output):
        return (model_output[self.category, :, :] * self.mask).sum()

class ActivationsAndGradients:
    def __init__(self, model, target_layers, reshape_transform):
        self.model = model
        self.activations = []
        self.reshape_transform = reshape_transform
        self.handles = [layer.register_forward_hook(self.save_activation) for layer in target_layers]

    def save_activation(self, module, input, output):
        activation = output
        if self.reshape_transform is not None:
            activation = self.reshape_transform(activation)
        self.activations.append(activation.cpu().detach())

    def __call__(self, x):
        self.activations = []
        return self.model(x)

    def release(self):
        for handle in self.handles:
            handle.remove()

class GradCAM:
    def __init__(self, model, target_layers, reshape_transform=None):
        self.model = model.eval()
        self.target_layers = target_layers
        self.device = next(self.model.parameters()).device
        self.activations_and_grads = ActivationsAndGradients(self.model, target_layers, reshape_transform)

    def __call__(self, input_tensor, targets):
        outputs = self.activations_and_grads(input_tensor)
        self.model.zero_grad()
        loss = sum([target(output) for target, output in zip(targets, outputs)])
        return loss

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

device = torch.device("cuda:0")     # the reporter's "mps"
m = SegModel().to(device)
l = [m.backbone[0]]
timg = torch.rand(1, 3, 128, 128).to(device)
reshape_transform = None
targets = [
    SemanticSegmentationTarget(2, np.ones((128, 128), dtype=np.float32))
]
'''
CELL = '''
with GradCAM(model=m, target_layers=l, reshape_transform=reshape_transform) as cam:
    mask = cam(input_tensor=timg, targets=targets)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["targets[0].mask"]
FIX = "namespace"
REFERENCE_FIX = '''
targets[0].mask = targets[0].mask.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
