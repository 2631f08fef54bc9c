"""BLIP-2 split over two GPUs after the multi-GPU fix: generate() moves the text side to the projection's card.

Source: https://github.com/huggingface/transformers/pull/21707
After "[Blip2] Fix Blip-2 multi gpu", `Blip2ForConditionalGeneration.generate` joins the projected
query tokens and the prompt with
`torch.cat([language_model_inputs, inputs_embeds.to(language_model_inputs.device)], dim=1)` and the
masks with `attention_mask.to(language_attention_mask.device)`; with the vision model and Q-Former
on cuda:0 and the projection + OPT model on cuda:1 (a `device_map` the user wrote), a prompt on
cuda:0 generates. Stand-in: BLIP-2's generate path at toy size, a pre-hook in place of accelerate's
AlignDevicesHook, a greedy loop in place of OPT's generate.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def align_devices_hook(module, args, kwargs):
    device = next(module.parameters()).device
    move = lambda a: a.to(device) if torch.is_tensor(a) else a
    return tuple(move(a) for a in args), {k: move(v) for k, v in kwargs.items()}

def dispatch(module, device):
    module.to(device)
    for sub in module.modules():          # accelerate hooks every module that holds weights
        if any(True for _ in sub.parameters(recurse=False)) or sub is module:
            sub.register_forward_pre_hook(align_devices_hook, with_kwargs=True)

class OPTForCausalLM(nn.Module):
    def __init__(self, vocab=64, hidden=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.layers = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, hidden))
        self.lm_head = nn.Linear(hidden, vocab, bias=False)

    def get_input_embeddings(self):
        return self.embed_tokens

    def forward(self, inputs_embeds, attention_mask):
        h = self.layers(inputs_embeds) * attention_mask[..., None]
        return self.lm_head(h)

    @torch.no_grad()
    def generate(self, inputs_embeds, attention_mask, max_new_tokens=3, pad_token_id=1):
        unfinished = torch.ones(inputs_embeds.shape[0], dtype=torch.long, device=inputs_embeds.device)
        out = []
        for _ in range(max_new_tokens):
            logits = self(inputs_embeds=inputs_embeds, attention_mask=attention_mask)
            next_tokens = logits[:, -1].argmax(-1)
            next_tokens = next_tokens * unfinished + pad_token_id * (1 - unfinished)
            out.append(next_tokens[:, None])
            inputs_embeds = torch.cat([inputs_embeds, self.embed_tokens(next_tokens[:, None])], dim=1)
            attention_mask = torch.cat([attention_mask, torch.ones_like(attention_mask[:, :1])], dim=1)
        return torch.cat(out, dim=1)

class Blip2ForConditionalGeneration(nn.Module):
    def __init__(self):
        super().__init__()
        self.vision_model = nn.Sequential(nn.Conv2d(3, 24, 8, stride=8), nn.Flatten(2))
        self.query_tokens = nn.Parameter(torch.zeros(1, 4, 24))
        self.qformer = nn.Linear(24, 24)
        self.language_projection = nn.Linear(24, 32)
        self.language_model = OPTForCausalLM()

    @torch.no_grad()
    def generate(self, pixel_values, input_ids, attention_mask=None, **generate_kwargs):
        batch_size = pixel_values.shape[0]
        image_embeds = self.vision_model(pixel_values).transpose(1, 2)
        query_tokens = self.query_tokens.expand(image_embeds.shape[0], -1, -1)
        query_output = self.qformer(query_tokens + image_embeds.mean(1, keepdim=True))
        language_model_inputs = self.language_projection(query_output)
        language_attention_mask = torch.ones(language_model_inputs.size()[:-1], dtype=torch.long,
                                             device=language_model_inputs.device)
        if attention_mask is None:
            attention_mask = torch.ones_like(input_ids)
        inputs_embeds = self.language_model.get_input_embeddings()(input_ids)
        inputs_embeds = torch.cat([language_model_inputs, inputs_embeds.to(language_model_inputs.device)], dim=1)
        attention_mask = torch.cat([language_attention_mask, attention_mask.to(language_attention_mask.device)], dim=1)
        return self.language_model.generate(inputs_embeds=inputs_embeds, attention_mask=attention_mask, **generate_kwargs)

model = Blip2ForConditionalGeneration().eval()
# device_map = {"vision_model": 0, "query_tokens": 0, "qformer": 0, "language_projection": 1, "language_model": 1}
model.to("cuda:0")
dispatch(model.vision_model, "cuda:0")
dispatch(model.qformer, "cuda:0")
dispatch(model.language_projection, "cuda:1")
dispatch(model.language_model, "cuda:1")

# processor(images=raw_image, text=prompt, return_tensors="pt").to("cuda:0")
inputs = {"pixel_values": torch.rand(1, 3, 32, 32).to("cuda:0"),
          "input_ids": torch.randint(2, 64, (1, 7)).to("cuda:0"),
          "attention_mask": torch.ones(1, 7, dtype=torch.long).to("cuda:0")}
'''
CELL = '''
generated_ids = model.generate(**inputs, max_new_tokens=3)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
