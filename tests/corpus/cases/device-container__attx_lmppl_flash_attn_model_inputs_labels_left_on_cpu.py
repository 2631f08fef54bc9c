"""lmppl perplexity with a flash-attention causal LM on cuda:0: the labels are read from the CPU `model_inputs`.

Source: https://github.com/asahi417/lmppl/pull/12
"fixed tensor device mismatch when using flash_attn": loading the scorer's model on the GPU (flash
attention 2) failed with "Expected all tensors to be on the same device ... cuda:0 and cpu! (when
checking argument for argument target in method wrapper_CUDA_nll_loss_forward)". The tokenizer's
`model_inputs` stay on the CPU: the forward gets device-moved copies, but the loss target is taken
from `model_inputs['input_ids']`. The PR puts `model_inputs` on cuda:0. Stand-in: a tiny causal LM
(embedding, one attention block, head) and a tokenizer returning a CPU dict.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class TinyCausalLM(nn.Module):
    def __init__(self, vocab=100, dim=32, heads=4):
        super().__init__()
        self.heads = heads
        self.embed = nn.Embedding(vocab, dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, input_ids, attention_mask=None):
        h = self.embed(input_ids)
        b, n, d = h.shape
        q, k, v = (t.view(b, n, self.heads, -1).transpose(1, 2) for t in self.qkv(h).chunk(3, -1))
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True)   # flash_attention_2 in the report
        h = h + a.transpose(1, 2).reshape(b, n, d)
        return {"logits": self.lm_head(h)}

def tokenizer(texts, max_length=12):
    ids = torch.randint(1, 100, (len(texts), max_length))
    return {"input_ids": ids, "attention_mask": torch.ones_like(ids)}

device = "cuda:0"
model = TinyCausalLM().to(device)
model.eval()
loss_fct = nn.CrossEntropyLoss(reduction="none")
input_texts = ["sentiment classification: I dropped my laptop on my knee, and someone stole my coffee.",
               "sentiment classification: I dropped my laptop on my knee, and someone stole my coffee. I am happy."]
model_inputs = tokenizer(input_texts)
'''
CELL = '''
with torch.no_grad():
    output = model(**{k: v.to(device) for k, v in model_inputs.items()})
    logit = output["logits"]
    label = model_inputs["input_ids"]
    loss = loss_fct(logit[:, :-1, :].reshape(-1, logit.shape[-1]), label[:, 1:].reshape(-1))
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model_inputs['input_ids']"]
FIX = "namespace"
REFERENCE_FIX = '''
model_inputs = {k: v.to(device) for k, v in model_inputs.items()}
'''
REFERENCE_EDIT = None
CLEAN = False
