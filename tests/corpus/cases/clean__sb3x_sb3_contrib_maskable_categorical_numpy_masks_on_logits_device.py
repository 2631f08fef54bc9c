"""Look-alike: MaskablePPO's distribution receives the env's action masks as a CPU numpy array and puts them on the logits' device.

Source: https://github.com/Stable-Baselines-Team/stable-baselines3-contrib/blob/master/sb3_contrib/common/maskable/distributions.py
(`MaskableCategorical.apply_masking`: `device = self.logits.device`;
`self.masks = th.as_tensor(masks, dtype=th.bool, device=device)`;
`HUGE_NEG = th.tensor(-1e8, dtype=self.logits.dtype, device=device)`), fed by
`get_action_masks(env)` (a numpy bool array from the `ActionMasker` wrapper). The mask stays a
host array in the namespace while the policy runs on the GPU; the distribution converts it on the
right device. Nothing to report. Stand-in: MaskableCategorical reduced, a small policy network.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch as th
from torch import nn
from torch.distributions import Categorical

th.distributions.Distribution.set_default_validate_args(False)   # argument checks off, as under python -O

class MaskableCategorical(Categorical):
    def __init__(self, probs=None, logits=None, validate_args=None, masks=None):
        self.masks = None
        super().__init__(probs, logits, validate_args)
        self._original_logits = self.logits
        self.apply_masking(masks)

    def apply_masking(self, masks):
        if masks is not None:
            device = self.logits.device
            self.masks = th.as_tensor(masks, dtype=th.bool, device=device).reshape(self.logits.shape)
            HUGE_NEG = th.tensor(-1e8, dtype=self.logits.dtype, device=device)
            logits = th.where(self.masks, self._original_logits, HUGE_NEG)
        else:
            self.masks = None
            logits = self._original_logits
        self.__dict__.pop("probs", None)
        super().__init__(logits=logits, validate_args=self._validate_args)

device = th.device("cuda:0")
policy_net = nn.Sequential(nn.Linear(10, 64), nn.Tanh(), nn.Linear(64, 64), nn.Tanh()).to(device)
action_net = nn.Linear(64, 9).to(device)
obs_tensor = th.randn(4, 10, device=device)                 # obs_as_tensor(self._last_obs, self.device)
action_masks = np.zeros((4, 9), dtype=bool)                # get_action_masks(env): one row per env
action_masks[:, [0, 2, 5]] = True
'''
CELL = '''
logits = action_net(policy_net(obs_tensor))
distribution = MaskableCategorical(logits=logits, masks=action_masks)
actions = distribution.probs.argmax(dim=-1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
