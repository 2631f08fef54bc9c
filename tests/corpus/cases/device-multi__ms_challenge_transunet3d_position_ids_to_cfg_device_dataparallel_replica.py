"""ivadomed MS lesion challenge: TransUNet3D builds its position/timepoint ids on `self.cfg.device` (cuda:0), so the DataParallel replica on cuda:1 looks them up in its cuda:1 embedding tables.

Source: https://github.com/ivadomed/ms-challenge-2021/pull/51
"Device Assignments Compatible with Data-Parallel Processes": running `main.py -loc -1` on several
GPUs failed with "Caught RuntimeError in replica 1 on device 1" and a device mismatch. The models
took the device given to `ModelConfig` at start-up: `Transformer.forward` did `position_ids =
torch.cat([torch.arange(self.cfg.num_patches)] * 2).unsqueeze(0).to(self.cfg.device)` (and the same
for `timepoint_ids`), which is cuda:0 in every replica; the PR uses `x.device`. Stand-ins: the
TransUNet3D embeddings reduced to a patch conv plus the two embedding tables, no encoder blocks or
decoder; `nn.DataParallel` by a minimal replicate/scatter/gather wrapper (this machine has no CUDA
runtime) keeping the replica on cuda:1; one forward without backward.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import copy
import torch
import torch.nn as nn

class ModelConfig:
    def __init__(self, task, subvolume_size, patch_size, hidden_size, base_n_filter, device):
        self.task, self.subvolume_size, self.patch_size = task, subvolume_size, patch_size
        self.hidden_size, self.base_n_filter, self.device = hidden_size, base_n_filter, device
        self.num_patches = (self.subvolume_size // self.patch_size) ** 3

class Embeddings(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.patch_embeddings = nn.Conv3d(1, cfg.hidden_size, kernel_size=cfg.patch_size, stride=cfg.patch_size)
        self.position_embeddings = nn.Embedding(cfg.num_patches, cfg.hidden_size)
        self.timepoint_embeddings = nn.Embedding(2, cfg.hidden_size)

    def forward(self, x, position_ids, timepoint_ids):
        x1, x2 = x.split(1, dim=1)
        tokens = [self.patch_embeddings(t).flatten(2).transpose(1, 2) for t in (x1, x2)]
        x = torch.cat(tokens, dim=1)
        return x + self.position_embeddings(position_ids) + self.timepoint_embeddings(timepoint_ids)

class Transformer(nn.Module):
    """Transformer: Embeddings + Encoder"""
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.embeddings = Embeddings(cfg)
        self.encoder_norm = nn.LayerNorm(cfg.hidden_size)

    def forward(self, x):
        position_ids = torch.cat([torch.arange(self.cfg.num_patches)] * 2).unsqueeze(0).to(self.cfg.device)
        timepoint_ids = torch.tensor([0] * self.cfg.num_patches + [1] * self.cfg.num_patches).unsqueeze(0).to(self.cfg.device)
        x = self.embeddings(x, position_ids, timepoint_ids)
        return self.encoder_norm(x)

class TransUNet3D(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.transformer = Transformer(cfg)
        self.head = nn.Linear(cfg.hidden_size, 1)

    def forward(self, x1, x2):
        x = torch.cat([x1, x2], dim=1)
        x = self.transformer(x)
        return torch.sigmoid(self.head(x))

class DataParallel(nn.Module):                     # torch.nn.DataParallel: replicate, scatter, gather
    def __init__(self, module, device_ids, output_device=None):
        super().__init__()
        self.module = module
        self.device_ids = device_ids
        self.output_device = output_device if output_device is not None else device_ids[0]

    def forward(self, *inputs):
        replicas = [self.module] + [copy.deepcopy(self.module).to(f"cuda:{i}") for i in self.device_ids[1:]]
        chunks = [x.chunk(len(self.device_ids)) for x in inputs]
        outputs = []
        for k, (replica, dev) in enumerate(zip(replicas, self.device_ids)):
            outputs.append(replica(*[c[k].to(f"cuda:{dev}") for c in chunks]))
        return torch.cat([o.to(f"cuda:{self.output_device}") for o in outputs])

device = torch.device("cuda:0")
cfg = ModelConfig(task="2", subvolume_size=32, patch_size=8, hidden_size=64, base_n_filter=8, device=device)
model = TransUNet3D(cfg).to(device)
model = DataParallel(model, device_ids=[0, 1])      # main.py -loc -1 with CUDA_VISIBLE_DEVICES=0,1
train_loader = [(torch.rand(4, 1, 32, 32, 32), torch.rand(4, 1, 32, 32, 32))]
'''
CELL = '''
model.train()
for x1, x2 in train_loader:
    x1, x2 = x1.to(device), x2.to(device)
    y_hat = model(x1, x2)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        position_ids = torch.cat([torch.arange(self.cfg.num_patches)] * 2).unsqueeze(0).to(self.cfg.device)
        timepoint_ids = torch.tensor([0] * self.cfg.num_patches + [1] * self.cfg.num_patches).unsqueeze(0).to(self.cfg.device)
""", """        position_ids = torch.cat([torch.arange(self.cfg.num_patches)] * 2).unsqueeze(0).to(x.device)
        timepoint_ids = torch.tensor([0] * self.cfg.num_patches + [1] * self.cfg.num_patches).unsqueeze(0).to(x.device)
""")
CLEAN = False
