"""e4e: `setup_model` keeps the checkpoint's `opts.device`, so `latent_avg` lands on cuda:0 while the net runs on the CPU.

Source: https://github.com/omertov/encoder4editing/issues/11
The pSp wrapper loads `self.latent_avg = ckpt['latent_avg'].to(self.opts.device)` (a plain tensor
attribute), and `opts` comes from the checkpoint, whose saved `device` is 'cuda:0'. Loading the model
with `setup_model(path, device)` for another device moves the encoder/decoder there but leaves
`latent_avg` on cuda:0, so `codes + self.latent_avg.repeat(...)` in `forward` mixes devices. The
reporter's fix, merged by the maintainer: add `opts['device'] = device` in `setup_model` before
building pSp. Stand-ins: `torch.load` of the checkpoint is an in-memory dict (`_CHECKPOINTS`); the
encoder is a small conv + linear net and the StyleGAN2 decoder a small Linear/BatchNorm mapping.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import argparse
import torch
from torch import nn

# stand-in for torch.load(checkpoint_path, map_location='cpu'): the checkpoint e4e ships
_CHECKPOINTS = {
    "e4e_ffhq_encode.pt": {
        "opts": {"dataset_type": "ffhq_encode", "encoder_type": "Encoder4Editing",
                 "start_from_latent_avg": True, "device": "cuda:0"},
        "latent_avg": torch.randn(4, 16),
    },
}

class Encoder4Editing(nn.Module):
    """Stand-in for psp_encoders.Encoder4Editing: image -> (n_styles, 16) codes."""
    def __init__(self, n_styles=4, style_dim=16):
        super().__init__()
        self.style_count = n_styles
        self.style_dim = style_dim
        self.body = nn.Sequential(nn.Conv2d(3, 8, 3, 2, 1), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.styles = nn.Linear(8, n_styles * style_dim)
    def forward(self, x):
        return self.styles(self.body(x)).view(x.shape[0], self.style_count, self.style_dim)

class Generator(nn.Module):
    """Stand-in for the StyleGAN2 decoder: W+ codes -> a small image."""
    def __init__(self, size=8, style_dim=16):
        super().__init__()
        self.size = size
        self.synthesis = nn.Sequential(nn.Linear(style_dim, 3 * size * size), nn.BatchNorm1d(3 * size * size), nn.Tanh())
    def forward(self, styles, input_is_latent=True, randomize_noise=True, return_latents=False):
        codes = styles[0]
        img = self.synthesis(codes.mean(1)).view(codes.shape[0], 3, self.size, self.size)
        return img, (codes if return_latents else None)

class pSp(nn.Module):
    def __init__(self, opts):
        super(pSp, self).__init__()
        self.opts = opts
        self.encoder = Encoder4Editing()
        self.decoder = Generator()
        self.face_pool = torch.nn.AdaptiveAvgPool2d((4, 4))
        self.load_weights()

    def load_weights(self):
        ckpt = _CHECKPOINTS[self.opts.checkpoint_path]
        self.__load_latent_avg(ckpt)

    def forward(self, x, resize=True, randomize_noise=True, return_latents=False):
        codes = self.encoder(x)
        # normalize with respect to the center of an average face
        if self.opts.start_from_latent_avg:
            if codes.ndim == 2:
                codes = codes + self.latent_avg.repeat(codes.shape[0], 1, 1)[:, 0, :]
            else:
                codes = codes + self.latent_avg.repeat(codes.shape[0], 1, 1)
        images, result_latent = self.decoder([codes], input_is_latent=True,
                                             randomize_noise=randomize_noise,
                                             return_latents=return_latents)
        if resize:
            images = self.face_pool(images)
        if return_latents:
            return images, result_latent
        return images

    def __load_latent_avg(self, ckpt, repeat=None):
        if 'latent_avg' in ckpt:
            self.latent_avg = ckpt['latent_avg'].to(self.opts.device)
            if repeat is not None:
                self.latent_avg = self.latent_avg.repeat(repeat, 1)
        else:
            self.latent_avg = None

def setup_model(checkpoint_path, device='cuda'):
    ckpt = _CHECKPOINTS[checkpoint_path]
    opts = dict(ckpt['opts'])
    opts['stylegan_size'] = 1024
    opts['checkpoint_path'] = checkpoint_path
    opts = argparse.Namespace(**opts)

    net = pSp(opts)
    net.eval()
    net = net.to(device)
    return net, opts

device = "cpu"
net, opts = setup_model("e4e_ffhq_encode.pt", device)
transformed_image = torch.rand(3, 16, 16) * 2 - 1
'''
CELL = '''
with torch.no_grad():
    images, latents = net(transformed_image.unsqueeze(0).to(device).float(),
                          randomize_noise=False, return_latents=True)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["setup_model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("    opts['checkpoint_path'] = checkpoint_path\n",
                  "    opts['checkpoint_path'] = checkpoint_path\n    opts['device'] = device\n")
CLEAN = False
