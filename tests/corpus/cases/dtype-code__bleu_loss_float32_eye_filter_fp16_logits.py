"""A BLEU-style n-gram loss convolves fp16 model log-probs with a float32 identity filter it builds itself.

Source: https://github.com/Yu-Fangxu/COLD-Attack/issues/20
Running COLD-Attack with an fp16 LLM failed in bleuloss.py at
`term = nn.functional.conv2d(out, eye_filter)/ngram` with "Input type (torch.cuda.HalfTensor) and
weight type (torch.cuda.FloatTensor) should be the same": `out` comes from the half-precision
logits, `eye_filter = torch.eye(ngram)...` is float32. The maintainer agreed to cast both to one
type; the repo now does `conv2d(out, eye_filter.to(out))`. Reduced to the first part of the loss
(dtype bug, so plain CPU; the original `.cuda()` calls are dropped).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn

def batch_log_bleulosscnn_ae(decoder_outputs, target_idx, ngram_list, pad=0):
    decoder_outputs = decoder_outputs.transpose(0, 1)
    batch_size, output_len, vocab_size = decoder_outputs.size()
    _, tgt_len = target_idx.size()
    decoder_outputs = torch.log_softmax(decoder_outputs, dim=-1)
    decoder_outputs = torch.relu(decoder_outputs + 20) - 20
    index = target_idx.unsqueeze(1).expand(-1, output_len, tgt_len)
    cost_nll = decoder_outputs.gather(dim=2, index=index)
    out = cost_nll.unsqueeze(1)
    zero = torch.tensor(0.0)
    target_expand = target_idx.view(batch_size, 1, 1, -1).expand(-1, -1, output_len, -1)
    out = torch.where(target_expand == pad, zero, out)
    sum_gram = 0.
    for ngram in ngram_list:
        if ngram > output_len:
            continue
        eye_filter = torch.eye(ngram).view([1, 1, ngram, ngram])
        term = nn.functional.conv2d(out, eye_filter) / ngram
        term = term.squeeze(1).max(dim=1).values.mean(dim=1)
        sum_gram = sum_gram + term / len(ngram_list)
    return -sum_gram

# logits of the fp16 LLM for 6 generated positions, batch 2, vocab 50
soft_forward_y = torch.randn(6, 2, 50).half()
target_idx = torch.randint(1, 50, (2, 6))
'''
CELL = '''
c_loss_2 = batch_log_bleulosscnn_ae(soft_forward_y, target_idx, ngram_list=[1, 2, 3])
'''
# NB: which message the CPU's conv kernel raises depends on the CPU (its fp16 support)
EXPECT_ERROR = ("Input type (torch.HalfTensor) and weight type (torch.FloatTensor) should be the same",
                "expected scalar type Half but found Float")
CULPRITS = ["batch_log_bleulosscnn_ae"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("nn.functional.conv2d(out, eye_filter)", "nn.functional.conv2d(out, eye_filter.to(out))")
CLEAN = False
