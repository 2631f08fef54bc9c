"""`torch.sparse_coo_tensor(indices, [], size)` with GPU indices: the Python-list `values` becomes a CPU tensor.

Source: https://github.com/pytorch/pytorch/issues/89402
The user built an empty COO tensor from `indices = torch.rand([1, 0], dtype=torch.float32).cuda()`,
`values = []`, `size = [1]`; on the CPU it worked, on the GPU it raised "Expected all tensors to be on
the same device, but found at least two devices, cuda:0 and cpu! (when checking argument for
argument values in method wrapper___sparse_coo_tensor_with_dims_and_tensors)". The maintainer's
answer: an empty list passed as `values` "will be converted into a tensor with the default device
type", so `values` is on the CPU while `indices` is on cuda:0; pass `values` as a tensor on the
indices' device. SIM meta: "meta" plays the GPU (there the check reads "backend of indices (Meta)
must match backend of values (CPU)").
"""

SIM = "meta"
FAMILY = "device-loose"
SETUP = '''
import torch

device = torch.device("meta")                          # torch.device("cuda")
indices = torch.rand([1, 0], dtype=torch.float32).to(device)
values = []
size = [1]
'''
CELL = '''
out = torch.sparse_coo_tensor(indices, values, size)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "must match backend of values")
CULPRITS = ["values"]
FIX = "namespace"
REFERENCE_FIX = '''
values = torch.tensor(values, device=indices.device)
'''
REFERENCE_EDIT = None
CLEAN = False
