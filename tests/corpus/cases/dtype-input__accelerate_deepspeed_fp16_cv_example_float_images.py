"""accelerate `cv_example.py` under DeepSpeed with `fp16` enabled: the engine's ResNet is half, the image batch float32.

Source: https://github.com/deepspeedai/DeepSpeed/issues/2019
"Error when enabling fp16 config with tasks involving FloatTensor Inputs such as Image
Classification, Speech Recognition": running accelerate's `examples/cv_example.py` with a DeepSpeed
config whose `fp16` is enabled failed at `outputs = model(inputs)` ("Input type (float) and weight
type (half) should be the same"): the engine converts the module to half, nothing casts the
normalized image tensors (token ids of NLP tasks do not need it). Stand-in: the engine reduced to
its fp16 module conversion, a small conv classifier and the example's normalized float batch; run
on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class TinyResNet(nn.Module):
    def __init__(self, num_classes=37):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, stride=2, padding=1)
        self.bn1 = nn.BatchNorm2d(16)
        self.fc = nn.Linear(16, num_classes)

    def forward(self, x):
        x = torch.relu(self.bn1(self.conv1(x)))
        return self.fc(x.mean((2, 3)))

class DeepSpeedEngine(nn.Module):
    def __init__(self, model, ds_config):
        super().__init__()
        self.module = model
        if ds_config["fp16"]["enabled"]:
            self.module.half()

    def forward(self, *inputs, **kwargs):
        return self.module(*inputs, **kwargs)

ds_config = {"fp16": {"enabled": True}, "zero_optimization": {"stage": 2}, "train_micro_batch_size_per_gpu": 4}
model = DeepSpeedEngine(TinyResNet(), ds_config)      # accelerator.prepare(model, ...) with DeepSpeedPlugin

mean = torch.tensor([0.485, 0.456, 0.406])[None, :, None, None]
std = torch.tensor([0.229, 0.224, 0.225])[None, :, None, None]
batch = {"image": torch.rand(4, 3, 32, 32), "label": torch.randint(0, 37, (4,))}
inputs = (batch["image"] - mean) / std
'''
CELL = '''
outputs = model(inputs)
loss = torch.nn.functional.cross_entropy(outputs, batch["label"])
'''
EXPECT_ERROR = ("should be the same", "expected scalar type", "same dtype")
CULPRITS = ["inputs"]
FIX = "namespace"
REFERENCE_FIX = '''
inputs = inputs.half()
'''
REFERENCE_EDIT = None
CLEAN = False
