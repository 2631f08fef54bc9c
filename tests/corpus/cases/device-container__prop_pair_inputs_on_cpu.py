"""A model-input object with nested tensors (a BatchEncoding and masks) left on the CPU.

Source: https://github.com/schen149/sub-sentence-encoder/issues/1
Following the README, the user built `sent1_inputs` / `sent2_inputs` (PropPairModelInput objects
holding `encoder_inputs`, a tokenizer BatchEncoding, plus `all_prop_mask` and
`num_prop_per_sentence`) and called the GPU model: "Expected all tensors to be on the same
device ... (when checking argument for argument index in method wrapper_CUDA__index_select)".
The user's fix moved each attribute (and each `encoder_inputs.data[k]`) to cuda; the maintainer
pointed to the object's own `.to("cuda")`. Stand-in: the input class, a dict-backed encoding and
an embedding + masked pooling model.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
from collections import UserDict
import torch
from torch import nn

class BatchEncoding(UserDict):
    def to(self, device):
        self.data = {k: v.to(device) for k, v in self.data.items()}
        return self

class PropPairModelInput:
    def __init__(self, encoder_inputs, all_prop_mask, num_prop_per_sentence):
        self.encoder_inputs = encoder_inputs
        self.all_prop_mask = all_prop_mask
        self.num_prop_per_sentence = num_prop_per_sentence

    def to(self, device):
        self.encoder_inputs.to(device)
        self.all_prop_mask = self.all_prop_mask.to(device)
        self.num_prop_per_sentence = self.num_prop_per_sentence.to(device)

class SubSentenceEncoder(nn.Module):
    def __init__(self, vocab=1000, hidden=32):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, hidden)
        self.proj = nn.Linear(hidden, hidden)

    def forward(self, inputs):
        ids = inputs.encoder_inputs["input_ids"]
        h = self.proj(self.embeddings(ids))                       # (batch, seq, hidden)
        mask = inputs.all_prop_mask.float()                       # (batch, props, seq)
        pooled = torch.bmm(mask, h) / mask.sum(-1, keepdim=True).clamp(min=1)
        return pooled

model = SubSentenceEncoder().to("cuda:0")
sent1_inputs = PropPairModelInput(
    BatchEncoding({"input_ids": torch.randint(0, 1000, (2, 12)),
                   "attention_mask": torch.ones(2, 12, dtype=torch.long)}),
    all_prop_mask=torch.ones(2, 3, 12, dtype=torch.bool),
    num_prop_per_sentence=torch.tensor([3, 3]),
)
'''
CELL = '''
sent1_embeddings = model(sent1_inputs)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["sent1_inputs.encoder_inputs['input_ids']", "sent1_inputs.all_prop_mask"]
FIX = "namespace"
REFERENCE_FIX = '''
sent1_inputs.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
