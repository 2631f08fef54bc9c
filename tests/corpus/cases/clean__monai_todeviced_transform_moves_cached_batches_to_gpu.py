"""Look-alike: MONAI fast-training pattern, `ToDeviced` at the end of the transform chain puts each cached sample on the GPU, so the training loop feeds the batch to the GPU model without any `.to(device)`.

Source: https://github.com/Project-MONAI/MONAI/issues/2789
"Add `ToDevice` transform to execute transform logic on GPU": "With `ToDevice` after `ToTensor` or
`EnsureType`, we can move the data to GPU and leverage `CacheDataset` to avoid duplicated CPU -> GPU
copying in every epoch". In the fast_training_tutorial the CacheDataset holds the deterministic
transforms' output, `ToDeviced(keys=["image", "label"], device="cuda:0")` runs per item, a
ThreadDataLoader collates, and the loop calls `model(batch_data["image"])` directly. Nothing is
moved in the cell on purpose, and it runs. Stand-ins: the transform/dataset/loader reduced to what
the loop uses, a small 3D network, DiceCE by Dice + CE.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class ToDeviced:
    def __init__(self, keys, device):
        self.keys, self.device = keys, torch.device(device)

    def __call__(self, d):
        d = dict(d)
        for k in self.keys:
            d[k] = d[k].to(self.device)
        return d

class Compose:
    def __init__(self, transforms):
        self.transforms = transforms

    def __call__(self, d):
        for t in self.transforms:
            d = t(d)
        return d

class CacheDataset:
    """caches the deterministic transforms' results, applies the rest per item"""
    def __init__(self, data, transform, cache_rate=1.0):
        self.transform = transform
        self._cache = [dict(d) for d in data]

    def __len__(self):
        return len(self._cache)

    def __getitem__(self, i):
        return self.transform(self._cache[i])

class ThreadDataLoader:
    def __init__(self, dataset, batch_size=2, num_workers=0, shuffle=False):
        self.dataset, self.batch_size = dataset, batch_size

    def __iter__(self):
        for s in range(0, len(self.dataset), self.batch_size):
            items = [self.dataset[i] for i in range(s, min(s + self.batch_size, len(self.dataset)))]
            yield {k: torch.stack([it[k] for it in items]) for k in items[0]}

device = torch.device("cuda:0")
train_files = [{"image": torch.rand(1, 24, 24, 16), "label": torch.randint(0, 2, (1, 24, 24, 16)).float()} for _ in range(4)]
train_transforms = Compose([ToDeviced(keys=["image", "label"], device="cuda:0")])
train_ds = CacheDataset(data=train_files, transform=train_transforms, cache_rate=1.0)
train_loader = ThreadDataLoader(train_ds, num_workers=0, batch_size=2, shuffle=True)
model = nn.Sequential(nn.Conv3d(1, 8, 3, padding=1), nn.PReLU(), nn.Conv3d(8, 2, 1)).to(device)

def loss_function(outputs, labels):                 # DiceCELoss(to_onehot_y=True, softmax=True)
    probs = outputs.softmax(1)
    onehot = torch.cat([1 - labels, labels], dim=1)
    dice = 1 - (2 * (probs * onehot).sum((2, 3, 4)) + 1e-5) / (probs.sum((2, 3, 4)) + onehot.sum((2, 3, 4)) + 1e-5)
    return dice.mean() + F.cross_entropy(outputs, labels.squeeze(1).long())
'''
CELL = '''
model.train()
epoch_loss = 0
with torch.no_grad():
    for batch_data in train_loader:
        inputs, labels = batch_data["image"], batch_data["label"]
        outputs = model(inputs)
        loss = loss_function(outputs, labels)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
