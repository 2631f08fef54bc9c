"""snnTorch `SF.mse_membrane_loss` with membrane outputs on a non-CPU device: the targets are built on the CPU.

Source: https://github.com/jeshraghian/snntorch/pull/188
"mse_membrane_loss' device is set incorrectly to cpu when mem_out is set to 'mps' or 'cuda'":
`_prediction_check` picks the device with `if spk_out.is_cuda: device = "cuda"` and falls back
to "cpu", and the target membrane tensor is built on that device, so a loss over `mem_rec` on
another accelerator mixes devices. The PR builds the targets on `mem_out.device`.
Stand-in: snntorch.functional.mse_membrane_loss reduced to `_prediction_check` and the target
construction; meta plays the MPS device (not `is_cuda`, like mps).
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

class mse_membrane_loss:
    def __init__(self, time_var_targets=False, on_target=1, off_target=0):
        self.time_var_targets = time_var_targets
        self.on_target = on_target
        self.off_target = off_target
        self.loss_fn = nn.MSELoss()

    def _prediction_check(self, spk_out):
        device = "cpu"
        if spk_out.is_cuda:
            device = "cuda"
        num_steps = spk_out.size(0)
        num_outputs = spk_out.size(-1)
        return device, num_steps, num_outputs

    def __call__(self, mem_out, targets):
        device, num_steps, num_outputs = self._prediction_check(mem_out)
        targets_spikes = torch.full((targets.size(0), num_outputs), float(self.off_target), device=device)
        on = torch.full((targets.size(0), num_outputs), float(self.on_target), device=device)
        targets_spikes = torch.where(nn.functional.one_hot(targets, num_outputs).bool(), on, targets_spikes)
        loss = 0
        for step in range(num_steps):
            loss += self.loss_fn(mem_out[step], targets_spikes)
        return loss / num_steps

device = torch.device("meta")   # the user's torch.device("mps")
num_steps, batch_size, num_outputs = 25, 16, 10
mem_rec = torch.randn(num_steps, batch_size, num_outputs, device=device)
targets = torch.randint(0, num_outputs, (batch_size,), device=device)
loss_fn = mse_membrane_loss(on_target=1, off_target=0)
'''
CELL = '''
loss_val = loss_fn(mem_rec, targets)
print(loss_val.shape)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device", "device")
CULPRITS = ["loss_fn"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('''        device = "cpu"
        if spk_out.is_cuda:
            device = "cuda"''', '''        device = spk_out.device''')
CLEAN = False
