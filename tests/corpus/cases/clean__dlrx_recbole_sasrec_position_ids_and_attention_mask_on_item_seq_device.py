"""Look-alike: RecBole's SASRec creates position ids and the causal mask inside forward, on the device of `item_seq`.

Source: https://github.com/RUCAIBox/RecBole/blob/master/recbole/model/sequential_recommender/sasrec.py
`forward(item_seq, item_seq_len)` does `position_ids = torch.arange(item_seq.size(1), dtype=torch.long,
device=item_seq.device)`, builds the extended attention mask from `item_seq` (`torch.tril(...)` of the
padding mask, then `torch.where(mask, 0.0, -10000.0)`), and picks the last position with
`gather_indexes(output, item_seq_len - 1)`. Tensors made in forward, all on the input's device, an
`item_seq_len` lookup by gather: runs on cuda:0. Stand-in: the embeddings, one attention layer written
with matmuls, and the model's `gather_indexes` and `get_attention_mask`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class SASRec(nn.Module):
    def __init__(self, n_items=100, hidden_size=16, max_seq_length=20):
        super().__init__()
        self.item_embedding = nn.Embedding(n_items, hidden_size, padding_idx=0)
        self.position_embedding = nn.Embedding(max_seq_length, hidden_size)
        self.query = nn.Linear(hidden_size, hidden_size)
        self.LayerNorm = nn.LayerNorm(hidden_size, eps=1e-12)

    def gather_indexes(self, output, gather_index):
        gather_index = gather_index.view(-1, 1, 1).expand(-1, -1, output.shape[-1])
        output_tensor = output.gather(dim=1, index=gather_index)
        return output_tensor.squeeze(1)

    def get_attention_mask(self, item_seq, bidirectional=False):
        attention_mask = item_seq != 0
        extended_attention_mask = attention_mask.unsqueeze(1).unsqueeze(2)
        if not bidirectional:
            extended_attention_mask = torch.tril(extended_attention_mask.expand((-1, -1, item_seq.size(-1), -1)))
        extended_attention_mask = torch.where(extended_attention_mask, 0.0, -10000.0)
        return extended_attention_mask

    def forward(self, item_seq, item_seq_len):
        position_ids = torch.arange(item_seq.size(1), dtype=torch.long, device=item_seq.device)
        position_ids = position_ids.unsqueeze(0).expand_as(item_seq)
        input_emb = self.LayerNorm(self.item_embedding(item_seq) + self.position_embedding(position_ids))
        extended_attention_mask = self.get_attention_mask(item_seq)
        scores = (self.query(input_emb) @ input_emb.transpose(1, 2)).unsqueeze(1) + extended_attention_mask
        output = (torch.softmax(scores, dim=-1).squeeze(1) @ input_emb)
        return self.gather_indexes(output, item_seq_len - 1)

device = torch.device("cuda:0")
model = SASRec().to(device)
item_seq = torch.randint(1, 100, (8, 20)).to(device)
item_seq_len = torch.randint(1, 21, (8,)).to(device)
test_items_emb = model.item_embedding.weight
'''
CELL = '''
with torch.no_grad():
    seq_output = model(item_seq, item_seq_len)
    scores = torch.matmul(seq_output, test_items_emb.transpose(0, 1))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
