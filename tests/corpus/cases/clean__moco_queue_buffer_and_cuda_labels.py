"""Look-alike: MoCo keeps its negative queue as a buffer made on the CPU and builds its labels with `.cuda()`.

Source: https://github.com/facebookresearch/moco/blob/main/moco/builder.py
MoCo's `__init__` creates the key queue with `torch.randn(dim, K)` and the pointer with
`torch.zeros(1, dtype=torch.long)` before any `.cuda()`, and `forward` builds the InfoNCE targets
as `torch.zeros(logits.shape[0], dtype=torch.long).cuda()`: both look like CPU tensors meeting a
CUDA model, but the queue is registered with `register_buffer` (so `model.cuda(args.gpu)` moves
it) and the labels are moved where they are made. Stand-in: the builder with small conv (no BatchNorm)
encoders, the key encoder's momentum update, no queue update (`_dequeue_and_enqueue` reads the
pointer with `int()`), no DDP shuffle; the GPU is simulated.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

def base_encoder(num_classes=128):
    return nn.Sequential(nn.Conv2d(3, 32, 3, stride=2, padding=1), nn.ReLU(),
                         nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, num_classes))

class MoCo(nn.Module):
    def __init__(self, base_encoder, dim=128, K=4096, m=0.999, T=0.07):
        super(MoCo, self).__init__()
        self.K, self.m, self.T = K, m, T
        self.encoder_q = base_encoder(num_classes=dim)
        self.encoder_k = base_encoder(num_classes=dim)
        for param_q, param_k in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            param_k.data.copy_(param_q.data)
            param_k.requires_grad = False
        self.register_buffer("queue", torch.randn(dim, K))
        self.queue = nn.functional.normalize(self.queue, dim=0)
        self.register_buffer("queue_ptr", torch.zeros(1, dtype=torch.long))

    @torch.no_grad()
    def _momentum_update_key_encoder(self):
        for param_q, param_k in zip(self.encoder_q.parameters(), self.encoder_k.parameters()):
            param_k.data = param_k.data * self.m + param_q.data * (1. - self.m)

    def forward(self, im_q, im_k):
        q = self.encoder_q(im_q)
        q = nn.functional.normalize(q, dim=1)
        with torch.no_grad():
            self._momentum_update_key_encoder()
            k = self.encoder_k(im_k)
            k = nn.functional.normalize(k, dim=1)
        l_pos = torch.einsum('nc,nc->n', [q, k]).unsqueeze(-1)
        l_neg = torch.einsum('nc,ck->nk', [q, self.queue.clone().detach()])
        logits = torch.cat([l_pos, l_neg], dim=1)
        logits /= self.T
        labels = torch.zeros(logits.shape[0], dtype=torch.long).cuda("cuda:0")   # .cuda(): the current GPU
        return logits, labels

model = MoCo(base_encoder, dim=128, K=4096)
model.cuda("cuda:0")                                       # main_moco.py: model.cuda(args.gpu)
criterion = nn.CrossEntropyLoss().cuda("cuda:0")
images = [torch.randn(8, 3, 32, 32), torch.randn(8, 3, 32, 32)]   # two augmented views, from the loader
'''
CELL = '''
images[0] = images[0].cuda("cuda:0", non_blocking=True)
images[1] = images[1].cuda("cuda:0", non_blocking=True)
output, target = model(im_q=images[0], im_k=images[1])
loss = criterion(output, target)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
