"""BERT on the GPU fed token ids left on the CPU: the embedding lookup's index is on the wrong device.

Source: https://github.com/huggingface/transformers/issues/227
"Expected object of backend CUDA but got backend CPU for argument #3 'index'" (today: "Expected
all tensors to be on the same device ... when checking argument for argument index in method
wrapper_CUDA__index_select"): the model was moved with .to(device), the tokenized ids were not.
Stand-in: a small BERT-style embedding + encoder (no transformers).
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import torch
import torch.nn as nn

class BertEmbeddings(nn.Module):
    def __init__(self, vocab=100, hidden=16, max_pos=32):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab, hidden)
        self.position_embeddings = nn.Embedding(max_pos, hidden)
        self.LayerNorm = nn.LayerNorm(hidden)
        self.register_buffer("position_ids", torch.arange(max_pos).unsqueeze(0), persistent=False)

    def forward(self, input_ids):
        pos = self.position_ids.narrow(1, 0, input_ids.shape[1])
        return self.LayerNorm(self.word_embeddings(input_ids) + self.position_embeddings(pos))

class TinyBert(nn.Module):
    def __init__(self):
        super().__init__()
        self.embeddings = BertEmbeddings()
        self.encoder = nn.Linear(16, 16)

    def forward(self, input_ids):
        return self.encoder(self.embeddings(input_ids))

device = torch.device("cuda", 0)
model = TinyBert().to(device)
input_ids = torch.tensor([[101, 7, 42, 13, 102]])
'''
CELL = '''
hidden_states = model(input_ids)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["input_ids"]
FIX = "namespace"
REFERENCE_FIX = '''
input_ids = input_ids.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
