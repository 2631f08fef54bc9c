"""robomimic simple_obs_nets example: the ObservationDecoder built after `obs_encoder.cuda()` stays on the CPU.

Source: https://github.com/ARISE-Initiative/robomimic/issues/7
"When running `examples/simple_obs_nets.py` on a machine with a GPU, there's a runtime error
(... expected them to be on GPU (while checking arguments for addmm)), probably because the decoder
in the example needs to move to GPU." The example moves the inputs and the encoder to cuda:0, then
builds `obs_decoder = ObservationDecoder(...)` and calls it on the GPU feature. Stand-ins: a small
ObservationEncoder (per-modality nets, features concatenated) and ObservationDecoder (one Linear per
named output), keeping the example's structure.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
from collections import OrderedDict
import torch
from torch import nn

class ObservationEncoder(nn.Module):
    def __init__(self, feature_activation=nn.ReLU):
        super().__init__()
        self.obs_nets = nn.ModuleDict()
        self.feature_activation = feature_activation()
    def register_modality(self, mod_name, mod_shape, mod_net):
        self.obs_nets[mod_name] = mod_net
    def output_shape(self):
        return [sum(net[-1].out_features for net in self.obs_nets.values())]
    def forward(self, obs_dict):
        feats = [self.feature_activation(self.obs_nets[k](obs_dict[k]).flatten(1)) for k in self.obs_nets]
        return torch.cat(feats, dim=-1)

class ObservationDecoder(nn.Module):
    def __init__(self, input_feat_dim, decode_shapes):
        super().__init__()
        self.obs_shapes = decode_shapes
        self.nets = nn.ModuleDict({k: nn.Linear(input_feat_dim, int(torch.tensor(s).prod())) for k, s in decode_shapes.items()})
    def forward(self, feats):
        return {k: self.nets[k](feats).reshape(-1, *self.obs_shapes[k]) for k in self.obs_shapes}

def to_device(x, device):
    return {k: v.to(device) for k, v in x.items()}

obs_encoder = ObservationEncoder(feature_activation=nn.ReLU)
obs_encoder.register_modality("camera1", [3, 32, 32], nn.Sequential(nn.Conv2d(3, 8, 5, 4), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 64)))
obs_encoder.register_modality("proprio", [12], nn.Sequential(nn.Linear(12, 128), nn.ReLU(), nn.Linear(128, 32)))

inputs = {"camera1": torch.randn(1, 3, 32, 32), "proprio": torch.randn(1, 12)}
inputs = to_device(inputs, torch.device("cuda:0"))
obs_encoder.to(torch.device("cuda:0"))     # obs_encoder.cuda()
obs_feature = obs_encoder(inputs)

obs_decoder = ObservationDecoder(
    input_feat_dim=obs_encoder.output_shape()[0],
    decode_shapes=OrderedDict({"action": (7,)}),
)
'''
CELL = '''
out = obs_decoder(obs_feature)
print(out["action"].shape)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["obs_decoder"]
FIX = "namespace"
REFERENCE_FIX = '''
obs_decoder = obs_decoder.to(torch.device("cuda:0"))
'''
REFERENCE_EDIT = None
CLEAN = False
