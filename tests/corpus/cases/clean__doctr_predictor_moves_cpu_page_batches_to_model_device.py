"""Look-alike: docTR's predictor pre-processes pages on the CPU and moves each batch to the model's device.

Source: https://github.com/mindee/doctr/issues/877
After the report above, docTR 0.5.1's `DetectionPredictor.forward` reads
`_device = next(self.model.parameters()).device` and feeds `batch.to(device=_device)`: the
PreProcessor's normalisation constants and the stacked page batches stay on the CPU on purpose,
the detection model is on the GPU. Nothing to report. Stand-in: reduced PreProcessor /
DetectionPredictor / OCRPredictor with a tiny detection network.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

class PreProcessor(nn.Module):
    def __init__(self, output_size, batch_size, mean=(0.798, 0.785, 0.772), std=(0.264, 0.2749, 0.287)):
        super().__init__()
        self.output_size = output_size
        self.batch_size = batch_size
        self.mean = torch.tensor(mean).view(3, 1, 1)
        self.std = torch.tensor(std).view(3, 1, 1)

    def sample_transforms(self, x):
        x = torch.from_numpy(x.copy()).permute(2, 0, 1).to(dtype=torch.float32) / 255
        x = F.interpolate(x[None], size=self.output_size, mode="bilinear", align_corners=False)[0]
        return (x - self.mean) / self.std

    def batch_inputs(self, samples):
        num_batches = int(math.ceil(len(samples) / self.batch_size))
        return [torch.stack(samples[idx * self.batch_size: min((idx + 1) * self.batch_size, len(samples))], dim=0)
                for idx in range(num_batches)]

    def __call__(self, x):
        return self.batch_inputs([self.sample_transforms(sample) for sample in x])

class TinyDBNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.feat_extractor = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1, bias=False), nn.BatchNorm2d(8), nn.ReLU())
        self.prob_head = nn.Conv2d(8, 1, 1)

    def forward(self, x, return_preds=False):
        return {"preds": torch.sigmoid(self.prob_head(self.feat_extractor(x)))}

class DetectionPredictor(nn.Module):
    def __init__(self, pre_processor, model):
        super().__init__()
        self.pre_processor = pre_processor
        self.model = model.eval()

    @torch.no_grad()
    def forward(self, pages, **kwargs):
        processed_batches = self.pre_processor(pages)
        _device = next(self.model.parameters()).device
        predicted_batches = [self.model(batch.to(device=_device), return_preds=True, **kwargs)["preds"]
                             for batch in processed_batches]
        return [b for batch in predicted_batches for b in batch]

class OCRPredictor(nn.Module):
    def __init__(self, det_predictor):
        super().__init__()
        self.det_predictor = det_predictor

    @torch.no_grad()
    def forward(self, pages, **kwargs):
        return self.det_predictor(pages, **kwargs)

def ocr_predictor(det_arch="db_resnet50", reco_arch="crnn_vgg16_bn", pretrained=True):
    return OCRPredictor(DetectionPredictor(PreProcessor((64, 64), batch_size=2), TinyDBNet()))

predictor = ocr_predictor("db_resnet50", "crnn_vgg16_bn", pretrained=True).to("cuda:0")   # .cuda()
doc = [np.random.randint(0, 255, (96, 80, 3), dtype=np.uint8) for _ in range(3)]
'''
CELL = '''
result = predictor(doc)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
