"""Look-alike: big-sleep's `Imagine.reset()` re-creates the BigGAN latents on the CPU, then moves the model back to cuda.

Source: https://github.com/lucidrains/big-sleep/blob/main/big_sleep/big_sleep.py
`BigSleep.reset()` builds a fresh `Latents` module (CPU Parameters) inside a model that lives on
cuda; `Imagine.reset()` follows it with `self.model = self.model.cuda()` and only then re-creates the
Adam optimizer over `self.model.model.latents.parameters()`, so the new latents are on the GPU and the
optimizer points at them before the next `dream()`. Stand-ins as in the big-sleep device-module case
(small BigGAN / CLIP, warm-up forward only); `.cuda()` is written `.to("cuda:0")` for the simulator.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn
from torch.optim import Adam

def exists(val):
    return val is not None

class CLIP(nn.Module):
    """Stand-in for the CLIP ViT-B/32 perceptor that big_sleep loads at import time."""
    def __init__(self):
        super().__init__()
        self.visual = nn.Sequential(nn.AdaptiveAvgPool2d(4), nn.Flatten(), nn.Linear(48, 16))
        self.token_embedding = nn.Embedding(100, 16)
    def encode_image(self, image):
        return self.visual(image)
    def encode_text(self, text):
        return self.token_embedding(text).mean(1)

def tokenize(text):
    return torch.tensor([[len(w) % 100 for w in text.split()]])

perceptor = CLIP().to("cuda:0").eval()          # clip.load(..., jit=False) on cuda

class BigGAN(nn.Module):
    """Stand-in for pytorch_pretrained_biggan.BigGAN (biggan-deep-128)."""
    def __init__(self, num_classes=10, z_dim=8, image_size=16):
        super().__init__()
        self.image_size = image_size
        self.embeddings = nn.Linear(num_classes, z_dim, bias=False)
        self.generator = nn.Sequential(nn.Linear(2 * z_dim, 3 * image_size * image_size), nn.Tanh())
    def forward(self, z, class_label, truncation):
        embed = self.embeddings(class_label)
        cond_vector = torch.cat((z, embed), dim=1)
        z = self.generator(cond_vector)
        return z.view(-1, 3, self.image_size, self.image_size)

class Latents(torch.nn.Module):
    def __init__(self, num_latents=4, max_classes=None, class_temperature=2., num_classes=10, z_dim=8):
        super().__init__()
        self.normu = torch.nn.Parameter(torch.randn(num_latents, z_dim))
        self.cls = torch.nn.Parameter(torch.randn(num_latents, num_classes) * .3 - 3.9)
        self.register_buffer('thresh_lat', torch.tensor(1))
        self.max_classes = max_classes
        self.class_temperature = class_temperature
    def forward(self):
        classes = torch.sigmoid(self.cls)
        return self.normu, classes

class Model(nn.Module):
    def __init__(self, image_size, max_classes=None, class_temperature=2.):
        super().__init__()
        self.biggan = BigGAN(image_size=image_size)
        self.max_classes = max_classes
        self.class_temperature = class_temperature
        self.init_latents()
    def init_latents(self):
        self.latents = Latents(max_classes=self.max_classes, class_temperature=self.class_temperature)
    def forward(self):
        self.biggan.eval()
        out = self.biggan(*self.latents(), 1)
        return (out + 1) / 2

class BigSleep(nn.Module):
    def __init__(self, image_size=16, loss_coef=100, max_classes=None, class_temperature=2.):
        super().__init__()
        self.loss_coef = loss_coef
        self.image_size = image_size
        self.model = Model(image_size=image_size, max_classes=max_classes,
                           class_temperature=class_temperature)
    def reset(self):
        self.model.init_latents()
    def forward(self, text, return_loss=True):
        out = self.model()
        if not return_loss:
            return out
        into = F.interpolate(out, (8, 8), mode='nearest')
        image_embed = perceptor.encode_image(into)
        text_embed = perceptor.encode_text(text)
        latents, soft_one_hot_classes = self.model.latents()
        lat_loss = torch.abs(1 - torch.std(latents, dim=1)).mean() + torch.abs(torch.mean(latents)).mean()
        cls_loss = (soft_one_hot_classes ** 2).mean()
        sim_loss = -self.loss_coef * torch.cosine_similarity(text_embed, image_embed, dim=-1).mean()
        return (lat_loss, cls_loss, sim_loss)

class Imagine(nn.Module):
    def __init__(self, text, *, lr=.07, image_size=16, max_classes=None, class_temperature=2.):
        super().__init__()
        model = BigSleep(image_size=image_size, max_classes=max_classes,
                         class_temperature=class_temperature).to("cuda:0")   # .cuda() upstream
        self.model = model
        self.lr = lr
        self.optimizer = Adam(model.model.latents.parameters(), lr)
        self.set_text(text)
    def set_text(self, text):
        self.text = text
        self.encoded_text = tokenize(text).to("cuda:0")                     # .cuda() upstream
    def reset(self):
        self.model.reset()
        self.model = self.model.to("cuda:0")                                # .cuda() upstream
        self.optimizer = Adam(self.model.model.latents.parameters(), self.lr)
    def forward(self):
        print(f'Imagining "{self.text}" from the depths of my weights...')
        return self.model(self.encoded_text) # one warmup step due to issue with CLIP and CUDA

dream = Imagine(text="a pyramid made of ice", lr=.07)
dream.reset()
dream.set_text("a cityscape in the style of Van Gogh")
'''
CELL = '''
losses = dream()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
