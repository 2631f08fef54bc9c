"""facenet-pytorch face verification: MTCNN crops come back as CPU tensors, are stacked and moved for InceptionResnetV1, embeddings come back to the CPU.

Source: https://github.com/timesler/facenet-pytorch/issues/132
The thread's setup: `device = torch.device('cuda:0' if torch.cuda.is_available() else 'cpu')`,
`mtcnn = MTCNN(image_size=160, ..., device=device)` and `resnet =
InceptionResnetV1(pretrained='vggface2').eval().to(device)`. In facenet-pytorch's inference example the
detector returns the aligned 160x160 face crops as CPU tensors (extract_face goes through PIL), the
loop collects them in a list, then `aligned = torch.stack(aligned).to(device)`, `embeddings =
resnet(aligned).detach().cpu()` and the distance matrix is computed on the CPU. Look-alike: CPU face
tensors and CPU embeddings next to a GPU model, each moved where it is used. Stand-in: a small
conv embedder for InceptionResnetV1; the detector's crops are random CPU tensors.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

device = torch.device("cuda:0")

class InceptionResnetV1Stub(nn.Module):
    def __init__(self, embedding_size=512):
        super().__init__()
        self.conv2d_1a = nn.Conv2d(3, 32, 3, stride=2)
        self.bn = nn.BatchNorm2d(32)
        self.avgpool_1a = nn.AdaptiveAvgPool2d(1)
        self.last_linear = nn.Linear(32, embedding_size, bias=False)
        self.last_bn = nn.BatchNorm1d(embedding_size)

    def forward(self, x):
        x = F.relu(self.bn(self.conv2d_1a(x)))
        x = self.last_bn(self.last_linear(self.avgpool_1a(x).flatten(1)))
        return F.normalize(x, p=2, dim=1)

resnet = InceptionResnetV1Stub().eval().to(device)
names = ["angelina_jolie", "bradley_cooper", "kate_siegel", "paul_rudd", "shea_whigham"]
# what mtcnn(x, return_prob=True) gives per image: a (3, 160, 160) CPU crop (fixed_image_standardization applied)
loader = [(torch.randn(3, 160, 160), i) for i in range(len(names))]
'''
CELL = '''
aligned = []
face_names = []
for x_aligned, y in loader:
    if x_aligned is not None:
        aligned.append(x_aligned)
        face_names.append(names[y])

aligned = torch.stack(aligned).to(device)
with torch.no_grad():
    embeddings = resnet(aligned).detach().cpu()
dists = torch.cdist(embeddings, embeddings)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
