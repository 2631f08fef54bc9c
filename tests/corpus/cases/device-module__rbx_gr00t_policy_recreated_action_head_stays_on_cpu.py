"""Isaac GR00T N1.5 `Gr00tPolicy`: the action head re-created for a new action horizon is built after `model.to(device)` and stays on the CPU.

Source: https://github.com/NVIDIA/Isaac-GR00T/pull/294   (fixes https://github.com/NVIDIA/Isaac-GR00T/issues/280)
Issue #280 "There is an error in the reasoning weight loading code" quotes `Gr00tPolicy._load_model`:
it calls `model.to(device=self.device)` first, then, when the modality config's action horizon differs
from the checkpoint's, builds a fresh `FlowmatchingActionHead(new_action_head_config)`, copies the old
head's weights into it and assigns `model.action_head = new_action_head`. The new head is a CPU module,
so inference mixes a CUDA backbone output with CPU action-head weights. PR #294 "load model to device
after creating new action head" moves `model.to(device=self.device)` after the weights are copied.
Stand-in: GR00T_N1_5 reduced to a linear "Eagle" backbone and a flow-matching action head (state
encoder, action encoder, DiT-like mixer, decoder), the policy wrapper with `_load_model` as quoted.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import copy
from dataclasses import dataclass
import torch
from torch import nn

COMPUTE_DTYPE = torch.float32

@dataclass
class FlowmatchingActionHeadConfig:
    action_horizon: int = 16
    action_dim: int = 7
    state_dim: int = 8
    hidden_size: int = 32
    backbone_embedding_dim: int = 32
    num_inference_timesteps: int = 4

class FlowmatchingActionHead(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.num_inference_timesteps = config.num_inference_timesteps
        self.state_encoder = nn.Linear(config.state_dim, config.hidden_size)
        self.action_encoder = nn.Linear(config.action_dim + 1, config.hidden_size)
        self.model = nn.Linear(config.hidden_size + config.backbone_embedding_dim, config.hidden_size)
        self.action_decoder = nn.Linear(config.hidden_size, config.action_dim)

    @torch.no_grad()
    def get_action(self, backbone_output, action_input):
        vl_embs = backbone_output["backbone_features"]
        state_features = self.state_encoder(action_input["state"])
        batch_size = vl_embs.shape[0]
        device = vl_embs.device
        actions = torch.randn(batch_size, self.config.action_horizon, self.config.action_dim,
                              dtype=vl_embs.dtype, device=device)
        dt = 1.0 / self.num_inference_timesteps
        for t in range(self.num_inference_timesteps):
            t_feat = torch.full((batch_size, self.config.action_horizon, 1), t * dt, device=device)
            action_features = self.action_encoder(torch.cat([actions, t_feat], dim=-1))
            action_features = action_features + state_features.unsqueeze(1)
            ctx = vl_embs.mean(dim=1, keepdim=True).expand(-1, self.config.action_horizon, -1)
            h = self.model(torch.cat([action_features, ctx], dim=-1))
            actions = actions + dt * self.action_decoder(h)
        return {"action_pred": actions}

class GR00T_N1_5(nn.Module):
    def __init__(self, action_head_cfg):
        super().__init__()
        self.backbone = nn.Linear(48, action_head_cfg.backbone_embedding_dim)   # Eagle VLM stand-in
        self.action_head = FlowmatchingActionHead(action_head_cfg)

    @classmethod
    def from_pretrained(cls, model_path, torch_dtype=torch.float32):
        return cls(FlowmatchingActionHeadConfig(action_horizon=16)).to(torch_dtype)

    @property
    def device(self):
        return next(iter(self.parameters())).device

    def get_action(self, inputs):
        inputs = {k: v.to(self.device) for k, v in inputs.items()}
        backbone_outputs = {"backbone_features": self.backbone(inputs["eagle_features"])}
        return self.action_head.get_action(backbone_outputs, {"state": inputs["state"]})

class Gr00tPolicy:
    def __init__(self, model_path, modality_config, device="cuda"):
        self.device = device
        self._modality_config = modality_config
        self._load_model(model_path)

    def _load_model(self, model_path):
        model = GR00T_N1_5.from_pretrained(model_path, torch_dtype=COMPUTE_DTYPE)
        model.eval()  # Set model to eval mode
        model.to(device=self.device)  # type: ignore

        expected_action_horizon = len(self._modality_config["action"]["delta_indices"])
        if expected_action_horizon != model.action_head.config.action_horizon:
            print(f"Policy: Recreating action head with action_horizon {expected_action_horizon} "
                  f"(was {model.action_head.config.action_horizon})")
            new_action_head_config = copy.copy(model.action_head.config)
            new_action_head_config.action_horizon = expected_action_horizon
            new_action_head = FlowmatchingActionHead(new_action_head_config)
            # Copy the weights from the old action head to the new one
            new_action_head.load_state_dict(model.action_head.state_dict(), strict=False)
            new_action_head.requires_grad_(False)
            model.action_head = new_action_head
        self.model = model

    def get_action(self, observations):
        return self.model.get_action(observations)["action_pred"]

modality_config = {"action": {"delta_indices": list(range(8))}}
policy = Gr00tPolicy(model_path="nvidia/GR00T-N1.5-3B", modality_config=modality_config, device="cuda:0")
observations = {"eagle_features": torch.randn(1, 12, 48), "state": torch.randn(1, 8)}
'''
CELL = '''
action = policy.get_action(observations)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["policy.model.action_head"]
FIX = "namespace"
REFERENCE_FIX = '''
policy.model.to(device=policy.device)
'''
REFERENCE_EDIT = None
CLEAN = False
