"""MONAI spleen_segmentation_3d_lightning notebook, "Check best model output": the reloaded LightningModule is on the CPU while the validation image is sent to cuda:0.

Source: https://github.com/Project-MONAI/MONAI/issues/877
The last cell of examples/notebooks/spleen_segmentation_3d_lightning.ipynb raised "RuntimeError:
Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same". After
`trainer.fit(net)` the notebook loads the best checkpoint into `net` (Lightning had moved the module
back to the CPU when fitting ended), defines `device = torch.device("cuda:0")` and runs
`sliding_window_inference(val_data["image"].to(device), roi_size, sw_batch_size, net)`; the fix was
to send the net to the GPU in that cell. Stand-ins: the LightningModule wrapping a small 3D UNet,
the checkpoint as a state dict, a one-window `sliding_window_inference`, the val loader by a list.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn as nn

class UNet(nn.Module):
    def __init__(self, dimensions=3, in_channels=1, out_channels=2):
        super().__init__()
        self.net = nn.Sequential(nn.Conv3d(in_channels, 8, 3, padding=1), nn.PReLU(), nn.Conv3d(8, out_channels, 1))

    def forward(self, x):
        return self.net(x)

class Net(nn.Module):                              # pytorch_lightning.LightningModule
    def __init__(self):
        super().__init__()
        self._model = UNet(dimensions=3, in_channels=1, out_channels=2)

    def forward(self, x):
        return self._model(x)

    def val_dataloader(self):
        return [{"image": torch.rand(1, 1, 32, 32, 16), "label": (torch.rand(1, 1, 32, 32, 16) > 0.9).float()}]

def sliding_window_inference(inputs, roi_size, sw_batch_size, predictor):
    return predictor(inputs)                       # one window covers the volume

net = Net()
best_model_state = {k: v.clone() for k, v in Net().state_dict().items()}   # torch.load("best_metric_model.pth")
# trainer.fit(net) ran here; at the end the module is back on the CPU
net.load_state_dict(best_model_state)
'''
CELL = '''
net.eval()
device = torch.device("cuda:0")
with torch.no_grad():
    for i, val_data in enumerate(net.val_dataloader()):
        roi_size = (160, 160, 160)
        sw_batch_size = 4
        val_outputs = sliding_window_inference(val_data["image"].to(device), roi_size, sw_batch_size, net)
        pred = torch.argmax(val_outputs, dim=1).detach().cpu()
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "should be the same")
CULPRITS = ["net"]
FIX = "namespace"
REFERENCE_FIX = '''
net.to(torch.device("cuda:0"))
'''
REFERENCE_EDIT = None
CLEAN = False
