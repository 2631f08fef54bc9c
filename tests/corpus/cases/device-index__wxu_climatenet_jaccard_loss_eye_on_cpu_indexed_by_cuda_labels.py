"""ClimateNet CGNet training on a GPU: `jaccard_loss` indexes a CPU `torch.eye` with the CUDA label map.

Source: https://github.com/andregraubner/ClimateNet/pull/22
Running `example.py` (`cgnet.train(train)`) on a GPU failed in `climatenet/utils/losses.py` at
`true_1_hot = torch.eye(num_classes)[true.squeeze(1)]` with "indices should be either on cpu or on
the same device as the indexed tensor (cpu)": the one-hot lookup table is made on the CPU while the
labels (tropical cyclone / atmospheric river masks) are on cuda. The PR makes the one-hot on the
labels' device; the reference edit does it with `F.one_hot` (same layout, no CPU table). Stand-in: the loss as in the repo and a 1x1-conv segmentation head. (On the
simulated device the CPU index lookup goes through and the next product with the CUDA
probabilities raises instead; the repo's `.type(logits.type())` cast is left out.)
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import torch
import torch.nn.functional as F
from torch import nn

def jaccard_loss(logits, true, eps=1e-7):
    num_classes = logits.shape[1]
    true_1_hot = torch.eye(num_classes)[true.squeeze(1)]
    true_1_hot = true_1_hot.permute(0, 3, 1, 2).float()
    probas = F.softmax(logits, dim=1)
    dims = (0,) + tuple(range(2, true.ndimension()))
    intersection = torch.sum(probas * true_1_hot, dims)
    cardinality = torch.sum(probas + true_1_hot, dims)
    union = cardinality - intersection
    return 1 - (intersection / (union + eps)).mean()

class CGNetHead(nn.Module):
    def __init__(self, channels=4, classes=3):
        super().__init__()
        self.conv = nn.Conv2d(channels, classes, 1)
    def forward(self, x):
        return self.conv(x)

device = torch.device("cuda:0")
network = CGNetHead().to(device)
features = torch.randn(2, 4, 16, 32, device=device)
labels = torch.randint(0, 3, (2, 1, 16, 32), device=device)
'''
CELL = '''
outputs = torch.softmax(network(features), 1)
loss = jaccard_loss(outputs, labels)
'''
EXPECT_ERROR = ("indices should be either on cpu", "Expected all tensors to be on the same device")
CULPRITS = ["true_1_hot"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("true_1_hot = torch.eye(num_classes)[true.squeeze(1)]",
                  "true_1_hot = F.one_hot(true.squeeze(1), num_classes)")
CLEAN = False
