"""Time-LLM with the GPT2 backbone: `forecast` casts `x_enc` to bfloat16 but the model was left in float32.

Source: https://github.com/KimMeen/Time-LLM/issues/101
Running scripts/TimeLLM_ETTh1.sh with `--llm_model GPT2` (torch 1.12) fails in
`self.patch_embedding(x_enc.to(torch.bfloat16))` -> TokenEmbedding's Conv1d with "expected scalar
type BFloat16 but found Float"; the user confirmed `x` is BFloat16. The maintainer's diagnosis: a
mismatch between the BFloat16 data and the model's dtype -- the repo's forward hard-codes the bf16
cast and relies on the accelerate/DeepSpeed bf16 config to put the model in bf16, which this run did
not do, so the Conv1d weights stayed float32. Putting the model in bfloat16 makes it run.
Stand-ins: Time-LLM's PatchEmbedding/TokenEmbedding, a two-layer "GPT2" block, a FlattenHead; the
reprogramming layer and prompt are left out. CPU (dtype bug only).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class TokenEmbedding(nn.Module):
    def __init__(self, c_in, d_model):
        super().__init__()
        self.tokenConv = nn.Conv1d(c_in, d_model, kernel_size=3, padding=1,
                                   padding_mode='circular', bias=False)

    def forward(self, x):
        return self.tokenConv(x.permute(0, 2, 1)).transpose(1, 2)

class PatchEmbedding(nn.Module):
    def __init__(self, d_model, patch_len, stride, dropout):
        super().__init__()
        self.patch_len, self.stride = patch_len, stride
        self.padding_patch_layer = nn.ReplicationPad1d((0, stride))
        self.value_embedding = TokenEmbedding(patch_len, d_model)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        n_vars = x.shape[1]
        x = self.padding_patch_layer(x)
        x = x.unfold(dimension=-1, size=self.patch_len, step=self.stride)
        x = torch.reshape(x, (x.shape[0] * x.shape[1], x.shape[2], x.shape[3]))
        x = self.value_embedding(x)
        return self.dropout(x), n_vars

class GPT2Stub(nn.Module):
    """stand-in for the frozen GPT2 backbone (d_llm hidden states in, hidden states out)"""
    def __init__(self, d_llm):
        super().__init__()
        self.h = nn.Sequential(nn.Linear(d_llm, d_llm), nn.GELU(), nn.Linear(d_llm, d_llm))

    def forward(self, inputs_embeds):
        return self.h(inputs_embeds)

class Model(nn.Module):
    def __init__(self, configs):
        super().__init__()
        self.pred_len, self.seq_len = configs.pred_len, configs.seq_len
        self.patch_embedding = PatchEmbedding(configs.d_model, configs.patch_len, configs.stride, configs.dropout)
        self.to_llm = nn.Linear(configs.d_model, configs.llm_dim)
        self.llm_model = GPT2Stub(configs.llm_dim)
        self.patch_nums = int((configs.seq_len - configs.patch_len) / configs.stride + 2)
        self.output_projection = nn.Linear(configs.llm_dim * self.patch_nums, configs.pred_len)

    def forecast(self, x_enc, x_mark_enc, x_dec, x_mark_dec):
        means = x_enc.mean(1, keepdim=True).detach()
        x_enc = x_enc - means
        stdev = torch.sqrt(torch.var(x_enc, dim=1, keepdim=True, unbiased=False) + 1e-5)
        x_enc = x_enc / stdev
        B, T, N = x_enc.size()
        x_enc = x_enc.permute(0, 2, 1).contiguous()
        enc_out, n_vars = self.patch_embedding(x_enc.to(torch.bfloat16))
        dec_out = self.llm_model(inputs_embeds=self.to_llm(enc_out))
        dec_out = self.output_projection(dec_out.reshape(B * n_vars, -1))
        dec_out = dec_out.reshape(B, n_vars, -1).permute(0, 2, 1).contiguous()
        return dec_out * stdev[:, 0:1, :] + means[:, 0:1, :]

    def forward(self, x_enc, x_mark_enc, x_dec, x_mark_dec, mask=None):
        dec_out = self.forecast(x_enc, x_mark_enc, x_dec, x_mark_dec)
        return dec_out[:, -self.pred_len:, :]

class Args:
    seq_len, label_len, pred_len = 96, 48, 96
    d_model, patch_len, stride, dropout, llm_dim = 16, 16, 8, 0.1, 64
    enc_in = 7

args = Args()
model = Model(args).float()     # --llm_model GPT2, no DeepSpeed bf16 cast of the model

batch_x = torch.randn(4, args.seq_len, args.enc_in)
batch_y = torch.randn(4, args.label_len + args.pred_len, args.enc_in)
batch_x_mark = torch.randn(4, args.seq_len, 4)
batch_y_mark = torch.randn(4, args.label_len + args.pred_len, 4)
dec_inp = torch.zeros_like(batch_y[:, -args.pred_len:, :]).float()
dec_inp = torch.cat([batch_y[:, :args.label_len, :], dec_inp], dim=1).float()
'''
CELL = '''
with torch.no_grad():
    outputs = model(batch_x, batch_x_mark, dec_inp, batch_y_mark)
'''
EXPECT_ERROR = ("should be the same", "expected scalar type", "same dtype")
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
model = model.to(torch.bfloat16)
'''
REFERENCE_EDIT = None
CLEAN = False
