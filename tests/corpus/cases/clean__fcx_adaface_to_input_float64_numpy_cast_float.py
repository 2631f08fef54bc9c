"""Look-alike: AdaFace `to_input` normalises the aligned face in float64 numpy, then `.float()` before the IR-50 backbone.

Source: https://github.com/mk-minchul/AdaFace (inference.py)
`to_input(pil_rgb_image)` does `np_img = np.array(pil_rgb_image)`, `brg_img = ((np_img[:,:,::-1] / 255.) - 0.5) / 0.5`
(a float64 array, channels flipped to BGR) and `torch.tensor([brg_img.transpose(2,0,1)]).float()`, so the
batch reaching `model(input)` is float32 like the weights; the features of all test images are then
concatenated and compared with `torch.cat(features) @ torch.cat(features).T`. The float64 intermediate
never reaches the model. Stand-ins: `net.build_model('ir_50')` reduced to a conv stem and an
embedding head returning `(normalized_feature, norm)`, `align.get_aligned_face` output as 112x112 RGB uint8
arrays.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn

class Backbone(nn.Module):            # net.build_model('ir_50')
    def __init__(self, embedding_size=512):
        super().__init__()
        self.input_layer = nn.Sequential(nn.Conv2d(3, 64, 3, 2, 1, bias=False), nn.BatchNorm2d(64), nn.PReLU(64))
        self.output_layer = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, embedding_size),
                                          nn.BatchNorm1d(embedding_size, affine=False))
    def forward(self, x):
        x = self.output_layer(self.input_layer(x))
        norm = torch.norm(x, 2, 1, True)
        output = torch.div(x, norm)
        return output, norm

def load_pretrained_model(architecture='ir_50'):
    model = Backbone()
    model.eval()
    return model

def to_input(pil_rgb_image):
    np_img = np.array(pil_rgb_image)
    brg_img = ((np_img[:,:,::-1] / 255.) - 0.5) / 0.5
    tensor = torch.tensor([brg_img.transpose(2,0,1)]).float()
    return tensor

model = load_pretrained_model('ir_50')
rng = np.random.default_rng(0)
aligned_faces = [rng.integers(0, 256, (112, 112, 3), dtype=np.uint8) for _ in range(3)]   # align.get_aligned_face(path)
'''
CELL = '''
features = []
with torch.no_grad():
    for aligned_rgb_img in aligned_faces:
        input = to_input(aligned_rgb_img)
        feature, _ = model(input)
        features.append(feature)
similarity_scores = torch.cat(features) @ torch.cat(features).T
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
