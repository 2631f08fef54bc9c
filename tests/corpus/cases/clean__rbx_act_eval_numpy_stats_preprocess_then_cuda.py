"""Look-alike: ACT `eval_bc` rollout step: the dataset stats stay numpy on the CPU, qpos is normalised there and only then moved to the GPU policy.

Source: https://github.com/tonyzhaozh/act (imitate_episodes.py eval_bc, policy.py ACTPolicy.__call__)
`eval_bc` loads `stats` from `dataset_stats.pkl` (numpy arrays) and normalises on the CPU with
`pre_process = lambda s_qpos: (s_qpos - stats['qpos_mean']) / stats['qpos_std']`, then
`qpos = torch.from_numpy(qpos).float().cuda().unsqueeze(0)`; `qpos_history` is a zeros tensor `.cuda()`'d
up front and `get_image` moves the camera frames. `ACTPolicy.__call__` applies torchvision's
`Normalize(mean=[0.485, 0.456, 0.406], std=[...])`, whose mean/std become tensors on the image's device.
Nothing the policy touches stays on the CPU. Stand-ins: the DETR-VAE reduced to state/image projections
and an action head, the sim timestep's observation as a dict, `.cuda()` written as `.to(device)`; the
step stops at `raw_action` (the numpy post-processing is not simulated). The GPU is simulated with meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

device = torch.device("meta")   # the GPU, simulated with meta
state_dim, num_queries, max_timesteps = 14, 20, 40
camera_names = ["top"]

class Normalize:                        # torchvision.transforms.Normalize
    def __init__(self, mean, std):
        self.mean, self.std = mean, std

    def __call__(self, tensor):
        mean = torch.as_tensor(self.mean, dtype=tensor.dtype, device=tensor.device)
        std = torch.as_tensor(self.std, dtype=tensor.dtype, device=tensor.device)
        return (tensor - mean.view(-1, 1, 1)) / std.view(-1, 1, 1)

class DETRVAE(nn.Module):
    def __init__(self, state_dim, num_queries, hidden_dim=32):
        super().__init__()
        self.num_queries = num_queries
        self.input_proj_robot_state = nn.Linear(state_dim, hidden_dim)
        self.backbone_proj = nn.Linear(3, hidden_dim)
        self.action_head = nn.Linear(hidden_dim, num_queries * state_dim)

    def forward(self, qpos, image, env_state, actions=None, is_pad=None):
        feat = self.backbone_proj(image.flatten(3).mean(-1).mean(1))
        h = torch.relu(self.input_proj_robot_state(qpos) + feat)
        a_hat = self.action_head(h).view(qpos.shape[0], self.num_queries, -1)
        return a_hat, None, (None, None)

class ACTPolicy(nn.Module):
    def __init__(self, args_override):
        super().__init__()
        self.model = DETRVAE(state_dim, args_override["num_queries"])
        self.kl_weight = args_override["kl_weight"]

    def __call__(self, qpos, image, actions=None, is_pad=None):
        env_state = None
        normalize = Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225])
        image = normalize(image)
        a_hat, _, (_, _) = self.model(qpos, image, env_state)
        return a_hat

def get_image(obs, camera_names):
    curr_images = [np.transpose(obs["images"][cam_name], (2, 0, 1)) for cam_name in camera_names]
    curr_image = np.stack(curr_images, axis=0)
    curr_image = torch.from_numpy(curr_image / 255.0).float().to(device).unsqueeze(0)
    return curr_image

policy_config = {"num_queries": num_queries, "kl_weight": 10}
policy = ACTPolicy(policy_config)
policy.to(device)
policy.eval()
rng = np.random.default_rng(0)
stats = {"qpos_mean": rng.normal(size=state_dim), "qpos_std": np.abs(rng.normal(size=state_dim)) + 0.1,
         "action_mean": rng.normal(size=state_dim), "action_std": np.ones(state_dim)}
pre_process = lambda s_qpos: (s_qpos - stats["qpos_mean"]) / stats["qpos_std"]
post_process = lambda a: a * stats["action_std"] + stats["action_mean"]
query_frequency = num_queries
qpos_history = torch.zeros((1, max_timesteps, state_dim)).to(device)
obs = {"qpos": rng.normal(size=state_dim), "images": {"top": rng.integers(0, 255, (48, 64, 3)).astype(np.uint8)}}
t = 0
'''
CELL = '''
with torch.inference_mode():
    qpos_numpy = np.array(obs["qpos"])
    qpos = pre_process(qpos_numpy)
    qpos = torch.from_numpy(qpos).float().to(device).unsqueeze(0)
    qpos_history[:, t] = qpos
    curr_image = get_image(obs, camera_names)
    if t % query_frequency == 0:
        all_actions = policy(qpos, curr_image)
    raw_action = all_actions[:, t % query_frequency]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
