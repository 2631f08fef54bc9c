"""CogVideoX VAE (first diffusers port): the causal conv's `conv_cache` is stored on the CPU and moved back to the input's device.

Source: https://github.com/huggingface/diffusers/pull/9082
In the CogVideoX PR, `CogVideoXCausalConv3d.forward` saved the last frames as
`self.conv_cache = input_parallel[:, :, -self.time_kernel_size + 1:].contiguous().detach().clone().cpu()`
and `fake_cp_pass_from_previous_rank` concatenated it back after `.to(inputs.device)` (discussed in
the review, later simplified). Look-alike: a CPU cache tensor on a cuda module that runs.
Stand-in: the causal temporal padding with the CPU cache (a linear over time stands in for the 3-D conv).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class CogVideoXCausalConv3d(nn.Module):
    def __init__(self, channels=4, time_kernel_size=3):
        super().__init__()
        self.time_kernel_size = time_kernel_size
        self.conv = nn.Linear(channels * time_kernel_size, channels)
        self.conv_cache = None

    def fake_cp_pass_from_previous_rank(self, inputs):
        if self.conv_cache is None:
            pad = inputs[:, :, :1].expand(-1, -1, self.time_kernel_size - 1, -1)
        else:
            pad = self.conv_cache.to(inputs.device)
        return torch.cat([pad, inputs], dim=2)

    def forward(self, inputs):
        input_parallel = self.fake_cp_pass_from_previous_rank(inputs)
        self.conv_cache = input_parallel[:, :, -self.time_kernel_size + 1:].contiguous().detach().clone().cpu()
        frames = input_parallel.unfold(2, self.time_kernel_size, 1)      # b, c, t, hw, k
        b, c, t, hw, k = frames.shape
        out = self.conv(frames.permute(0, 2, 3, 1, 4).reshape(b, t, hw, c * k))
        return out.permute(0, 3, 1, 2)

conv = CogVideoXCausalConv3d().to("cuda:0")
latent_chunks = [torch.randn(1, 4, 2, 6).to("cuda:0"), torch.randn(1, 4, 2, 6).to("cuda:0")]
'''
CELL = '''
with torch.no_grad():
    outs = [conv(chunk) for chunk in latent_chunks]
print(outs[-1].shape, conv.conv_cache.device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
