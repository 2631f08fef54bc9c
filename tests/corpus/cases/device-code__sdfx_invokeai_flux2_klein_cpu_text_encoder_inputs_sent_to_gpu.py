"""InvokeAI FLUX.2 Klein prompt node with "Run Text Encoder on CPU": the token ids are sent to the GPU while the Qwen3 encoder sits on the CPU.

Source: https://github.com/invoke-ai/InvokeAI/pull/8851
A regression from the CPU-offloading feature (PR #8777): with the "Run Text Encoder on CPU" toggle
on, `flux2_klein_text_encoder` crashed because it sent `input_ids` / `attention_mask` to the GPU
(the default torch device) while the Qwen3 encoder had been loaded on the CPU, so the embedding
lookup mixed cuda:0 and cpu. The fix makes the inputs follow the encoder: `.to(device)` with the
device the encoder actually runs on.
Stand-ins: InvokeAI's TorchDevice and loaded-model info (CPU when the toggle is on), the Klein node
reduced to `_encode_prompt`, a tiny Qwen3-like encoder returning hidden states and a tokenizer
output; the GPU is simulated.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

KLEIN_EXTRACTION_LAYERS = (1, 2, 3)

class TorchDevice:
    @staticmethod
    def choose_torch_device():
        return torch.device("cuda:0")

class Qwen3Model(nn.Module):
    def __init__(self, vocab=200, dim=16, layers=3):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList([nn.Linear(dim, dim) for _ in range(layers)])

    @property
    def device(self):
        return self.embed_tokens.weight.device

    @property
    def dtype(self):
        return self.embed_tokens.weight.dtype

    def forward(self, input_ids, attention_mask, output_hidden_states=True, use_cache=False):
        h = self.embed_tokens(input_ids)
        h = h * attention_mask.unsqueeze(-1).to(h.dtype)
        hidden_states = [h]
        for layer in self.layers:
            h = torch.tanh(layer(h))
            hidden_states.append(h)
        return type("Out", (), {"hidden_states": tuple(hidden_states)})()

class LoadedModel:
    def __init__(self, model, cpu_only):
        self.model = model.to("cpu") if cpu_only else model.to(TorchDevice.choose_torch_device())

class Flux2KleinTextEncoderInvocation:
    def __init__(self, prompt, max_seq_len=32):
        self.prompt = prompt
        self.max_seq_len = max_seq_len

    def _encode_prompt(self, text_encoder_info, inputs):
        text_encoder = text_encoder_info.model
        device = text_encoder.device

        input_ids = inputs["input_ids"].to(TorchDevice.choose_torch_device())
        attention_mask = inputs["attention_mask"].to(TorchDevice.choose_torch_device())

        outputs = text_encoder(input_ids=input_ids, attention_mask=attention_mask,
                               output_hidden_states=True, use_cache=False)
        num_hidden_layers = len(outputs.hidden_states)
        hidden_states_list = []
        for layer_idx in KLEIN_EXTRACTION_LAYERS:
            if layer_idx >= num_hidden_layers:
                layer_idx = num_hidden_layers - 1
            hidden_states_list.append(outputs.hidden_states[layer_idx])
        out = torch.stack(hidden_states_list, dim=1)
        out = out.to(dtype=text_encoder.dtype, device=device)
        batch_size, num_channels, seq_len, hidden_dim = out.shape
        prompt_embeds = out.permute(0, 2, 1, 3).reshape(batch_size, seq_len, num_channels * hidden_dim)
        last_hidden_state = outputs.hidden_states[-1]
        expanded_mask = attention_mask.unsqueeze(-1).expand_as(last_hidden_state).float()
        pooled_embeds = (last_hidden_state * expanded_mask).sum(dim=1) / expanded_mask.sum(dim=1).clamp(min=1)
        return prompt_embeds, pooled_embeds

# "Run Text Encoder on CPU" is on: the model cache loads Qwen3 on the CPU
text_encoder_info = LoadedModel(Qwen3Model(), cpu_only=True)
invocation = Flux2KleinTextEncoderInvocation(prompt="a red fox in the snow, cinematic")
inputs = {                                     # tokenizer(text, return_tensors="pt", padding="max_length", ...)
    "input_ids": torch.randint(0, 200, (1, 32)),
    "attention_mask": torch.ones(1, 32, dtype=torch.long),
}
'''
CELL = '''
qwen3_embeds, pooled_embeds = invocation._encode_prompt(text_encoder_info, inputs)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["invocation"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        input_ids = inputs["input_ids"].to(TorchDevice.choose_torch_device())
        attention_mask = inputs["attention_mask"].to(TorchDevice.choose_torch_device())""",
                  """        input_ids = inputs["input_ids"].to(device)
        attention_mask = inputs["attention_mask"].to(device)""")
CLEAN = False
