"""Precomputed float32 image embeddings are written into a bf16 model's token embeddings by index put.

Source: https://github.com/vllm-project/vllm/issues/22064
The user fed Qwen2-VL image embeddings saved with torch.save / loaded with torch.load (float32)
to a model running in bfloat16 and got "Index put requires the source and destination dtypes
match": the merge step does `inputs_embeds[is_multimodal] = flattened` with bf16 inputs_embeds
and float32 embeddings. The fix (vllm PR 22065) casts the embeddings to inputs_embeds.dtype.
Stand-in: a bf16 embedding table and the merge helper, on the CPU (dtype bug).
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import torch
import torch.nn as nn

IMAGE_TOKEN_ID = 999
embed_tokens = nn.Embedding(1000, 64).to(torch.bfloat16)

def merge_multimodal_embeddings(input_ids, inputs_embeds, multimodal_embeddings, placeholder_token_id):
    is_multimodal = input_ids == placeholder_token_id
    flattened = multimodal_embeddings.reshape(-1, inputs_embeds.shape[-1])
    inputs_embeds[is_multimodal] = flattened
    return inputs_embeds

input_ids = torch.tensor([[1, 151, IMAGE_TOKEN_ID, IMAGE_TOKEN_ID, IMAGE_TOKEN_ID, IMAGE_TOKEN_ID, 42, 2]])
# stands in for torch.load("image_embeds.pt", map_location="cpu"): saved in float32
image_embeds = torch.randn(4, 64)
'''
CELL = '''
with torch.no_grad():
    inputs_embeds = embed_tokens(input_ids)
    inputs_embeds = merge_multimodal_embeddings(input_ids, inputs_embeds, image_embeds, IMAGE_TOKEN_ID)
'''
EXPECT_ERROR = "Index put requires the source and destination dtypes match"
CULPRITS = ["image_embeds"]
FIX = "namespace"
REFERENCE_FIX = '''
image_embeds = image_embeds.to(torch.bfloat16)
'''
REFERENCE_EDIT = None
CLEAN = False
