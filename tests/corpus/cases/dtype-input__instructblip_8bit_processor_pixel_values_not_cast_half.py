"""InstructBLIP loaded in 8-bit: the processor's float32 pixel_values reach the float16 vision encoder.

Source: https://github.com/huggingface/transformers/issues/24564
"InstructBlipProcessor not working with load_in_4bit and load_in_8bit": with
`InstructBlipForConditionalGeneration.from_pretrained(..., load_in_8bit=True)` the modules that
stay unquantized (the ViT's patch convolution among them) are float16, and
`model.generate(**inputs, ...)` failed in `self.vision_model(pixel_values)` because
`processor(images=image, text=prompt, return_tensors="pt").to(device)` keeps pixel_values float32.
The fix (PR #24555) lets the processor output be cast with `.to(device, torch.float16)`, which
casts only the floating tensors. Stand-in: InstructBLIP's vision -> Q-Former -> projection path; the
card is not simulated (the bug is the dtype; `device` is the CPU here).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import torch
from torch import nn

class BatchFeature(dict):
    def to(self, *args):
        device = next((a for a in args if not isinstance(a, torch.dtype)), None)
        dtype = next((a for a in args if isinstance(a, torch.dtype)), None)
        out = BatchFeature()
        for k, v in self.items():
            v = v.to(device) if device is not None else v
            if dtype is not None and torch.is_floating_point(v):
                v = v.to(dtype)
            out[k] = v
        return out

class InstructBlipVisionEmbeddings(nn.Module):
    def __init__(self, embed_dim=32, patch=8):
        super().__init__()
        self.class_embedding = nn.Parameter(torch.randn(1, 1, embed_dim))
        self.patch_embedding = nn.Conv2d(3, embed_dim, kernel_size=patch, stride=patch)

    def forward(self, pixel_values):
        target_dtype = self.patch_embedding.weight.dtype
        patch_embeds = self.patch_embedding(pixel_values).flatten(2).transpose(1, 2)
        class_embeds = self.class_embedding.expand(pixel_values.shape[0], 1, -1).to(target_dtype)
        return torch.cat([class_embeds, patch_embeds], dim=1)

class InstructBlipForConditionalGeneration(nn.Module):
    def __init__(self, hidden=32, vocab=64):
        super().__init__()
        self.vision_model = InstructBlipVisionEmbeddings(hidden)
        self.query_tokens = nn.Parameter(torch.zeros(1, 4, hidden))
        self.qformer = nn.Linear(hidden, hidden)
        self.language_projection = nn.Linear(hidden, hidden)
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.lm_head = nn.Linear(hidden, vocab, bias=False)

    @torch.no_grad()
    def generate(self, pixel_values, qformer_input_ids, qformer_attention_mask, input_ids, attention_mask, **generate_kwargs):
        image_embeds = self.vision_model(pixel_values)
        query_output = self.qformer(self.query_tokens + image_embeds.mean(1, keepdim=True))
        language_model_inputs = self.language_projection(query_output)
        inputs_embeds = torch.cat([language_model_inputs, self.embed_tokens(input_ids)], dim=1)
        return self.lm_head(inputs_embeds).argmax(-1)

# load_in_8bit=True: Linear weights int8, everything left unquantized in float16
model = InstructBlipForConditionalGeneration().half().eval()
device = "cpu"
prompt_ids = torch.randint(2, 64, (1, 9))
inputs = BatchFeature(pixel_values=torch.rand(1, 3, 32, 32),
                      qformer_input_ids=prompt_ids, qformer_attention_mask=torch.ones_like(prompt_ids),
                      input_ids=prompt_ids, attention_mask=torch.ones_like(prompt_ids)).to(device)
'''
CELL = '''
outputs = model.generate(
        **inputs,
        do_sample=False,
        num_beams=5,
        max_length=256,
        min_length=1,
        top_p=0.9,
        repetition_penalty=1.5,
        length_penalty=1.0,
        temperature=1,
)
'''
EXPECT_ERROR = "should be the same"
CULPRITS = ["inputs['pixel_values']"]
FIX = "namespace"
REFERENCE_FIX = '''
inputs = inputs.to(device, torch.float16)
'''
REFERENCE_EDIT = None
CLEAN = False
