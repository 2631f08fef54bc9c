"""Lightning-Bolts SwAV with `gpus=-1`: the sinkhorn marginals are built on the CPU.

Source: https://github.com/Lightning-Universe/lightning-bolts/issues/567
"SwAV: Runtime Error: Expected all tensors to be on the same device, but found at least two devices,
cuda:0 and cpu". The user built `SwAV(gpus=-1, num_samples=..., dataset='stl10', batch_size=128)`
(all GPUs, as for the Trainer) and fitting failed in the sinkhorn algorithm: `SwAV.sinkhorn` only
puts `u`, `r`, `c` on the GPU `if self.gpus > 0`, so with -1 they are CPU tensors while `Q` (the
prototype scores) is on the GPU. The reporter's diagnosis: the class checks `self.gpus > 0` when it
should check `self.gpus != 0`.
Stand-ins: the bolts SwAV module reduced to `shared_step` + `sinkhorn` (no queue, single process;
`.cuda()` written `.to("cuda:0")`, the current device), a tiny ResNet stand-in, and a Trainer that
moves the module and the batches to the GPU as Lightning does.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
from torch import nn

class SwAVResNet(nn.Module):
    """Stand-in for pl_bolts' resnet50 with projection head and prototypes."""
    def __init__(self, hidden_mlp=64, output_dim=32, nmb_prototypes=16):
        super().__init__()
        self.trunk = nn.Sequential(nn.Conv2d(3, 32, 3, stride=2, padding=1), nn.ReLU(),
                                   nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.projection_head = nn.Sequential(nn.Linear(32, hidden_mlp), nn.ReLU(),
                                             nn.Linear(hidden_mlp, output_dim))
        self.prototypes = nn.Linear(output_dim, nmb_prototypes, bias=False)

    def forward(self, inputs):
        embedding = torch.cat([self.projection_head(self.trunk(x)) for x in inputs])
        embedding = nn.functional.normalize(embedding, dim=1, p=2)
        return embedding, self.prototypes(embedding)

class SwAV(nn.Module):
    """Stand-in for pl_bolts.models.self_supervised.SwAV (LightningModule, 0.3.x)."""
    def __init__(self, gpus, num_samples, batch_size, dataset, num_nodes=1, nmb_crops=(2, 4),
                 crops_for_assign=(0, 1), temperature=0.1, epsilon=0.05, sinkhorn_iterations=3):
        super().__init__()
        self.gpus = gpus
        self.num_nodes = num_nodes
        self.num_samples = num_samples
        self.batch_size = batch_size
        self.dataset = dataset
        self.nmb_crops = nmb_crops
        self.crops_for_assign = crops_for_assign
        self.temperature = temperature
        self.epsilon = epsilon
        self.sinkhorn_iterations = sinkhorn_iterations
        self.model = SwAVResNet()
        self.softmax = nn.Softmax(dim=1)
        self.get_assignments = self.sinkhorn
        self.queue = None

    def shared_step(self, batch):
        inputs, y = batch
        inputs = inputs[:-1]  # remove online train/eval transforms at this point
        embedding, output = self.model(inputs)
        embedding = embedding.detach()
        bs = inputs[0].size(0)

        loss = 0
        for i, crop_id in enumerate(self.crops_for_assign):
            with torch.no_grad():
                out = output[bs * crop_id:bs * (crop_id + 1)]
                q = torch.exp(out / self.epsilon).t()
                q = self.get_assignments(q, self.sinkhorn_iterations)[-bs:]

            subloss = 0
            for v in np.delete(np.arange(np.sum(self.nmb_crops)), crop_id):
                p = self.softmax(output[bs * v:bs * (v + 1)] / self.temperature)
                subloss -= torch.mean(torch.sum(q * torch.log(p), dim=1))
            loss += subloss / (np.sum(self.nmb_crops) - 1)
        loss /= len(self.crops_for_assign)
        return loss

    def training_step(self, batch, batch_idx):
        return self.shared_step(batch)

    def sinkhorn(self, Q, nmb_iters):
        with torch.no_grad():
            sum_Q = torch.sum(Q)
            Q /= sum_Q

            K, B = Q.shape

            if self.gpus > 0:
                u = torch.zeros(K).to("cuda:0")
                r = torch.ones(K).to("cuda:0") / K
                c = torch.ones(B).to("cuda:0") / B
            else:
                u = torch.zeros(K)
                r = torch.ones(K) / K
                c = torch.ones(B) / B

            for _ in range(nmb_iters):
                u = torch.sum(Q, dim=1)

                Q *= (r / u).unsqueeze(1)
                Q *= (c / torch.sum(Q, dim=0)).unsqueeze(0)

            return (Q / torch.sum(Q, dim=0, keepdim=True)).t().float()

class Trainer:
    """Stand-in for pl.Trainer(gpus=-1) on a one-GPU machine: module and batches go to cuda:0."""
    def __init__(self, gpus=-1, precision=32):
        self.root_device = torch.device("cuda:0")

    def fit(self, model, train_dataloader):
        model.to(self.root_device)
        for batch_idx, (inputs, y) in enumerate(train_dataloader):
            batch = ([x.to(self.root_device) for x in inputs], y.to(self.root_device))
            with torch.no_grad():
                loss = model.training_step(batch, batch_idx)
        return loss

batch_size = 8
# SwAVTrainDataTransform: 2 global crops, 4 small crops, + the online-eval view
train_dataloader = [([torch.randn(batch_size, 3, 32, 32) for _ in range(2)]
                     + [torch.randn(batch_size, 3, 16, 16) for _ in range(4)]
                     + [torch.randn(batch_size, 3, 32, 32)],
                     torch.randint(0, 10, (batch_size,)))]
model = SwAV(gpus=-1, num_samples=100000, dataset='stl10', batch_size=batch_size)
'''
CELL = '''
trainer = Trainer(gpus=-1)
trainer.fit(model, train_dataloader)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("if self.gpus > 0:", "if self.gpus != 0:")
CLEAN = False
