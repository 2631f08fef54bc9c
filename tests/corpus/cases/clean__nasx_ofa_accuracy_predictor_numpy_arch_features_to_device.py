"""Once-for-All AccuracyPredictor: float64 numpy architecture encodings are cast and moved to the predictor's GPU before the MLP.

Source: https://github.com/mit-han-lab/once-for-all/blob/master/ofa/nas/accuracy_predictor/acc_predictor.py
OFA's `AccuracyPredictor(arch_encoder, device="cuda:0")` builds its MLP on the CPU and moves only
`self.layers` to the device, creates `base_acc` directly on the device, and never moves the
predictor module itself. `predict_acc(arch_dict_list)` encodes each sub-network with
`MobileNetArchEncoder.arch2feature` (a float64 numpy one-hot vector) and does
`torch.tensor(np.array(X)).float().to(self.device)` before the forward. Look-alike: float64 CPU
features next to a float32 GPU predictor, cast and moved before use.
Stand-ins: `MobileNetArchEncoder` (mbv3 space, the one-hot `arch2feature`) and `AccuracyPredictor`
as in OFA, without the checkpoint download; two fixed sub-network configurations.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class MobileNetArchEncoder:
    SPACE_TYPE = "mbv3"

    def __init__(self, image_size_list=None, ks_list=None, expand_list=None, depth_list=None, n_stage=None):
        self.image_size_list = [224] if image_size_list is None else image_size_list
        self.ks_list = [3, 5, 7] if ks_list is None else ks_list
        self.expand_list = [3, 4, 6] if expand_list is None else [int(e) for e in expand_list]
        self.depth_list = [2, 3, 4] if depth_list is None else depth_list
        self.n_stage = 5 if n_stage is None else n_stage
        self.n_dim = 0
        self.r_info = dict(id2val={}, val2id={}, L=[], R=[])
        self._build_info_dict(target="r")
        self.k_info = dict(id2val=[], val2id=[], L=[], R=[])
        self.e_info = dict(id2val=[], val2id=[], L=[], R=[])
        self._build_info_dict(target="k")
        self._build_info_dict(target="e")

    @property
    def max_n_blocks(self):
        return self.n_stage * max(self.depth_list)

    def _build_info_dict(self, target):
        if target == "r":
            target_dict = self.r_info
            target_dict["L"].append(self.n_dim)
            for img_size in self.image_size_list:
                target_dict["val2id"][img_size] = self.n_dim
                target_dict["id2val"][self.n_dim] = img_size
                self.n_dim += 1
            target_dict["R"].append(self.n_dim)
        else:
            target_dict, choices = (self.k_info, self.ks_list) if target == "k" else (self.e_info, self.expand_list)
            for i in range(self.max_n_blocks):
                target_dict["val2id"].append({})
                target_dict["id2val"].append({})
                target_dict["L"].append(self.n_dim)
                for k in choices:
                    target_dict["val2id"][i][k] = self.n_dim
                    target_dict["id2val"][i][self.n_dim] = k
                    self.n_dim += 1
                target_dict["R"].append(self.n_dim)

    def arch2feature(self, arch_dict):
        ks, e, d, r = arch_dict["ks"], arch_dict["e"], arch_dict["d"], arch_dict["image_size"]
        feature = np.zeros(self.n_dim)
        for i in range(self.max_n_blocks):
            nowd = i % max(self.depth_list)
            stg = i // max(self.depth_list)
            if nowd < d[stg]:
                feature[self.k_info["val2id"][i][ks[i]]] = 1
                feature[self.e_info["val2id"][i][e[i]]] = 1
        feature[self.r_info["val2id"][r]] = 1
        return feature

class AccuracyPredictor(nn.Module):
    def __init__(self, arch_encoder, hidden_size=400, n_layers=3, checkpoint_path=None, device="cuda:0"):
        super(AccuracyPredictor, self).__init__()
        self.arch_encoder = arch_encoder
        self.hidden_size = hidden_size
        self.n_layers = n_layers
        self.device = device
        layers = []
        for i in range(self.n_layers):
            layers.append(nn.Sequential(
                nn.Linear(self.arch_encoder.n_dim if i == 0 else self.hidden_size, self.hidden_size),
                nn.ReLU(inplace=True)))
        layers.append(nn.Linear(self.hidden_size, 1, bias=False))
        self.layers = nn.Sequential(*layers)
        self.base_acc = nn.Parameter(torch.zeros(1, device=self.device), requires_grad=False)
        self.layers = self.layers.to(self.device)

    def forward(self, x):
        y = self.layers(x).squeeze()
        return y + self.base_acc

    def predict_acc(self, arch_dict_list):
        X = [self.arch_encoder.arch2feature(arch_dict) for arch_dict in arch_dict_list]
        X = torch.tensor(np.array(X)).float().to(self.device)
        return self.forward(X)

arch_encoder = MobileNetArchEncoder(image_size_list=[192, 208, 224], depth_list=[2, 3, 4],
                                    expand_list=[3, 4, 6], ks_list=[3, 5, 7], n_stage=5)
acc_predictor = AccuracyPredictor(arch_encoder, device="cuda:0")
subnets = [
    {"ks": [3, 5, 7, 3] * 5, "e": [3, 4, 6, 4] * 5, "d": [2, 3, 4, 2, 3], "image_size": 224},
    {"ks": [7, 7, 5, 3] * 5, "e": [6, 6, 4, 3] * 5, "d": [4, 4, 3, 2, 2], "image_size": 192},
]
'''
CELL = '''
with torch.no_grad():
    accs = acc_predictor.predict_acc(subnets)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
