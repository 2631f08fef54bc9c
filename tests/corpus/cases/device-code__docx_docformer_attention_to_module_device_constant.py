"""DocFormer encoder run off the GPU on a CUDA machine: `MultiModalAttentionLayer.forward` sends q/k/v to a module-level `DEVICE` while its relative-position table stays with the model.

Source: https://github.com/shabie/docformer/issues/30
`output = docformer(v_bar, t_bar, v_bar_s, t_bar_s)` failed with "Expected all tensors to be on the same
device, but found at least two devices, cuda:0 and cpu! (when checking argument for argument mat2 in
method wrapper_bmm)" inside `einsum`. `modeling.py` set `DEVICE = "cuda" if
torch.cuda.is_available() else "cpu"` at import and wrote `rearrange(self.fc_k_text(text_feat),
...).to(DEVICE)` (and `self.scale.to(DEVICE)`) in the attention, so q/k/v go to CUDA while the
relative-position embeddings come from the (CPU) model. The maintainer: remove all the `.to(device)`
parts in those lines (and make `scale` a float), committed in 9681543. Stand-in: the encoder with one
block, the text half of the attention (the image half repeats it), `rearrange` written with
`view`/`permute` (no einops), `scale` left as the original tensor since the edit only drops `.to(DEVICE)`.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

device = "cuda:0"                # "cuda" if torch.cuda.is_available() else "cpu"
DEVICE = device

def heads(x, n_heads):
    b, t, d = x.shape            # rearrange(x, 'b t (head k) -> head b t k', head=n_heads)
    return x.view(b, t, n_heads, d // n_heads).permute(2, 0, 1, 3)

class RelativePosition(nn.Module):
    def __init__(self, num_units, max_relative_position, max_seq_length):
        super().__init__()
        self.num_units = num_units
        self.max_relative_position = max_relative_position
        self.embeddings_table = nn.Parameter(torch.Tensor(max_relative_position * 2 + 1, num_units))
        range_vec_q = torch.arange(max_seq_length)
        range_vec_k = torch.arange(max_seq_length)
        distance_mat = range_vec_k[None, :] - range_vec_q[:, None]
        distance_mat_clipped = torch.clamp(distance_mat, -self.max_relative_position, self.max_relative_position)
        self.final_mat = distance_mat_clipped + self.max_relative_position
        nn.init.xavier_uniform_(self.embeddings_table)

    def forward(self, length_q, length_k):
        return self.embeddings_table[self.final_mat[:length_q, :length_k]]

class MultiModalAttentionLayer(nn.Module):
    def __init__(self, embed_dim, n_heads, max_relative_position, max_seq_length, dropout):
        super().__init__()
        self.embed_dim, self.n_heads, self.head_dim = embed_dim, n_heads, embed_dim // n_heads
        self.relative_positions_text = RelativePosition(self.head_dim, max_relative_position, max_seq_length)
        self.fc_k_text = nn.Linear(embed_dim, embed_dim)
        self.fc_q_text = nn.Linear(embed_dim, embed_dim)
        self.fc_v_text = nn.Linear(embed_dim, embed_dim)
        self.fc_k_spatial = nn.Linear(embed_dim, embed_dim)
        self.fc_q_spatial = nn.Linear(embed_dim, embed_dim)
        self.dropout = nn.Dropout(dropout)
        self.to_out = nn.Sequential(nn.Linear(embed_dim, embed_dim), nn.Dropout(dropout))
        self.scale = torch.sqrt(torch.FloatTensor([embed_dim]))

    def forward(self, text_feat, img_feat, text_spatial_feat, img_spatial_feat):
        seq_length = text_feat.shape[1]
        key_text_nh = heads(self.fc_k_text(text_feat), self.n_heads).to(DEVICE)
        query_text_nh = heads(self.fc_q_text(text_feat), self.n_heads).to(DEVICE)
        value_text_nh = heads(self.fc_v_text(text_feat), self.n_heads).to(DEVICE)
        dots_text = torch.einsum('hblk,hbtk->hblt', query_text_nh, key_text_nh) / self.scale.to(DEVICE)
        rel_pos_embed_text = self.relative_positions_text(seq_length, seq_length)
        rel_pos_key_text = torch.einsum('bhrd,lrd->bhlr', key_text_nh, rel_pos_embed_text)
        rel_pos_query_text = torch.einsum('bhld,lrd->bhlr', query_text_nh, rel_pos_embed_text)
        key_spatial_text_nh = heads(self.fc_k_spatial(text_spatial_feat), self.n_heads)
        query_spatial_text_nh = heads(self.fc_q_spatial(text_spatial_feat), self.n_heads)
        dots_text_spatial = torch.einsum('hblk,hbtk->hblt', query_spatial_text_nh, key_spatial_text_nh) / self.scale.to(DEVICE)
        text_attn_scores = dots_text + rel_pos_key_text + rel_pos_query_text + dots_text_spatial
        text_attn_probs = self.dropout(torch.softmax(text_attn_scores, dim=-1))
        context = torch.einsum('hblt,hbtv->hblv', text_attn_probs, value_text_nh)
        embeddings = context.permute(1, 2, 0, 3).flatten(2)     # rearrange(context, 'head b t d -> b t (head d)')
        return self.to_out(embeddings)

class PreNorm(nn.Module):
    def __init__(self, dim, fn):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        self.fn = fn
    def forward(self, x, **kwargs):
        return self.fn(self.norm(x), **kwargs)

class PreNormAttn(nn.Module):
    def __init__(self, dim, fn):
        super().__init__()
        self.norm_t_bar = nn.LayerNorm(dim)
        self.norm_v_bar = nn.LayerNorm(dim)
        self.norm_t_bar_s = nn.LayerNorm(dim)
        self.norm_v_bar_s = nn.LayerNorm(dim)
        self.fn = fn
    def forward(self, t_bar, v_bar, t_bar_s, v_bar_s, **kwargs):
        return self.fn(self.norm_t_bar(t_bar), self.norm_v_bar(v_bar), self.norm_t_bar_s(t_bar_s),
                       self.norm_v_bar_s(v_bar_s), **kwargs)

class FeedForward(nn.Module):
    def __init__(self, dim, hidden_dim, dropout=0.):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, hidden_dim), nn.GELU(), nn.Dropout(dropout),
                                 nn.Linear(hidden_dim, dim), nn.Dropout(dropout))
    def forward(self, x):
        return self.net(x)

class DocFormerEncoder(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.layers = nn.ModuleList([])
        for _ in range(config['num_hidden_layers']):
            self.layers.append(nn.ModuleList([
                PreNormAttn(config['hidden_size'],
                            MultiModalAttentionLayer(config['hidden_size'], config['num_attention_heads'],
                                                     config['max_relative_positions'],
                                                     config['max_position_embeddings'], config['hidden_dropout_prob'])),
                PreNorm(config['hidden_size'],
                        FeedForward(config['hidden_size'], config['hidden_size'] * config['intermediate_ff_size_factor'],
                                    dropout=config['hidden_dropout_prob']))]))

    def forward(self, text_feat, img_feat, text_spatial_feat, img_spatial_feat):
        for attn, ff in self.layers:
            skip = text_feat + img_feat + text_spatial_feat + img_spatial_feat
            x = attn(text_feat, img_feat, text_spatial_feat, img_spatial_feat) + skip
            x = ff(x) + x
            text_feat = x
        return x

config = {"hidden_size": 32, "num_attention_heads": 4, "max_relative_positions": 8, "max_position_embeddings": 16,
          "hidden_dropout_prob": 0.1, "intermediate_ff_size_factor": 2, "num_hidden_layers": 1}
docformer = DocFormerEncoder(config)
docformer.eval()
v_bar, t_bar, v_bar_s, t_bar_s = (torch.rand(1, 16, 32) for _ in range(4))   # ExtractFeatures(config)(encoding)
'''
CELL = '''
output = docformer(v_bar, t_bar, v_bar_s, t_bar_s)  # shape (1, 512, 768)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["docformer.layers[0][0].fn"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        key_text_nh = heads(self.fc_k_text(text_feat), self.n_heads).to(DEVICE)
        query_text_nh = heads(self.fc_q_text(text_feat), self.n_heads).to(DEVICE)
        value_text_nh = heads(self.fc_v_text(text_feat), self.n_heads).to(DEVICE)
        dots_text = torch.einsum('hblk,hbtk->hblt', query_text_nh, key_text_nh) / self.scale.to(DEVICE)
        rel_pos_embed_text = self.relative_positions_text(seq_length, seq_length)
        rel_pos_key_text = torch.einsum('bhrd,lrd->bhlr', key_text_nh, rel_pos_embed_text)
        rel_pos_query_text = torch.einsum('bhld,lrd->bhlr', query_text_nh, rel_pos_embed_text)
        key_spatial_text_nh = heads(self.fc_k_spatial(text_spatial_feat), self.n_heads)
        query_spatial_text_nh = heads(self.fc_q_spatial(text_spatial_feat), self.n_heads)
        dots_text_spatial = torch.einsum('hblk,hbtk->hblt', query_spatial_text_nh, key_spatial_text_nh) / self.scale.to(DEVICE)""",
                  """        key_text_nh = heads(self.fc_k_text(text_feat), self.n_heads)
        query_text_nh = heads(self.fc_q_text(text_feat), self.n_heads)
        value_text_nh = heads(self.fc_v_text(text_feat), self.n_heads)
        dots_text = torch.einsum('hblk,hbtk->hblt', query_text_nh, key_text_nh) / self.scale
        rel_pos_embed_text = self.relative_positions_text(seq_length, seq_length)
        rel_pos_key_text = torch.einsum('bhrd,lrd->bhlr', key_text_nh, rel_pos_embed_text)
        rel_pos_query_text = torch.einsum('bhld,lrd->bhlr', query_text_nh, rel_pos_embed_text)
        key_spatial_text_nh = heads(self.fc_k_spatial(text_spatial_feat), self.n_heads)
        query_spatial_text_nh = heads(self.fc_q_spatial(text_spatial_feat), self.n_heads)
        dots_text_spatial = torch.einsum('hblk,hbtk->hblt', query_spatial_text_nh, key_spatial_text_nh) / self.scale""")
CLEAN = False
