"""MoE-Embedding `MOEE.encode`: the batch is tokenized `.to(self.device)`, but the prompt-template tokens that reach the model are not.

Source: https://github.com/tianyi-lab/MoE-Embedding/pull/3
"Fix CUDA device mismatch error": running the MTEB evaluation with the MoE model on a GPU fails with
"Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (...
wrapper_CUDA__index_select)". In `encode`, `inputs = self.tokenizer(...).to(self.device)` is moved, but the
model is actually called on `prompts = self.tokenizer(prompts, padding=True, return_tensors="pt")` (the
PromptEOL-wrapped sentences), which stays on the CPU. Stand-ins: a word-hash tokenizer returning a dict
with `.to()`, and a tiny causal LM returning hidden states plus router weights (4-bit loading dropped).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
from types import SimpleNamespace
import torch
from torch import nn

class BatchEncoding(dict):
    def to(self, device):
        return BatchEncoding({k: v.to(device) for k, v in self.items()})

class AutoTokenizer:
    def __call__(self, texts, padding=True, truncation=True, return_tensors="pt", max_length=512, add_special_tokens=True):
        ids = [[sum(map(ord, w)) % 30000 + 10 for w in t.split()][:max_length] for t in texts]
        n = max(len(i) for i in ids)
        return BatchEncoding(input_ids=torch.tensor([[0] * (n - len(i)) + i for i in ids]),
                             attention_mask=torch.tensor([[0] * (n - len(i)) + [1] * len(i) for i in ids]))

class OlmoeForCausalLM(nn.Module):
    def __init__(self, hidden=32, n_experts=4):
        super().__init__()
        self.embed_tokens = nn.Embedding(30522, hidden)
        self.layer = nn.Linear(hidden, hidden)
        self.router = nn.Linear(hidden, n_experts)
    def forward(self, input_ids, attention_mask=None, output_hidden_states=True, return_dict=True):
        h = self.layer(self.embed_tokens(input_ids))
        rw = torch.softmax(self.router(h), dim=-1)[:, None]
        return SimpleNamespace(hidden_states=(h,)), rw

class MOEE(nn.Module):
    def __init__(self, model_name_or_path, device="cuda:0"):
        super().__init__()
        self.model = OlmoeForCausalLM().to(device)
        self.tokenizer = AutoTokenizer()
        self.device = device

    @torch.no_grad()
    def encode(self, sentences, max_length=512, **kwargs):
        inputs = self.tokenizer(sentences, padding=True, truncation=True, return_tensors="pt",
                                max_length=max_length).to(self.device)
        prompt_templates = ['This sentence : "*sent 0*" means in one word:"']
        prompts = [p.replace("*sent 0*", s) for s in sentences for p in prompt_templates]
        prompts = self.tokenizer(prompts, padding=True, return_tensors="pt")
        outputs, sent_emb = self.model(**prompts, output_hidden_states=True, return_dict=True)
        lst_token_emb = outputs.hidden_states[-1].mean(dim=1)
        return torch.cat([lst_token_emb, sent_emb.mean(dim=(1, 2))], dim=1)

model = MOEE("allenai/OLMoE-1B-7B-0924")
sentences = ["A man is playing a guitar.", "The new movie is awesome."]
'''
CELL = '''
embeddings = model.encode(sentences, embed_method="prompteol", emb_info="MoEE")
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["prompts"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('prompts = self.tokenizer(prompts, padding=True, return_tensors="pt")',
                  'prompts = self.tokenizer(prompts, padding=True, return_tensors="pt").to(self.device)')
CLEAN = False
