"""Look-alike: OpenAI CLIP loaded for the GPU keeps conv/linear/attention weights in fp16 but its LayerNorms and embeddings in fp32, and casts as it goes.

Source: https://github.com/openai/CLIP/issues/30
The user noticed that `image_features.dtype` is float16 when CLIP is loaded on a GPU and float32
on the CPU. `clip.load` on CUDA runs `convert_weights`, which halves only Conv/Linear/
MultiheadAttention weights and the `proj`/`text_projection` matrices; `class_embedding`,
`positional_embedding` and the LayerNorms stay float32. CLIP's `LayerNorm` subclass computes in
float32 and casts back, `encode_image` casts the float32 image to `self.dtype`, and the embeddings
are cast with `.to(x.dtype)`. Mixed dtypes on purpose, and it runs. Stand-in: a 2-block visual
transformer with CLIP's code; CPU (the fp16 path taken without the device move).
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
from collections import OrderedDict
import torch
from torch import nn

class LayerNorm(nn.LayerNorm):
    """Subclass torch's LayerNorm to handle fp16."""
    def forward(self, x):
        orig_type = x.dtype
        ret = super().forward(x.type(torch.float32))
        return ret.type(orig_type)

class QuickGELU(nn.Module):
    def forward(self, x):
        return x * torch.sigmoid(1.702 * x)

class ResidualAttentionBlock(nn.Module):
    def __init__(self, d_model, n_head):
        super().__init__()
        self.attn = nn.MultiheadAttention(d_model, n_head)
        self.ln_1 = LayerNorm(d_model)
        self.mlp = nn.Sequential(OrderedDict([("c_fc", nn.Linear(d_model, d_model * 4)), ("gelu", QuickGELU()),
                                              ("c_proj", nn.Linear(d_model * 4, d_model))]))
        self.ln_2 = LayerNorm(d_model)

    def forward(self, x):
        h = self.ln_1(x)
        x = x + self.attn(h, h, h, need_weights=False)[0]
        return x + self.mlp(self.ln_2(x))

class VisionTransformer(nn.Module):
    def __init__(self, input_resolution=32, patch_size=8, width=32, layers=2, heads=4, output_dim=16):
        super().__init__()
        self.conv1 = nn.Conv2d(3, width, kernel_size=patch_size, stride=patch_size, bias=False)
        scale = width ** -0.5
        self.class_embedding = nn.Parameter(scale * torch.randn(width))
        self.positional_embedding = nn.Parameter(scale * torch.randn((input_resolution // patch_size) ** 2 + 1, width))
        self.ln_pre = LayerNorm(width)
        self.transformer = nn.Sequential(*[ResidualAttentionBlock(width, heads) for _ in range(layers)])
        self.ln_post = LayerNorm(width)
        self.proj = nn.Parameter(scale * torch.randn(width, output_dim))

    def forward(self, x):
        x = self.conv1(x)
        x = x.reshape(x.shape[0], x.shape[1], -1).permute(0, 2, 1)
        x = torch.cat([self.class_embedding.to(x.dtype) + torch.zeros(x.shape[0], 1, x.shape[-1], dtype=x.dtype, device=x.device), x], dim=1)
        x = x + self.positional_embedding.to(x.dtype)
        x = self.ln_pre(x).permute(1, 0, 2)
        x = self.transformer(x).permute(1, 0, 2)
        return self.ln_post(x[:, 0, :]) @ self.proj

class CLIP(nn.Module):
    def __init__(self):
        super().__init__()
        self.visual = VisionTransformer()

    @property
    def dtype(self):
        return self.visual.conv1.weight.dtype

    def encode_image(self, image):
        return self.visual(image.type(self.dtype))

def convert_weights(model):
    def _convert_weights_to_fp16(l):
        if isinstance(l, (nn.Conv1d, nn.Conv2d, nn.Linear)):
            l.weight.data = l.weight.data.half()
            if l.bias is not None:
                l.bias.data = l.bias.data.half()
        if isinstance(l, nn.MultiheadAttention):
            for attr in [*[f"{s}_proj_weight" for s in ["in", "q", "k", "v"]], "in_proj_bias", "bias_k", "bias_v"]:
                tensor = getattr(l, attr)
                if tensor is not None:
                    tensor.data = tensor.data.half()
        for name in ["text_projection", "proj"]:
            if hasattr(l, name):
                attr = getattr(l, name)
                if attr is not None:
                    attr.data = attr.data.half()
    model.apply(_convert_weights_to_fp16)

model = CLIP().eval()
convert_weights(model)                       # what clip.load does for a CUDA device
image = torch.rand(2, 3, 32, 32)             # preprocess(...) output: float32
'''
CELL = '''
with torch.no_grad():
    image_features = model.encode_image(image)
print(image_features.dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
