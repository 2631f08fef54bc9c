"""Idefics3 vision embeddings build the bucketize boundaries with torch.arange and no device.

Source: https://github.com/huggingface/transformers/issues/39947
With transformers 4.55, `Idefics3VisionEmbeddings(...).to("cuda")` called on cuda pixel values and
a cuda patch_attention_mask raised "Expected all tensors to be on the same device, ... cuda:0 and
cpu! (when checking argument for argument boundaries in method wrapper_CUDA_Tensor_bucketize)":
`boundaries = torch.arange(1 / self.num_patches_per_side, 1.0, 1 / self.num_patches_per_side)` in
forward is created on the CPU while the fractional patch coordinates are on the GPU (the reporter
traced it to the lines changed by PR #39614). Stand-in: the embedding module with the same
position-id bucketing.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class Idefics3VisionEmbeddings(nn.Module):
    def __init__(self, embed_dim=32, image_size=32, patch_size=8):
        super().__init__()
        self.patch_size = patch_size
        self.patch_embedding = nn.Conv2d(3, embed_dim, patch_size, stride=patch_size)
        self.num_patches_per_side = image_size // patch_size
        self.position_embedding = nn.Embedding(self.num_patches_per_side ** 2, embed_dim)

    def forward(self, pixel_values, patch_attention_mask):
        batch_size, _, max_im_h, max_im_w = pixel_values.shape
        embeddings = self.patch_embedding(pixel_values).flatten(2).transpose(1, 2)
        nb_patches_h, nb_patches_w = max_im_h // self.patch_size, max_im_w // self.patch_size
        boundaries = torch.arange(1 / self.num_patches_per_side, 1.0, 1 / self.num_patches_per_side)
        h_indices = torch.arange(nb_patches_h, device=pixel_values.device, dtype=pixel_values.dtype)
        w_indices = torch.arange(nb_patches_w, device=pixel_values.device, dtype=pixel_values.dtype)
        fractional_coords_h = h_indices / nb_patches_h * (1 - 1e-6)
        fractional_coords_w = w_indices / nb_patches_w * (1 - 1e-6)
        bucket_coords_h = torch.bucketize(fractional_coords_h, boundaries, right=True)
        bucket_coords_w = torch.bucketize(fractional_coords_w, boundaries, right=True)
        pos_ids = (bucket_coords_h.unsqueeze(1) * self.num_patches_per_side + bucket_coords_w).flatten()
        position_ids = pos_ids.unsqueeze(0).expand(batch_size, -1)
        return embeddings + self.position_embedding(position_ids)

model = Idefics3VisionEmbeddings()
model = model.to("cuda:0")
pixel_values = torch.rand(1, 3, 32, 32, device="cuda:0")
patch_attention_mask = torch.rand(1, 1, 1, 1, device="cuda:0") > 0.5
'''
CELL = '''
output = model(pixel_values, patch_attention_mask)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "torch.arange(1 / self.num_patches_per_side, 1.0, 1 / self.num_patches_per_side)",
    "torch.arange(1 / self.num_patches_per_side, 1.0, 1 / self.num_patches_per_side, device=pixel_values.device)",
)
CLEAN = False
