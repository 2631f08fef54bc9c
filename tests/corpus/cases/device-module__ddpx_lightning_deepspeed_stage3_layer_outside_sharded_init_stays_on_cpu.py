"""Lightning + DeepSpeed ZeRO-3 (deepspeed >= 0.9.3): a layer built in `__init__`, outside `configure_sharded_model`, is never moved to the GPU, so its CPU weight meets the GPU batch.

Source: https://github.com/Lightning-AI/pytorch-lightning/issues/17806
After upgrading to deepspeed 0.9.3/0.9.4, stage-3 training failed with the weight on the CPU and the
input on the GPU (it worked with 0.9.2). The user found the change in
`DeepSpeedEngine._configure_distributed_model`: `self.module.to(self.device)` is now skipped for a
ZeRO-3 model ("zero.Init() handles device placement of model"). The maintainer: "As of deepspeed 0.9.3,
all model layers/parameters must be created under the `deepspeed.Init()` context manager, otherwise
they won't get moved to the GPU. In Lightning, this translates to defining the layers in the designated
`configure_sharded_model` hook."
Stand-ins: a LightningModule-shaped model; `zero.Init` places the parameters created in its context
on the rank's device (partitioning left out); the strategy runs `configure_sharded_model` under it and
builds the engine without `module.to(device)`, as deepspeed 0.9.3 does for a ZeRO-3 model.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class Init:
    # stand-in for deepspeed.zero.Init: modules built inside the context end up on the device
    def __init__(self, module, device):
        self.module, self.device = module, device
    def __enter__(self):
        self.before = {id(m) for m in self.module.modules()}
        return self
    def __exit__(self, *exc):
        for m in list(self.module.modules()):
            if id(m) not in self.before:
                m.to(self.device)
        return False

class DeepSpeedEngine(nn.Module):
    def __init__(self, model, zero_stage, device):
        super().__init__()
        self.module = model
        self.device = device
        is_zero3_model = zero_stage == 3
        # zero.Init() handles device placement of model
        if not is_zero3_model:
            self.module.to(self.device)
    def forward(self, *args, **kwargs):
        return self.module.training_step(*args, **kwargs)

class DeepSpeedStrategy:
    def __init__(self, stage=3, local_rank=0):
        self.stage = stage
        self.root_device = torch.device("cuda", local_rank)
    def setup(self, model):
        with Init(model, self.root_device):
            model.configure_sharded_model()
        return DeepSpeedEngine(model, self.stage, self.root_device)

class GLMClassifier(nn.Module):       # pl.LightningModule
    def __init__(self, hidden=32, num_labels=4):
        super().__init__()
        self.hidden = hidden
        self.classifier = nn.Linear(hidden, num_labels)

    def configure_sharded_model(self):
        self.backbone = nn.Sequential(nn.Linear(16, self.hidden), nn.GELU(), nn.Linear(self.hidden, self.hidden))

    def training_step(self, batch, batch_idx):
        x, y = batch
        logits = self.classifier(self.backbone(x))
        return nn.functional.cross_entropy(logits, y)

model = GLMClassifier()
strategy = DeepSpeedStrategy(stage=3, local_rank=0)
model_engine = strategy.setup(model)          # trainer.fit(model) -> strategy setup
batch = (torch.randn(8, 16, device="cuda:0"), torch.randint(0, 4, (8,), device="cuda:0"))
'''
CELL = '''
with torch.no_grad():
    loss = model_engine(batch, 0)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        self.classifier = nn.Linear(hidden, num_labels)

    def configure_sharded_model(self):
""", """        self.num_labels = num_labels

    def configure_sharded_model(self):
        self.classifier = nn.Linear(self.hidden, self.num_labels)
""")
CLEAN = False
