"""BLIP-2 with device_map="auto" over eight GPUs: greedy search mixes the first and the last card.

Source: https://github.com/huggingface/transformers/issues/26806
`Blip2ForConditionalGeneration.from_pretrained(..., device_map="auto")` on 8 P100s, then
`model.generate(**inputs)` raised "Expected all tensors to be on the same device, but found at
least two devices, cuda:7 and cuda:2" in greedy_search at
`next_tokens = next_tokens * unfinished_sequences + pad_token_id * (1 - unfinished_sequences)`:
`unfinished_sequences` is made on the prompt's device while `next_tokens` comes out of the OPT
`lm_head`, which the auto map put on another card (accelerate's hooks move a module's inputs, not
its outputs back). Stand-in: BLIP-2's vision -> Q-Former -> projection -> OPT path at toy size, a
pre-hook in place of AlignDevicesHook, and the greedy loop from generation/utils.py.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

def align_devices_hook(module, args):
    device = next(module.parameters()).device
    return tuple(a.to(device) if torch.is_tensor(a) else a for a in args)

def dispatch(module, device):
    module.to(device)
    module.register_forward_pre_hook(align_devices_hook)

class OPTDecoder(nn.Module):
    def __init__(self, vocab=64, hidden=32, n_layers=4):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.layers = nn.ModuleList([nn.Linear(hidden, hidden) for _ in range(n_layers)])

    def forward(self, inputs_embeds):
        h = inputs_embeds
        for layer in self.layers:
            h = torch.relu(layer(h))
        return h

class OPTForCausalLM(nn.Module):
    def __init__(self, vocab=64, hidden=32):
        super().__init__()
        self.decoder = OPTDecoder(vocab, hidden)
        self.lm_head = nn.Linear(hidden, vocab, bias=False)

    def forward(self, inputs_embeds):
        return self.lm_head(self.decoder(inputs_embeds))

    def get_input_embeddings(self):
        return self.decoder.embed_tokens

    def greedy_search(self, inputs_embeds, input_ids, pad_token_id=1, max_new_tokens=3):
        unfinished_sequences = torch.ones(input_ids.shape[0], dtype=torch.long, device=input_ids.device)
        for _ in range(max_new_tokens):
            logits = self(inputs_embeds)
            next_tokens = torch.argmax(logits[:, -1, :], dim=-1)
            next_tokens = next_tokens * unfinished_sequences + pad_token_id * (1 - unfinished_sequences)
            input_ids = torch.cat([input_ids, next_tokens[:, None]], dim=-1)
            next_embeds = self.get_input_embeddings()(next_tokens[:, None])
            inputs_embeds = torch.cat([inputs_embeds, next_embeds.to(inputs_embeds.device)], dim=1)
        return input_ids

class Blip2ForConditionalGeneration(nn.Module):
    def __init__(self, hidden=32, num_query_tokens=4):
        super().__init__()
        self.vision_model = nn.Sequential(nn.Conv2d(3, 24, 8, stride=8), nn.Flatten(2))
        self.query_tokens = nn.Parameter(torch.zeros(1, num_query_tokens, 24))
        self.qformer = nn.Linear(24, 24)
        self.language_projection = nn.Linear(24, hidden)
        self.language_model = OPTForCausalLM(hidden=hidden)

    @torch.no_grad()
    def generate(self, pixel_values, input_ids, attention_mask=None):
        image_embeds = self.vision_model(pixel_values).transpose(1, 2)
        query_output = self.qformer(self.query_tokens.expand(image_embeds.shape[0], -1, -1) + image_embeds.mean(1, keepdim=True))
        language_model_inputs = self.language_projection(query_output)
        inputs_embeds = self.language_model.get_input_embeddings()(input_ids)
        inputs_embeds = torch.cat([language_model_inputs, inputs_embeds.to(language_model_inputs.device)], dim=1)
        return self.language_model.greedy_search(inputs_embeds, input_ids)

model = Blip2ForConditionalGeneration().eval()
# what device_map="auto" made of it on the 8-GPU box
dispatch(model, "cuda:0")
for name in ("vision_model", "qformer", "language_projection"):
    dispatch(getattr(model, name), "cuda:0")
dispatch(model.language_model.decoder.embed_tokens, "cuda:0")
for i, layer in enumerate(model.language_model.decoder.layers):
    dispatch(layer, "cuda:0" if i < 2 else "cuda:1")
dispatch(model.language_model.lm_head, "cuda:1")

# processor(images=raw_image, text=question, return_tensors="pt").to("cuda", torch.float16), float32 here
inputs = {"pixel_values": torch.rand(1, 3, 32, 32).to("cuda:0"),
          "input_ids": torch.randint(2, 64, (1, 8)).to("cuda:0")}
'''
CELL = '''
out = model.generate(**inputs)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.language_model.lm_head"]
FIX = "namespace"
REFERENCE_FIX = '''
model.language_model.lm_head.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
