"""DeepCTR-Torch 0.2.9 under nn.DataParallel: the linear part makes its logit buffer on `self.device`.

Source: https://github.com/shenweichen/DeepCTR-Torch/issues/309
"Single-machine multi-GPU execution failed ... Caught RuntimeError in replica 1 on device 1" in
`logit = self.linear_model(X)`: in 0.2.9 `Linear.forward` starts with
`linear_logit = torch.zeros([X.shape[0], 1]).to(self.device)`, and `self.device` is the string the
model was built with ("cuda:0"); the replica on cuda:1 adds its cuda:1 embeddings to that cuda:0
tensor. Earlier versions used `.to(sparse_embedding_list[0].device)`, the input's device. Stand-in:
DeepCTR's Linear/DCN reduced to sparse features, and `nn.DataParallel` with hand-made
scatter/replicate/gather as on a 2-GPU machine.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import copy
import torch
from torch import nn

class DataParallel(nn.DataParallel):
    # stand-in: nn.DataParallel on a machine with GPUs 0 and 1, torch's own forward; scatter,
    # replicate, parallel_apply and gather done by hand (a CPU build has no NCCL). Like torch's
    # replicate, it copies parameters and buffers to each GPU and leaves other attributes as they are.
    def __init__(self, module, device_ids=(0, 1)):
        nn.Module.__init__(self)
        self.module, self.dim = module, 0
        self.device_ids = list(device_ids)
        self.output_device = self.device_ids[0]
        self.src_device_obj = torch.device(f"cuda:{self.device_ids[0]}")

    def scatter(self, inputs, kwargs, device_ids):
        chunks = [t.chunk(len(device_ids)) for t in inputs]
        return (tuple(tuple(c[i].to(f"cuda:{d}") for c in chunks) for i, d in enumerate(device_ids)),
                tuple(kwargs for _ in device_ids))

    def replicate(self, module, device_ids):
        replicas = [module]
        for d in device_ids[1:]:
            replica = copy.deepcopy(module)
            for m in replica.modules():
                for k, p in m._parameters.items():
                    if p is not None:
                        m._parameters[k] = nn.Parameter(p.detach().to(f"cuda:{d}"), p.requires_grad)
                for k, b in m._buffers.items():
                    if b is not None:
                        m._buffers[k] = b.to(f"cuda:{d}")
            replicas.append(replica)
        return replicas

    def parallel_apply(self, replicas, inputs, kwargs):
        return [r(*i, **k) for r, i, k in zip(replicas, inputs, kwargs)]

    def gather(self, outputs, output_device):
        return torch.cat([o.to(f"cuda:{output_device}") for o in outputs], dim=self.dim)


class Linear(nn.Module):
    def __init__(self, n_sparse, vocab, device="cpu"):
        super().__init__()
        self.n_sparse = n_sparse
        self.embedding_dict = nn.ModuleList([nn.Embedding(vocab, 1) for _ in range(n_sparse)])
        self.device = device

    def forward(self, X):
        sparse_embedding_list = [emb(X.narrow(1, i, 1).long()) for i, emb in enumerate(self.embedding_dict)]
        linear_logit = torch.zeros([X.shape[0], 1]).to(self.device)
        sparse_embedding_cat = torch.cat(sparse_embedding_list, dim=-1)
        sparse_feat_logit = torch.sum(sparse_embedding_cat, dim=-1, keepdim=False)
        linear_logit += sparse_feat_logit
        return linear_logit

class DCN(nn.Module):
    def __init__(self, n_sparse=4, vocab=100, embedding_dim=8, device="cpu", gpus=None):
        super().__init__()
        self.device, self.gpus = device, gpus
        self.linear_model = Linear(n_sparse, vocab, device=device)
        self.embedding_dict = nn.ModuleList([nn.Embedding(vocab, embedding_dim) for _ in range(n_sparse)])
        self.dnn = nn.Sequential(nn.Linear(n_sparse * embedding_dim, 32), nn.ReLU(), nn.Linear(32, 1, bias=False))
        self.to(device)

    def forward(self, X):
        logit = self.linear_model(X)
        emb = torch.cat([e(X.narrow(1, i, 1).long()) for i, e in enumerate(self.embedding_dict)], dim=-1)
        logit = logit + self.dnn(emb.flatten(1))
        return torch.sigmoid(logit)

device = "cuda:0"
model = DCN(device=device, gpus=[0, 1])
model = DataParallel(model, device_ids=[0, 1])     # DeepCTR does this when gpus has several ids
x = torch.randint(0, 100, (64, 4)).float().to(device)
'''
CELL = '''
y_pred = model(x)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["linear_logit"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        linear_logit = torch.zeros([X.shape[0], 1]).to(self.device)",
                  "        linear_logit = torch.zeros([X.shape[0], 1]).to(sparse_embedding_list[0].device)")
CLEAN = False
