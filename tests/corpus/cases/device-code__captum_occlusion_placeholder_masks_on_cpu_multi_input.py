"""Captum Occlusion with two inputs and perturbations_per_eval > 1: the placeholder masks are made on the CPU.

Source: https://github.com/meta-pytorch/captum/issues/1879
"When using `Occlusion.attribute` and setting the argument `perturbations_per_eval` to a value
greater than 1, ... if setting inputs to CUDA: Expected all tensors to be on the same device, but got
tensors is on cpu, different from other tensors on cuda:0 (when checking argument in method
wrapper_CUDA_cat)". For an input that the current sliding window does not touch, Occlusion builds a
placeholder mask `torch.zeros((1,) + tuple(input_tensor.shape[1:]))` without a device, and the
batched masks of several perturbations are concatenated with the real masks, which are on the
input's device. Proposed fix: `.to(input_tensor.device)`. Stand-in: a reduced Occlusion that walks
the features of both inputs and batches `perturbations_per_eval` ablations per forward call.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class Occlusion:
    """captum.attr.Occlusion (reduced: one window per column of each 2-D input, baseline 0)."""
    def __init__(self, forward_func):
        self.forward_func = forward_func

    def _occlusion_mask(self, input_tensor, col):
        cols = torch.arange(input_tensor.shape[1], device=input_tensor.device)
        return (cols == col).to(input_tensor.dtype).reshape((1,) + tuple(input_tensor.shape[1:]))

    def _features(self, inputs):
        return [(i, col) for i, inp in enumerate(inputs) for col in range(inp.shape[1])]

    def attribute(self, inputs, target=None, perturbations_per_eval=1):
        features = self._features(inputs)
        base = self.forward_func(*inputs)[:, target]
        total_attrib = [torch.zeros_like(inp) for inp in inputs]
        for start in range(0, len(features), perturbations_per_eval):
            chunk = features[start: start + perturbations_per_eval]
            n = len(chunk)
            ablated_inputs, masks = [], []
            for i, input_tensor in enumerate(inputs):
                current_masks = []
                for (tensor_idx, col) in chunk:
                    if tensor_idx == i:
                        current_masks.append(self._occlusion_mask(input_tensor, col))
                    else:
                        current_masks.append(torch.zeros((1,) + tuple(input_tensor.shape[1:])))
                current_mask = torch.cat(current_masks, dim=0)
                expanded = input_tensor.repeat(n, *([1] * (input_tensor.dim() - 1)))
                batch_mask = current_mask.unsqueeze(1).expand(n, *input_tensor.shape).reshape(expanded.shape)
                ablated_inputs.append(expanded * (1 - batch_mask))
                masks.append(current_mask)
            out = self.forward_func(*ablated_inputs)[:, target].reshape(n, -1)
            for i in range(len(inputs)):
                total_attrib[i] = total_attrib[i] + ((base[None] - out)[:, :, None] * masks[i][:, None, :]).sum(0)
        return tuple(total_attrib)

class TwoInputNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc_a = nn.Linear(4, 8)
        self.fc_b = nn.Linear(3, 8)
        self.head = nn.Linear(8, 2)

    def forward(self, a, b):
        return self.head(torch.relu(self.fc_a(a) + self.fc_b(b)))

device = torch.device("cuda:0")
model = TwoInputNet().to(device).eval()
input_a = torch.randn(5, 4).to(device)
input_b = torch.randn(5, 3).to(device)
occlusion = Occlusion(model)
'''
CELL = '''
attributions = occlusion.attribute((input_a, input_b), target=1, perturbations_per_eval=2)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["occlusion"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("current_masks.append(torch.zeros((1,) + tuple(input_tensor.shape[1:])))",
                  "current_masks.append(torch.zeros((1,) + tuple(input_tensor.shape[1:])).to(input_tensor.device))")
CLEAN = False
