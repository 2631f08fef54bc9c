"""IL-Datasets `accuracy(prediction, ground_truth)` in a behavioural-cloning eval loop: predictions on cuda:0, ground truth on the CPU.

Source: https://github.com/NathanGavenski/IL-Datasets/issues/21
The maintainer reports that the metric "doesn't make sure that all inputs [are] on the same device":
`accuracy` computes `(argmax(prediction, 1) == ground_truth).sum().item()`, which breaks when the
policy's logits are on the GPU and the expert actions from the loader are still on the CPU. Fix: move
the ground truth to the prediction's device before comparing.
Stand-in: the repo's `accuracy` body, an MLP policy and one batch of (state, expert action) pairs;
the final `.item()`/percentage is left to the caller (the simulation cannot read values).
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn, Tensor, argmax

def accuracy(prediction: Tensor, ground_truth: Tensor):
    if not isinstance(prediction, Tensor) or not isinstance(ground_truth, Tensor):
        raise ValueError("'prediction' and 'ground truth' should be a tensor")
    if len(prediction.size()) != 2:
        raise ValueError("'prediction' and 'ground truth' need to be 2 dimensional.")
    if len(ground_truth.size()) != 1:
        raise ValueError("'ground truth' need to be 1 dimensional.")
    return (argmax(prediction, 1) == ground_truth).sum() / ground_truth.size(0) * 100

device = torch.device("cuda:0")
policy = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 4)).to(device)
state = torch.randn(32, 8).to(device)
action = torch.randint(0, 4, (32,))          # expert actions straight from the loader
'''
CELL = '''
with torch.no_grad():
    prediction = policy(state)
    acc = accuracy(prediction, action)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["action"]
FIX = "namespace"
REFERENCE_FIX = '''
action = action.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
