"""PoS-tagging tutorial on Colab's GPU: `categorical_accuracy` divides by a `torch.FloatTensor([...])` made on the CPU.

Source: https://github.com/bentrevett/pytorch-pos-tagging/issues/6
"Google Colab : GPU Error ... RuntimeError: Expected all tensors to be on the same device, but found
at least two devices, cuda:0 and cpu!" in the BiLSTM tagger's training cell. The metric ends with
`return correct.sum() / torch.FloatTensor([y[non_pad_elements].shape[0]])`: the count tensor is a
CPU tensor of shape [1], not a scalar, so dividing the cuda sum by it fails. The fix in the thread
(and PR #5) puts the count tensor on the GPU. Stand-in: the tutorial's tagger and metric, with
padding positions counted by a mask instead of `nonzero()` indexing (data-dependent shapes cannot be
simulated).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class BiLSTMPOSTagger(nn.Module):
    def __init__(self, input_dim, embedding_dim, hidden_dim, output_dim, pad_idx):
        super().__init__()
        self.embedding = nn.Embedding(input_dim, embedding_dim, padding_idx=pad_idx)
        self.lstm = nn.LSTM(embedding_dim, hidden_dim, num_layers=2, bidirectional=True)
        self.fc = nn.Linear(hidden_dim * 2, output_dim)

    def forward(self, text):
        outputs, (hidden, cell) = self.lstm(self.embedding(text))
        return self.fc(outputs)

def categorical_accuracy(preds, y, tag_pad_idx):
    """Returns accuracy per batch, i.e. if you get 8/10 right, this returns 0.8, NOT 8"""
    max_preds = preds.argmax(dim=1, keepdim=True)  # get the index of the max probability
    non_pad_elements = (y != tag_pad_idx)
    correct = max_preds.squeeze(1).eq(y).logical_and(non_pad_elements)
    return correct.sum() / torch.FloatTensor([non_pad_elements.shape[0]])

device = torch.device("cuda:0")
TAG_PAD_IDX = 0
model = BiLSTMPOSTagger(200, 16, 32, 18, pad_idx=1).to(device)
text = torch.randint(2, 200, (12, 4), device=device)     # [sent len, batch size]
tags = torch.randint(1, 18, (12, 4), device=device)
'''
CELL = '''
predictions = model(text).view(-1, 18)
acc = categorical_accuracy(predictions, tags.view(-1), TAG_PAD_IDX)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["categorical_accuracy"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "torch.FloatTensor([non_pad_elements.shape[0]])",
    "torch.FloatTensor([non_pad_elements.shape[0]]).to(y.device)",
)
CLEAN = False
