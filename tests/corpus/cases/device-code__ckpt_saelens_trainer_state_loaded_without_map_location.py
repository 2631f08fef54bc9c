"""SAELens: resuming an SAE run restores the trainer's sparsity counters where the checkpoint was written, not on the configured device.

Source: https://github.com/decoderesearch/SAELens/pull/731
`SAETrainer.load_trainer_state` called `torch.load` without `map_location`, so `act_freq_scores` and
`n_forward_passes_since_fired` came back on the device the checkpoint was saved from; resuming on
another device failed on the first sparsity accumulation in `_train_step` ("found at least two
devices, mps:0 and cpu"). The fix passes `map_location=self.cfg.device`. Stand-in: a one-layer SAE,
the trainer's resume path, and an in-memory `torch_load(path, map_location=None)` in place of the
file (it moves tensors the way torch.load's map_location does), since fake tensors cannot be saved.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn
from dataclasses import dataclass

_DISK = {}

def torch_save(obj, path):
    _DISK[path] = obj

def torch_load(path, map_location=None):
    obj = _DISK[path]
    if map_location is None:
        return dict(obj)
    return {k: (v.to(map_location) if torch.is_tensor(v) else v) for k, v in obj.items()}

@dataclass
class TrainerConfig:
    d_in: int = 16
    d_sae: int = 64
    device: str = "cuda:0"

class SAE(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.W_enc = nn.Parameter(torch.randn(cfg.d_in, cfg.d_sae) * 0.1)
        self.b_enc = nn.Parameter(torch.zeros(cfg.d_sae))
        self.W_dec = nn.Parameter(torch.randn(cfg.d_sae, cfg.d_in) * 0.1)

    def encode(self, x):
        return torch.relu(x @ self.W_enc + self.b_enc)

    def forward(self, x):
        feature_acts = self.encode(x)
        return feature_acts @ self.W_dec, feature_acts

class SAETrainer:
    def __init__(self, sae, cfg):
        self.sae, self.cfg = sae, cfg
        self.n_training_steps = 0
        self.act_freq_scores = torch.zeros(cfg.d_sae, device=cfg.device)
        self.n_forward_passes_since_fired = torch.zeros(cfg.d_sae, device=cfg.device)

    def save_trainer_state(self, checkpoint_path):
        torch_save({"n_training_steps": self.n_training_steps,
                    "act_freq_scores": self.act_freq_scores,
                    "n_forward_passes_since_fired": self.n_forward_passes_since_fired},
                   checkpoint_path + "/trainer_state.pt")

    def load_trainer_state(self, checkpoint_path):
        state_dict = torch_load(checkpoint_path + "/trainer_state.pt")
        self.n_training_steps = state_dict["n_training_steps"]
        self.act_freq_scores = state_dict["act_freq_scores"]
        self.n_forward_passes_since_fired = state_dict["n_forward_passes_since_fired"]

    def _train_step(self, sae_in):
        sae_out, feature_acts = self.sae(sae_in)
        did_fire = (feature_acts > 0).float().sum(-2) > 0
        self.n_forward_passes_since_fired = torch.where(did_fire, 0.0, self.n_forward_passes_since_fired + 1)
        self.act_freq_scores += (feature_acts.abs() > 0).float().sum(0)
        self.n_training_steps += 1
        return (sae_out - sae_in).pow(2).mean()

# the first run happened on the CPU and wrote its trainer state there
_cpu_cfg = TrainerConfig(device="cpu")
_first = SAETrainer(SAE(_cpu_cfg), _cpu_cfg)
_first.n_training_steps = 1200
_first.act_freq_scores += 3.0
_first.save_trainer_state("checkpoints/1200")

cfg = TrainerConfig(device="cuda:0")
sae = SAE(cfg).to(cfg.device)
trainer = SAETrainer(sae, cfg)
trainer.load_trainer_state("checkpoints/1200")     # resume_from_checkpoint
sae_in = torch.randn(32, cfg.d_in, device=cfg.device)
'''
CELL = '''
loss = trainer._train_step(sae_in)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["trainer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('state_dict = torch_load(checkpoint_path + "/trainer_state.pt")',
                  'state_dict = torch_load(checkpoint_path + "/trainer_state.pt", map_location=self.cfg.device)')
CLEAN = False
