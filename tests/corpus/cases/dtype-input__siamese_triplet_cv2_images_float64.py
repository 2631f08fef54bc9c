"""siamese-triplet on a custom dataset: images scaled with `/ 255.` in numpy reach the CNN as float64.

Source: https://github.com/adambielski/siamese-triplet/issues/49
"Input type (torch.cuda.DoubleTensor) and weight type (torch.cuda.FloatTensor) should be the same"
with the user's `Data_Load` dataset, which stores `np.moveaxis(cv2.imread(j)[:,:,:3]/ 255., -1,
0)`: numpy's division gives float64, `default_collate` keeps it, the embedding net's weights are
float32. Fix: make the images float32 (`.float()` on the batch / `astype(np.float32)`).
Stand-in: `cv2.imread` replaced by random uint8 arrays, the repository's EmbeddingNet reduced to two
convolutions and a linear layer; the CPU stands in for the GPU (a dtype bug).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader

def imread(path):   # stand-in for cv2.imread
    return np.random.randint(0, 256, (32, 32, 3), dtype=np.uint8)

class Data_Load(Dataset):
    def __init__(self, paths, labels):
        self.train_data = np.stack([np.moveaxis(imread(j)[:, :, :3] / 255., -1, 0) for j in paths])
        self.train_labels = torch.from_numpy(np.asarray(labels))

    def __getitem__(self, index):
        return self.train_data[index], self.train_labels[index]

    def __len__(self):
        return len(self.train_data)

class EmbeddingNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.convnet = nn.Sequential(nn.Conv2d(3, 8, 5), nn.PReLU(), nn.MaxPool2d(2, 2),
                                     nn.Conv2d(8, 16, 5), nn.PReLU(), nn.MaxPool2d(2, 2))
        self.fc = nn.Linear(16 * 5 * 5, 2)

    def forward(self, x):
        return self.fc(self.convnet(x).flatten(1))

train_dataset = Data_Load([f"img_{i}.png" for i in range(16)], [i % 4 for i in range(16)])
train_loader = DataLoader(train_dataset, batch_size=8, shuffle=True)
model = EmbeddingNet()
images, target = next(iter(train_loader))
'''
CELL = '''
outputs = model(images)
'''
EXPECT_ERROR = ("expected scalar type Double but found Float", "Input type", "should be the same")
CULPRITS = ["images"]
FIX = "namespace"
REFERENCE_FIX = '''
images = images.float()
'''
REFERENCE_EDIT = None
CLEAN = False
