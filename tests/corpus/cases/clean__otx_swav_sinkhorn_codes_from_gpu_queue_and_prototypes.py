"""SwAV's Sinkhorn-Knopp codes: queue, prototypes and scores stay on the GPU; only Python ints set the marginals.

Source: https://github.com/facebookresearch/swav/blob/main/main_swav.py
Look-alike: the training step keeps a feature queue created with `.cuda()`, prepends
`torch.mm(queue[i], model.module.prototypes.weight.t())` to the batch scores, and `distributed_sinkhorn`
normalises `Q = torch.exp(out / epsilon).t()` by `B = Q.shape[1] * world_size` and `K = Q.shape[0]`
(Python ints) under `torch.no_grad()`; the swapped-prediction loss then mixes the codes with the
log-softmax of the other crop. Stand-ins: one process (`all_reduce` is the identity), the prototypes as
a bias-free Linear, queue indexing replaced by `select`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class Args:
    epsilon = 0.05
    sinkhorn_iterations = 3
    world_size = 1
    temperature = 0.1
    crops_for_assign = [0, 1]
    queue_length = 256
    feat_dim = 32
    nmb_prototypes = 50

args = Args()

@torch.no_grad()
def distributed_sinkhorn(out):
    Q = torch.exp(out / args.epsilon).t()
    B = Q.shape[1] * args.world_size
    K = Q.shape[0]
    sum_Q = torch.sum(Q)
    Q /= sum_Q
    for it in range(args.sinkhorn_iterations):
        sum_of_rows = torch.sum(Q, dim=1, keepdim=True)
        Q /= sum_of_rows
        Q /= K
        Q /= torch.sum(Q, dim=0, keepdim=True)
        Q /= B
    Q *= B
    return Q.t()

class SwAVHead(nn.Module):
    def __init__(self):
        super().__init__()
        self.projection_head = nn.Linear(64, args.feat_dim)
        self.prototypes = nn.Linear(args.feat_dim, args.nmb_prototypes, bias=False)
    def forward(self, x):
        z = nn.functional.normalize(self.projection_head(x), dim=1, p=2)
        return z, self.prototypes(z)

device = torch.device("cuda:0")
model = SwAVHead().to(device)
queue = torch.zeros(len(args.crops_for_assign), args.queue_length, args.feat_dim).to(device)
bs = 16
inputs = [torch.randn(bs, 64).to(device) for _ in range(2)]
'''
CELL = '''
with torch.no_grad():
    embedding, output = model(torch.cat(inputs))
    loss = 0
    for i, crop_id in enumerate(args.crops_for_assign):
        out = output.narrow(0, bs * crop_id, bs)
        out = torch.cat((torch.mm(queue.select(0, i), model.prototypes.weight.t()), out))
        q = distributed_sinkhorn(out).narrow(0, out.shape[0] - bs, bs)
        subloss = 0
        for v in [c for c in range(2) if c != crop_id]:
            x = output.narrow(0, bs * v, bs) / args.temperature
            subloss -= torch.mean(torch.sum(q * nn.functional.log_softmax(x, dim=1), dim=1))
        loss += subloss
    loss /= len(args.crops_for_assign)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
