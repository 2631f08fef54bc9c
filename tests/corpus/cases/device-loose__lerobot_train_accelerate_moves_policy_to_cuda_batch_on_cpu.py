"""LeRobot training with `--policy.device=cpu`: Accelerate still puts the policy on CUDA while the preprocessor sends batches to the CPU.

Source: https://github.com/huggingface/lerobot/pull/2778
"Accelerate in `lerobot_train.py` automatically detects and uses the best available device (CUDA
or MPS > CPU), ignoring the user's policy.device setting. 1- the user sets --policy.device=cpu
2- Preprocessor moves input batches to CPU (respecting config) 3- accelerator.prepare() moves model
to CUDA (ignoring config) 4- Forward pass fails: model on CUDA, data on CPU." Reproduced with
`lerobot_train --dataset.repo_id=lerobot/pusht --policy.type=act --policy.device=cpu`. The fix
passes `cpu=True` to Accelerator. Stand-ins: a tiny ACT-like policy, the device step of the
preprocessor pipeline, and an `accelerator_prepare` that moves modules to the accelerator device.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn
from types import SimpleNamespace

class ACTPolicy(nn.Module):
    def __init__(self, state_dim=2, action_dim=2, chunk_size=10, dim_model=64):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, 16, 8, 8), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, dim_model))
        self.state_proj = nn.Linear(state_dim, dim_model)
        self.action_head = nn.Linear(dim_model, action_dim * chunk_size)
        self.chunk_size, self.action_dim = chunk_size, action_dim
    def forward(self, batch):
        h = self.encoder(batch["observation.image"]) + self.state_proj(batch["observation.state"])
        pred = self.action_head(h).view(-1, self.chunk_size, self.action_dim)
        loss = (pred - batch["action"]).abs().mean()
        return loss, {"l1_loss": loss}

class DeviceProcessorStep:
    def __init__(self, device):
        self.device = torch.device(device)
    def __call__(self, batch):
        return {k: v.to(self.device) if isinstance(v, torch.Tensor) else v for k, v in batch.items()}

class Accelerator:
    def __init__(self, cpu=False):
        self.device = torch.device("cpu") if cpu else torch.device("cuda:0")   # best available device
    def prepare(self, *objs):
        return tuple(o.to(self.device) if isinstance(o, nn.Module) else o for o in objs)

cfg = SimpleNamespace(policy=SimpleNamespace(type="act", device="cpu"), dataset=SimpleNamespace(repo_id="lerobot/pusht"))
policy = ACTPolicy()
optimizer = torch.optim.AdamW(policy.parameters(), lr=1e-5)
preprocessor = DeviceProcessorStep(cfg.policy.device)
accelerator = Accelerator()
policy, optimizer = accelerator.prepare(policy, optimizer)
raw_batch = {"observation.image": torch.rand(8, 3, 96, 96), "observation.state": torch.randn(8, 2),
             "action": torch.randn(8, 10, 2), "task": ["Push the T-shaped block onto the T-shaped target."] * 8}
'''
CELL = '''
batch = preprocessor(raw_batch)
loss, output_dict = policy.forward(batch)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["policy"]
FIX = "namespace"
REFERENCE_FIX = '''
policy = policy.to(cfg.policy.device)
'''
REFERENCE_EDIT = None
CLEAN = False
