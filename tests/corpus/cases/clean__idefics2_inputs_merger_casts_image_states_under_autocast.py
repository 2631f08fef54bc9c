"""Idefics2 under CPU autocast: the inputs merger casts the image hidden states to the embeddings' dtype.

Source: https://github.com/huggingface/transformers/pull/47691
The Kosmos-2 fix cites Idefics2 as the model that already does it right: its `inputs_merger` writes
the connector's output into the token embeddings with `.to(inputs_embeds.device, inputs_embeds.dtype)`,
so under `torch.autocast(dtype=torch.bfloat16)`, where `nn.Embedding` stays float32 and the
connector's `nn.Linear` yields bfloat16, the advanced-index assignment still works. Stand-in:
Idefics2's vision -> connector -> merge path at toy size, on the CPU.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class Idefics2Connector(nn.Module):
    def __init__(self, vision_hidden=24, text_hidden=32):
        super().__init__()
        self.modality_projection = nn.Sequential(nn.Linear(vision_hidden, text_hidden), nn.SiLU(), nn.Linear(text_hidden, text_hidden))

    def forward(self, image_hidden_states):
        return self.modality_projection(image_hidden_states)

class Idefics2Model(nn.Module):
    image_token_id = 99

    def __init__(self, vocab=100, hidden=32):
        super().__init__()
        self.vision_model = nn.Sequential(nn.Conv2d(3, 24, 16, stride=16), nn.Flatten(2))
        self.connector = Idefics2Connector()
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.lm_head = nn.Linear(hidden, vocab, bias=False)

    def inputs_merger(self, input_ids, inputs_embeds, image_hidden_states):
        special_image_token_mask = input_ids == self.image_token_id
        new_inputs_embeds = inputs_embeds.clone()
        reshaped_image_hidden_states = image_hidden_states.view(-1, image_hidden_states.shape[-1])
        reshaped_image_hidden_states = reshaped_image_hidden_states.to(inputs_embeds.device, inputs_embeds.dtype)
        new_inputs_embeds[special_image_token_mask] = reshaped_image_hidden_states
        return new_inputs_embeds

    def forward(self, input_ids, pixel_values):
        inputs_embeds = self.embed_tokens(input_ids)
        image_hidden_states = self.vision_model(pixel_values).transpose(1, 2)
        image_hidden_states = self.connector(image_hidden_states)
        inputs_embeds = self.inputs_merger(input_ids, inputs_embeds, image_hidden_states)
        return self.lm_head(inputs_embeds)

model = Idefics2Model().eval()
input_ids = torch.tensor([[1, 5, 99, 99, 99, 99, 6, 7]])   # four image tokens for a 32x32 image
pixel_values = torch.randn(1, 3, 32, 32)
'''
CELL = '''
with torch.no_grad(), torch.autocast("cpu", dtype=torch.bfloat16):
    logits = model(input_ids=input_ids, pixel_values=pixel_values)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
