"""multidiffusion-upscaler (Tiled VAE, A1111 extension) with --medvram: the tiled encoder assembles its output in a float32 buffer that goes into the VAE's float16 quant_conv.

Source: https://github.com/pkuliyi2015/multidiffusion-upscaler-for-automatic1111/pull/359
"When medvram or lowvram is enabled. Tiled VAE will cause dtype mismatch since it only hook the main part
of VAE but ignore the final projection layers", raising "RuntimeError: Input type (float) and bias type
(struct c10::Half) should be the same". VAEHook.vae_tile_forward writes the tiles into
`result = torch.zeros(..., device=device)` (default float32) and returns it; the un-hooked, float16
`quant_conv` then gets a float32 input. The merged fix returns `result.to(dtype)` with the encoder's
parameter dtype. Run on the CPU (a dtype bug). Stand-in: VAEHook reduced to the tiling loop (same names),
an AutoencoderKL whose encoder.forward is replaced by the hook, as the extension's Script does.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn

class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv_in = nn.Conv2d(3, 16, 3, padding=1)
        self.norm_out = nn.GroupNorm(4, 16)
        self.conv_out = nn.Conv2d(16, 8, 8, stride=8)
    def forward(self, x):
        return self.conv_out(torch.nn.functional.silu(self.norm_out(self.conv_in(x))))

class AutoencoderKL(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()
        self.quant_conv = nn.Conv2d(8, 8, 1)
    def encode(self, x):
        h = self.encoder(x)
        moments = self.quant_conv(h)
        return moments[:, :4]

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
                tile = z[:, :, y:y + self.tile_size, x:x + self.tile_size].to(device)
                tile = net.original_forward(tile)
                if result is None:      # NOTE: dim C varies from different cases, can only be inited dynamically
                    result = torch.zeros((N, tile.shape[1], height // 8, width // 8), device=device, requires_grad=False)
                result[:, :, y // 8:(y + self.tile_size) // 8, x // 8:(x + self.tile_size) // 8] = tile
        return result if result is not None else result_approx.to(device)

vae = AutoencoderKL().half()                        # webui loads the VAE in float16 (medvram: no autocast around it)
vae.encoder.original_forward = vae.encoder.forward
encoder_hook = VAEHook(vae.encoder, tile_size=32)
vae.encoder.forward = encoder_hook                   # Tiled VAE hooks the encoder only
image = (torch.rand(1, 3, 64, 64) * 2 - 1).half()   # img2img init image, already in the VAE dtype
'''
CELL = '''
with torch.no_grad():
    latent = vae.encode(image)
'''
EXPECT_ERROR = ("should be the same", "expected scalar type", "same dtype")
CULPRITS = ["encoder_hook"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("return result if result is not None else result_approx.to(device)", "return result.to(next(net.parameters()).dtype) if result is not None else result_approx.to(device, dtype=next(net.parameters()).dtype)")
CLEAN = False
