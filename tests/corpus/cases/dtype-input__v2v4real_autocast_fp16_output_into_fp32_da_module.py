"""V2V4Real domain adaptation: the detector runs under autocast, the DA module outside it.

Source: https://github.com/ucla-mobility/V2V4Real/pull/30
In `train_da.py` the forward pass is `with torch.cuda.amp.autocast(): ouput_dict = model(total_batch_data)`
and the domain-adaptation head is called after the block, `da_loss = DA_module(ouput_dict)`: the
features in `ouput_dict` are float16 while the DA module's weights are float32 ("mat1 and mat2 must
have the same dtype"). The PR casts the output to float32 after autocast (or calls the DA module
inside the autocast region). Simulated on the CPU with float16 autocast; the detector and DA head
are small stand-ins with the same dict output.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class PointPillarIntermediate(nn.Module):
    def __init__(self, c_in=16, c=32):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(c_in, c), nn.ReLU(), nn.Linear(c, c))
        self.cls_head = nn.Linear(c, 2)
        self.reg_head = nn.Linear(c, 14)

    def forward(self, data_dict):
        feat = self.backbone(data_dict["processed_lidar"])
        return {"psm": self.cls_head(feat), "rm": self.reg_head(feat), "feature": feat}

class DomainAdaptationModule(nn.Module):
    def __init__(self, c=32):
        super().__init__()
        self.domain_classifier = nn.Sequential(nn.Linear(c, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, output_dict):
        return self.domain_classifier(output_dict["feature"]).mean()

model = PointPillarIntermediate()
DA_module = DomainAdaptationModule()
total_batch_data = {"processed_lidar": torch.randn(4, 100, 16)}
with torch.autocast("cpu", dtype=torch.float16):     # torch.cuda.amp.autocast() in train_da.py
    ouput_dict = model(total_batch_data)
'''
CELL = '''
da_loss = DA_module(ouput_dict)
'''
EXPECT_ERROR = ("mat1 and mat2 must have the same dtype", "expected m1 and m2 to have the same dtype",
                "expected scalar type")
CULPRITS = ["ouput_dict['feature']"]
FIX = "namespace"
REFERENCE_FIX = '''
ouput_dict = {k: v.float() for k, v in ouput_dict.items()}
'''
REFERENCE_EDIT = None
CLEAN = False
