"""Look-alike: MoCo v3's contrastive loss makes its labels with `torch.arange` on the CPU and sends them with `.cuda()`.

Source: https://github.com/facebookresearch/moco-v3/blob/main/moco/builder.py
`MoCo.contrastive_loss` builds the InfoNCE targets as
`(torch.arange(N, dtype=torch.long) + N * torch.distributed.get_rank()).cuda()`, a CPU tensor moved to
the current GPU where it is made, and `_update_momentum_encoder` rebinds `param_m.data` from
expressions of GPU parameters and the Python float momentum `m` from `adjust_moco_momentum`. Stand-in:
the builder's `forward`/`contrastive_loss`/momentum update with small linear encoders and MLPs without
BatchNorm, single-process `concat_all_gather` and rank 0; `.cuda()` is written with its index (the
simulated GPU needs one).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
import torch.nn as nn

def concat_all_gather(tensor):                 # all_gather over one process
    return tensor

def get_rank():                                # torch.distributed.get_rank() with one process
    return 0

def base_encoder(num_classes=4096):
    return nn.Sequential(nn.Flatten(), nn.Linear(3 * 32 * 32, 256), nn.ReLU(), nn.Linear(256, num_classes))

class MoCo(nn.Module):
    def __init__(self, base_encoder, dim=256, mlp_dim=4096, T=1.0):
        super(MoCo, self).__init__()
        self.T = T
        self.base_encoder = base_encoder(num_classes=dim)        # fc replaced by the projector MLP
        self.momentum_encoder = base_encoder(num_classes=dim)
        self.predictor = nn.Sequential(nn.Linear(dim, mlp_dim, bias=False), nn.ReLU(inplace=True),
                                       nn.Linear(mlp_dim, dim, bias=False))
        self.momentum_encoder.load_state_dict(self.base_encoder.state_dict())
        for param_m in self.momentum_encoder.parameters():
            param_m.requires_grad = False

    @torch.no_grad()
    def _update_momentum_encoder(self, m):
        for param_b, param_m in zip(self.base_encoder.parameters(), self.momentum_encoder.parameters()):
            param_m.data = param_m.data * m + param_b.data * (1. - m)

    def contrastive_loss(self, q, k):
        q = nn.functional.normalize(q, dim=1)
        k = nn.functional.normalize(k, dim=1)
        k = concat_all_gather(k)
        logits = torch.einsum('nc,mc->nm', [q, k]) / self.T
        N = logits.shape[0]
        labels = (torch.arange(N, dtype=torch.long) + N * get_rank()).cuda("cuda:0")   # .cuda() in the repo
        return nn.CrossEntropyLoss()(logits, labels) * (2 * self.T)

    def forward(self, x1, x2, m):
        q1 = self.predictor(self.base_encoder(x1))
        q2 = self.predictor(self.base_encoder(x2))
        with torch.no_grad():
            self._update_momentum_encoder(m)
            k1 = self.momentum_encoder(x1)
            k2 = self.momentum_encoder(x2)
        return self.contrastive_loss(q1, k2) + self.contrastive_loss(q2, k1)

def adjust_moco_momentum(epoch, moco_m=0.99, epochs=100):
    return 1. - 0.5 * (1. + math.cos(math.pi * epoch / epochs)) * (1. - moco_m)

model = MoCo(base_encoder, dim=256, mlp_dim=512, T=0.2)
model.cuda("cuda:0")                                      # main_moco.py: model.cuda(args.gpu)
images = [torch.randn(8, 3, 32, 32), torch.randn(8, 3, 32, 32)]   # two views from the loader
epoch, i, iters_per_epoch = 0, 0, 100
'''
CELL = '''
images[0] = images[0].cuda("cuda:0", non_blocking=True)
images[1] = images[1].cuda("cuda:0", non_blocking=True)
moco_m = adjust_moco_momentum(epoch + i / iters_per_epoch)
loss = model(images[0], images[1], moco_m)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
