"""Look-alike: PEFT prompt tuning keeps its `prompt_tokens` index tensor on the CPU and moves it at use.

Source: https://github.com/huggingface/peft/blob/main/src/peft/peft_model.py
`PeftModel._setup_prompt_encoder` stores `self.prompt_tokens[adapter_name] =
torch.arange(num_virtual_tokens * num_transformer_submodules).long()`, a plain dict entry that
`model.to("cuda")` never moves; `get_prompt` expands it and moves it explicitly with
`.to(prompt_encoder.embedding.weight.device)` before the prompt-embedding lookup, then the virtual
token embeddings are concatenated in front of the (device) input embeddings. A CPU index tensor
next to a CUDA model, by design; nothing to report.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class PromptEmbedding(nn.Module):
    def __init__(self, num_virtual_tokens, token_dim):
        super().__init__()
        self.embedding = nn.Embedding(num_virtual_tokens, token_dim)

    def forward(self, indices):
        return self.embedding(indices)

class TinyCausalLM(nn.Module):
    def __init__(self, vocab=100, dim=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.block = nn.Linear(dim, dim)
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    def forward(self, inputs_embeds):
        return self.lm_head(torch.tanh(self.block(inputs_embeds)))

class PeftModelForCausalLM(nn.Module):
    def __init__(self, base_model, num_virtual_tokens=8, adapter_name="default"):
        super().__init__()
        self.base_model = base_model
        self.active_adapter = adapter_name
        self.prompt_encoder = nn.ModuleDict({adapter_name: PromptEmbedding(num_virtual_tokens, 32)})
        self.prompt_tokens = {adapter_name: torch.arange(num_virtual_tokens).long()}

    def get_prompt(self, batch_size):
        prompt_encoder = self.prompt_encoder[self.active_adapter]
        prompt_tokens = (self.prompt_tokens[self.active_adapter].unsqueeze(0).expand(batch_size, -1)
                         .to(prompt_encoder.embedding.weight.device))
        return prompt_encoder(prompt_tokens)

    def forward(self, input_ids):
        batch_size = input_ids.shape[0]
        inputs_embeds = self.base_model.embed_tokens(input_ids)
        prompts = self.get_prompt(batch_size=batch_size).to(inputs_embeds.dtype)
        inputs_embeds = torch.cat((prompts, inputs_embeds), dim=1)
        return self.base_model(inputs_embeds=inputs_embeds)

model = PeftModelForCausalLM(TinyCausalLM())      # get_peft_model(model, PromptTuningConfig(...))
model.to("cuda:0")
input_ids = torch.randint(0, 100, (2, 10)).to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    logits = model(input_ids)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
