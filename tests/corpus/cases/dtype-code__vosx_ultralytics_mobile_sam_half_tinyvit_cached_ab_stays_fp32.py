"""Ultralytics MobileSAM with `half=True`: TinyViT's cached attention bias `ab` is made in `eval()` before `model.half()` and stays float32.

Source: https://github.com/ultralytics/ultralytics/pull/23780
"Fix FP16 inference crash from TinyViT cached bias dtype mismatch": `SAM("mobile_sam.pt").predict(...,
points=[[400, 370], [900, 370]], labels=[1, 1], half=True)` failed with "RuntimeError: expected scalar
type Float but found Half". Root cause given in the PR: the SAM predictor's model setup calls
`model.eval()` before the dtype conversion; `eval()` runs TinyViT `Attention.train(False)`, which caches
`self.ab = self.attention_biases[:, self.attention_bias_idxs]` as a plain tensor attribute (not a
parameter or buffer), so the later `model.half()` leaves it float32 and forward only moves it to the
right device. The merged fix applies the precision conversion before `eval()`.
Stand-ins: ultralytics `SAM` / `Predictor.setup_model` / TinyViT `Attention` (cached `ab` logic as in
ultralytics), the rest of the image encoder and the prompt/mask heads reduced to linear layers;
run on the CPU (dtype bug).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import itertools
import torch
import torch.nn as nn

class Attention(nn.Module):                          # ultralytics.models.sam.modules.tiny_encoder.Attention
    def __init__(self, dim, key_dim, num_heads=2, attn_ratio=1, resolution=(2, 2)):
        super().__init__()
        self.num_heads, self.scale, self.key_dim = num_heads, key_dim ** -0.5, key_dim
        self.d = int(attn_ratio * key_dim)
        self.dh = self.d * num_heads
        self.qkv = nn.Linear(dim, num_heads * (2 * key_dim + self.d))
        self.proj = nn.Linear(self.dh, dim)
        points = list(itertools.product(range(resolution[0]), range(resolution[1])))
        N = len(points)
        attention_offsets, idxs = {}, []
        for p1 in points:
            for p2 in points:
                offset = (abs(p1[0] - p2[0]), abs(p1[1] - p2[1]))
                if offset not in attention_offsets:
                    attention_offsets[offset] = len(attention_offsets)
                idxs.append(attention_offsets[offset])
        self.attention_biases = nn.Parameter(torch.randn(num_heads, len(attention_offsets)))
        self.register_buffer("attention_bias_idxs", torch.LongTensor(idxs).view(N, N), persistent=False)

    @torch.no_grad()
    def train(self, mode=True):
        super().train(mode)
        if mode and hasattr(self, "ab"):
            del self.ab
        else:
            self.ab = self.attention_biases[:, self.attention_bias_idxs]

    def forward(self, x):
        B, N, _ = x.shape
        qkv = self.qkv(x)
        q, k, v = qkv.view(B, N, self.num_heads, -1).split([self.key_dim, self.key_dim, self.d], dim=3)
        q, k, v = q.permute(0, 2, 1, 3), k.permute(0, 2, 1, 3), v.permute(0, 2, 1, 3)
        self.ab = self.ab.to(self.attention_biases.device)
        attn = (q @ k.transpose(-2, -1)) * self.scale + (
            self.attention_biases[:, self.attention_bias_idxs] if self.training else self.ab
        )
        attn = attn.softmax(dim=-1)
        x = (attn @ v).transpose(1, 2).reshape(B, N, self.dh)
        return self.proj(x)

class TinyViT(nn.Module):
    def __init__(self, dim=8):
        super().__init__()
        self.patch_embed = nn.Linear(3, dim)
        self.attn = Attention(dim, key_dim=4)

    def forward(self, x):
        return self.attn(self.patch_embed(x))

class SAMModel(nn.Module):
    def __init__(self, dim=8):
        super().__init__()
        self.image_encoder = TinyViT(dim)
        self.prompt_encoder = nn.Linear(2, dim)
        self.mask_decoder = nn.Linear(dim, 1)

class Predictor:                                      # ultralytics.models.sam.predict.Predictor
    def __init__(self, overrides):
        self.args = overrides
        self.model = None

    def setup_model(self, model=None, verbose=True):
        device = torch.device(self.args.get("device", "cpu"))
        model.eval()
        model = model.to(device)
        self.model = model.half() if self.args["half"] else model.float()
        self.device = device
        self.torch_dtype = torch.float16 if self.args["half"] else torch.float32

    def __call__(self, im, points=None, labels=None):
        im = im.to(self.device).to(self.torch_dtype)
        points = torch.as_tensor(points, dtype=self.torch_dtype, device=self.device)
        features = self.model.image_encoder(im)
        sparse = self.model.prompt_encoder(points / 1024).mean(0)
        return self.model.mask_decoder(features + sparse)

class SAM:                                            # ultralytics.SAM
    def __init__(self, model="mobile_sam.pt"):
        self.model = SAMModel()
        self.predictor = None

    def predict(self, source, points=None, labels=None, half=False, **kwargs):
        overrides = dict(conf=0.25, task="segment", mode="predict", imgsz=1024, half=half)
        if self.predictor is None:
            self.predictor = Predictor(overrides=overrides)
            self.predictor.setup_model(model=self.model)
        return self.predictor(source, points=points, labels=labels)

model = SAM("mobile_sam.pt")
image = torch.rand(1, 4, 3)                  # "input/1.bmp" as 2x2 patches of RGB
'''
CELL = '''
results = model.predict(image, points=[[400, 370], [900, 370]], labels=[1, 1], half=True)
'''
EXPECT_ERROR = ("expected scalar type Float but found Half", "expected m1 and m2 to have the same dtype")
CULPRITS = ["model.predictor"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('        model.eval()\n        model = model.to(device)\n        self.model = model.half() if self.args["half"] else model.float()\n',
                  '        model = model.to(device)\n        model = model.half() if self.args["half"] else model.float()\n        model.eval()\n        self.model = model\n')
CLEAN = False
