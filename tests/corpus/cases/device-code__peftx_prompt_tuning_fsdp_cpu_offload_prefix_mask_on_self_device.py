"""PEFT prompt learning under FSDP with CPU offload: the prefix attention mask is made on `self.device`, the CPU.

Source: https://github.com/huggingface/peft/pull/352
"do not use self.device. In FSDP cpu offload mode, self.device is "CPU" instead of "cuda" and there's
error like "Expected all tensors to be on the same device, but found at least two devices, cpu and
cuda:1"". `PeftModelForCausalLM.forward` built
`prefix_attention_mask = torch.ones(batch_size, num_virtual_tokens).to(self.device)` and concatenated
it with the (GPU) `attention_mask`; with offloaded parameters `self.device` is the CPU. The fix moves
the mask to `attention_mask.device`. Stand-ins: a small causal LM, peft's prompt-tuning
`PeftModelForCausalLM` (forward as it was then) and an FSDP unit that keeps its parameters on the CPU
(offload_params=True) and runs its module with on-device copies, moving its inputs to the device.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class FullyShardedDataParallel(nn.Module):
    """Stand-in: CPU-offloaded FSDP unit. Parameters live on the CPU between uses; forward moves the
    inputs to the compute device and runs the module with on-device copies of its parameters."""
    def __init__(self, module, device_id):
        super().__init__()
        self._fsdp_wrapped_module = module
        self.compute_device = torch.device(f"cuda:{device_id}")

    def forward(self, *args, **kwargs):
        dev = self.compute_device
        args = tuple(a.to(dev) if torch.is_tensor(a) else a for a in args)
        kwargs = {k: (v.to(dev) if torch.is_tensor(v) else v) for k, v in kwargs.items()}
        params = {n: p.to(dev) for n, p in self._fsdp_wrapped_module.named_parameters()}
        return torch.func.functional_call(self._fsdp_wrapped_module, params, args, kwargs)

class BloomBlock(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.input_layernorm = nn.LayerNorm(d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))

    def forward(self, h, attention_mask):
        return h + self.mlp(self.input_layernorm(h)) * attention_mask[..., None].to(h.dtype)

class BloomForCausalLM(nn.Module):
    def __init__(self, vocab=100, d=32, n_layer=2):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab, d)
        self.h = nn.ModuleList([BloomBlock(d) for _ in range(n_layer)])
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def forward(self, input_ids=None, attention_mask=None, inputs_embeds=None, **kwargs):
        h = inputs_embeds if inputs_embeds is not None else self.word_embeddings(input_ids)
        for block in self.h:
            h = block(h, attention_mask)
        return self.lm_head(h)

class PromptEmbedding(nn.Module):
    def __init__(self, num_virtual_tokens, token_dim):
        super().__init__()
        self.embedding = nn.Embedding(num_virtual_tokens, token_dim)

    def forward(self, indices):
        return self.embedding(indices)

class PeftModelForCausalLM(nn.Module):
    """Stand-in for peft's PeftModelForCausalLM (prompt tuning path, peft 0.2/0.3)."""
    def __init__(self, model, num_virtual_tokens=8):
        super().__init__()
        self.base_model = model
        self.num_virtual_tokens = num_virtual_tokens
        self.prompt_encoder = PromptEmbedding(num_virtual_tokens, model.word_embeddings.embedding_dim)
        self.prompt_tokens = torch.arange(num_virtual_tokens).long()
        self.word_embeddings = model.word_embeddings

    @property
    def device(self):                       # transformers' get_parameter_device
        return next(self.parameters()).device

    def get_prompt(self, batch_size):
        prompt_tokens = self.prompt_tokens.unsqueeze(0).expand(batch_size, -1)
        return self.prompt_encoder(prompt_tokens)

    def forward(self, input_ids=None, attention_mask=None, inputs_embeds=None, **kwargs):
        batch_size = input_ids.shape[0]
        if attention_mask is not None:
            # concat prompt attention mask
            prefix_attention_mask = torch.ones(batch_size, self.num_virtual_tokens).to(self.device)
            attention_mask = torch.cat((prefix_attention_mask, attention_mask), dim=1)
        if inputs_embeds is None:
            inputs_embeds = self.word_embeddings(input_ids)
        prompts = self.get_prompt(batch_size=batch_size)
        prompts = prompts.to(inputs_embeds.dtype)
        inputs_embeds = torch.cat((prompts, inputs_embeds), dim=1)
        return self.base_model(inputs_embeds=inputs_embeds, attention_mask=attention_mask, **kwargs)

model = PeftModelForCausalLM(BloomForCausalLM())          # get_peft_model(model, PromptTuningConfig(...))
# accelerate + FSDP(offload_params=True, auto_wrap_policy=BloomBlock): every unit stays on the CPU
local_rank = 0
base = model.base_model
base.word_embeddings = FullyShardedDataParallel(base.word_embeddings, local_rank)
model.word_embeddings = base.word_embeddings
base.h = nn.ModuleList([FullyShardedDataParallel(b, local_rank) for b in base.h])
base.lm_head = FullyShardedDataParallel(base.lm_head, local_rank)
model.prompt_encoder = FullyShardedDataParallel(model.prompt_encoder, local_rank)

input_ids = torch.randint(0, 100, (2, 10)).to("cuda:0")
attention_mask = torch.ones(2, 10, dtype=torch.long).to("cuda:0")
'''
CELL = '''
with torch.no_grad():
    outputs = model(input_ids=input_ids, attention_mask=attention_mask)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "prefix_attention_mask = torch.ones(batch_size, self.num_virtual_tokens).to(self.device)",
    "prefix_attention_mask = torch.ones(batch_size, self.num_virtual_tokens).to(attention_mask.device)",
)
CLEAN = False
