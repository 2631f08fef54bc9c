"""Look-alike: flair mean subtoken pooling on a bfloat16 transformer after the fix: the masks are cast to the storage dtype.

Source: https://github.com/flairNLP/flair/pull/3651
"fix: cast src to the correct type in scatter_add call": `fill_mean_token_embeddings` multiplies the
bf16 hidden states by `mask.unsqueeze(-1).to(all_token_embeddings.dtype)` and counts subtokens with
`mask.to(subtoken_counts.dtype)`, so both scatter_add_ calls get bf16 sources. A bool mask, int64 word
ids and bf16 states in one function, all consistent. Stand-ins as in the bug case.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def fill_mean_token_embeddings(
    all_token_embeddings: torch.Tensor,
    sentence_hidden_states: torch.Tensor,
    word_ids: torch.Tensor,
    token_lengths: torch.Tensor,
):
    batch_size, max_tokens, embedding_dim = all_token_embeddings.shape
    mask = word_ids >= 0

    # sum embeddings for each token
    all_token_embeddings.scatter_add_(
        1,
        word_ids.clamp(min=0).unsqueeze(-1).expand(-1, -1, embedding_dim),
        sentence_hidden_states * mask.unsqueeze(-1).to(all_token_embeddings.dtype),
    )

    # calculate the mean of subtokens
    subtoken_counts = torch.zeros_like(all_token_embeddings[:, :, 0])
    subtoken_counts.scatter_add_(1, word_ids.clamp(min=0), mask.to(subtoken_counts.dtype))
    all_token_embeddings = torch.where(
        subtoken_counts.unsqueeze(-1) > 0,
        all_token_embeddings / subtoken_counts.unsqueeze(-1),
        torch.zeros_like(all_token_embeddings),
    )

    # Create a mask for valid tokens based on token_lengths
    token_mask = torch.arange(max_tokens, device=token_lengths.device)[None, :] < token_lengths[:, None]
    all_token_embeddings = all_token_embeddings * token_mask.unsqueeze(-1)
    return torch.nan_to_num(all_token_embeddings)

class Encoder(nn.Module):
    def __init__(self, vocab=200, dim=16):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, dim)
        self.layer = nn.TransformerEncoderLayer(dim, nhead=2, dim_feedforward=32, batch_first=True)

    def forward(self, input_ids):
        return self.layer(self.embeddings(input_ids))

class TransformerWordEmbeddings:
    """flair.embeddings.TransformerWordEmbeddings reduced: subtoken states -> mean-pooled word vectors."""
    def __init__(self, model, subtoken_pooling="mean"):
        self.model, self.subtoken_pooling = model, subtoken_pooling

    def embed(self, input_ids, word_ids, token_lengths):
        with torch.no_grad():
            sentence_hidden_states = self.model(input_ids)
        all_token_embeddings = torch.zeros(
            word_ids.shape[0], int(token_lengths.max()), sentence_hidden_states.shape[-1],
            dtype=sentence_hidden_states.dtype, device=sentence_hidden_states.device,
        )
        return fill_mean_token_embeddings(all_token_embeddings, sentence_hidden_states, word_ids, token_lengths)

model = Encoder().to(torch.bfloat16).eval()          # the transformer (a PEFT model) loaded in bfloat16
embeddings = TransformerWordEmbeddings(model)
# "flair embeds text": 6 subtokens -> 4 words, -1 for special tokens
input_ids = torch.tensor([[101, 17, 18, 25, 31, 102]])
word_ids = torch.tensor([[-1, 0, 0, 1, 2, -1]])
token_lengths = torch.tensor([3])
'''
CELL = '''
word_embeddings = embeddings.embed(input_ids, word_ids, token_lengths)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
