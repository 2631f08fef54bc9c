"""docTR `crop_orientation_predictor(pretrained=True).cuda()`: the predictor moves the model's output, not its input batch.

Source: https://github.com/mindee/doctr/issues/1174
"When I use predict the crop orientation model in GPU environment, I'm getting ... Input type
(torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same" with
`orientation_model = crop_orientation_predictor(pretrained=True).cuda()` and
`orientation_model([image, image_2])` on numpy crops. The earlier fix for the rotation classifier
(mindee/doctr#1039) wrote `self.model(batch).to(device=_device)`: it moves the prediction, while the
batch built by the PreProcessor stays on the CPU; the follow-up fix moves `batch` instead. Stand-in:
PreProcessor / CropOrientationPredictor reduced, a tiny orientation classifier, predictions kept as
tensors (no numpy conversion).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

class PreProcessor(nn.Module):
    def __init__(self, output_size, batch_size, mean=(0.694, 0.695, 0.693), std=(0.299, 0.296, 0.301)):
        super().__init__()
        self.output_size = output_size
        self.batch_size = batch_size
        self.mean = torch.tensor(mean).view(3, 1, 1)
        self.std = torch.tensor(std).view(3, 1, 1)

    def sample_transforms(self, x):
        x = torch.from_numpy(x.copy()).permute(2, 0, 1).to(dtype=torch.float32) / 255
        x = F.interpolate(x[None], size=self.output_size, mode="bilinear", align_corners=False)[0]
        return (x - self.mean) / self.std

    def __call__(self, x):
        samples = [self.sample_transforms(sample) for sample in x]
        num_batches = int(math.ceil(len(samples) / self.batch_size))
        return [torch.stack(samples[i * self.batch_size: (i + 1) * self.batch_size], dim=0)
                for i in range(num_batches)]

class OrientationClassifier(nn.Module):
    """mobilenet_v3_small_orientation (reduced): 4 classes, 0/90/180/270 degrees."""
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1, bias=False),
                                      nn.BatchNorm2d(16), nn.Hardswish(), nn.AdaptiveAvgPool2d(1))
        self.classifier = nn.Linear(16, 4)

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))

class CropOrientationPredictor(nn.Module):
    def __init__(self, pre_processor, model):
        super().__init__()
        self.pre_processor = pre_processor
        self.model = model.eval()

    @torch.no_grad()
    def forward(self, crops):
        if any(crop.ndim != 3 for crop in crops):
            raise ValueError("incorrect input shape: all crops are expected to be multi-channel 2D images.")
        processed_batches = self.pre_processor(crops)
        _device = next(self.model.parameters()).device
        predicted_batches = [self.model(batch).to(device=_device).argmax(dim=1).cpu() for batch in processed_batches]
        return [pred for batch in predicted_batches for pred in batch]

def crop_orientation_predictor(arch="mobilenet_v3_small_orientation", pretrained=False):
    return CropOrientationPredictor(PreProcessor((128, 128), batch_size=64), OrientationClassifier())

orientation_model = crop_orientation_predictor(pretrained=True).to("cuda:0")   # .cuda()
image = np.random.randint(0, 255, (40, 160, 3), dtype=np.uint8)      # cv2.imread("some_img.png")
image_2 = np.random.randint(0, 255, (32, 96, 3), dtype=np.uint8)     # cv2.imread("test.png")
cropped_images = [image, image_2]
'''
CELL = '''
angle = orientation_model(cropped_images)
'''
EXPECT_ERROR = ("Input type", "Expected all tensors to be on the same device")
CULPRITS = ["orientation_model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("self.model(batch).to(device=_device).argmax(dim=1)",
                  "self.model(batch.to(device=_device)).argmax(dim=1)")
CLEAN = False
