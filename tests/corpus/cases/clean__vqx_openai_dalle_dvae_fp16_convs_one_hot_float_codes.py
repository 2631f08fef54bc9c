"""Look-alike: OpenAI's DALL-E dVAE on the GPU runs its convolutions in float16 internally while the user feeds float32 one-hot codes and upcasts the output.

Source: https://github.com/openai/DALL-E/blob/master/dall_e/utils.py
`dall_e.utils.Conv2d` casts both its input and its weights to half when `use_float16` and the
weights are on CUDA (`x = x.half(); w, b = self.w.half(), self.b.half()`), and to float32
otherwise; the encoder/decoder refuse non-float32 inputs. The usage notebook
(notebooks/usage.ipynb) does `z = F.one_hot(torch.argmax(enc(x), axis=1), num_classes=enc.vocab_size)
.permute(0, 3, 1, 2).float()`, `x_stats = dec(z).float()`, `unmap_pixels(torch.sigmoid(x_stats[:, :3]))`.
Mixed half/float activations never meet a conv of the other dtype (each Conv2d converts), and the
user's `.float()` calls match what the models check. Nothing to report.
Stand-ins: Encoder/Decoder with the library's Conv2d and DecoderBlock but one block and small widths
(vocab 512); the input image is moved with `.to(dev)` (the notebook's own `preprocess` result stays
on the CPU, see openai/DALL-E#5); `x_stats[:, :3]` is written `x_stats.narrow(1, 0, 3)` (the simulated
GPU cannot slice).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
from collections import OrderedDict
import torch
from torch import nn
import torch.nn.functional as F

logit_laplace_eps = 0.1

class Conv2d(nn.Module):
    """dall_e.utils.Conv2d (attrs class written out)"""
    def __init__(self, n_in, n_out, kw, use_float16=True, device=torch.device('cpu'), requires_grad=False):
        super().__init__()
        self.n_in, self.n_out, self.kw, self.use_float16 = n_in, n_out, kw, use_float16
        w = torch.empty((n_out, n_in, kw, kw), dtype=torch.float32, device=device, requires_grad=requires_grad)
        w.normal_(std=1 / math.sqrt(n_in * kw ** 2))
        b = torch.zeros((n_out,), dtype=torch.float32, device=device, requires_grad=requires_grad)
        self.w, self.b = nn.Parameter(w), nn.Parameter(b)

    def forward(self, x):
        if self.use_float16 and 'cuda' in self.w.device.type:
            if x.dtype != torch.float16:
                x = x.half()
            w, b = self.w.half(), self.b.half()
        else:
            if x.dtype != torch.float32:
                x = x.float()
            w, b = self.w, self.b
        return F.conv2d(x, w, b, padding=(self.kw - 1) // 2)

def map_pixels(x):
    if x.dtype != torch.float:
        raise ValueError('expected input to have type float')
    return (1 - 2 * logit_laplace_eps) * x + logit_laplace_eps

def unmap_pixels(x):
    if x.dtype != torch.float:
        raise ValueError('expected input to have type float')
    return torch.clamp((x - logit_laplace_eps) / (1 - 2 * logit_laplace_eps), 0, 1)

class DecoderBlock(nn.Module):
    def __init__(self, n_in, n_out, n_layers):
        super().__init__()
        n_hid = n_out // 4
        self.post_gain = 1 / (n_layers ** 2)
        self.id_path = Conv2d(n_in, n_out, 1) if n_in != n_out else nn.Identity()
        self.res_path = nn.Sequential(OrderedDict([
            ('relu_1', nn.ReLU()), ('conv_1', Conv2d(n_in, n_hid, 1)),
            ('relu_2', nn.ReLU()), ('conv_2', Conv2d(n_hid, n_hid, 3)),
            ('relu_3', nn.ReLU()), ('conv_3', Conv2d(n_hid, n_out, 3)),
        ]))

    def forward(self, x):
        return self.id_path(x) + self.post_gain * self.res_path(x)

class Encoder(nn.Module):
    def __init__(self, n_hid=64, vocab_size=512):
        super().__init__()
        self.vocab_size = vocab_size
        self.blocks = nn.Sequential(OrderedDict([
            ('input', Conv2d(3, n_hid, 7)),
            ('pool', nn.MaxPool2d(kernel_size=8)),
            ('output', nn.Sequential(OrderedDict([
                ('relu', nn.ReLU()),
                ('conv', Conv2d(n_hid, vocab_size, 1, use_float16=False)),
            ]))),
        ]))

    def forward(self, x):
        if x.dtype != torch.float32:
            raise ValueError('input must have dtype torch.float32')
        return self.blocks(x)

class Decoder(nn.Module):
    def __init__(self, n_init=32, n_hid=64, vocab_size=512, output_channels=3):
        super().__init__()
        self.vocab_size = vocab_size
        self.blocks = nn.Sequential(OrderedDict([
            ('input', Conv2d(vocab_size, n_init, 1, use_float16=False)),
            ('group_1', nn.Sequential(OrderedDict([
                ('block_1', DecoderBlock(n_init, n_hid, n_layers=2)),
                ('upsample', nn.Upsample(scale_factor=8, mode='nearest')),
            ]))),
            ('output', nn.Sequential(OrderedDict([
                ('relu', nn.ReLU()),
                ('conv', Conv2d(n_hid, 2 * output_channels, 1)),
            ]))),
        ]))

    def forward(self, x):
        if x.shape[1] != self.vocab_size:
            raise ValueError(f'input has {x.shape[1]} channels but model built for {self.vocab_size}')
        if x.dtype != torch.float32:
            raise ValueError('input must have dtype torch.float32')
        return self.blocks(x)

# This can be changed to a GPU, e.g. 'cuda:0'.
dev = torch.device('cuda:0')
enc = Encoder().to(dev)
dec = Decoder().to(dev)
img = torch.rand(1, 3, 64, 64)              # preprocess(download_image(...)) on the CPU
x = map_pixels(img).to(dev)
'''
CELL = '''
z_logits = enc(x)
z = torch.argmax(z_logits, axis=1)
z = F.one_hot(z, num_classes=enc.vocab_size).permute(0, 3, 1, 2).float()

x_stats = dec(z).float()
x_rec = unmap_pixels(torch.sigmoid(x_stats.narrow(1, 0, 3)))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
