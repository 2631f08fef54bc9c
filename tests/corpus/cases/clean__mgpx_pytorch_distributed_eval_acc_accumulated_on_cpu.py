"""Look-alike: per-rank accuracy computed on the rank's GPU, accumulated into a CPU tensor with `.cpu()`.

Source: https://github.com/tczhangzhi/pytorch-distributed/issues/1
Asked whether test accuracy is synchronised across GPUs, the maintainer answers with a sketch where
`evaluate(rank)` returns `local_acc` on `cuda(rank)` and the worker adds `local_acc.cpu()` into
`global_acc`, a CPU tensor (shared memory), counting the contributions. A CPU tensor beside GPU
results on purpose; the explicit `.cpu()` keeps every op on one device. Stand-in: the worker for
rank 1 without `dist.init_process_group` / shared memory; `torch.randn(1)[0]` replaced by a mean of a
random vector (indexing a simulated GPU tensor is not possible here).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch

def evaluate(rank):
    local_acc = torch.randn(4).mean().to(f"cuda:{rank}")
    print("local_acc device:", local_acc.device)
    return local_acc

args = {"global_acc": torch.zeros(()), "global_count": 0}
gpu = 1
'''
CELL = '''
local_acc = evaluate(gpu)
global_acc, global_count = args["global_acc"], args["global_count"]
global_acc += local_acc.cpu()
global_count += 1
mean_acc = global_acc / global_count
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
