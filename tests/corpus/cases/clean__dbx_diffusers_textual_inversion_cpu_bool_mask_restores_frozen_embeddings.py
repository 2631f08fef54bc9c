"""Look-alike: diffusers' textual-inversion script restores the frozen token embeddings with a CPU boolean mask built from `len(tokenizer)` while the embedding matrix is on the accelerator.

Source: https://github.com/huggingface/diffusers/blob/main/examples/textual_inversion/textual_inversion.py
After each optimizer step the script does
`index_no_updates = torch.ones((len(tokenizer),), dtype=torch.bool)` (CPU),
`index_no_updates[min(placeholder_token_ids) : max(placeholder_token_ids) + 1] = False` and, under `no_grad`,
`accelerator.unwrap_model(text_encoder).get_input_embeddings().weight[index_no_updates] =
orig_embeds_params[index_no_updates]`, with `orig_embeds_params` a clone of the accelerator-side embedding
matrix. Indexing an accelerator tensor with a CPU mask is allowed, so only the placeholder rows keep their update.
Stand-ins: a tokenizer reduced to `add_tokens`/`convert_tokens_to_ids`/`__len__`, a CLIP text encoder reduced to
its token embedding, an Accelerator with `unwrap_model`; the optimizer step is a plain in-place update.
meta plays the accelerator.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

class CLIPTokenizer:
    def __init__(self, vocab_size=64):
        self.vocab = {f"tok{i}": i for i in range(vocab_size)}
    def add_tokens(self, tokens):
        for t in tokens:
            self.vocab.setdefault(t, len(self.vocab))
        return len(tokens)
    def convert_tokens_to_ids(self, tokens):
        return [self.vocab[t] for t in tokens]
    def __len__(self):
        return len(self.vocab)

class CLIPTextModel(nn.Module):
    def __init__(self, vocab_size=64, dim=16):
        super().__init__()
        self.token_embedding = nn.Embedding(vocab_size, dim)
    def get_input_embeddings(self):
        return self.token_embedding
    def resize_token_embeddings(self, n):
        old = self.token_embedding
        self.token_embedding = nn.Embedding(n, old.embedding_dim)
        with torch.no_grad():
            self.token_embedding.weight[: old.num_embeddings] = old.weight
        return self.token_embedding

class Accelerator:
    device = torch.device("meta")
    def unwrap_model(self, model):
        return model

torch.__future__.set_swap_module_params_on_conversion(True)
accelerator = Accelerator()
tokenizer = CLIPTokenizer()
text_encoder = CLIPTextModel()

placeholder_tokens = ["<cat-toy>", "<cat-toy>_1"]
tokenizer.add_tokens(placeholder_tokens)
placeholder_token_ids = tokenizer.convert_tokens_to_ids(placeholder_tokens)
text_encoder.resize_token_embeddings(len(tokenizer))
text_encoder.to(accelerator.device)

orig_embeds_params = accelerator.unwrap_model(text_encoder).get_input_embeddings().weight.data.clone()
'''
CELL = '''
with torch.no_grad():                                 # stands in for optimizer.step()
    text_encoder.get_input_embeddings().weight.add_(0.01)

# Let's make sure we don't update any embedding weights besides the newly added token
index_no_updates = torch.ones((len(tokenizer),), dtype=torch.bool)
index_no_updates[min(placeholder_token_ids) : max(placeholder_token_ids) + 1] = False

with torch.no_grad():
    accelerator.unwrap_model(text_encoder).get_input_embeddings().weight[
        index_no_updates
    ] = orig_embeds_params[index_no_updates]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
