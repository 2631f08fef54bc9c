"""SkillMimic (Isaac Gym) test run with keyboard control: a float one-hot skill label is written into a Long label buffer.

Source: https://github.com/wyhuai/SkillMimic/issues/7
Running `skillmimic/run.py --test --task SkillMimicBallPlay ... --checkpoint .../skillmimic_llc.pth` to
switch skills from the keyboard failed in `_reset_random_ref_state_init` at
`self.hoi_data_label_batch[env_ids] = F.one_hot(torch.tensor(skill_label, device=self.device),
num_classes=self.condition_size).float()` with "Index put requires the source and destination dtypes
match, got Long for the destination and Float for the source." In this path the per-env label
buffer had been created from integer data (int64) while the reset writes a float one-hot into it.
Stand-ins: the task's env buffers and the reset function; the GPU sim is left out (SIM cpu).
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import torch
import torch.nn.functional as F

class SkillMimicBallPlay:
    def __init__(self, num_envs, condition_size, device="cpu"):
        self.num_envs, self.condition_size, self.device = num_envs, condition_size, device
        # keyboard-control path: label buffer built from the integer skill ids of the motion library
        init_labels = torch.zeros(num_envs, dtype=torch.long, device=device)
        self.hoi_data_label_batch = F.one_hot(init_labels, num_classes=condition_size)
        self.motion_ids = torch.zeros(num_envs, dtype=torch.long, device=device)

    def _reset_random_ref_state_init(self, env_ids, skill_label):
        self.motion_ids[env_ids] = torch.randint(0, 4, (len(env_ids),), device=self.device)
        self.hoi_data_label_batch[env_ids] = F.one_hot(
            torch.tensor(skill_label, device=self.device), num_classes=self.condition_size).float()

env = SkillMimicBallPlay(num_envs=16, condition_size=64)
env_ids = torch.arange(16)
skill_label = 13        # key "Q"/"W" pressed: layup
'''
CELL = '''
env._reset_random_ref_state_init(env_ids, skill_label)
'''
EXPECT_ERROR = "Index put requires the source and destination dtypes match"
CULPRITS = ["env.hoi_data_label_batch"]
FIX = "namespace"
REFERENCE_FIX = '''
env.hoi_data_label_batch = env.hoi_data_label_batch.float()
'''
REFERENCE_EDIT = None
CLEAN = False
