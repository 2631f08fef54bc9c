"""Weight matching: index_select of GPU weights with permutation indices kept on the CPU.

Source: https://github.com/ogkalu2/Merge-Stable-Diffusion-models-without-distortion/issues/20
`w = torch.index_select(w, axis, perm[p].int())` with `--device cuda` raised "Expected all tensors
to be on the same device, but found at least two devices, cuda:0 and cpu! (when checking argument
for argument index in method wrapper__index_select)": the state-dict weights went to the GPU, the
permutations were built on the CPU.
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import torch

def get_permuted_param(w, perm_idx, axis):
    return torch.index_select(w, axis, perm_idx.int())

theta = {"conv_in.weight": torch.randn(8, 4).to("cuda:0")}
perm = {"P_conv_in": torch.randperm(8)}
'''
CELL = '''
w = get_permuted_param(theta["conv_in.weight"], perm["P_conv_in"], 0)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["perm['P_conv_in']"]
FIX = "namespace"
REFERENCE_FIX = '''
perm = {k: v.to("cuda:0") for k, v in perm.items()}
'''
REFERENCE_EDIT = None
CLEAN = False
