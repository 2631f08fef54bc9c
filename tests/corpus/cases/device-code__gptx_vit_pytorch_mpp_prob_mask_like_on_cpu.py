"""vit-pytorch masked patch prediction (`MPP`) on a GPU: `prob_mask_like` draws its random masks on the CPU.

Source: https://github.com/lucidrains/vit-pytorch/pull/118
"Current mpp.py doesn't seem to work when using GPU device": with `ViT(...).cuda(device="cuda:3")`
and `MPP(...).cuda(...)`, `loss = mpp_trainer(images)` fails because `prob_mask_like` returns
`torch.zeros((batch, seq_length)).float().uniform_(0, 1) < prob`, a CPU tensor, which is combined
with the GPU `mask` (`mask * random_patch_prob`, `mask * replace_prob`); the PR moves both draws to
`mask.device`, and also `channel_bins` in `MPPLoss` (a CPU `torch.arange` given to
`torch.bucketize`). Here the edit makes `prob_mask_like` draw on its input's device and moves
`channel_bins`; the simulated device does not check `bucketize`, so only `prob_mask_like` is named.
Stand-in: `vit_pytorch/mpp.py` at the PR's parent commit with a small ViT; einops' `rearrange`/
`repeat` written as reshapes, and (so that meta, standing in for the GPU, can run them) the
boolean-mask assignments written as `torch.where` and the masked cross-entropy as a mask-weighted
mean (same values).
"""

SIM = "meta"
FAMILY = "device-code"
SETUP = '''
import math
import torch
from torch import nn
import torch.nn.functional as F

def prob_mask_like(t, prob):
    batch, seq_length, _ = t.shape
    return torch.zeros((batch, seq_length)).float().uniform_(0, 1) < prob


def get_mask_subset_with_prob(patched_input, prob):
    batch, seq_len, _, device = *patched_input.shape, patched_input.device
    max_masked = math.ceil(prob * seq_len)

    rand = torch.rand((batch, seq_len), device=device)
    _, sampled_indices = rand.topk(max_masked, dim=-1)

    new_mask = torch.zeros((batch, seq_len), device=device)
    new_mask.scatter_(1, sampled_indices, 1)
    return new_mask.bool()


class MPPLoss(nn.Module):
    def __init__(self, patch_size, channels, output_channel_bits,
                 max_pixel_val):
        super(MPPLoss, self).__init__()
        self.patch_size = patch_size
        self.channels = channels
        self.output_channel_bits = output_channel_bits
        self.max_pixel_val = max_pixel_val

    def forward(self, predicted_patches, target, mask):
        p = self.patch_size
        b, c_, H, W = target.shape
        target = target.reshape(b, c_, H // p, p, W // p, p).permute(0, 2, 4, 1, 3, 5).reshape(b, -1, c_, p * p)

        avg_target = target.mean(dim=3)

        bin_size = self.max_pixel_val / self.output_channel_bits
        channel_bins = torch.arange(bin_size, self.max_pixel_val, bin_size)
        discretized_target = torch.bucketize(avg_target, channel_bins)
        discretized_target = F.one_hot(discretized_target,
                                       self.output_channel_bits)
        c, bi = self.channels, self.output_channel_bits
        discretized_target = discretized_target.reshape(b, -1, c * bi)

        bin_mask = 2**torch.arange(c * bi - 1, -1,
                                   -1).to(discretized_target.device,
                                          discretized_target.dtype)
        target_label = torch.sum(bin_mask * discretized_target, -1)

        losses = F.cross_entropy(predicted_patches.transpose(1, 2), target_label, reduction="none")
        return (losses * mask).sum() / mask.sum()


class MPP(nn.Module):
    def __init__(self,
                 transformer,
                 patch_size,
                 dim,
                 output_channel_bits=3,
                 channels=3,
                 max_pixel_val=1.0,
                 mask_prob=0.15,
                 replace_prob=0.5,
                 random_patch_prob=0.5):
        super().__init__()
        self.transformer = transformer
        self.loss = MPPLoss(patch_size, channels, output_channel_bits,
                            max_pixel_val)
        self.to_bits = nn.Linear(dim, 2**(output_channel_bits * channels))
        self.patch_size = patch_size
        self.mask_prob = mask_prob
        self.replace_prob = replace_prob
        self.random_patch_prob = random_patch_prob
        self.mask_token = nn.Parameter(torch.randn(1, 1, dim * channels))

    def forward(self, input, **kwargs):
        transformer = self.transformer
        img = input.clone().detach()

        p = self.patch_size
        b_, c_, H, W = input.shape
        input = input.reshape(b_, c_, H // p, p, W // p, p).permute(0, 2, 4, 3, 5, 1).reshape(b_, -1, p * p * c_)

        mask = get_mask_subset_with_prob(input, self.mask_prob)

        masked_input = input.clone().detach()

        if self.random_patch_prob > 0:
            random_patch_sampling_prob = self.random_patch_prob / (
                1 - self.replace_prob)
            random_patch_prob = prob_mask_like(input,
                                               random_patch_sampling_prob)
            bool_random_patch_prob = mask * random_patch_prob == True
            random_patches = torch.randint(0,
                                           input.shape[1],
                                           (input.shape[0], input.shape[1]),
                                           device=input.device)
            randomized_input = masked_input[
                torch.arange(masked_input.shape[0], device=input.device).unsqueeze(-1),
                random_patches]
            masked_input = torch.where(bool_random_patch_prob[..., None], randomized_input, masked_input)

        replace_prob = prob_mask_like(input, self.replace_prob)
        bool_mask_replace = (mask * replace_prob) == True
        masked_input = torch.where(bool_mask_replace[..., None], self.mask_token, masked_input)

        masked_input = transformer.to_patch_embedding[-1](masked_input)

        b, n, _ = masked_input.shape
        cls_tokens = transformer.cls_token.expand(b, -1, -1)
        masked_input = torch.cat((cls_tokens, masked_input), dim=1)

        masked_input += transformer.pos_embedding[:, :(n + 1)]
        masked_input = transformer.dropout(masked_input)

        masked_input = transformer.transformer(masked_input, **kwargs)
        cls_logits = self.to_bits(masked_input)
        logits = cls_logits[:, 1:, :]

        mpp_loss = self.loss(logits, img, mask)

        return mpp_loss


class ToPatches(nn.Module):
    "einops Rearrange('b c (h p1) (w p2) -> b (h w) (p1 p2 c)')"
    def __init__(self, p):
        super().__init__()
        self.p = p
    def forward(self, x):
        b, c, H, W = x.shape
        p = self.p
        return x.reshape(b, c, H // p, p, W // p, p).permute(0, 2, 4, 3, 5, 1).reshape(b, -1, p * p * c)

class ViT(nn.Module):
    "Stand-in for vit_pytorch.ViT (the attributes MPP reaches into)."
    def __init__(self, *, image_size, patch_size, num_classes, dim, depth, heads, mlp_dim,
                 channels=3, dropout=0., emb_dropout=0.):
        super().__init__()
        num_patches = (image_size // patch_size) ** 2
        patch_dim = channels * patch_size ** 2
        self.to_patch_embedding = nn.Sequential(ToPatches(patch_size), nn.Linear(patch_dim, dim))
        self.pos_embedding = nn.Parameter(torch.randn(1, num_patches + 1, dim))
        self.cls_token = nn.Parameter(torch.randn(1, 1, dim))
        self.dropout = nn.Dropout(emb_dropout)
        self.transformer = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(dim, heads, mlp_dim, dropout, batch_first=True), depth)
        self.mlp_head = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, num_classes))

device = "meta"                    # "cuda:3" in the report; the GPU is simulated by meta
model = ViT(image_size=64, patch_size=16, num_classes=2, dim=256, depth=1, heads=4,
            mlp_dim=512, dropout=0.1, emb_dropout=0.1).to(device)
mpp_trainer = MPP(
    transformer=model,
    patch_size=16,
    dim=256,
    mask_prob=0.15,
    random_patch_prob=0.30,
    replace_prob=0.50,
).to(device)
opt = torch.optim.Adam(mpp_trainer.parameters(), lr=3e-4)

def sample_unlabelled_images():
    return torch.randn(20, 3, 64, 64).to(device)
'''
CELL = '''
images = sample_unlabelled_images()
loss = mpp_trainer(images)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device",
                "found at least two devices")
CULPRITS = ["prob_mask_like"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""    return torch.zeros((batch, seq_length)).float().uniform_(0, 1) < prob


def get_mask_subset_with_prob(patched_input, prob):
    batch, seq_len, _, device = *patched_input.shape, patched_input.device
    max_masked = math.ceil(prob * seq_len)

    rand = torch.rand((batch, seq_len), device=device)
    _, sampled_indices = rand.topk(max_masked, dim=-1)

    new_mask = torch.zeros((batch, seq_len), device=device)
    new_mask.scatter_(1, sampled_indices, 1)
    return new_mask.bool()


class MPPLoss(nn.Module):
    def __init__(self, patch_size, channels, output_channel_bits,
                 max_pixel_val):
        super(MPPLoss, self).__init__()
        self.patch_size = patch_size
        self.channels = channels
        self.output_channel_bits = output_channel_bits
        self.max_pixel_val = max_pixel_val

    def forward(self, predicted_patches, target, mask):
        p = self.patch_size
        b, c_, H, W = target.shape
        target = target.reshape(b, c_, H // p, p, W // p, p).permute(0, 2, 4, 1, 3, 5).reshape(b, -1, c_, p * p)

        avg_target = target.mean(dim=3)

        bin_size = self.max_pixel_val / self.output_channel_bits
        channel_bins = torch.arange(bin_size, self.max_pixel_val, bin_size)
""",
                  """    return torch.zeros((batch, seq_length), device=t.device).float().uniform_(0, 1) < prob


def get_mask_subset_with_prob(patched_input, prob):
    batch, seq_len, _, device = *patched_input.shape, patched_input.device
    max_masked = math.ceil(prob * seq_len)

    rand = torch.rand((batch, seq_len), device=device)
    _, sampled_indices = rand.topk(max_masked, dim=-1)

    new_mask = torch.zeros((batch, seq_len), device=device)
    new_mask.scatter_(1, sampled_indices, 1)
    return new_mask.bool()


class MPPLoss(nn.Module):
    def __init__(self, patch_size, channels, output_channel_bits,
                 max_pixel_val):
        super(MPPLoss, self).__init__()
        self.patch_size = patch_size
        self.channels = channels
        self.output_channel_bits = output_channel_bits
        self.max_pixel_val = max_pixel_val

    def forward(self, predicted_patches, target, mask):
        p = self.patch_size
        b, c_, H, W = target.shape
        target = target.reshape(b, c_, H // p, p, W // p, p).permute(0, 2, 4, 1, 3, 5).reshape(b, -1, c_, p * p)

        avg_target = target.mean(dim=3)

        bin_size = self.max_pixel_val / self.output_channel_bits
        channel_bins = torch.arange(bin_size, self.max_pixel_val, bin_size).to(avg_target.device)
""")
CLEAN = False
