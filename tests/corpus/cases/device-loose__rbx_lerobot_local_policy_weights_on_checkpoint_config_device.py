"""strands-robots `LerobotLocalPolicy`: LeRobot's `from_pretrained()` puts the weights on the checkpoint's `config.device`, the inputs go to the requested device.

Source: https://github.com/strands-labs/robots/pull/430
"fix(lerobot_local): move model to resolved device": LeRobot's `from_pretrained()` places weights on
`config.device` (a `cuda`/`mps` baked into the checkpoint config), which may differ from the device the
user asked for. `get_actions()` moves every input tensor onto `self._device`, so without moving the model
the weights and inputs sit on different devices and the first layer raises ("input and weight must be on
the same device" from the ResNet conv in the report). The PR makes `_load_model` move the model onto
`self._device` when the parameters' device differs. Stand-in: an ACT-like policy whose first layer is
the robot-state input projection (fake convs do not check devices), a `from_pretrained` that honours
`config.device`, and the provider's `_load_model` / `get_actions`.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
from dataclasses import dataclass, field
import torch
from torch import nn

@dataclass
class ACTConfig:
    device: str = "cuda:0"              # saved in the checkpoint's config.json when it was trained
    state_dim: int = 6
    action_dim: int = 6
    dim_model: int = 32
    chunk_size: int = 10

class ACTPolicy(nn.Module):
    name = "act"

    def __init__(self, config):
        super().__init__()
        self.config = config
        self.encoder_robot_state_input_proj = nn.Linear(config.state_dim, config.dim_model)
        self.encoder_img_feat_input_proj = nn.Linear(64, config.dim_model)
        self.action_head = nn.Linear(config.dim_model, config.action_dim * config.chunk_size)

    @classmethod
    def from_pretrained(cls, pretrained_name_or_path):
        config = ACTConfig()
        policy = cls(config)
        policy.to(config.device)
        policy.eval()
        return policy

    @torch.no_grad()
    def select_action(self, batch):
        state_tok = self.encoder_robot_state_input_proj(batch["observation.state"])
        img_tok = self.encoder_img_feat_input_proj(batch["observation.images.front"].flatten(2).mean(-1))
        actions = self.action_head(state_tok + img_tok)
        return actions.view(-1, self.config.chunk_size, self.config.action_dim)[:, 0]

class LerobotLocalPolicy:
    def __init__(self, pretrained_name_or_path, device="cpu"):
        self.pretrained_name_or_path = pretrained_name_or_path
        self._device = torch.device(device)
        self._load_model()

    def _load_model(self):
        policy_cls = ACTPolicy                      # resolved from the checkpoint's "type"
        self._model = policy_cls.from_pretrained(self.pretrained_name_or_path)

    def get_actions(self, observation):
        batch = {k: v.to(self._device) for k, v in observation.items()}
        return self._model.select_action(batch)

policy = LerobotLocalPolicy("lerobot/act_so101_pick_place", device="cpu")
observation = {
    "observation.state": torch.randn(1, 6),
    "observation.images.front": torch.rand(1, 64, 8, 8),
}
'''
CELL = '''
actions = policy.get_actions(observation)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["policy._model"]
FIX = "namespace"
REFERENCE_FIX = '''
policy._model.to(policy._device)
'''
REFERENCE_EDIT = None
CLEAN = False
