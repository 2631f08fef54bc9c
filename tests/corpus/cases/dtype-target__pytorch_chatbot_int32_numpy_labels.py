"""pytorch-chatbot's train.py on Windows: the tag labels come out of NumPy as int32 and CrossEntropyLoss rejects them.

Source: https://github.com/patrickloeber/pytorch-chatbot/issues/17
Running `train.py` failed at `loss = criterion(outputs, labels)` with "expected scalar type Long but
found Int". `y_train = np.array(y_train)` over a list of Python ints is int32 on Windows; the
Dataset hands those values to the DataLoader, which collates them into an int32 tensor. The reply:
"The label for response in train_dataloader should be Long": `labels.to(dtype=torch.long)`.
Stand-in: the script's bag-of-words data and NeuralNet; int32 is forced as Windows' NumPy gives it.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader

all_words = ["hi", "hello", "bye", "see", "you", "thanks", "price", "cost", "open", "when"]
tags = ["greeting", "goodbye", "thanks", "hours"]
xy = [(["hi"], "greeting"), (["hello"], "greeting"), (["bye"], "goodbye"),
      (["see", "you"], "goodbye"), (["thanks"], "thanks"), (["when", "open"], "hours")]

def bag_of_words(tokenized_sentence, words):
    bag = np.zeros(len(words), dtype=np.float32)
    for idx, w in enumerate(words):
        if w in tokenized_sentence:
            bag[idx] = 1
    return bag

X_train, y_train = [], []
for (pattern_sentence, tag) in xy:
    X_train.append(bag_of_words(pattern_sentence, all_words))
    y_train.append(tags.index(tag))
X_train = np.array(X_train)
y_train = np.array(y_train, dtype=np.int32)     # what np.array(y_train) gives on Windows

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
        self.l2 = nn.Linear(hidden_size, hidden_size)
        self.l3 = nn.Linear(hidden_size, num_classes)
        self.relu = nn.ReLU()

    def forward(self, x):
        return self.l3(self.relu(self.l2(self.relu(self.l1(x)))))

device = torch.device("cpu")
dataset = ChatDataset()
train_loader = DataLoader(dataset=dataset, batch_size=8, shuffle=True, num_workers=0)
model = NeuralNet(len(X_train[0]), 8, len(tags)).to(device)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.001)
'''
CELL = '''
for epoch in range(2):
    for (words, labels) in train_loader:
        words = words.to(device)
        labels = labels.to(device)
        outputs = model(words)
        loss = criterion(outputs, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
'''
EXPECT_ERROR = ("expected target dtype to be Long or Byte, but got Int",
                "expected scalar type Long but found Int")
CULPRITS = ["dataset.y_data"]
FIX = "namespace"
REFERENCE_FIX = '''
dataset.y_data = dataset.y_data.astype(np.int64)
'''
REFERENCE_EDIT = None
CLEAN = False
