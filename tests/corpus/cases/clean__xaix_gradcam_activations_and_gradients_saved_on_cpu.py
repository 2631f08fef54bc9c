"""pytorch-grad-cam `ActivationsAndGradients`: hooked activations of a GPU model are stored on the CPU on purpose.

Source: https://github.com/jacobgil/pytorch-grad-cam/blob/master/pytorch_grad_cam/activations_and_gradients.py
The forward hook on the target layer does `self.activations.append(activation.cpu().detach())` (gradients likewise),
and `BaseCAM.forward` moves the input with `input_tensor.cuda()` (`use_cuda=True`) before calling
`self.activations_and_grads(input_tensor)`; the CAM itself is then computed from those CPU copies (in numpy).
Look-alike: a cuda model whose intermediate activations are kept on the CPU, and a CPU post-processing step
next to cuda outputs; nothing mixes them, so it runs.
Stand-ins: a small CNN, `ActivationsAndGradients` (forward part), and the CAM post-processing written in torch on the
CPU activations (the library does it in numpy); the backward pass is left out (no autograd on the simulated GPU).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class ActivationsAndGradients:
    def __init__(self, model, target_layer, reshape_transform):
        self.model = model
        self.gradients = []
        self.activations = []
        self.reshape_transform = reshape_transform
        target_layer.register_forward_hook(self.save_activation)

    def save_activation(self, module, input, output):
        activation = output
        if self.reshape_transform is not None:
            activation = self.reshape_transform(activation)
        self.activations.append(activation.cpu().detach())

    def __call__(self, x):
        self.gradients = []
        self.activations = []
        return self.model(x)

class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 16, 3, padding=1), nn.ReLU())
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(16, 10)
    def forward(self, x):
        return self.fc(self.pool(self.features(x)).flatten(1))

model = SmallCNN().to("cuda:0")
model.eval()
target_layer = model.features[-1]
activations_and_grads = ActivationsAndGradients(model, target_layer, reshape_transform=None)
input_tensor = torch.randn(2, 3, 32, 32)           # preprocess_image(rgb_img): CPU
use_cuda = True
'''
CELL = '''
if use_cuda:
    input_tensor = input_tensor.cuda("cuda:0")
output = activations_and_grads(input_tensor)
activations = activations_and_grads.activations[-1]          # on the CPU by design
weights = activations.mean(dim=(2, 3))
cam = torch.relu((weights[:, :, None, None] * activations).sum(dim=1))
cam = cam - cam.amin(dim=(1, 2), keepdim=True)
cam = cam / (cam.amax(dim=(1, 2), keepdim=True) + 1e-7)
scores = torch.softmax(output, dim=-1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
