"""mmdetection: a detector built from a checkpoint with init_detector, converted with model.half(), fed by inference_detector's float32 image.

Source: https://github.com/open-mmlab/mmdetection/issues/5182
"How to inference with model.half": `model = init_detector(config_file, checkpoint_file,
device='cuda'); model.half(); result = inference_detector(model, img)` failed in the first conv with
"Input type (torch.cuda.FloatTensor) and weight type (torch.cuda.HalfTensor) should be the same".
inference_detector builds the image tensor from the test pipeline as float32 and knows nothing of
the halved weights (mmdet's way is wrap_fp16_model / the fp16 config, which casts inputs). Stand-in:
a conv backbone + head detector and an inference_detector that runs the pipeline; run on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class CascadeMaskRCNN(nn.Module):
    def __init__(self, num_classes=3):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.BatchNorm2d(16), nn.ReLU(),
                                      nn.Conv2d(16, 32, 3, 2, 1), nn.BatchNorm2d(32), nn.ReLU())
        self.bbox_head = nn.Conv2d(32, num_classes + 4, 1)

    def forward(self, img, return_loss=False):
        return self.bbox_head(self.backbone(img))

def init_detector(config, checkpoint=None, device="cuda:0"):
    model = CascadeMaskRCNN()
    if checkpoint is not None:
        model.load_state_dict(CascadeMaskRCNN().state_dict())    # load_checkpoint(model, checkpoint, map_location='cpu')
    model.to(device)
    model.eval()
    return model

def inference_detector(model, img):
    device = next(model.parameters()).device
    if isinstance(img, str):
        img = np.random.randint(0, 255, (64, 64, 3), dtype=np.uint8)   # LoadImageFromFile
    data = torch.from_numpy(img.astype(np.float32)).permute(2, 0, 1)[None]  # Normalize / ImageToTensor / collate
    data = (data - 123.675) / 58.395
    with torch.no_grad():
        return model(data.to(device), return_loss=False)

config_file = "cascade_mask_rcnn_hrnetv2p_w32_20e.py"
checkpoint_file = "ICDAR.19.Track.B2.Modern.table.structure.recognition.v2.pth"
model = init_detector(config_file, checkpoint_file, device="cpu")
model.half()
img = "demo.png"
'''
CELL = '''
result = inference_detector(model, img)
'''
EXPECT_ERROR = ("should be the same", "expected scalar type", "must have the same dtype")
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
model.float()
'''
REFERENCE_EDIT = None
CLEAN = False
