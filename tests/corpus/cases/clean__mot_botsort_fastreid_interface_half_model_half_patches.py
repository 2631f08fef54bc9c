"""BoT-SORT's `FastReIDInterface` on the GPU: the fast-reid model is converted with `.half()` and every detection patch is cast with `.half()` before the forward, so the fp16 ReID pass is consistent.

Source: https://github.com/NirAharon/BoT-SORT (fast_reid/fast_reid_interfece.py, `FastReIDInterface.__init__`:
`self.model = self.model.eval().to(device='cuda').half()`; `inference`: `patch = patch.to(device=self.device).half()`)
Looks like a dtype trap (float32 patches built from the uint8 frame, fp32 `pixel_mean`/`pixel_std`
registered in the model, a half model), but `.half()` on the model also converts its buffers and each
patch is cast to half on the model's device, so `preprocess_image` and the backbone see one dtype.
Stand-in: fast-reid's Baseline with a linear backbone; "cuda" carries an explicit index; `cv2.resize`
is nearest-neighbour slicing; the `pred[torch.isinf(pred)] = 1.0` fix-up is written with `torch.where`,
and `postprocess` stops at `.cpu()` (the real one continues with `.numpy()`).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

class Baseline(nn.Module):
    def __init__(self, size_test=(32, 16), feat_dim=32):
        super().__init__()
        h, w = size_test
        self.backbone = nn.Sequential(nn.Flatten(), nn.Linear(3 * h * w, 64), nn.ReLU())
        self.heads = nn.Linear(64, feat_dim)
        self.register_buffer("pixel_mean", torch.tensor([123.675, 116.28, 103.53]).view(1, -1, 1, 1), False)
        self.register_buffer("pixel_std", torch.tensor([58.395, 57.12, 57.375]).view(1, -1, 1, 1), False)

    def preprocess_image(self, batched_inputs):
        images = batched_inputs["images"] if isinstance(batched_inputs, dict) else batched_inputs
        images.sub_(self.pixel_mean).div_(self.pixel_std)
        return images

    def forward(self, batched_inputs):
        images = self.preprocess_image(batched_inputs)
        return self.heads(self.backbone(images))

def postprocess(features):
    features = F.normalize(features)
    features = features.cpu().data
    return features

class FastReIDInterface:
    def __init__(self, config_file, weights_path, device, batch_size=8):
        if str(device) != "cpu":
            self.device = "cuda:0"
        else:
            self.device = "cpu"
        self.batch_size = batch_size
        self.size_test = (32, 16)
        self.model = Baseline(self.size_test)
        self.model.eval()
        if self.device != "cpu":
            self.model = self.model.eval().to(device=self.device).half()
        else:
            self.model = self.model.eval()

    def inference(self, image, detections):
        H, W, _ = np.shape(image)
        batch_patches = []
        patches = []
        for d in range(np.size(detections, 0)):
            tlbr = detections[d, :4].astype(np.int_)
            tlbr[0] = max(0, tlbr[0])
            tlbr[1] = max(0, tlbr[1])
            tlbr[2] = min(W - 1, tlbr[2])
            tlbr[3] = min(H - 1, tlbr[3])
            patch = image[tlbr[1]:tlbr[3], tlbr[0]:tlbr[2], :]
            patch = patch[:, :, ::-1]
            rows = np.arange(self.size_test[0]) * patch.shape[0] // self.size_test[0]
            cols = np.arange(self.size_test[1]) * patch.shape[1] // self.size_test[1]
            patch = patch[rows][:, cols]
            patch = torch.as_tensor(patch.astype("float32").transpose(2, 0, 1))
            patch = patch.to(device=self.device).half()
            patches.append(patch)
            if (d + 1) % self.batch_size == 0:
                patches = torch.stack(patches, dim=0)
                batch_patches.append(patches)
                patches = []
        if len(patches):
            patches = torch.stack(patches, dim=0)
            batch_patches.append(patches)
        features = []
        for patches in batch_patches:
            pred = self.model(patches)
            pred = torch.where(torch.isinf(pred), torch.ones_like(pred), pred)
            features.append(postprocess(pred))
        return torch.cat(features, dim=0)

encoder = FastReIDInterface("fast_reid/configs/MOT17/sbs_S50.yml", "pretrained/mot17_sbs_S50.pth", device="cuda")
frame = np.random.randint(0, 256, (240, 320, 3), dtype=np.uint8)
dets = np.array([[10, 20, 60, 140, 0.9], [100, 30, 150, 170, 0.8], [200, 40, 260, 200, 0.7]], dtype=np.float64)
'''
CELL = '''
with torch.no_grad():
    features_keep = encoder.inference(frame, dets[:, :4])
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
