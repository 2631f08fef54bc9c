"""PlantSeg / pytorch-3dunet prediction with the `3DUnet_confocal_boundary` config: the loaded UNet3D stays on the CPU while the predictor sends each patch to cuda:0.

Source: https://github.com/kreshuklab/panseg/issues/130
Running pytorch-3dunet's predict with the `3DUnet_confocal_boundary` config and the example data on a
one-GPU machine failed in `torch.group_norm` with "Expected all tensors to be on the same device, but
found at least two devices, cuda:0 and cpu! (when checking argument for argument weight in method
wrapper_CUDA__native_group_norm)"; setting `device: cuda:0` in the config did not help. The
predictor moves the raw patches to the configured device, but the model built by `get_model` and
filled by `load_checkpoint` was never moved; the user fixed it by adding `model.to(device)`.
Stand-ins: UNet3D reduced to a 'gcr' (GroupNorm -> Conv -> ReLU) block and a final conv, the
checkpoint by a state dict, StandardPredictor by a patch loop.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn as nn

class SingleConv(nn.Sequential):
    """layer_order 'gcr': GroupNorm -> Conv3d -> ReLU"""
    def __init__(self, in_channels, out_channels, num_groups=1):
        super().__init__()
        self.add_module("groupnorm", nn.GroupNorm(num_groups=num_groups, num_channels=in_channels))
        self.add_module("conv", nn.Conv3d(in_channels, out_channels, 3, padding=1, bias=False))
        self.add_module("ReLU", nn.ReLU(inplace=True))

class UNet3D(nn.Module):
    def __init__(self, in_channels=1, out_channels=1, f_maps=16, final_sigmoid=True):
        super().__init__()
        self.encoder = SingleConv(in_channels, f_maps)
        self.final_conv = nn.Conv3d(f_maps, out_channels, 1)
        self.final_activation = nn.Sigmoid() if final_sigmoid else nn.Softmax(dim=1)

    def forward(self, x):
        return self.final_activation(self.final_conv(self.encoder(x)))

def get_model(model_config):
    return UNet3D(in_channels=model_config["in_channels"], out_channels=model_config["out_channels"],
                  f_maps=model_config["f_maps"], final_sigmoid=model_config["final_sigmoid"])

def load_checkpoint(checkpoint, model):
    model.load_state_dict(checkpoint["model_state_dict"])

class StandardPredictor:
    def __init__(self, model, output_dir, config):
        self.model, self.output_dir, self.config = model, output_dir, config

    def __call__(self, test_loader):
        device = self.config["device"]
        self.model.eval()
        predictions = []
        with torch.no_grad():
            for input, indices in test_loader:
                input = input.to(device)
                prediction = self.model(input)
                predictions.append(prediction.cpu())
        return predictions

config = {"device": torch.device("cuda:0"),
          "model": {"name": "UNet3D", "in_channels": 1, "out_channels": 1, "f_maps": 16, "final_sigmoid": True},
          "predictor": {"name": "StandardPredictor"}}
model = get_model(config["model"])
checkpoint = {"model_state_dict": get_model(config["model"]).state_dict()}   # torch.load(model_path, map_location="cpu")
load_checkpoint(checkpoint, model)
device = config["device"]
predictor = StandardPredictor(model, "./predictions", config)
test_loader = [(torch.rand(1, 1, 32, 64, 64), [(slice(0, 32), slice(0, 64), slice(0, 64))])]
'''
CELL = '''
predictions = predictor(test_loader)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
model.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
