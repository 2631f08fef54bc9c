"""open_clip model created with precision="fp16" fed the float32 image that `preprocess` returns.

Source: https://github.com/mlfoundations/open_clip/issues/79
The user built `model, _, preprocess = open_clip.create_model_and_transforms(..., precision="fp16",
device=device)`, moved `image = preprocess(...).unsqueeze(0).to(device)` and called
`model.encode_image(image)`: "Input type (torch.cuda.FloatTensor) and weight type
(torch.cuda.HalfTensor) should be the same". `precision="fp16"` converts the weights to half, but
the preprocessing still yields float32; the user's fix (PR #80) casts the image: `.to(device).half()`.
Stand-in: a tiny CLIP (conv patch stem + linear projection, token embedding + linear text
projection) converted to half on the CPU (dtype bug only); `preprocess` returns a float tensor.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class VisionTransformer(nn.Module):
    def __init__(self, width=32, patch=8, output_dim=16):
        super().__init__()
        self.conv1 = nn.Conv2d(3, width, kernel_size=patch, stride=patch, bias=False)
        self.ln_post = nn.LayerNorm(width)
        self.proj = nn.Parameter(torch.randn(width, output_dim) * 0.02)

    def forward(self, x):
        x = self.conv1(x).flatten(2).mean(-1)
        return self.ln_post(x) @ self.proj

class CLIP(nn.Module):
    def __init__(self, vocab=100, width=32, output_dim=16):
        super().__init__()
        self.visual = VisionTransformer(output_dim=output_dim)
        self.token_embedding = nn.Embedding(vocab, width)
        self.text_projection = nn.Parameter(torch.randn(width, output_dim) * 0.02)

    def encode_image(self, image):
        return self.visual(image)

    def encode_text(self, text):
        return self.token_embedding(text).mean(1) @ self.text_projection

def create_model_and_transforms(name, pretrained=None, precision="fp32", device="cpu"):
    model = CLIP().to(device)
    if precision == "fp16":
        model.half()          # convert_weights_to_fp16
    preprocess = lambda img: torch.rand(3, 32, 32)      # ToTensor + Normalize: float32
    return model, None, preprocess

device = torch.device("cpu")
model, _, preprocess = create_model_and_transforms('ViT-B-32-quickgelu', pretrained='laion400m_e32',
                                                   precision="fp16", device=device)
image = preprocess(None).unsqueeze(0).to(device)
text = torch.randint(0, 100, (3, 7)).to(device)
'''
CELL = '''
with torch.no_grad():
    image_features = model.encode_image(image)
    text_features = model.encode_text(text)
    image_features /= image_features.norm(dim=-1, keepdim=True)
    text_features /= text_features.norm(dim=-1, keepdim=True)
    text_probs = (100.0 * image_features @ text_features.T).softmax(dim=-1)
'''
EXPECT_ERROR = ("should be the same", "same dtype", "expected scalar type")
CULPRITS = ["image"]
FIX = "namespace"
REFERENCE_FIX = '''
image = image.half()
'''
REFERENCE_EDIT = None
CLEAN = False
