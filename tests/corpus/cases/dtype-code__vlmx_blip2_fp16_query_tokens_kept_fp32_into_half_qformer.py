"""BLIP-2's float16 documentation example breaks once `query_tokens` are really kept in fp32: they enter a float16 Q-Former.

Source: https://github.com/huggingface/transformers/issues/37103
"BLIP-2 float16 example does not work": the `Blip2Model` example from the docs
(`Blip2Model.from_pretrained("Salesforce/blip2-opt-2.7b", torch_dtype=torch.float16)`, inputs
`.to(device, torch.float16)`, `outputs = model(**inputs)`) failed on transformers 4.50 with a
dtype mismatch. Fixed by PR #37068 ("[blip-2] Fix dtype mismatch when keep in fp32"):
`_keep_in_fp32_modules = ["query_tokens"]` was only honoured from 4.50 on, "now that the query_tokens
are actually kept in 32, we are getting dtype mismatch error in inference" (they meet the fp16
Q-Former); the PR keeps `qformer` in fp32 as well and casts the Q-Former's inputs and output to the
right dtypes.
Stand-ins: a toy Blip2Model (linear patch embedding, one-layer Q-Former with cross-attention,
projection, OPT embedding + head) whose `from_pretrained` casts to `torch_dtype` and keeps the
`_keep_in_fp32_modules` in fp32, and the processor's BatchFeature `.to(device, dtype)` (casts float
inputs only). CPU: dtype bug only (the CPU layer norm words the mismatch differently).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import math
import torch
from torch import nn

class BatchFeature(dict):
    def to(self, device, dtype=None):
        return BatchFeature({k: v.to(device=device, dtype=dtype) if v.is_floating_point() else v.to(device)
                             for k, v in self.items()})

class Blip2QFormerModel(nn.Module):
    def __init__(self, d=16, enc_d=24):
        super().__init__()
        self.layernorm = nn.LayerNorm(d)
        self.query = nn.Linear(d, d)
        self.key = nn.Linear(enc_d, d)
        self.value = nn.Linear(enc_d, d)

    def forward(self, query_embeds, encoder_hidden_states, encoder_attention_mask=None):
        embedding_output = self.layernorm(query_embeds)
        q = self.query(embedding_output)
        k, v = self.key(encoder_hidden_states), self.value(encoder_hidden_states)
        attn = (q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])).softmax(dim=-1)
        return (embedding_output + attn @ v,)

class Blip2Model(nn.Module):
    def __init__(self, num_query_tokens=4, vocab=50):
        super().__init__()
        self.vision_model = nn.Linear(3 * 8 * 8, 24)            # ViT-g patch embedding + encoder (toy)
        self.query_tokens = nn.Parameter(torch.zeros(1, num_query_tokens, 16))
        self.qformer = Blip2QFormerModel()
        self.language_projection = nn.Linear(16, 32)
        self.language_model = nn.Module()
        self.language_model.embed_tokens = nn.Embedding(vocab, 32)
        self.language_model.lm_head = nn.Linear(32, vocab)

    @classmethod
    def from_pretrained(cls, name, torch_dtype=None):
        model = cls()
        if torch_dtype is not None:
            model.to(torch_dtype)
            for keep in cls._keep_in_fp32_modules:
                if keep == "query_tokens":
                    model.query_tokens.data = model.query_tokens.data.float()
                else:
                    model.get_submodule(keep).float()
        return model

    _keep_in_fp32_modules = ["query_tokens"]

    def get_qformer_output(self, image_embeds):
        image_attention_mask = torch.ones(image_embeds.size()[:-1], dtype=torch.long, device=image_embeds.device)
        query_tokens = self.query_tokens.expand(image_embeds.shape[0], -1, -1)
        query_outputs = self.qformer(
            query_embeds=query_tokens,
            encoder_hidden_states=image_embeds,
            encoder_attention_mask=image_attention_mask,
        )
        query_output = query_outputs[0]
        return query_output

    def forward(self, pixel_values, input_ids, attention_mask=None):
        b = pixel_values.shape[0]
        patches = pixel_values.reshape(b, 3, 4, 8, 4, 8).permute(0, 2, 4, 1, 3, 5).reshape(b, 16, -1)
        image_embeds = self.vision_model(patches)
        query_output = self.get_qformer_output(image_embeds)
        language_model_inputs = self.language_projection(query_output)
        inputs_embeds = self.language_model.embed_tokens(input_ids)
        inputs_embeds = torch.cat([language_model_inputs, inputs_embeds.to(language_model_inputs.device)], dim=1)
        return self.language_model.lm_head(inputs_embeds)

device = "cpu"                                   # "cuda" if torch.cuda.is_available() else "cpu"
model = Blip2Model.from_pretrained("Salesforce/blip2-opt-2.7b", torch_dtype=torch.float16)
model.to(device)

# processor(images=image, text="Question: how many cats are there? Answer:", return_tensors="pt")
inputs = BatchFeature({"pixel_values": torch.randn(1, 3, 32, 32),
                       "input_ids": torch.tensor([[2, 45, 7, 19, 33, 11]]),
                       "attention_mask": torch.ones(1, 6, dtype=torch.long)}).to(device, torch.float16)
'''
CELL = '''
with torch.no_grad():
    outputs = model(**inputs)
'''
EXPECT_ERROR = ("mixed dtype", "expected scalar type", "same dtype")
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    '''    _keep_in_fp32_modules = ["query_tokens"]

    def get_qformer_output(self, image_embeds):
        image_attention_mask = torch.ones(image_embeds.size()[:-1], dtype=torch.long, device=image_embeds.device)
        query_tokens = self.query_tokens.expand(image_embeds.shape[0], -1, -1)
        query_outputs = self.qformer(
            query_embeds=query_tokens,
            encoder_hidden_states=image_embeds,
            encoder_attention_mask=image_attention_mask,
        )
        query_output = query_outputs[0]
        return query_output
''',
    '''    _keep_in_fp32_modules = ["query_tokens", "qformer"]

    def get_qformer_output(self, image_embeds):
        image_attention_mask = torch.ones(image_embeds.size()[:-1], dtype=torch.long, device=image_embeds.device)
        query_tokens = self.query_tokens.expand(image_embeds.shape[0], -1, -1)
        query_outputs = self.qformer(
            query_embeds=query_tokens,
            # qformer and latent query tokens are kept in fp32: cast `encoder_hidden_states` to them
            encoder_hidden_states=image_embeds.to(query_tokens.dtype),
            encoder_attention_mask=image_attention_mask,
        )
        query_output = query_outputs[0]
        # Qformer is kept in fp32, we downcast the output back if needed
        if query_output.dtype != image_embeds.dtype:
            query_output = query_output.to(image_embeds.dtype)
        return query_output
''',
)
CLEAN = False
