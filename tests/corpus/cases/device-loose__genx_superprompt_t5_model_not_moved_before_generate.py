"""SuperPrompt-v1 notebook: the prompt's input_ids are sent to CUDA but the T5 model is never moved.

Source: https://github.com/Nick088Official/SuperPrompt-v1/issues/1
The notebook tokenized the prompt with `.input_ids.to(device)` and called `model.generate`, but
the `T5ForConditionalGeneration` loaded with `from_pretrained` stayed on the CPU, so generation
failed with "Expected all tensors to be on the same device". The reporter's fix (adopted in both
colabs): add `model.to(device)` just before `model.generate`. Stand-in: a tiny T5-shaped
encoder-decoder with a greedy `generate`.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
from torch import nn

class T5ForConditionalGeneration(nn.Module):
    def __init__(self, vocab_size=64, d_model=32):
        super().__init__()
        self.shared = nn.Embedding(vocab_size, d_model)
        self.encoder = nn.Linear(d_model, d_model)
        self.decoder = nn.Linear(d_model, d_model)
        self.lm_head = nn.Linear(d_model, vocab_size, bias=False)

    def generate(self, input_ids, max_new_tokens=6, decoder_start_token_id=0):
        enc = torch.tanh(self.encoder(self.shared(input_ids))).mean(dim=1, keepdim=True)
        out = torch.full((input_ids.shape[0], 1), decoder_start_token_id, dtype=torch.long, device=input_ids.device)
        for _ in range(max_new_tokens):
            h = torch.tanh(self.decoder(self.shared(out)) + enc)
            next_tok = self.lm_head(h[:, -1]).argmax(-1, keepdim=True)
            out = torch.cat([out, next_tok], dim=-1)
        return out

device = "cuda:0"
model = T5ForConditionalGeneration()            # from_pretrained("roborovski/superprompt-v1")
input_text = "Expand the following prompt to add more detail: A storefront with 'Text to Image' written on it."
input_ids = (torch.arange(1, 17) % 64).unsqueeze(0).to(device)   # tokenizer(input_text, return_tensors="pt").input_ids.to(device)
'''
CELL = '''
outputs = model.generate(input_ids, max_new_tokens=6)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
model.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
