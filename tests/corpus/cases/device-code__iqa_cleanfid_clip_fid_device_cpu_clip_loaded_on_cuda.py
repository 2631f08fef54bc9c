"""clean-fid `compute_fid(..., model_name="clip_vit_b_32", device="cpu")`: the CLIP feature extractor is still loaded on cuda.

Source: https://github.com/GaParmar/clean-fid/issues/41
"FID clip crashes when evaluated on `cpu` device": passing `device="cpu"` and
`model_name="clip_vit_b_32"` fails with "Expected all tensors to be on the same device, but found at
least two devices, cpu and cuda:0! (when checking argument for argument weight in method
wrapper___slow_conv2d_forward)". `CLIP_fx.__init__` called `clip.load(name, device="cuda")` and
`compute_fid` built it without the device; the fix (release 0.1.32, commit "CLIP features on the
CPU") gives `CLIP_fx` a `device` argument and passes `device` from `compute_fid`.
`clip_fx` is the extractor `compute_fid` builds (the object whose `__init__` is edited).
Stand-in: `clip.load` returns a small ViT image encoder (patch conv, class/positional embeddings,
layer norms, projection), folders are in-memory uint8 batches, the statistics are reduced to the
feature mean. On a GPU the patch conv raises; in the simulator the first mixed op is the class
embedding added after it.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class VisionTransformer(nn.Module):               # stand-in for clip.model.VisionTransformer
    def __init__(self, input_resolution=32, patch_size=8, width=64, output_dim=32):
        super().__init__()
        self.conv1 = nn.Conv2d(3, width, kernel_size=patch_size, stride=patch_size, bias=False)
        scale = width ** -0.5
        self.class_embedding = nn.Parameter(scale * torch.randn(width))
        self.positional_embedding = nn.Parameter(scale * torch.randn((input_resolution // patch_size) ** 2 + 1, width))
        self.ln_pre = nn.LayerNorm(width)
        self.ln_post = nn.LayerNorm(width)
        self.proj = nn.Parameter(scale * torch.randn(width, output_dim))

    def forward(self, x):
        x = self.conv1(x)  # shape = [*, width, grid, grid]
        x = x.reshape(x.shape[0], x.shape[1], -1).permute(0, 2, 1)
        x = torch.cat([self.class_embedding.to(x.dtype) + torch.zeros(x.shape[0], 1, x.shape[-1], dtype=x.dtype, device=x.device), x], dim=1)
        x = x + self.positional_embedding.to(x.dtype)
        x = self.ln_pre(x)
        x = self.ln_post(x[:, 0, :])
        return x @ self.proj

class CLIP(nn.Module):
    def __init__(self):
        super().__init__()
        self.visual = VisionTransformer()

    @property
    def dtype(self):
        return self.visual.conv1.weight.dtype

    def encode_image(self, image):
        return self.visual(image.type(self.dtype))

def clip_load(name, device="cuda"):                # stand-in for clip.load
    model = CLIP().eval()
    return model.to(device), None

class CLIP_fx():
    def __call__(self, img_t):
        img_x = img_t / 255.0
        mean = torch.tensor((0.48145466, 0.4578275, 0.40821073), device=img_x.device).view(1, 3, 1, 1)
        std = torch.tensor((0.26862954, 0.26130258, 0.27577711), device=img_x.device).view(1, 3, 1, 1)
        img_x = (img_x - mean) / std               # transforms.Normalize
        if len(img_x.shape) == 3:
            img_x = img_x.unsqueeze(0)
        with torch.no_grad():
            z = self.model.encode_image(img_x)
        return z

    def __init__(self, name="ViT-B/32"):
        self.model, _ = clip_load(name, device="cuda:0")      # clip.load(name, device="cuda")
        self.model.eval()
        self.name = "clip_" + name.lower().replace("-", "_").replace("/", "_")

def compute_fid(fdir1=None, fdir2=None, mode="clean", model_name="inception_v3", num_workers=12,
                batch_size=32, device=torch.device("cuda:0"), verbose=True):
    if model_name == "clip_vit_b_32":
        clip_fx = CLIP_fx("ViT-B/32")
        feat_model = clip_fx
    else:
        raise NotImplementedError("the Inception extractor needs downloaded weights")
    feats1 = get_folder_features(fdir1, feat_model, batch_size=batch_size, device=device)
    feats2 = get_folder_features(fdir2, feat_model, batch_size=batch_size, device=device)
    return ((feats1.mean(0) - feats2.mean(0)) ** 2).sum()

def get_batch_features(batch, model, device):
    with torch.no_grad():
        feat = model(batch.to(device))
    return feat

def get_folder_features(fdir, model, batch_size=32, device=torch.device("cuda:0")):
    feats = [get_batch_features(batch, model, device) for batch in fdir.split(batch_size)]
    return torch.cat(feats)

# the two image folders, decoded to uint8 batches
fdir1 = torch.randint(0, 255, (8, 3, 32, 32), dtype=torch.uint8)
fdir2 = torch.randint(0, 255, (8, 3, 32, 32), dtype=torch.uint8)
'''
CELL = '''
score = compute_fid(fdir1, fdir2, mode="clean", model_name="clip_vit_b_32", batch_size=4, device="cpu")
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["clip_fx"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('''    def __init__(self, name="ViT-B/32"):
        self.model, _ = clip_load(name, device="cuda:0")      # clip.load(name, device="cuda")
        self.model.eval()
        self.name = "clip_" + name.lower().replace("-", "_").replace("/", "_")

def compute_fid(fdir1=None, fdir2=None, mode="clean", model_name="inception_v3", num_workers=12,
                batch_size=32, device=torch.device("cuda:0"), verbose=True):
    if model_name == "clip_vit_b_32":
        clip_fx = CLIP_fx("ViT-B/32")''', '''    def __init__(self, name="ViT-B/32", device="cuda:0"):
        self.model, _ = clip_load(name, device=device)
        self.model.eval()
        self.name = "clip_" + name.lower().replace("-", "_").replace("/", "_")

def compute_fid(fdir1=None, fdir2=None, mode="clean", model_name="inception_v3", num_workers=12,
                batch_size=32, device=torch.device("cuda:0"), verbose=True):
    if model_name == "clip_vit_b_32":
        clip_fx = CLIP_fx("ViT-B/32", device=device)''')
CLEAN = False
