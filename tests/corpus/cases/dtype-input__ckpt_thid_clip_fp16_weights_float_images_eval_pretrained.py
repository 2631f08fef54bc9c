"""THID (prompting HOI): evaluating the released checkpoint; the CLIP backbone is loaded in fp16 while the images reach encode_image as float32.

Source: https://github.com/scwangdyd/promting_hoi/issues/1
Running `python main.py --eval ... --pretrained downloaded_checkpoint/thid_hico_token50_epoch100.pth`
raised "RuntimeError: expected scalar type Float but found Half". A later comment: wrap line 89 of
engine.py, `vision_outputs = model.encode_image(images.tensors, images.mask)`, in
`torch.cuda.amp.autocast()` - "This solves the issue". The CLIP weights are converted to fp16 when CLIP
is built for the GPU (clip's `convert_weights`), the detector's own layers and the inputs are fp32.
Stand-in: a small CLIP-style visual encoder with fp16 weights inside an fp32 HOI model; run on the CPU
with the fp32 fix instead of CUDA autocast.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
import torch.nn as nn

class VisionTransformer(nn.Module):
    def __init__(self, width=32, patch=8, output_dim=16):
        super().__init__()
        self.conv1 = nn.Conv2d(3, width, patch, patch, bias=False)
        self.ln_post = nn.LayerNorm(width)
        self.proj = nn.Parameter(torch.randn(width, output_dim) * width ** -0.5)

    def forward(self, x, mask=None):
        x = self.conv1(x).flatten(2).transpose(1, 2)
        return self.ln_post(x) @ self.proj

def convert_weights(model):
    def _convert(l):
        if isinstance(l, (nn.Conv1d, nn.Conv2d, nn.Linear)):
            l.weight.data = l.weight.data.half()
            if l.bias is not None:
                l.bias.data = l.bias.data.half()
        if isinstance(l, VisionTransformer):
            l.proj.data = l.proj.data.half()
    model.apply(_convert)

class HOIModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.visual = VisionTransformer()
        convert_weights(self.visual)               # clip.load(..., device="cuda") builds fp16 weights
        self.hoi_head = nn.Linear(16, 600)

    def encode_image(self, image, mask=None):
        return self.visual(image, mask)

    def forward(self, image_features):
        return self.hoi_head(image_features)

class NestedTensor:
    def __init__(self, tensors, mask):
        self.tensors, self.mask = tensors, mask

model = HOIModel()
checkpoint = {"model": model.state_dict()}         # torch.load(args.pretrained, map_location="cpu")
model.load_state_dict(checkpoint["model"])
model.eval()
images = NestedTensor(torch.randn(2, 3, 64, 64), torch.zeros(2, 64, 64, dtype=torch.bool))
'''
CELL = '''
with torch.no_grad():
    vision_outputs = model.encode_image(images.tensors, images.mask)
    hoi_logits = model(vision_outputs.float())
'''
EXPECT_ERROR = ("should be the same", "expected scalar type", "same dtype")
CULPRITS = ["model.visual"]
FIX = "namespace"
REFERENCE_FIX = '''
model.visual.float()
'''
REFERENCE_EDIT = None
CLEAN = False
