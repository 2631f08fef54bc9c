"""RLlib custom torch RNN example with GPUs under Tune: `sequence_mask` builds its mask on the CPU.

Source: https://github.com/ray-project/ray/pull/7980
The contributor ran RLlib's `custom_torch_rnn_model.py` example (`tune.run("PPO", config={...,
"num_gpus": 1, "framework": "torch"})`) with a GPU and the PPO loss failed with a cpu/cuda mismatch:
`sequence_mask(lengths, maxlen)` builds `torch.ones((len(lengths), maxlen)).cumsum(dim=1)` on the
default (CPU) device and compares it with `lengths`, which are on the GPU. The merged fix moves the
ones tensor to `lengths.device`.
Stand-ins: RLlib's torch `sequence_mask` (`~(a > b)` written `a <= b`) and a PPO-style masked mean over an RNN train batch.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

def sequence_mask(lengths, maxlen=None, dtype=None):
    if maxlen is None:
        maxlen = int(lengths.max())
    mask = (torch.ones((len(lengths), maxlen)).cumsum(dim=1).t() <= lengths).t()   # RLlib: ~(... > lengths)
    return mask if dtype is None else mask.to(dtype)

def reduce_mean_valid(t, mask):
    return torch.sum(t[mask]) / torch.sum(mask)

device = torch.device("cuda:0")
max_seq_len = 20
train_batch = {
    "seq_lens": torch.tensor([20, 13, 7, 20], device=device),
    "advantages": torch.randn(4, max_seq_len, device=device),
}
'''
CELL = '''
mask = sequence_mask(train_batch["seq_lens"], max_seq_len)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["sequence_mask"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("torch.ones((len(lengths), maxlen)).cumsum(dim=1)",
                  "torch.ones((len(lengths), maxlen)).to(lengths.device).cumsum(dim=1)")
CLEAN = False
