"""torchcvnn ViT-on-MNIST example: `train()` loads images as complex64 while the patch embedder's first layer is real float32.

Source: https://github.com/torchcvnn/examples/issues/13
In `mnist_conv/vit_mnist.py`, `lighting_train(0)` works but `train()` fails with "RuntimeError: Input
type (c10::complex<float>) and bias type (float) should be the same". The user found the embedder is
a real float32 module that receives complex64 inputs on the `train()` path; the maintainer: the
complex computation happens inside PatchEmbedding (a Fourier transform), so the input must be
float32 — the transform's dtype was changed to torch.float32. Stand-in: the MNIST transform producing
complex64 tensors and a reduced PatchEmbedding (real conv stem, then FFT) plus a complex linear head.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
import torch.nn as nn

class PatchEmbedding(nn.Module):
    def __init__(self, patch_size=7, embed_dim=16):
        super().__init__()
        self.embedder = nn.Conv2d(1, embed_dim, patch_size, stride=patch_size)   # real float32

    def forward(self, x):
        x = self.embedder(x)                       # real patches
        x = torch.fft.fft2(x, norm="ortho")        # complex from here on
        return x.flatten(2).transpose(1, 2)

class Model(nn.Module):
    def __init__(self, embed_dim=16, num_classes=10):
        super().__init__()
        self.patch_embedder = PatchEmbedding(embed_dim=embed_dim)
        self.head = nn.Linear(embed_dim, num_classes, dtype=torch.complex64)

    def forward(self, x):
        z = self.patch_embedder(x).mean(1)
        return self.head(z).abs()

dtype = torch.complex64
def transform(img):
    return torch.as_tensor(img).to(dtype)[None] / 255.0     # ToTensor + ToDtype(dtype)

model = Model()
raw = torch.randint(0, 256, (4, 28, 28), dtype=torch.uint8)
images = torch.stack([transform(r) for r in raw])
labels = torch.randint(0, 10, (4,))
loss_fn = nn.CrossEntropyLoss()
'''
CELL = '''
outputs = model(images)
loss = loss_fn(outputs, labels)
'''
EXPECT_ERROR = ("should be the same", "expected scalar type", "same dtype")
CULPRITS = ["images"]
FIX = "namespace"
REFERENCE_FIX = '''
images = images.real.to(torch.float32)
'''
REFERENCE_EDIT = None
CLEAN = False
