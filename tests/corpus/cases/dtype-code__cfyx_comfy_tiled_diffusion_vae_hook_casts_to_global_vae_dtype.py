"""ComfyUI-TiledDiffusion "Tiled VAE Encode": the hook casts its tiled result to `comfy.model_management.vae_dtype()` (float32) while the loaded VAE runs in bfloat16.

Source: https://github.com/shiimizu/ComfyUI-TiledDiffusion/issues/60
"Input type (float) and bias type (struct c10::BFloat16) should be the same" whenever the Tiled VAE Encode
node is used (core "VAE Encode (Tiled)" works). VAEHook.vae_tile_forward ended with
`vae_dtype = comfy.model_management.vae_dtype()` and `result.to(dtype=vae_dtype, ...)`: called without
arguments that function returns the generic default (float32), not the dtype the VAE was loaded in, so
the float32 latent reaches the bfloat16 `quant_conv`. The maintainer confirmed d9c046d fixes it:
`vae_dtype = self.net.conv_in.weight.dtype`. Run on the CPU (a dtype bug). Stand-in: model_management's
vae_dtype, the VAE/VAEEncode path and VAEHook reduced to its tiling loop (same names).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn

def vae_dtype(device=None, allowed_dtypes=[]):        # comfy.model_management (stand-in)
    for d in allowed_dtypes:
        if d == torch.bfloat16 and device is not None:   # bf16-capable device: Flux/SD3 VAEs load in bf16
            return d
    return torch.float32

class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv_in = nn.Conv2d(3, 16, 3, padding=1)
        self.conv_out = nn.Conv2d(16, 32, 8, stride=8)
    def forward(self, x):
        return self.conv_out(torch.nn.functional.silu(self.conv_in(x)))

class AutoencodingEngine(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()
        self.quant_conv = nn.Conv2d(32, 32, 1)
    def encode(self, x):
        z = self.encoder(x)
        z = self.quant_conv(z)
        return z[:, :16]

class VAE:                                             # comfy.sd.VAE
    def __init__(self, device):
        self.device = device
        self.vae_dtype = vae_dtype(device, [torch.bfloat16, torch.float32])
        self.first_stage_model = AutoencodingEngine().to(self.vae_dtype)
    def encode(self, pixel_samples):
        pixel_samples = pixel_samples.movedim(-1, 1)
        return self.first_stage_model.encode(pixel_samples.to(self.vae_dtype).to(self.device)).float()

class VAEEncode:
    def encode(self, vae, pixels):
        return ({"samples": vae.encode(pixels[:, :, :, :3])},)

class VAEHook:
    def __init__(self, net, tile_size, is_decoder=False):
        self.net = net
        self.tile_size = tile_size
        self.is_decoder = is_decoder

    def __call__(self, x):
        return self.vae_tile_forward(x)

    @torch.no_grad()
    def vae_tile_forward(self, z):
        device = next(self.net.parameters()).device
        net = self.net
        N, _, height, width = z.shape
        result = None
        result_approx = None
        for y in range(0, height, self.tile_size):
            for x in range(0, width, self.tile_size):
                tile = net.original_forward(z[:, :, y:y + self.tile_size, x:x + self.tile_size].to(device))
                if result is None:      # NOTE: dim C varies from different cases, can only be inited dynamically
                    result = torch.zeros((N, tile.shape[1], height // 8, width // 8), device=device, requires_grad=False)
                result[:, :, y // 8:(y + self.tile_size) // 8, x // 8:(x + self.tile_size) // 8] = tile
        vae_dtype_ = vae_dtype()
        return result.to(dtype=vae_dtype_, device=device) if result is not None else result_approx.to(device=device, dtype=vae_dtype_)

vae = VAE(torch.device("cpu"))                       # VAELoader: loaded in bfloat16
encoder = vae.first_stage_model.encoder
encoder.original_forward = encoder.forward
tiled_encoder = VAEHook(net=encoder, tile_size=32)    # what VAEEncodeTiled_TiledDiffusion.process installs
encoder.forward = tiled_encoder
pixels = torch.rand(1, 64, 64, 3)                     # LoadImage
'''
CELL = '''
with torch.no_grad():
    latent = VAEEncode().encode(vae, pixels)[0]
'''
EXPECT_ERROR = ("should be the same", "expected scalar type", "same dtype")
CULPRITS = ["tiled_encoder"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        vae_dtype_ = vae_dtype()\n", "        vae_dtype_ = self.net.conv_in.weight.dtype\n")
CLEAN = False
