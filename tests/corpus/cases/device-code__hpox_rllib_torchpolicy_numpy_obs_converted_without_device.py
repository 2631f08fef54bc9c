"""RLlib TorchPolicy on a GPU: numpy observations are converted to torch tensors without the policy's device.

Source: https://github.com/ray-project/ray/issues/9437
With `framework="torch"` and `num_gpus=1` the trainer's `trainer.train()` failed with a cpu/cuda
mismatch in the model's first layer: `TorchPolicy.compute_actions` (and `_lazy_tensor_dict`) call
`convert_to_torch_tensor(obs_batch)` with no device, so the numpy observations become CPU tensors
while the policy's model lives on `self.device`. The reporter's fix passes `self.device` to both
`convert_to_torch_tensor` calls.
Stand-ins: TorchPolicy / convert_to_torch_tensor with RLlib's structure, a small FC policy net.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
from torch import nn

def convert_to_torch_tensor(x, device=None):
    t = torch.from_numpy(np.asarray(x)).float()
    return t if device is None else t.to(device)

class FullyConnectedNetwork(nn.Module):
    def __init__(self, obs_dim=4, num_outputs=2, hiddens=(64, 64)):
        super().__init__()
        self.fc1 = nn.Linear(obs_dim, hiddens[0])
        self.fc2 = nn.Linear(hiddens[0], hiddens[1])
        self.logits = nn.Linear(hiddens[1], num_outputs)

    def forward(self, obs):
        return self.logits(torch.tanh(self.fc2(torch.tanh(self.fc1(obs)))))

class TorchPolicy:
    def __init__(self, model, num_gpus=1):
        self.device = torch.device("cuda:0") if num_gpus > 0 else torch.device("cpu")
        self.model = model.to(self.device)

    def _lazy_tensor_dict(self, postprocessed_batch):
        return {k: convert_to_torch_tensor(v) for k, v in postprocessed_batch.items()}

    def compute_actions(self, obs_batch):
        with torch.no_grad():
            input_dict = self._lazy_tensor_dict({"obs": obs_batch})
            logits = self.model(input_dict["obs"])
            return logits.argmax(-1)

policy = TorchPolicy(FullyConnectedNetwork(), num_gpus=1)
obs_batch = np.random.RandomState(0).randn(8, 4).astype(np.float32)   # CartPole observations
'''
CELL = '''
actions = policy.compute_actions(obs_batch)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["policy"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("return {k: convert_to_torch_tensor(v) for k, v in postprocessed_batch.items()}",
                  "return {k: convert_to_torch_tensor(v, device=self.device) for k, v in postprocessed_batch.items()}")
CLEAN = False
