"""mmcv `MultiScaleDeformableAttention`: `init_weights()` called after `model.to('cuda:0')` puts `sampling_offsets.bias` back on the CPU.

Source: https://github.com/open-mmlab/mmcv/issues/2159
The user got "Expected all tensors to be on the same device, but found at least two devices, cuda:0
and cpu!" at `sampling_offsets = self.sampling_offsets(query)` and suspected the bias of
`sampling_offsets`: `init_weights` builds `grid_init` from `torch.arange(self.num_heads, ...)` on the
CPU and assigns `self.sampling_offsets.bias.data = grid_init.view(-1)`. The maintainer: "Calling
`model.init_weight()` after `model.to('cuda:0')` will cause this error" (fixed in mmcv#2158 by making
the grid on the bias's device). Stand-ins: the module's init and the first projections of its
forward (the deformable sampling kernel itself is not reached), `constant_init` as plain fills,
`bias.data = ...` written as a Parameter re-assignment (the simulated GPU cannot change a tensor's
device through `.data`).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import math
import torch
import torch.nn as nn

class MultiScaleDeformableAttention(nn.Module):
    def __init__(self, embed_dims=64, num_heads=4, num_levels=2, num_points=2):
        super().__init__()
        self.embed_dims, self.num_heads = embed_dims, num_heads
        self.num_levels, self.num_points = num_levels, num_points
        self.sampling_offsets = nn.Linear(embed_dims, num_heads * num_levels * num_points * 2)
        self.attention_weights = nn.Linear(embed_dims, num_heads * num_levels * num_points)
        self.value_proj = nn.Linear(embed_dims, embed_dims)
        self.output_proj = nn.Linear(embed_dims, embed_dims)

    def init_weights(self):
        """Default initialization for Parameters of Module."""
        self.sampling_offsets.weight.data.fill_(0.)
        thetas = torch.arange(
            self.num_heads,
            dtype=torch.float32) * (2.0 * math.pi / self.num_heads)
        grid_init = torch.stack([thetas.cos(), thetas.sin()], -1)
        grid_init = (grid_init /
                     grid_init.abs().max(-1, keepdim=True)[0]).view(
                         self.num_heads, 1, 1,
                         2).repeat(1, self.num_levels, self.num_points, 1)
        for i in range(self.num_points):
            grid_init[:, :, i, :] *= i + 1
        self.sampling_offsets.bias = nn.Parameter(grid_init.view(-1))   # .bias.data = grid_init.view(-1)
        self.attention_weights.weight.data.fill_(0.)
        self.attention_weights.bias.data.fill_(0.)

    def forward(self, query, value):
        bs, num_query, _ = query.shape
        value = self.value_proj(value)
        sampling_offsets = self.sampling_offsets(query).view(
            bs, num_query, self.num_heads, self.num_levels, self.num_points, 2)
        attention_weights = self.attention_weights(query).view(
            bs, num_query, self.num_heads, self.num_levels * self.num_points).softmax(-1)
        output = value[:, :num_query] + sampling_offsets.mean(dim=(2, 3, 4)).sum(-1, keepdim=True) \\
            * attention_weights.mean(dim=(2, 3)).unsqueeze(-1)
        return self.output_proj(output)

model = MultiScaleDeformableAttention()
model.to("cuda:0")
model.init_weights()                  # the runner initialises the weights after the move
query = torch.randn(2, 10, 64).to("cuda:0")
value = torch.randn(2, 30, 64).to("cuda:0")
'''
CELL = '''
out = model(query, value)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.sampling_offsets"]
FIX = "namespace"
REFERENCE_FIX = '''
model.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
