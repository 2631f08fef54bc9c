"""fast-reid `demo/demo.py` after the prefetching-dataloader refactor: `DefaultPredictor` hands the CPU image tensor to a model on cuda:0, and `preprocess_image` subtracts the GPU `pixel_mean` from it.

Source: https://github.com/JDAI-CV/fast-reid/issues/469
`python demo/demo.py --config-file configs/DukeMTMC/sbs_R50-ibn.yml --input videocrop/*.jpg ...` failed in
`Baseline.preprocess_image` at `images.sub_(self.pixel_mean).div_(self.pixel_std)` with "Expected all
tensors to be on the same device, but found at least two devices, cuda:0 and cpu!". Since the
dataloader refactor (#456, images moved to the GPU by the loader's CUDA stream) the model no longer
moves its inputs, and the demo path builds the image on the CPU in `FeatureExtractionDemo.run_on_image`.
The maintainer fixed it the same day (commit 0c8e3d9) in `DefaultPredictor.__call__`:
`inputs = {"images": image.to(self.model.device)}`.
Stand-in: fastreid's Baseline / DefaultPredictor / FeatureExtractionDemo with a linear backbone and
head; nearest-neighbour slicing in place of `cv2.resize`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

class Baseline(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        h, w = cfg["INPUT"]["SIZE_TEST"]
        self.backbone = nn.Sequential(nn.Flatten(), nn.Linear(3 * h * w, 64), nn.ReLU())
        self.heads = nn.Linear(64, 32)
        self.register_buffer("pixel_mean", torch.tensor(cfg["MODEL"]["PIXEL_MEAN"]).view(1, -1, 1, 1), False)
        self.register_buffer("pixel_std", torch.tensor(cfg["MODEL"]["PIXEL_STD"]).view(1, -1, 1, 1), False)

    @property
    def device(self):
        return self.pixel_mean.device

    def preprocess_image(self, batched_inputs):
        if isinstance(batched_inputs, dict):
            images = batched_inputs["images"]
        elif isinstance(batched_inputs, torch.Tensor):
            images = batched_inputs
        else:
            raise TypeError("batched_inputs must be dict or torch.Tensor, but get {}".format(type(batched_inputs)))
        images.sub_(self.pixel_mean).div_(self.pixel_std)
        return images

    def forward(self, batched_inputs):
        images = self.preprocess_image(batched_inputs)
        features = self.backbone(images)
        return self.heads(features)

def build_model(cfg):
    model = Baseline(cfg)
    model.to(torch.device(cfg["MODEL"]["DEVICE"]))
    return model

class DefaultPredictor:
    def __init__(self, cfg):
        self.cfg = cfg
        self.model = build_model(self.cfg)
        self.model.eval()

    def __call__(self, image):
        inputs = {"images": image}
        with torch.no_grad():
            predictions = self.model(inputs)
        return predictions

class FeatureExtractionDemo(object):
    def __init__(self, cfg, parallel=False):
        self.cfg = cfg
        self.parallel = parallel
        self.predictor = DefaultPredictor(cfg)

    def run_on_image(self, original_image):
        # the model expects RGB inputs
        original_image = original_image[:, :, ::-1]
        h, w = self.cfg["INPUT"]["SIZE_TEST"]
        rows = np.arange(h) * original_image.shape[0] // h
        cols = np.arange(w) * original_image.shape[1] // w
        image = original_image[rows][:, cols]
        image = torch.as_tensor(image.astype("float32").transpose(2, 0, 1))[None]
        predictions = self.predictor(image)
        return predictions

cfg = {  # configs/DukeMTMC/sbs_R50-ibn.yml + --opts MODEL.WEIGHTS model/model_best.pth
    "INPUT": {"SIZE_TEST": [32, 16]},
    "MODEL": {"DEVICE": "cuda:0", "PIXEL_MEAN": [123.675, 116.28, 103.53], "PIXEL_STD": [58.395, 57.12, 57.375]},
}
demo = FeatureExtractionDemo(cfg, parallel=False)
# cv2.imread of the crops in videocrop/*.jpg: HxWx3 uint8 BGR
crops = [np.random.randint(0, 256, (128, 64, 3), dtype=np.uint8) for _ in range(2)]
'''
CELL = '''
feats = []
for img in crops:
    feat = demo.run_on_image(img)
    feats.append(feat)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["demo.predictor"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('inputs = {"images": image}', 'inputs = {"images": image.to(self.model.device)}')
CLEAN = False
