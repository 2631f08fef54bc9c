"""Look-alike: a GPU model's predictions are brought back with `.cpu()` to be compared with CPU labels.

Source: https://github.com/yunjey/pytorch-tutorial/issues/9
Asked why the GPU version of the bidirectional-RNN tutorial calls `.cpu()`, the author answered:
"To compute `predicted == labels`, both tensors ... should be in same device ... `predicted.cpu()`
makes the tensor in predicted move to cpu." The labels stay on the CPU deliberately and the
comparison is done there; nothing to report.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class BiRNN(nn.Module):
    def __init__(self, input_size=28, hidden_size=16, num_classes=10):
        super().__init__()
        self.lstm = nn.Linear(input_size, 2 * hidden_size)   # stand-in for the bidirectional LSTM
        self.fc = nn.Linear(2 * hidden_size, num_classes)

    def forward(self, x):
        return self.fc(torch.tanh(self.lstm(x)).mean(1))

device = torch.device("cuda:0")
rnn = BiRNN().to(device)
images = torch.randn(8, 28, 28)
labels = torch.randint(0, 10, (8,))       # kept on the CPU
correct, total = 0, 0
'''
CELL = '''
with torch.no_grad():
    outputs = rnn(images.to(device))
    _, predicted = torch.max(outputs.data, 1)
    total += labels.size(0)
    matches = (predicted.cpu() == labels)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
