"""Look-alike: int32 tag labels from NumPy (Windows), cast to int64 in the training loop before the loss.

Source: https://github.com/patrickloeber/pytorch-chatbot/issues/17
The fix given in the thread: `labels = labels.to(dtype=torch.long).to(device)`. The dataset keeps its
int32 array; every batch is cast before `criterion(outputs, labels)`. An int32 array in the namespace
is not a bug here.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader

X_train = (np.random.rand(12, 10) > 0.5).astype(np.float32)
y_train = np.array([i % 4 for i in range(12)], dtype=np.int32)     # what np.array(...) gives on Windows

class ChatDataset(Dataset):
    def __init__(self):
        self.n_samples = len(X_train)
        self.x_data = X_train
        self.y_data = y_train

    def __getitem__(self, index):
        return self.x_data[index], self.y_data[index]

    def __len__(self):
        return self.n_samples

class NeuralNet(nn.Module):
    def __init__(self, input_size, hidden_size, num_classes):
        super().__init__()
        self.l1 = nn.Linear(input_size, hidden_size)
        self.l2 = nn.Linear(hidden_size, num_classes)

    def forward(self, x):
        return self.l2(torch.relu(self.l1(x)))

device = torch.device("cpu")
dataset = ChatDataset()
train_loader = DataLoader(dataset=dataset, batch_size=8, shuffle=True, num_workers=0)
model = NeuralNet(10, 8, 4).to(device)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.001)
'''
CELL = '''
for (words, labels) in train_loader:
    words = words.to(device)
    labels = labels.to(dtype=torch.long).to(device)
    outputs = model(words)
    loss = criterion(outputs, labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
