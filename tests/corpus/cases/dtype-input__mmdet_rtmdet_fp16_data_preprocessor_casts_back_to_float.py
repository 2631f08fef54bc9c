"""RTMDet fp16 inference: the model is wrapped to half and the images are cast to half, but the data preprocessor turns them back into float32.

Source: https://github.com/open-mmlab/mmdetection/issues/11166
"rtmdet model inference with fp16 (RuntimeError: Input type (torch.cuda.FloatTensor) and weight type
(torch.cuda.HalfTensor) should be the same)": the user converted the detector with `wrap_fp16_model`
and added `data_ = cast_tensor_type(data_, torch.uint8, torch.half)` to `inference_detector`, then
called `model.test_step(data_)`. The detector's `DetDataPreprocessor` (a submodule, run first by
`test_step`) does `_batch_input.float()` before normalizing, so the half images reach the half
backbone as float32. Stand-ins: mmcv's `cast_tensor_type` and `wrap_fp16_model` (without the fp32
norm patch), mmengine's preprocessor normalization, and a small RTMDet-shaped detector; on a CPU the
error names the bias: "Input type (float) and bias type (c10::Half)".
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

def cast_tensor_type(inputs, src_type, dst_type):
    """mmcv.runner.fp16_utils.cast_tensor_type."""
    if isinstance(inputs, torch.Tensor):
        return inputs.to(dst_type) if inputs.dtype == src_type else inputs
    elif isinstance(inputs, dict):
        return type(inputs)({k: cast_tensor_type(v, src_type, dst_type) for k, v in inputs.items()})
    elif isinstance(inputs, (list, tuple)):
        return type(inputs)(cast_tensor_type(item, src_type, dst_type) for item in inputs)
    return inputs

def wrap_fp16_model(model):
    """mmcv's wrap_fp16_model (the fp32 norm patch left out: the stand-in has no norm layers)."""
    model.half()
    return model

class DetDataPreprocessor(nn.Module):
    def __init__(self, mean=(103.53, 116.28, 123.675), std=(57.375, 57.12, 58.395)):
        super().__init__()
        self.register_buffer("mean", torch.tensor(mean).view(-1, 1, 1), False)
        self.register_buffer("std", torch.tensor(std).view(-1, 1, 1), False)

    def forward(self, data, training=False):
        batch_inputs = []
        for _batch_input in data["inputs"]:
            # Normalization.
            _batch_input = _batch_input.float()
            _batch_input = (_batch_input - self.mean) / self.std
            batch_inputs.append(_batch_input)
        return {"inputs": torch.stack(batch_inputs), "data_samples": data["data_samples"]}

class RTMDet(nn.Module):
    def __init__(self, num_classes=80):
        super().__init__()
        self.data_preprocessor = DetDataPreprocessor()
        self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.SiLU(),
                                      nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.SiLU())
        self.bbox_head = nn.Conv2d(32, num_classes + 4, 1)

    def predict(self, inputs, data_samples):
        return self.bbox_head(self.backbone(inputs))

    def test_step(self, data):
        data = self.data_preprocessor(data, False)
        return self.predict(**data)

model = wrap_fp16_model(RTMDet()).eval()
img = torch.randint(0, 256, (3, 64, 64), dtype=torch.uint8)          # after the test pipeline
data_ = {"inputs": [img], "data_samples": [{"img_shape": (64, 64)}]}
data_ = cast_tensor_type(data_, torch.uint8, torch.half)
'''
CELL = '''
with torch.no_grad():
    results = model.test_step(data_)
'''
EXPECT_ERROR = ("Input type (float) and bias type (c10::Half) should be the same",
                "Input type (torch.FloatTensor) and weight type (torch.HalfTensor) should be the same")
CULPRITS = ["model.data_preprocessor"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("            _batch_input = _batch_input.float()\n",
                  "            _batch_input = _batch_input.to(self.mean.dtype)\n")
CLEAN = False
