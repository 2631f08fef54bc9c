"""PyPOTS SAITS on a GPU: the diagonal attention mask `torch.eye(d_time)` is built on the CPU in the encoder layer.

Source: https://github.com/WenjieDu/PyPOTS/issues/3
Running the SAITS tests on a GPU machine (pypots 0.0.6) failed with "expected self and mask to be
on the same device, but got mask on cpu and self on cuda:0": SAITS's `EncoderLayer.forward` makes
its diagonal mask with `torch.eye(self.d_time)` and the attention does
`attn.masked_fill(attn_mask == 1, -1e9)` on the GPU scores. Current PyPOTS builds it with
`torch.eye(self.d_time).to(enc_input.device)`. Stand-in: one SAITS encoder layer and its attention.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class ScaledDotProductAttention(nn.Module):
    def __init__(self, temperature, attn_dropout=0.1):
        super().__init__()
        self.temperature = temperature
        self.dropout = nn.Dropout(attn_dropout)

    def forward(self, q, k, v, attn_mask=None):
        attn = torch.matmul(q / self.temperature, k.transpose(2, 3))
        if attn_mask is not None:
            attn = attn.masked_fill(attn_mask == 1, -1e9)
        attn = self.dropout(F.softmax(attn, dim=-1))
        return torch.matmul(attn, v), attn

class MultiHeadAttention(nn.Module):
    def __init__(self, n_head, d_model, d_k, d_v, attn_dropout):
        super().__init__()
        self.n_head, self.d_k, self.d_v = n_head, d_k, d_v
        self.w_qs = nn.Linear(d_model, n_head * d_k, bias=False)
        self.w_ks = nn.Linear(d_model, n_head * d_k, bias=False)
        self.w_vs = nn.Linear(d_model, n_head * d_v, bias=False)
        self.attention = ScaledDotProductAttention(d_k ** 0.5, attn_dropout)
        self.fc = nn.Linear(n_head * d_v, d_model, bias=False)

    def forward(self, q, k, v, attn_mask=None):
        b, n = q.size(0), q.size(1)
        q = self.w_qs(q).view(b, n, self.n_head, self.d_k).transpose(1, 2)
        k = self.w_ks(k).view(b, n, self.n_head, self.d_k).transpose(1, 2)
        v = self.w_vs(v).view(b, n, self.n_head, self.d_v).transpose(1, 2)
        if attn_mask is not None:
            attn_mask = attn_mask.unsqueeze(0).unsqueeze(1)
        v, attn_weights = self.attention(q, k, v, attn_mask)
        v = v.transpose(1, 2).contiguous().view(b, n, -1)
        return self.fc(v), attn_weights

class EncoderLayer(nn.Module):
    def __init__(self, d_time, d_feature, d_model, d_inner, n_head, d_k, d_v, dropout=0.1,
                 attn_dropout=0.1, diagonal_attention_mask=True):
        super().__init__()
        self.diagonal_attention_mask = diagonal_attention_mask
        self.d_time = d_time
        self.d_feature = d_feature
        self.layer_norm = nn.LayerNorm(d_model)
        self.slf_attn = MultiHeadAttention(n_head, d_model, d_k, d_v, attn_dropout)
        self.dropout = nn.Dropout(dropout)
        self.pos_ffn = nn.Sequential(nn.Linear(d_model, d_inner), nn.ReLU(), nn.Linear(d_inner, d_model))

    def forward(self, enc_input):
        if self.diagonal_attention_mask:
            mask_time = torch.eye(self.d_time)
        else:
            mask_time = None
        residual = enc_input
        enc_input = self.layer_norm(enc_input)
        enc_output, attn_weights = self.slf_attn(enc_input, enc_input, enc_input, attn_mask=mask_time)
        enc_output = self.dropout(enc_output) + residual
        return self.pos_ffn(enc_output), attn_weights

class SAITS(nn.Module):
    def __init__(self, d_time=24, d_feature=7, d_model=32, d_inner=64, n_head=1, d_k=32, d_v=32):
        super().__init__()
        self.embedding_1 = nn.Linear(d_feature * 2, d_model)
        self.layer_stack_for_first_block = nn.ModuleList(
            [EncoderLayer(d_time, d_feature, d_model, d_inner, n_head, d_k, d_v) for _ in range(2)])
        self.reduce_dim_z = nn.Linear(d_model, d_feature)

    def forward(self, X, masks):
        enc_output = self.embedding_1(torch.cat([X, masks], dim=2))
        for encoder_layer in self.layer_stack_for_first_block:
            enc_output, _ = encoder_layer(enc_output)
        X_tilde_1 = self.reduce_dim_z(enc_output)
        return masks * X + (1 - masks) * X_tilde_1

device = torch.device("cuda:0")
saits = SAITS().to(device)
saits.eval()                                   # imputation after training
X = torch.randn(16, 24, 7).to(device)
missing_mask = (torch.rand(16, 24, 7) > 0.2).float().to(device)
'''
CELL = '''
imputed = saits(X * missing_mask, missing_mask)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device",
                "expected self and mask to be on the same device")
CULPRITS = ["saits"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("mask_time = torch.eye(self.d_time)", "mask_time = torch.eye(self.d_time).to(enc_input.device)")
CLEAN = False
