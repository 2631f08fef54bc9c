"""HID2020 gait baseline: test.py's gallery feature extraction feeds CPU silhouette sequences to the CUDA model.

Source: https://github.com/zihaomu/Gait_recognition_baseline_for_HID2020/issues/1
Running the test script raised "Input type (torch.FloatTensor) and weight type
(torch.cuda.FloatTensor) should be the same". `Test.initialization` moves the model with
`self.model.cuda()`, and the probe loop does `seq = torch.from_numpy(seq).float().cuda()`, but
`extract_gallery_feature` builds `seq = torch.from_numpy(np.asarray(seq))` and calls the model with
it on the CPU. The user fixed it by adding `seq = seq.cuda()` in the test code. Stand-in: the
`Test` class with a small GaitSet-style network (per-frame convs, set max-pooling, horizontal
pyramid bins); config/dataset/checkpoint loading is stubbed, and the numpy feature normalisation is
done with `F.normalize` on the device (fake cuda tensors cannot go to numpy).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
from types import SimpleNamespace
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

class SetNet(nn.Module):
    def __init__(self, hidden_dim=64, bins=(1, 2, 4)):
        super().__init__()
        self.bins = bins
        self.set_layer1 = nn.Conv2d(1, 32, 5, padding=2)
        self.set_layer2 = nn.Conv2d(32, 32, 3, padding=1)
        self.set_layer3 = nn.Conv2d(32, 64, 3, padding=1)
        self.fc_bin = nn.Parameter(torch.randn(sum(bins), 64, hidden_dim) * 0.01)
        self.cls = nn.Linear(hidden_dim * sum(bins), 74)

    def forward(self, silho):
        n, s, h, w = silho.shape
        x = silho.reshape(n * s, 1, h, w)
        x = F.max_pool2d(F.leaky_relu(self.set_layer2(F.leaky_relu(self.set_layer1(x)))), 2)
        x = F.leaky_relu(self.set_layer3(x))
        x = x.view(n, s, *x.shape[1:]).max(1)[0]  # set pooling over frames
        feature = []
        for num_bin in self.bins:
            z = x.view(n, x.size(1), num_bin, -1)
            feature.append(z.mean(3) + z.max(3)[0])
        feature = torch.cat(feature, 2).permute(2, 0, 1).contiguous()
        feature = feature.matmul(self.fc_bin).permute(1, 0, 2).contiguous()
        fc = feature.view(n, -1)
        return fc, self.cls(fc)

class Test(object):
    def __init__(self, config):
        self.config = config
        self.model = None

    def initialization(self):
        self.model = SetNet()
        self.model = self.model.to("cuda:0")  # self.model.cuda()

    def extract_gallery_feature(self, data_gallery, len_gallery):
        features = list()
        for i in range(len_gallery):
            seq = data_gallery[i]
            seq = torch.from_numpy(np.asarray(seq))
            seq = torch.unsqueeze(seq, 0)
            fc, out = self.model(seq)
            n, num_bin = fc.size()
            feat = F.normalize(fc.view(n, -1), dim=1)
            features.append(feat)
        return features

config = SimpleNamespace(CUDA_VISIBLE_DEVICES="0", data=SimpleNamespace(frame_num=30))
tester = Test(config)
tester.initialization()
tester.model = tester.model.eval()
# gallery silhouettes (frames, 64, 44) as the dataset stores them
data_gallery = [np.random.rand(30, 64, 44).astype(np.float32) for _ in range(3)]
label_gallery = [0, 1, 2]
'''
CELL = '''
len_gallery = len(label_gallery)
feature_gallery = tester.extract_gallery_feature(data_gallery, len_gallery)
'''
EXPECT_ERROR = ("should be the same", "Expected all tensors to be on the same device")
CULPRITS = ["tester"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "            seq = torch.unsqueeze(seq, 0)\n",
    "            seq = torch.unsqueeze(seq, 0)\n            seq = seq.to(\"cuda:0\")\n",
)
CLEAN = False
