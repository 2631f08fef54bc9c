"""AdaLoRA on a model loaded straight onto the GPU: the adapters follow the weights, `ranknum` stays on the CPU.

Source: https://github.com/huggingface/peft/issues/581
The user loaded ChatGLM with `device_map='auto'` (everything on cuda:0), wrapped it with
`get_peft_model(model, AdaLoraConfig(...))` and found `lora_A['default']` on cuda:0 but
`ranknum['default']` on the CPU, so `forward` raised at `/ (self.ranknum[...] + 1e-5)`. AdaLoRA's
`update_layer` moved only the adapter tensors it listed to the base weight's device. Stand-in: a
tiny attention block and an SVDLinear with the same `update_layer`; the model never saw a `.to()`.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class SVDLinear(nn.Module):
    """peft's AdaLoRA layer, reduced: base weight + lora_A/E/B and a ranknum per adapter."""
    adapter_layer_names = ("lora_A", "lora_B", "lora_E")

    def __init__(self, base_layer, adapter_name="default", r=6, lora_alpha=32):
        super().__init__()
        self.base_layer = base_layer
        self.lora_A, self.lora_B, self.lora_E = nn.ParameterDict(), nn.ParameterDict(), nn.ParameterDict()
        self.ranknum = nn.ParameterDict()
        self.scaling = {}
        self.active_adapter = adapter_name
        self.update_layer(adapter_name, r, lora_alpha)

    def update_layer(self, adapter_name, r, lora_alpha):
        out_f, in_f = self.base_layer.weight.shape
        self.lora_A[adapter_name] = nn.Parameter(torch.randn(r, in_f) * 0.02)
        self.lora_E[adapter_name] = nn.Parameter(torch.zeros(r, 1))
        self.lora_B[adapter_name] = nn.Parameter(torch.randn(out_f, r) * 0.02)
        self.ranknum[adapter_name] = nn.Parameter(torch.ones(1) * r, requires_grad=False)
        self.scaling[adapter_name] = lora_alpha
        weight = self.base_layer.weight
        for name in self.adapter_layer_names:          # ranknum is not in the list
            getattr(self, name)[adapter_name] = getattr(self, name)[adapter_name].to(weight.device)

    def forward(self, x):
        a = self.active_adapter
        result = self.base_layer(x)
        result = result + (x @ (self.lora_A[a] * self.lora_E[a]).T @ self.lora_B[a].T) \\
            * self.scaling[a] / (self.ranknum[a] + 1e-5)
        return result

class GLMBlock(nn.Module):
    def __init__(self, hidden=32, vocab=100):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab, hidden)
        self.query_key_value = nn.Linear(hidden, 3 * hidden)
        self.dense = nn.Linear(3 * hidden, vocab)

    def forward(self, input_ids):
        return self.dense(self.query_key_value(self.word_embeddings(input_ids)))

device = torch.device("cuda:0")
model = GLMBlock().to(device)                 # from_pretrained(..., device_map="auto"): all on cuda:0
model.query_key_value = SVDLinear(model.query_key_value)   # get_peft_model(model, AdaLoraConfig(...))
input_ids = torch.randint(0, 100, (2, 16)).to(device)
'''
CELL = '''
logits = model(input_ids)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.query_key_value.ranknum['default']"]
FIX = "namespace"
REFERENCE_FIX = '''
model.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
