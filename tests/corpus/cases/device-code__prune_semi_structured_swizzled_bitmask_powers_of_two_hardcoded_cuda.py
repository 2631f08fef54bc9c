"""2:4 semi-structured sparsity: `_compute_compressed_swizzled_bitmask` builds `powers_of_two` on a hard-coded "cuda" device.

Source: https://github.com/pytorch/pytorch/pull/193943
"[sparse] Fix hardcoded "cuda" device in semi-structured bitmask conversion":
`_compute_compressed_swizzled_bitmask()` in `torch/sparse/_semi_structured_conversions.py` hard-coded
`device="cuda"` for the internal `powers_of_two` tensor used in a matmul against
`bitmask_binary_representation`, which is derived from the input `dense`; any tensor not on that CUDA
device raised a device-mismatch RuntimeError. The fix uses `device=bitmask_binary_representation.device`.
Here the 2:4-pruned weight is on the CPU (the report's case is another accelerator).
Stand-in: the function copied from torch/sparse/_semi_structured_conversions.py (`device="cuda"` written
as "cuda:0"); the weight is pruned 2:4 with a fixed keep-2-of-4 pattern. The edit is in a plain
function; the namespace tensor meeting the hard-coded device is `weight_24`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

def _compute_compressed_swizzled_bitmask(dense):
    """
    Calculates the compressed swizzled bitmask from a dense tensor
    """
    int_bitmask = dense.bool().to(torch.uint8)
    bitmask_8x8_chunks = int_bitmask.unfold(0, 8, 8).unfold(1, 8, 8)
    bitmask_4x4_chunks = bitmask_8x8_chunks.unfold(2, 4, 4).unfold(3, 4, 4)
    bitmask_binary_representation = bitmask_4x4_chunks.reshape(*bitmask_4x4_chunks.shape[:2], 4, 2, 8)
    powers_of_two = 2**torch.arange(8, dtype=torch.float, device="cuda:0")
    compressed_swizzled_bitmask = (bitmask_binary_representation.to(torch.float) @ powers_of_two).to(torch.uint8)
    return compressed_swizzled_bitmask

weight = torch.randn(128, 128)
keep_2_of_4 = torch.tensor([1.0, 1.0, 0.0, 0.0]).repeat(128, 32)
weight_24 = weight * keep_2_of_4        # 2:4 sparse weight, kept on the CPU
'''
CELL = '''
bitmask = _compute_compressed_swizzled_bitmask(weight_24)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["weight_24"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('powers_of_two = 2**torch.arange(8, dtype=torch.float, device="cuda:0")',
                  'powers_of_two = 2**torch.arange(8, dtype=torch.float, device=bitmask_binary_representation.device)')
CLEAN = False
