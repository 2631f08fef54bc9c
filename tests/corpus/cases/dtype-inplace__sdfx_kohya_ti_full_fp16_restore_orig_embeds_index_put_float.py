"""sd-scripts SDXL textual inversion with `--full_fp16`: the saved fp32 copy of the embedding table is written back into the fp16 table by index.

Source: https://github.com/kohya-ss/sd-scripts/issues/1019
Training SDXL Textual Inversion stopped at the first step with "RuntimeError: Index put requires the
source and destination dtypes match, got Half for the destination and Float for the source." at
`get_input_embeddings().weight[index_no_updates] = orig_embeds_params[index_no_updates]`.
`orig_embeds_params` is cloned from the token-embedding weight while the text encoders are still
fp32; `--full_fp16` then casts the text encoders to fp16, so the restore step writes a float32 copy
into a half table. kohya's fix (663b4810, "fix TI training with full_fp16/bf16 ref #1019"): cast the
saved copy to the table's dtype, `orig_embeds_params.to(input_embeddings_weight.dtype)`.
Stand-ins: two CLIP text encoders reduced to their token embedding (+ one projection), the
tokenizers' lengths after adding the placeholder tokens. CPU: dtype bug only.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import torch
from torch import nn

class CLIPTextModel(nn.Module):
    def __init__(self, vocab_size, hidden_size):
        super().__init__()
        self.token_embedding = nn.Embedding(vocab_size, hidden_size)
        self.final_proj = nn.Linear(hidden_size, hidden_size)

    def get_input_embeddings(self):
        return self.token_embedding

    def forward(self, input_ids):
        return self.final_proj(self.token_embedding(input_ids))

num_vectors_per_token = 4
vocab_size = 1000                                  # len(tokenizer) before adding the new tokens
tokenizer_lens = [vocab_size + num_vectors_per_token] * 2
text_encoders = [CLIPTextModel(tokenizer_lens[0], 64), CLIPTextModel(tokenizer_lens[1], 96)]
token_ids_list = [list(range(vocab_size, vocab_size + num_vectors_per_token))] * 2

index_no_updates_list = []
orig_embeds_params_list = []
for tokenizer_len, token_ids, text_encoder in zip(tokenizer_lens, token_ids_list, text_encoders):
    index_no_updates = torch.arange(tokenizer_len) < token_ids[0]
    index_no_updates_list.append(index_no_updates)
    orig_embeds_params = text_encoder.get_input_embeddings().weight.data.detach().clone()
    orig_embeds_params_list.append(orig_embeds_params)
    text_encoder.requires_grad_(True)

# --full_fp16: the text encoders are cast to weight_dtype after the copies were taken
weight_dtype = torch.float16
for text_encoder in text_encoders:
    text_encoder.to(weight_dtype)
'''
CELL = '''
# Let's make sure we don't update any embedding weights besides the newly added token
with torch.no_grad():
    for text_encoder, orig_embeds_params, index_no_updates in zip(
        text_encoders, orig_embeds_params_list, index_no_updates_list
    ):
        text_encoder.get_input_embeddings().weight[
            index_no_updates
        ] = orig_embeds_params[index_no_updates]
'''
EXPECT_ERROR = ("Index put requires the source and destination dtypes match", "dtype")
CULPRITS = ["orig_embeds_params_list"]
FIX = "namespace"
REFERENCE_FIX = '''
orig_embeds_params_list = [p.to(te.get_input_embeddings().weight.dtype)
                           for p, te in zip(orig_embeds_params_list, text_encoders)]
'''
REFERENCE_EDIT = None
CLEAN = False
