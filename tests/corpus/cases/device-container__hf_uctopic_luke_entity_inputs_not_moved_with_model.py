"""UCTopic (LUKE-based phrase encoder): after `model.to("cuda:0")` the tokenizer's entity-span inputs stay on the CPU.

Source: https://github.com/JiachengLi1995/UCTopic/issues/1
The README example runs on the CPU; the user moves the model with `model = model.to("cuda:0")` to use it inside a
GPU contrastive model and re-runs `outputs, phrase_repr = model(**inputs)`: "Expected all tensors to be on the
same device, but found at least two devices, cuda:0 and cpu! (when checking argument for argument index in method
wrapper__index_select)" in LUKE's embeddings. `inputs` from `UCTopicTokenizer(text, entity_spans=...,
return_tensors="pt")` (input_ids, attention_mask, entity_ids, entity_position_ids, ...) was never moved.
Stand-ins: a BatchEncoding with LUKE's entity fields and a tiny LUKE-style encoder with the phrase pooling.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
from torch import nn

class BatchEncoding(dict):
    def to(self, device):
        return BatchEncoding({k: v.to(device) for k, v in self.items()})

class UCTopicTokenizer:
    def __call__(self, text, entity_spans=None, add_prefix_space=True, return_tensors="pt"):
        words = text.split()
        ids = [0] + [(sum(map(ord, w)) % 50000) + 3 for w in words] + [2]
        start, end = entity_spans[0]
        first = len(text[:start].split()) + 1
        last = len(text[:end].split())
        positions = list(range(first, last + 1)) + [-1] * (30 - (last - first + 1))
        return BatchEncoding(input_ids=torch.tensor([ids]), attention_mask=torch.ones(1, len(ids), dtype=torch.long),
                             entity_ids=torch.tensor([[2]]), entity_attention_mask=torch.ones(1, 1, dtype=torch.long),
                             entity_position_ids=torch.tensor([positions]))

class UCTopic(nn.Module):
    def __init__(self, vocab_size=50265, entity_vocab=3, hidden=32):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab_size, hidden)
        self.entity_embeddings = nn.Embedding(entity_vocab, hidden)
        self.encoder = nn.Linear(hidden, hidden)
        self.mlp = nn.Linear(hidden, hidden)

    def forward(self, input_ids, attention_mask, entity_ids, entity_attention_mask, entity_position_ids):
        words = torch.tanh(self.encoder(self.word_embeddings(input_ids)))
        pos = entity_position_ids.clamp(min=0)
        span = torch.gather(words, 1, pos[..., None].expand(*pos.shape, words.size(-1)).reshape(pos.size(0), -1, words.size(-1)))
        keep = (entity_position_ids != -1).unsqueeze(-1).reshape(pos.size(0), -1, 1)
        entity = self.entity_embeddings(entity_ids) + (span * keep).sum(1, keepdim=True) / keep.sum(1, keepdim=True)
        phrase_repr = self.mlp(entity[:, 0])
        return words, phrase_repr

tokenizer = UCTopicTokenizer()              # UCTopicTokenizer.from_pretrained('JiachengLi/uctopic-base')
model = UCTopic()                           # UCTopic.from_pretrained('JiachengLi/uctopic-base')
text = "Beyoncé lives in Los Angeles."
entity_spans = [(17, 28)]
inputs = tokenizer(text, entity_spans=entity_spans, add_prefix_space=True, return_tensors="pt")
model = model.to("cuda:0")
'''
CELL = '''
outputs, phrase_repr = model(**inputs)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["inputs"]
FIX = "namespace"
REFERENCE_FIX = '''
inputs = inputs.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
