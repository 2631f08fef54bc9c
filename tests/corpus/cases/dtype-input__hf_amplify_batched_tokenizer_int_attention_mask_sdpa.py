"""AMPLIFY protein LM from the Hugging Face hub: a batched forward with the tokenizer's integer attention_mask fails in scaled_dot_product_attention.

Source: https://github.com/chandar-lab/AMPLIFY/issues/16
Running a batch through `AutoModel.from_pretrained("chandar-lab/AMPLIFY_120M", trust_remote_code=True)` with the
tokenizer's output, "feeding the model the attention mask tensor throws an error because the tokenizer makes the
attention mask as integers whereas a downstream step expects floats"; casting it to float before the forward
works. The remote code repeats the mask per head and hands it to `scaled_dot_product_attention` as `attn_mask`,
which takes bool or the query's float dtype, not int64. Stand-ins: the tokenizer's padded batch (additive-mask
convention: 0 keep, -inf pad) and a one-layer AMPLIFY-style encoder with the remote code's mask handling.
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn
from torch.nn.functional import scaled_dot_product_attention

class AMPLIFY(nn.Module):
    def __init__(self, vocab_size=27, hidden=32, num_attention_heads=4):
        super().__init__()
        self.num_attention_heads, self.head_dim = num_attention_heads, hidden // num_attention_heads
        self.encoder = nn.Embedding(vocab_size, hidden, padding_idx=0)
        self.qkv = nn.Linear(hidden, 3 * hidden, bias=False)
        self.wo = nn.Linear(hidden, hidden, bias=False)
        self.decoder = nn.Linear(hidden, vocab_size)

    def forward(self, src, pad_mask=None, output_hidden_states=False):
        if pad_mask is not None and not torch.all(pad_mask == 0):
            pad_mask = pad_mask.unsqueeze(1).unsqueeze(1).repeat(1, self.num_attention_heads, pad_mask.size(-1), 1)
        else:
            pad_mask = None
        x = self.encoder(src)
        b, n, _ = x.shape
        xq, xk, xv = self.qkv(x).view(b, n, 3, self.num_attention_heads, self.head_dim).unbind(2)
        attn = scaled_dot_product_attention(xq.transpose(1, 2), xk.transpose(1, 2), xv.transpose(1, 2),
                                            attn_mask=pad_mask, dropout_p=0)
        x = x + self.wo(attn.transpose(1, 2).reshape(b, n, -1))
        return self.decoder(x)

class AMPLIFYTokenizer:
    def __call__(self, sequences, return_tensors="pt", padding=True):
        ids = [[1] + [ord(c) % 20 + 5 for c in s] + [2] for s in sequences]
        n = max(len(x) for x in ids)
        return {"input_ids": torch.tensor([x + [0] * (n - len(x)) for x in ids]),
                # remote tokenizer: 0 where attended, 1 on padding, as an integer tensor
                "attention_mask": torch.tensor([[0] * len(x) + [1] * (n - len(x)) for x in ids])}

model = AMPLIFY()                               # AutoModel.from_pretrained("chandar-lab/AMPLIFY_120M", trust_remote_code=True)
tokenizer = AMPLIFYTokenizer()
sequences = ["MSVEQKLAAGLTRAE", "MKTAYIAKQR"]
inputs = tokenizer(sequences, return_tensors="pt", padding=True)
'''
CELL = '''
with torch.no_grad():
    logits = model(inputs["input_ids"], inputs["attention_mask"])
'''
EXPECT_ERROR = "Expected attn_mask dtype to be bool or float or to match query dtype"
CULPRITS = ["inputs['attention_mask']"]
FIX = "namespace"
REFERENCE_FIX = '''
inputs["attention_mask"] = inputs["attention_mask"].float().masked_fill(inputs["attention_mask"] == 1, float("-inf"))
'''
REFERENCE_EDIT = None
CLEAN = False
