"""ProDA CustomModel: the class prototypes (`objective_vectors`) are a plain CPU tensor on a non-Module wrapper.

Source: https://github.com/microsoft/ProDA/issues/49
Stage-1 training failed in `get_prototype_weight -> feat_prototype_distance` at
`torch.norm(self.objective_vectors[i].reshape(-1,1,1).expand(-1, H, W) - feat, 2, dim=1)` with
"Expected all tensors to be on the same device, ... cuda:0 and cpu!". `CustomModel` is a plain class
(not an nn.Module) that holds the networks and `self.objective_vectors = torch.zeros([n_class,
256])`; moving its networks to the GPU never touches the prototypes. Stand-in: CustomModel reduced
to one feature network and the prototype distance (its per-class loop written as one broadcast).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class CustomModel():
    def __init__(self, n_class=4, feat_dim=256):
        self.class_numbers = n_class
        self.net = nn.Linear(8, feat_dim)
        self.objective_vectors = torch.zeros([self.class_numbers, feat_dim])
        self.objective_vectors_num = torch.zeros([self.class_numbers])

    def to(self, device):
        self.net.to(device)
        return self

    def feat_prototype_distance(self, feat):
        N, C, H, W = feat.shape
        # the per-class loop of ProDA, written as one broadcast (N, n_class, C, H, W)
        protos = self.objective_vectors.reshape(1, self.class_numbers, C, 1, 1).expand(N, -1, -1, H, W)
        feat_proto_distance = torch.norm(protos - feat.unsqueeze(1), 2, dim=2)
        return feat_proto_distance

    def get_prototype_weight(self, x):
        feat = self.net(x).permute(0, 3, 1, 2)               # N C H W features
        feat_proto_distance = self.feat_prototype_distance(feat)
        nearest = feat_proto_distance.min(dim=1, keepdim=True)[0]
        return torch.softmax(-(feat_proto_distance - nearest), dim=1)

device = torch.device("cuda:0")
model = CustomModel().to(device)
target_image = torch.randn(2, 4, 4, 8).to(device)
'''
CELL = '''
with torch.no_grad():
    weights = model.get_prototype_weight(target_image)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.objective_vectors"]
FIX = "namespace"
REFERENCE_FIX = '''
model.objective_vectors = model.objective_vectors.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
