"""Janus-Pro text-to-image on a non-CUDA device: the VQ decoder's `Upsample` recasts fp16 activations to a hard-coded bfloat16.

Source: https://github.com/deepseek-ai/Janus/pull/233
`demo/app_januspro.py` loads the model with `vl_gpt.to(torch.float16)` when CUDA is unavailable
(macOS reports: deepseek-ai/Janus#83, "RuntimeError: Input type (c10::BFloat16) and bias type
(c10::Half) should be the same" when generating an image). The PR gives the cause:
`Upsample.forward` in `janus/models/vq_model.py` interpolates in float32 and then casts to
`torch.bfloat16` whenever the input is not float32, so float16 activations come back as bfloat16
and hit the following float16 convolution. The fix keeps the original dtype (`orig_dtype = x.dtype`
... `.to(orig_dtype)`).
Stand-in: MultiModalityCausalLM reduced to `gen_vision_model`, a VQ_16-shaped VQModel with a small
decoder (2 resolutions, one res block each, no attention); the autoregressive token sampling loop is
replaced by random codebook indices.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

def nonlinearity(x):
    return x * torch.sigmoid(x)

def Normalize(in_channels):
    return nn.GroupNorm(num_groups=32, num_channels=in_channels, eps=1e-6, affine=True)

class ResnetBlock(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.norm1 = Normalize(in_channels)
        self.conv1 = nn.Conv2d(in_channels, out_channels, 3, 1, 1)
        self.norm2 = Normalize(out_channels)
        self.conv2 = nn.Conv2d(out_channels, out_channels, 3, 1, 1)
        self.nin_shortcut = nn.Conv2d(in_channels, out_channels, 1) if in_channels != out_channels else nn.Identity()

    def forward(self, x):
        h = self.conv1(nonlinearity(self.norm1(x)))
        h = self.conv2(nonlinearity(self.norm2(h)))
        return self.nin_shortcut(x) + h

class Upsample(nn.Module):
    def __init__(self, in_channels, with_conv):
        super().__init__()
        self.with_conv = with_conv
        if self.with_conv:
            self.conv = nn.Conv2d(in_channels, in_channels, kernel_size=3, stride=1, padding=1)

    def forward(self, x):
        if x.dtype != torch.float32:
            x = F.interpolate(x.to(torch.float), scale_factor=2.0, mode="nearest").to(
                torch.bfloat16
            )
        else:
            x = F.interpolate(x, scale_factor=2.0, mode="nearest")

        if self.with_conv:
            x = self.conv(x)
        return x

class Decoder(nn.Module):
    """stand-in for janus.models.vq_model.Decoder (smaller ch_mult, no mid/attn blocks)"""
    def __init__(self, z_channels=32, ch=32, ch_mult=(1, 2), out_channels=3):
        super().__init__()
        self.num_resolutions = len(ch_mult)
        block_in = ch * ch_mult[self.num_resolutions - 1]
        self.conv_in = nn.Conv2d(z_channels, block_in, kernel_size=3, stride=1, padding=1)
        self.conv_blocks = nn.ModuleList()
        for i_level in reversed(range(self.num_resolutions)):
            conv_block = nn.Module()
            block_out = ch * ch_mult[i_level]
            conv_block.res = nn.ModuleList([ResnetBlock(block_in, block_out)])
            block_in = block_out
            if i_level != 0:
                conv_block.upsample = Upsample(block_in, True)
            self.conv_blocks.append(conv_block)
        self.norm_out = Normalize(block_in)
        self.conv_out = nn.Conv2d(block_in, out_channels, kernel_size=3, stride=1, padding=1)

    def forward(self, z):
        h = self.conv_in(z)
        for i_level, block in enumerate(self.conv_blocks):
            for res in block.res:
                h = res(h)
            if i_level != self.num_resolutions - 1:
                h = block.upsample(h)
        h = self.norm_out(h)
        h = nonlinearity(h)
        return self.conv_out(h)

class VectorQuantizer(nn.Module):
    def __init__(self, n_e, e_dim, l2_norm=True):
        super().__init__()
        self.l2_norm = l2_norm
        self.embedding = nn.Embedding(n_e, e_dim)

    def get_codebook_entry(self, indices, shape=None, channel_first=True):
        if self.l2_norm:
            embedding = F.normalize(self.embedding.weight, p=2, dim=-1)
        else:
            embedding = self.embedding.weight
        z_q = embedding[indices]
        if shape is not None:
            z_q = z_q.reshape(shape[0], shape[2], shape[3], shape[1])
            z_q = z_q.permute(0, 3, 1, 2).contiguous()
        return z_q

class VQModel(nn.Module):
    def __init__(self, codebook_size=1024, codebook_embed_dim=8, z_channels=32):
        super().__init__()
        self.decoder = Decoder(z_channels=z_channels)
        self.quantize = VectorQuantizer(codebook_size, codebook_embed_dim)
        self.post_quant_conv = nn.Conv2d(codebook_embed_dim, z_channels, 1)

    def decode(self, quant):
        quant = self.post_quant_conv(quant)
        return self.decoder(quant)

    def decode_code(self, code_b, shape=None, channel_first=True):
        quant_b = self.quantize.get_codebook_entry(code_b, shape, channel_first)
        return self.decode(quant_b)

class MultiModalityCausalLM(nn.Module):
    """stand-in: only the image-generation VQ model of Janus-Pro"""
    def __init__(self):
        super().__init__()
        self.gen_vision_model = VQModel()

vl_gpt = MultiModalityCausalLM()
if torch.cuda.is_available():
    vl_gpt = vl_gpt.to(torch.bfloat16).cuda()
else:
    vl_gpt = vl_gpt.to(torch.float16)

parallel_size, width, height, patch_size = 1, 64, 64, 16
# tokens sampled by the autoregressive loop of generate()
generated_tokens = torch.randint(0, 1024, (parallel_size, (width // patch_size) * (height // patch_size)), dtype=torch.int)
'''
CELL = '''
patches = vl_gpt.gen_vision_model.decode_code(generated_tokens.to(dtype=torch.int),
                                             shape=[parallel_size, 8, width // patch_size, height // patch_size])
'''
EXPECT_ERROR = "Input type (c10::BFloat16) and bias type (c10::Half) should be the same"
CULPRITS = ["vl_gpt.gen_vision_model.decoder.conv_blocks[0].upsample"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        if x.dtype != torch.float32:
            x = F.interpolate(x.to(torch.float), scale_factor=2.0, mode="nearest").to(
                torch.bfloat16
            )""",
                  """        if x.dtype != torch.float32:
            orig_dtype = x.dtype
            x = F.interpolate(x.to(torch.float), scale_factor=2.0, mode="nearest").to(
                orig_dtype
            )""")
CLEAN = False
