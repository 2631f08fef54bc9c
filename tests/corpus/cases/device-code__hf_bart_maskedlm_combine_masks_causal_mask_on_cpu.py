"""BartForMaskedLM on the GPU (transformers 2.5.1): `_combine_masks` builds the decoder mask on the CPU.

Source: https://github.com/huggingface/transformers/issues/3104
The reporter trains `BartForMaskedLM` (bart-large) on a GPU with `model(b_in_tensor, lm_labels=b_label_tensor)`
and gets "RuntimeError: expected device cuda:0 but got device cpu". As they point out, `_combine_masks` in
modeling_bart creates its mask tensors without a device, so it lands on the CPU and is added to the decoder's
attention scores on the GPU (the fix passes `device=input_ids.device`). Stand-ins: BART's decoder-input
preparation with `_combine_masks`, one decoder self-attention and the LM head.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

def fill_with_neg_inf(t):
    return t.float().fill_(float("-inf")).type_as(t)

def _combine_masks(key_padding_mask, causal_lm_mask, targ_size):
    a = torch.zeros(targ_size)
    b = torch.zeros(targ_size)
    if key_padding_mask is not None:
        reshaped = key_padding_mask.unsqueeze(2).expand(*targ_size)
        a[reshaped] = 1e-8
    if causal_lm_mask is not None:
        b = causal_lm_mask.unsqueeze(0).expand(*targ_size)
    return (a + b).unsqueeze(1).clamp(min=-1e8)

def _prepare_bart_decoder_inputs(config, input_ids, decoder_input_ids):
    bsz, tgt_len = decoder_input_ids.size()
    decoder_padding_mask = None     # make_padding_mask(...) returns None when the batch has no padding
    causal_lm_mask = torch.triu(fill_with_neg_inf(torch.zeros(tgt_len, tgt_len)), 1)
    new_shape = (bsz, tgt_len, tgt_len)
    decoder_attn_mask = _combine_masks(decoder_padding_mask, causal_lm_mask, new_shape)
    return decoder_input_ids, decoder_attn_mask

class BartForMaskedLM(nn.Module):
    def __init__(self, vocab_size=50265, d_model=32, pad_token_id=1):
        super().__init__()
        self.config = {"pad_token_id": pad_token_id, "vocab_size": vocab_size}
        self.shared = nn.Embedding(vocab_size, d_model, padding_idx=pad_token_id)
        self.encoder = nn.Linear(d_model, d_model)
        self.q_proj, self.k_proj = nn.Linear(d_model, d_model), nn.Linear(d_model, d_model)
        self.lm_head = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, input_ids, lm_labels=None):
        decoder_input_ids = torch.cat([input_ids[:, -1:], input_ids[:, :-1]], dim=1)   # shift_tokens_right
        decoder_input_ids, decoder_attn_mask = _prepare_bart_decoder_inputs(self.config, input_ids, decoder_input_ids)
        enc = torch.tanh(self.encoder(self.shared(input_ids)))
        x = self.shared(decoder_input_ids)
        scores = self.q_proj(x) @ self.k_proj(x).transpose(1, 2) / x.size(-1) ** 0.5
        attn = F.softmax(scores.unsqueeze(1) + decoder_attn_mask, dim=-1).squeeze(1)
        logits = self.lm_head(attn @ x + enc.mean(1, keepdim=True))
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), lm_labels.view(-1)) if lm_labels is not None else None
        return (loss, logits)

device = torch.device("cuda:0")
model = BartForMaskedLM().to(device)          # BartForMaskedLM.from_pretrained('bart-large')
b_in_tensor = torch.randint(3, 50265, (4, 16)).to(device)
b_label_tensor = torch.randint(3, 50265, (4, 16)).to(device)
'''
CELL = '''
outputs = model(b_in_tensor, lm_labels=b_label_tensor)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("    decoder_attn_mask = _combine_masks(decoder_padding_mask, causal_lm_mask, new_shape)",
                  "    decoder_attn_mask = _combine_masks(decoder_padding_mask, causal_lm_mask, new_shape).to(device=input_ids.device)")
CLEAN = False
