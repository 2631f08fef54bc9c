"""Captum FeaturePermutation on CUDA inputs with a feature mask built on the CPU.

Source: https://github.com/meta-pytorch/captum/pull/1245
"Currently `FeaturePermutation` and `FeatureAblation` both throw a device mismatch issue ... because
the `current_mask` is always created on CPU and never moved to the same device as `expanded_input`
when CUDA is available": the per-feature masks are `input_mask == j` of the user's `feature_mask`,
which was made with `torch.tensor(...)` on the CPU while the model and inputs are on the GPU.
Stand-in: FeaturePermutation reduced to `_construct_ablated_input` with captum's permutation of the
batch (a fixed reversal of the batch instead of `torch.randperm`).
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

def _permute_feature(x, feature_mask):
    permuted = x.flip(0)      # x[torch.randperm(n)]
    return (permuted * feature_mask.to(dtype=x.dtype)) + (x * feature_mask.bitwise_not().to(dtype=x.dtype))

class FeaturePermutation:
    """captum.attr.FeaturePermutation (reduced)."""
    def __init__(self, forward_func, perm_func=_permute_feature):
        self.forward_func = forward_func
        self.perm_func = perm_func

    def _construct_ablated_input(self, expanded_input, input_mask, start_feature, end_feature):
        current_mask = torch.stack([input_mask == j for j in range(start_feature, end_feature)], dim=0).bool()
        output = torch.stack([self.perm_func(x, mask.squeeze(0)) for x, mask in zip(expanded_input, current_mask)])
        return output, current_mask

    def attribute(self, inputs, target=None, feature_mask=None):
        num_features = int(feature_mask.max()) + 1 if isinstance(feature_mask, int) else 3
        initial_eval = self.forward_func(inputs)[:, target]
        total_attrib = torch.zeros_like(inputs)
        for j in range(num_features):
            expanded = inputs.unsqueeze(0)
            ablated, current_mask = self._construct_ablated_input(expanded, feature_mask, j, j + 1)
            eval_diff = initial_eval - self.forward_func(ablated[0])[:, target]
            total_attrib = total_attrib + eval_diff[:, None] * current_mask[0].to(inputs.dtype)
        return total_attrib

device = torch.device("cuda:0")
model = nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 3)).to(device).eval()
inputs = torch.randn(8, 5).to(device)
feature_mask = torch.tensor([[0, 0, 1, 1, 2]])     # group the 5 features into 3
feature_perm = FeaturePermutation(model)
'''
CELL = '''
with torch.no_grad():
    attr = feature_perm.attribute(inputs, target=1, feature_mask=feature_mask)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["feature_mask"]
FIX = "namespace"
REFERENCE_FIX = '''
feature_mask = feature_mask.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
