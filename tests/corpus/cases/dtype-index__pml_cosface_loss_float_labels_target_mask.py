"""pytorch-metric-learning CosFaceLoss: labels converted to float reach `get_target_mask`, which indexes with them.

Source: https://github.com/KevinMusgrave/pytorch-metric-learning/issues/616
"Index Error method get_target_mask using CosFaceLoss": training a face-embedding model with
`losses.CosFaceLoss(num_classes, embedding_size)` always failed in `get_target_mask()` with an
IndexError. The maintainer asked whether the labels were integers; the user had converted them to
`torch.float`, and after converting them to long it worked. `get_target_mask` does
`mask[torch.arange(batch_size), labels] = 1`, so float labels cannot index. Stand-in: pml's
LargeMarginSoftmaxLoss/CosFaceLoss forward path (mining weights and regularizers left out) and a
small embedder; the batch labels are float as in the user's notebook.
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import math
import torch
from torch import nn
import torch.nn.functional as F

class CosFaceLoss(nn.Module):
    def __init__(self, num_classes, embedding_size, margin=0.35, scale=64):
        super().__init__()
        self.num_classes = num_classes
        self.embedding_size = embedding_size
        self.margin = margin
        self.scale = scale
        self.W = nn.Parameter(torch.Tensor(embedding_size, num_classes))
        nn.init.kaiming_uniform_(self.W, a=math.sqrt(5))
        self.cross_entropy = nn.CrossEntropyLoss(reduction="none")

    def get_target_mask(self, embeddings, labels):
        batch_size = labels.size(0)
        mask = torch.zeros(batch_size, self.num_classes, dtype=embeddings.dtype, device=embeddings.device)
        mask[torch.arange(batch_size), labels] = 1
        return mask

    def get_cosine(self, embeddings):
        return F.normalize(embeddings, dim=1) @ F.normalize(self.W, dim=0)

    def modify_cosine_of_target_classes(self, cosine_of_target_classes):
        return cosine_of_target_classes - self.margin

    def forward(self, embeddings, labels):
        labels = labels.to(embeddings.device)  # c_f.to_device(labels, embeddings)
        mask = self.get_target_mask(embeddings, labels)
        cosine = self.get_cosine(embeddings)
        cosine_of_target_classes = cosine[mask == 1]
        modified_cosine_of_target_classes = self.modify_cosine_of_target_classes(cosine_of_target_classes)
        diff = (modified_cosine_of_target_classes - cosine_of_target_classes).unsqueeze(1)
        logits = cosine + (mask * diff)
        logits = logits * self.scale
        unweighted_loss = self.cross_entropy(logits, mask.argmax(dim=1))
        return unweighted_loss.mean()

class FaceEmbedder(nn.Module):
    def __init__(self, embedding_size=128):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2), nn.BatchNorm2d(16), nn.ReLU(),
                                      nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.fc = nn.Linear(16, embedding_size)

    def forward(self, x):
        return self.fc(self.features(x))

num_classes, embedding_size = 40, 128
model = FaceEmbedder(embedding_size)
loss_func = CosFaceLoss(num_classes=num_classes, embedding_size=embedding_size, margin=0.35, scale=64)
optimizer = torch.optim.Adam(list(model.parameters()) + list(loss_func.parameters()), lr=1e-4)
data = torch.randn(16, 3, 64, 64)
labels = torch.randint(0, num_classes, (16,)).to(torch.float)
'''
CELL = '''
optimizer.zero_grad()
embeddings = model(data)
loss = loss_func(embeddings, labels)
loss.backward()
optimizer.step()
'''
EXPECT_ERROR = "tensors used as indices must be long"
CULPRITS = ["labels"]
FIX = "namespace"
REFERENCE_FIX = '''
labels = labels.long()
'''
REFERENCE_EDIT = None
CLEAN = False
