"""Textual-inversion embedding in a half-precision model: the float32 vector is index-put into fp16 token embeddings.

Source: https://github.com/Sygil-Dev/sygil-webui/issues/199
Dropping a trained textual-inversion embedding into the WebUI and running txt2img raised "Index put
requires the source and destination dtypes match, got Half for the destination and Float for the
source": the EmbeddingManager writes the loaded (float32) placeholder vector into the prompt's token
embeddings (`embedded_text[placeholder_idx] = placeholder_embedding`), which come from the model run
in half precision. The maintainer's answer: run with `--no-half --precision full` (the model in float32)
for textual inversion. Stand-in: a FrozenCLIPEmbedder-like cond stage with the EmbeddingManager; CPU.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import torch
from torch import nn

class EmbeddingManager(nn.Module):
    def __init__(self):
        super().__init__()
        self.string_to_token_dict = {}
        self.string_to_param_dict = nn.ParameterDict()
        self.max_vectors_per_token = 1

    def load(self, ckpt):
        self.string_to_token_dict = ckpt["string_to_token"]
        self.string_to_param_dict = ckpt["string_to_param"]

    def forward(self, tokenized_text, embedded_text):
        b, n, device = *tokenized_text.shape, tokenized_text.device
        for placeholder_string, placeholder_token in self.string_to_token_dict.items():
            placeholder_embedding = self.string_to_param_dict[placeholder_string].to(device)
            if self.max_vectors_per_token == 1:
                placeholder_idx = torch.where(tokenized_text == placeholder_token.to(device))
                embedded_text[placeholder_idx] = placeholder_embedding
        return embedded_text

class FrozenCLIPEmbedder(nn.Module):
    def __init__(self, vocab=1000, dim=32):
        super().__init__()
        self.token_embedding = nn.Embedding(vocab, dim)
        self.final_layer_norm = nn.LayerNorm(dim)

    def encode(self, tokens, embedding_manager=None):
        embedded_text = self.token_embedding(tokens)
        if embedding_manager is not None:
            embedded_text = embedding_manager(tokens, embedded_text)
        return self.final_layer_norm(embedded_text)

class LatentDiffusion(nn.Module):
    def __init__(self):
        super().__init__()
        self.cond_stage_model = FrozenCLIPEmbedder()
        self.embedding_manager = EmbeddingManager()

    def get_learned_conditioning(self, tokens):
        return self.cond_stage_model.encode(tokens, embedding_manager=self.embedding_manager)

model = LatentDiffusion().half()                             # default: half precision
learned_embeds = {                                           # the .pt embedding file (float32)
    "string_to_token": {"*": torch.tensor(265)},
    "string_to_param": nn.ParameterDict({"*": nn.Parameter(torch.randn(32))}),
}
model.embedding_manager.load(learned_embeds)
tokens = torch.tensor([[406, 320, 125, 539, 265, 407]])        # "<bos> a photo of * <eos>" (toy vocabulary)
'''
CELL = '''
with torch.no_grad():
    c = model.get_learned_conditioning(tokens)
'''
EXPECT_ERROR = ("Index put requires the source and destination dtypes match", "expected scalar type")
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
model.float()
'''
REFERENCE_EDIT = None
CLEAN = False
