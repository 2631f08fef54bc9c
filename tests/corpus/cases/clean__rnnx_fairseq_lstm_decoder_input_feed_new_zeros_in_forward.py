"""Look-alike: fairseq's LSTMDecoder creates its input-feed and attention-score buffers inside `forward` with `x.new_zeros(...)`.

Source: https://github.com/facebookresearch/fairseq/blob/main/fairseq/models/lstm.py
`LSTMDecoder.extract_features` embeds `prev_output_tokens`, takes the encoder's final hidden and
cell states as the LSTMCell layers' initial state, and allocates `input_feed = x.new_zeros(bsz,
self.hidden_size)` and `attn_scores = x.new_zeros(srclen, seqlen, bsz)` on the fly; each step
concatenates the previous attention output (input feeding), runs the LSTMCell stack and the
`AttentionLayer` (which `masked_fill_`s padded source positions with -inf). Tensors made inside a
decoder's forward with no `device=` look like the classic CPU hidden-state bug, but `new_zeros`
follows the embedded tokens. Reduced: the encoder output tuple is given directly (the
LSTMEncoder's job), tiny sizes, teacher-forced targets; the GPU is meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

def Linear(in_features, out_features, bias=True, dropout=0.0):
    m = nn.Linear(in_features, out_features, bias=bias)
    m.weight.data.uniform_(-0.1, 0.1)
    if bias:
        m.bias.data.uniform_(-0.1, 0.1)
    return m

class AttentionLayer(nn.Module):
    def __init__(self, input_embed_dim, source_embed_dim, output_embed_dim, bias=False):
        super().__init__()
        self.input_proj = Linear(input_embed_dim, source_embed_dim, bias=bias)
        self.output_proj = Linear(input_embed_dim + source_embed_dim, output_embed_dim, bias=bias)

    def forward(self, input, source_hids, encoder_padding_mask):
        x = self.input_proj(input)
        attn_scores = (source_hids * x.unsqueeze(0)).sum(dim=2)
        if encoder_padding_mask is not None:
            attn_scores = attn_scores.float().masked_fill_(encoder_padding_mask, float("-inf")).type_as(attn_scores)
        attn_scores = F.softmax(attn_scores, dim=0)
        x = (attn_scores.unsqueeze(2) * source_hids).sum(dim=0)
        x = torch.tanh(self.output_proj(torch.cat((x, input), dim=1)))
        return x, attn_scores

class LSTMDecoder(nn.Module):
    """Stand-in for fairseq.models.lstm.LSTMDecoder (no incremental state, input feeding)."""
    def __init__(self, num_embeddings, embed_dim=8, hidden_size=16, out_embed_dim=16,
                 num_layers=2, encoder_output_units=16, padding_idx=1):
        super().__init__()
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.embed_tokens = nn.Embedding(num_embeddings, embed_dim, padding_idx)
        self.layers = nn.ModuleList([
            nn.LSTMCell(input_size=hidden_size + embed_dim if layer == 0 else hidden_size,
                        hidden_size=hidden_size)
            for layer in range(num_layers)
        ])
        self.attention = AttentionLayer(hidden_size, encoder_output_units, hidden_size, bias=False)
        self.fc_out = Linear(out_embed_dim, num_embeddings)

    def forward(self, prev_output_tokens, encoder_out):
        encoder_outs, encoder_hiddens, encoder_cells, encoder_padding_mask = encoder_out
        srclen = encoder_outs.size(0)
        bsz, seqlen = prev_output_tokens.size()
        x = self.embed_tokens(prev_output_tokens)
        x = x.transpose(0, 1)
        prev_hiddens = [encoder_hiddens[i] for i in range(self.num_layers)]
        prev_cells = [encoder_cells[i] for i in range(self.num_layers)]
        input_feed = x.new_zeros(bsz, self.hidden_size)
        attn_scores = x.new_zeros(srclen, seqlen, bsz)
        outs = []
        for j in range(seqlen):
            input = torch.cat((x[j, :, :], input_feed), dim=1)
            for i, rnn in enumerate(self.layers):
                hidden, cell = rnn(input, (prev_hiddens[i], prev_cells[i]))
                input = hidden
                prev_hiddens[i] = hidden
                prev_cells[i] = cell
            out, attn_scores[:, j, :] = self.attention(hidden, encoder_outs, encoder_padding_mask)
            input_feed = out
            outs.append(out)
        x = torch.cat(outs, dim=0).view(seqlen, bsz, self.hidden_size)
        x = x.transpose(1, 0)
        return self.fc_out(x), attn_scores.transpose(0, 2)

device = torch.device("meta")        # the GPU the trainer put the model and sample on
decoder = LSTMDecoder(num_embeddings=30).to(device)
srclen, bsz = 6, 3
encoder_out = (
    torch.randn(srclen, bsz, 16, device=device),          # encoder_outs  T x B x C
    torch.randn(2, bsz, 16, device=device),               # final_hiddens
    torch.randn(2, bsz, 16, device=device),               # final_cells
    torch.zeros(srclen, bsz, dtype=torch.bool, device=device),  # encoder_padding_mask
)
prev_output_tokens = torch.randint(2, 30, (bsz, 5)).to(device)
'''
CELL = '''
with torch.no_grad():
    logits, attn = decoder(prev_output_tokens, encoder_out)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
