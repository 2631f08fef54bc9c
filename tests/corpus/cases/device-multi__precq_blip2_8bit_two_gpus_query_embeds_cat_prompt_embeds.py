"""BLIP-2 in 8-bit split over two GPUs: `generate` concatenates the query embeddings (GPU 0) with the prompt embeddings produced on GPU 1.

Source: https://github.com/bitsandbytes-foundation/bitsandbytes/issues/153
The user loaded `Blip2ForConditionalGeneration.from_pretrained(model_id, device_map='auto',
max_memory={0: "4GiB", 1: "24GiB"}, load_in_8bit=True)`, moved the processor outputs with
`.to(0, torch.float16)` and called `model.generate(**inputs, max_new_tokens=10)`: "Expected all
tensors to be on the same device, but found at least two devices, cuda:1 and cuda:0!". With that
memory split the vision model, Q-Former and `language_projection` sit on GPU 0 and the language
model (and its input embeddings) on GPU 1; `Blip2ForConditionalGeneration.generate` does
`torch.cat([language_model_inputs, inputs_embeds], dim=1)` across the two. The fix (transformers
PR #21707, "[Blip2] Fix Blip-2 multi gpu") moves `inputs_embeds` (and the attention mask) to
`language_model_inputs.device` before concatenating.
Stand-ins: a small BLIP-2 (vision encoder, Q-Former, projection, OPT-like language model with
8-bit-style linears left out), accelerate-like dispatch with input-aligning pre-hooks per the
device map, and transformers 4.26's `generate`.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

class OPTDecoderLayer(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.fc = nn.Linear(d, d)

    def forward(self, h):
        return h + torch.relu(self.fc(h))

class OPTForCausalLM(nn.Module):
    def __init__(self, vocab=64, d=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList([OPTDecoderLayer(d) for _ in range(2)])
        self.lm_head = nn.Linear(d, vocab, bias=False)

    def get_input_embeddings(self):
        return self.embed_tokens

    @torch.no_grad()
    def generate(self, inputs_embeds, attention_mask=None, max_new_tokens=3):
        h = inputs_embeds
        tokens = []
        for _ in range(max_new_tokens):
            x = h
            for layer in self.layers:
                x = layer(x)
            tokens.append(self.lm_head(x[:, -1]).argmax(-1))
        return torch.stack(tokens, 1)

class Blip2ForConditionalGeneration(nn.Module):
    def __init__(self, d_vis=24, d_q=16, d_lm=32, n_query=4):
        super().__init__()
        self.vision_model = nn.Sequential(nn.Conv2d(3, d_vis, 8, stride=8), nn.Flatten(2))
        self.query_tokens = nn.Parameter(torch.zeros(1, n_query, d_q))
        self.qformer = nn.MultiheadAttention(d_q, 2, kdim=d_vis, vdim=d_vis, batch_first=True)
        self.language_projection = nn.Linear(d_q, d_lm)
        self.language_model = OPTForCausalLM(d=d_lm)

    def get_input_embeddings(self):
        return self.language_model.get_input_embeddings()

    @torch.no_grad()
    def generate(self, pixel_values, input_ids=None, attention_mask=None, **generate_kwargs):
        batch_size = pixel_values.shape[0]
        image_embeds = self.vision_model(pixel_values).transpose(1, 2)
        image_attention_mask = torch.ones(image_embeds.size()[:-1], dtype=torch.long, device=image_embeds.device)
        query_tokens = self.query_tokens.expand(image_embeds.shape[0], -1, -1)
        query_output = self.qformer(query_tokens, image_embeds, image_embeds, need_weights=False)[0]
        language_model_inputs = self.language_projection(query_output)
        language_attention_mask = torch.ones(language_model_inputs.size()[:-1], dtype=torch.long, device=language_model_inputs.device)
        if attention_mask is None:
            attention_mask = torch.ones_like(input_ids)
        attention_mask = torch.cat([language_attention_mask, attention_mask], dim=1)
        # concatenate query embeddings with prompt embeddings
        inputs_embeds = self.get_input_embeddings()(input_ids)
        inputs_embeds = torch.cat([language_model_inputs, inputs_embeds], dim=1)
        return self.language_model.generate(inputs_embeds=inputs_embeds, attention_mask=attention_mask, **generate_kwargs)

def dispatch_model(model, device_map):
    # accelerate: place each module, align its inputs with a pre-hook
    for name, dev in device_map.items():
        module = model.get_submodule(name).to(f"cuda:{dev}")
        target = torch.device(f"cuda:{dev}")
        module.register_forward_pre_hook(
            lambda mod, args, target=target: tuple(a.to(target) for a in args))
    model.hf_device_map = dict(device_map)
    return model

model_id = "Salesforce/blip2-flan-t5-xxl"
model = Blip2ForConditionalGeneration()
model.query_tokens.data = model.query_tokens.data.to("cuda:0")
model = dispatch_model(model, {"vision_model": 0, "qformer": 0, "language_projection": 0,
                               "language_model.embed_tokens": 1, "language_model.layers.0": 1, "language_model.layers.1": 1,
                               "language_model.lm_head": 1})
inputs = {"pixel_values": torch.rand(1, 3, 32, 32).to("cuda:0"),
          "input_ids": torch.randint(0, 64, (1, 5)).to("cuda:0"),
          "attention_mask": torch.ones(1, 5, dtype=torch.long).to("cuda:0")}    # processor(...).to(0, torch.float16)
'''
CELL = '''
generated_ids = model.generate(**inputs, max_new_tokens=3)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["inputs_embeds"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("inputs_embeds = torch.cat([language_model_inputs, inputs_embeds], dim=1)",
                  "inputs_embeds = torch.cat([language_model_inputs, inputs_embeds.to(language_model_inputs.device)], dim=1)")
CLEAN = False
