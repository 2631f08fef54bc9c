"""Character-level CNN trained on scraped 0-10 ratings: with group_labels=0 the labels stay float64 and reach CrossEntropyLoss.

Source: https://github.com/ahmedbesbes/character-based-cnn/issues/5
Training on a custom comments dataset with `group_labels=0` failed in `loss = criterion(predictions,
labels)` with "RuntimeError: expected scalar type Long but found Double": without label grouping the
ratings are read from the pandas column as floats, so the dataset yields float64 labels and the
collated batch is a DoubleTensor, while `nn.CrossEntropyLoss` needs int64 class indices. Stand-in:
the dataset/model reduced (one-hot characters, two conv blocks), the CSV as a dict of columns
(no pandas here), one collated batch.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
from torch import nn
from torch.utils.data import Dataset
from torch.utils.data.dataloader import default_collate

vocabulary = "abcdefghijklmnopqrstuvwxyz0123456789 ,;.!?:'\\"/\\\\|_@#$%^&*~`+-=<>()[]{}"
max_length, number_of_classes = 64, 11

class MyDataset(Dataset):
    def __init__(self, df, group_labels=0):
        self.texts = list(df["review"])
        if group_labels:
            self.labels = [int(r >= 5) for r in df["rating"]]
        else:
            self.labels = list(df["rating"])             # np.float64 ratings 0.0 .. 10.0

    def __len__(self):
        return len(self.texts)

    def __getitem__(self, index):
        data = np.zeros((len(vocabulary), max_length), dtype=np.float32)
        for i, ch in enumerate(self.texts[index].lower()[:max_length]):
            j = vocabulary.find(ch)
            if j >= 0:
                data[j, i] = 1.0
        return data, self.labels[index]

class CharacterLevelCNN(nn.Module):
    def __init__(self, number_of_characters=len(vocabulary), number_of_classes=11):
        super().__init__()
        self.conv1 = nn.Sequential(nn.Conv1d(number_of_characters, 32, 7, padding=3),
                                   nn.ReLU(), nn.MaxPool1d(3))
        self.conv2 = nn.Sequential(nn.Conv1d(32, 32, 7, padding=3), nn.ReLU(), nn.MaxPool1d(3))
        self.fc = nn.Linear(32 * 7, number_of_classes)

    def forward(self, x):
        x = self.conv2(self.conv1(x))
        return self.fc(x.flatten(1))

# the scraped CSV (pd.read_csv(...) in the repo): text and a float64 rating column
df = {"review": ["great product", "meh", "terrible, broke in a day", "ok I guess",
                 "love it!", "would not buy again", "fine", "superb quality"],
      "rating": np.array([9.0, 5.0, 1.0, 6.0, 10.0, 2.0, 5.0, 9.0])}
training_set = MyDataset(df, group_labels=0)
model = CharacterLevelCNN(number_of_classes=number_of_classes)
criterion = nn.CrossEntropyLoss()
inputs, labels = default_collate([training_set[i] for i in range(len(training_set))])
'''
CELL = '''
predictions = model(inputs)
loss = criterion(predictions, labels)
'''
EXPECT_ERROR = "expected target dtype to be Long or Byte"
CULPRITS = ["labels"]
FIX = "namespace"
REFERENCE_FIX = '''
labels = labels.long()
'''
REFERENCE_EDIT = None
CLEAN = False
