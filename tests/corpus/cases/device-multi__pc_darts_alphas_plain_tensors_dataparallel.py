"""PC-DARTS architecture search under DataParallel: the architecture weights are plain `.cuda()` tensors, not parameters.

Source: https://github.com/yuhuixu1993/PC-DARTS/issues/57
Searching on several GPUs failed inside `MixedOp.forward`,
`temp1 = sum(w * op(xtemp) for w, op in zip(weights, self._ops))`, with "Expected all tensors to be
on the same device, but found at least two devices, cuda:0 and cuda:1!" (raised in
`parallel_apply`'s worker). `Network._initialize_alphas` makes the architecture weights as
`Variable(1e-3*torch.randn(k, num_ops).cuda(), requires_grad=True)` attributes: DataParallel's
replicate only copies parameters and buffers to each GPU, so the replica on cuda:1 mixes its
cuda:1 features with cuda:0 weights. Registering the alphas as `nn.Parameter`s lets replicate copy
them. Stand-in: a two-cell DARTS network (partial channels, edge betas and BatchNorm dropped; rows of the
weights taken with `unbind`: the simulator cannot index fake cuda tensors with `[]`), and
`nn.DataParallel` with hand-made scatter/replicate/gather as on a 2-GPU machine.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import copy
import torch
from torch import nn
import torch.nn.functional as F

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

OPS = [lambda C: nn.Identity(),
       lambda C: nn.AvgPool2d(3, stride=1, padding=1),
       lambda C: nn.Sequential(nn.ReLU(), nn.Conv2d(C, C, 3, padding=1, bias=False))]

class MixedOp(nn.Module):
    def __init__(self, C):
        super().__init__()
        self._ops = nn.ModuleList(op(C) for op in OPS)

    def forward(self, x, weights):
        return sum(w * op(x) for w, op in zip(weights.unbind(0), self._ops))

class Cell(nn.Module):
    def __init__(self, C, steps=2):
        super().__init__()
        self._steps = steps
        self._ops = nn.ModuleList(MixedOp(C) for i in range(steps) for j in range(2 + i))

    def forward(self, s0, s1, weights):
        states, offset = [s0, s1], 0
        w = weights.unbind(0)
        for i in range(self._steps):
            s = sum(self._ops[offset + j](h, w[offset + j]) for j, h in enumerate(states))
            offset += len(states)
            states.append(s)
        return states[-1]

class Network(nn.Module):
    def __init__(self, C=8, num_classes=10, steps=2):
        super().__init__()
        self._steps = steps
        self.stem = nn.Conv2d(3, C, 3, padding=1, bias=False)
        self.cells = nn.ModuleList([Cell(C, steps), Cell(C, steps)])
        self.reduction = [False, True]
        self.classifier = nn.Linear(C, num_classes)
        self._initialize_alphas()

    def _initialize_alphas(self):
        k = sum(1 for i in range(self._steps) for n in range(2 + i))
        num_ops = len(OPS)
        self.alphas_normal = (1e-3 * torch.randn(k, num_ops).to("cuda:0")).requires_grad_()
        self.alphas_reduce = (1e-3 * torch.randn(k, num_ops).to("cuda:0")).requires_grad_()

    def forward(self, input):
        s0 = s1 = self.stem(input)
        for cell, reduction in zip(self.cells, self.reduction):
            weights = F.softmax(self.alphas_reduce if reduction else self.alphas_normal, dim=-1)
            s0, s1 = s1, cell(s0, s1, weights)
        return self.classifier(s1.mean(dim=(2, 3)))

model = DataParallel(Network().to("cuda:0"), device_ids=[0, 1])
input = torch.randn(8, 3, 16, 16, device="cuda:0")
target = torch.randint(0, 10, (8,), device="cuda:0")
'''
CELL = '''
logits = model(input)
loss = F.cross_entropy(logits, target)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.module.alphas_normal"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    '''        self.alphas_normal = (1e-3 * torch.randn(k, num_ops).to("cuda:0")).requires_grad_()
        self.alphas_reduce = (1e-3 * torch.randn(k, num_ops).to("cuda:0")).requires_grad_()''',
    '''        self.alphas_normal = nn.Parameter(1e-3 * torch.randn(k, num_ops).to("cuda:0"))
        self.alphas_reduce = nn.Parameter(1e-3 * torch.randn(k, num_ops).to("cuda:0"))''',
)
CLEAN = False
