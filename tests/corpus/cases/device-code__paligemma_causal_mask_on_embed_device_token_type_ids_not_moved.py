"""PaliGemma split over two GPUs: the prefix-LM mask is built on the embeddings' card, the masks stay on the input card.

Source: https://github.com/huggingface/transformers/pull/31008
"Paligemma - fix devices and dtype assignments": with the model dispatched over several GPUs,
`_update_causal_mask` creates `causal_mask` on the device of `inputs_embeds` (the language model's
embedding card) and then combines it with `attention_mask[:, None, None, :]` and
`token_type_ids[:, None, None, :] == 0`, which arrive on the first device (accelerate's top-level
hook moves every input there); the PR adds `.to(causal_mask.device)` to both. Stand-in: PaliGemma's
merge + `_update_causal_mask` at toy size, pre-hooks in place of accelerate's hooks (the top-level
one sends the inputs to cuda:0, as dispatch_model does).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

def align_devices_hook(module, args, kwargs):
    device = next(module.parameters()).device
    move = lambda a: a.to(device) if torch.is_tensor(a) else a
    return tuple(move(a) for a in args), {k: move(v) for k, v in kwargs.items()}

def dispatch(module, device):
    module.to(device)
    module.register_forward_pre_hook(align_devices_hook, with_kwargs=True)

class GemmaForCausalLM(nn.Module):
    def __init__(self, vocab=100, hidden=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.layer = nn.Linear(hidden, hidden)
        self.lm_head = nn.Linear(hidden, vocab, bias=False)

    def get_input_embeddings(self):
        return self.embed_tokens

    def forward(self, inputs_embeds, attention_mask):
        scores = inputs_embeds @ inputs_embeds.transpose(1, 2) + attention_mask[:, 0]
        h = torch.softmax(scores, dim=-1) @ self.layer(inputs_embeds)
        return self.lm_head(h)

class PaliGemmaForConditionalGeneration(nn.Module):
    image_token_index = 99

    def __init__(self):
        super().__init__()
        self.vision_tower = nn.Sequential(nn.Conv2d(3, 24, 16, stride=16), nn.Flatten(2))
        self.multi_modal_projector = nn.Linear(24, 32)
        self.language_model = GemmaForCausalLM()

    def _update_causal_mask(self, attention_mask, token_type_ids, inputs_embeds):
        dtype, device = inputs_embeds.dtype, inputs_embeds.device
        min_dtype = torch.finfo(dtype).min
        sequence_length = inputs_embeds.shape[1]
        causal_mask = torch.full((sequence_length, sequence_length), fill_value=min_dtype, dtype=dtype, device=device)
        causal_mask = causal_mask[None, None, :, :].expand(inputs_embeds.shape[0], 1, -1, -1)
        padding_mask = causal_mask + attention_mask[:, None, None, :]
        # unmask the prefill (image + prompt, token_type_ids == 0)
        causal_mask = padding_mask.masked_fill(token_type_ids[:, None, None, :] == 0, 0)
        return causal_mask

    def forward(self, input_ids, pixel_values, attention_mask, token_type_ids):
        inputs_embeds = self.language_model.get_input_embeddings()(input_ids)
        image_features = self.multi_modal_projector(self.vision_tower(pixel_values).transpose(1, 2))
        n_img = image_features.shape[1]
        inputs_embeds = torch.cat([image_features.to(inputs_embeds.device), inputs_embeds[:, n_img:]], dim=1)
        causal_mask = self._update_causal_mask(attention_mask, token_type_ids, inputs_embeds)
        return self.language_model(inputs_embeds=inputs_embeds, attention_mask=causal_mask)

model = PaliGemmaForConditionalGeneration().eval()
# device_map="auto" with max_memory: the SigLIP tower and projector on cuda:0, Gemma on cuda:1
dispatch(model, "cuda:0")                      # the top-level hook: inputs go to the first device
dispatch(model.vision_tower, "cuda:0")
dispatch(model.multi_modal_projector, "cuda:0")
dispatch(model.language_model, "cuda:1")
dispatch(model.language_model.embed_tokens, "cuda:1")

# processor(text=prompt, images=image, return_tensors="pt").to(model.device)
input_ids = torch.tensor([[99, 99, 99, 99, 2, 17, 23, 5]])
model_inputs = {
    "input_ids": input_ids.to("cuda:0"),
    "pixel_values": torch.randn(1, 3, 32, 32).to("cuda:0"),
    "attention_mask": torch.ones(1, 8).to("cuda:0"),
    "token_type_ids": torch.zeros(1, 8, dtype=torch.long).to("cuda:0"),
}
'''
CELL = '''
with torch.inference_mode():
    logits = model(**model_inputs)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    """        padding_mask = causal_mask + attention_mask[:, None, None, :]
        # unmask the prefill (image + prompt, token_type_ids == 0)
        causal_mask = padding_mask.masked_fill(token_type_ids[:, None, None, :] == 0, 0)""",
    """        padding_mask = causal_mask + attention_mask[:, None, None, :].to(causal_mask.device)
        # unmask the prefill (image + prompt, token_type_ids == 0)
        causal_mask = padding_mask.masked_fill(token_type_ids[:, None, None, :].to(causal_mask.device) == 0, 0)""",
)
CLEAN = False
