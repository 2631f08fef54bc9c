"""SHAP DeepExplainer: background batch and model on the GPU, the images to explain left on the CPU.

Source: https://github.com/shap/shap/pull/656
"PyTorch Deep Explainer: Make sure everything is on the same device" (resolving shap issue 629):
`e = shap.DeepExplainer(model, background)` with the model and `background` on CUDA, then
`e.shap_values(test_images)` with CPU test images failed inside the explainer's forward passes
with a device mismatch. Stand-in: the explainer reduced to its stored background/expected value
and a gradient-free difference-from-reference attribution (forward only).
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

class DeepExplainer:
    def __init__(self, model, data):
        self.model = model
        self.data = data
        with torch.no_grad():
            self.expected_value = model(data).mean(0)

    def shap_values(self, X):
        with torch.no_grad():
            out = self.model(X)
            ref = self.data.mean(0, keepdim=True)
            return (X - ref) * (out - self.expected_value).sum(-1, keepdim=True)

device = torch.device("cuda:0")
model = nn.Sequential(nn.Flatten(), nn.Linear(28 * 28, 32), nn.ReLU(), nn.Linear(32, 10),
                      nn.Unflatten(1, (10,))).to(device)
model.eval()
images = torch.rand(103, 28 * 28)
background = images[:100].to(device)
test_images = images[100:103]
e = DeepExplainer(model, background)
'''
CELL = '''
shap_values = e.shap_values(test_images)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["test_images"]
FIX = "namespace"
REFERENCE_FIX = '''
test_images = test_images.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
