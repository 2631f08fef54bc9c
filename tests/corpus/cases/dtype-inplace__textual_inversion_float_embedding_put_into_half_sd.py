"""textual_inversion embeddings (float32) loaded into a half-precision Stable Diffusion: the placeholder vector is index-put into fp16 token embeddings.

Source: https://github.com/rinongal/textual_inversion/issues/43
"Dtype mismatch when using embeddings with SD": after training with the v1-finetune config, txt2img
with the embeddings loaded failed with "Index put requires the source and destination dtypes match,
got Half for the destination and Float for the source." The model runs in float16, the
EmbeddingManager's `string_to_param_dict` comes from the saved embeddings.pt in float32, and
`embedded_text[placeholder_idx] = placeholder_embedding` does not cast (the webui's answer in
hlky/sd-enable-textual-inversion#4: run at full precision). Run on the CPU (a dtype bug); the CLIP
embeddings and the EmbeddingManager are small stand-ins with the repo's structure.
"""

SIM = "cpu"
FAMILY = "dtype-inplace"
SETUP = '''
import torch
from torch import nn

class EmbeddingManager(nn.Module):
    def __init__(self, placeholder_strings=("*",), placeholder_tokens=(265,), token_dim=32):
        super().__init__()
        self.string_to_token_dict = {s: torch.tensor(t) for s, t in zip(placeholder_strings, placeholder_tokens)}
        self.string_to_param_dict = nn.ParameterDict()
        self.max_vectors_per_token = 1
        for s in placeholder_strings:
            self.string_to_param_dict[s] = nn.Parameter(torch.zeros(1, token_dim))

    def forward(self, tokenized_text, embedded_text):
        b, n, device = *tokenized_text.shape, tokenized_text.device
        for placeholder_string, placeholder_token in self.string_to_token_dict.items():
            placeholder_embedding = self.string_to_param_dict[placeholder_string].to(device)
            if self.max_vectors_per_token == 1:
                placeholder_idx = torch.where(tokenized_text == placeholder_token.to(device))
                embedded_text[placeholder_idx] = placeholder_embedding
        return embedded_text

    def load(self, ckpt):
        self.string_to_token_dict = ckpt["string_to_token"]
        self.string_to_param_dict = ckpt["string_to_param"]

class CLIPTextEmbeddings(nn.Module):
    def __init__(self, vocab=1000, dim=32, max_pos=77):
        super().__init__()
        self.token_embedding = nn.Embedding(vocab, dim)
        self.position_embedding = nn.Embedding(max_pos, dim)

    def forward(self, input_ids, embedding_manager=None):
        inputs_embeds = self.token_embedding(input_ids)
        if embedding_manager is not None:
            inputs_embeds = embedding_manager(input_ids, inputs_embeds)
        pos = torch.arange(input_ids.shape[1])
        return inputs_embeds + self.position_embedding(pos)

class LatentDiffusion(nn.Module):
    def __init__(self):
        super().__init__()
        self.cond_stage_model = CLIPTextEmbeddings()
        self.embedding_manager = EmbeddingManager()

    def get_learned_conditioning(self, input_ids):
        return self.cond_stage_model(input_ids, embedding_manager=self.embedding_manager)

model = LatentDiffusion()
model = model.half()                                   # the webui runs SD in float16
trained = {"string_to_token": {"*": torch.tensor(265)},
           "string_to_param": nn.ParameterDict({"*": nn.Parameter(torch.randn(1, 32))})}   # embeddings.pt (float32)
model.embedding_manager.load(trained)
input_ids = torch.tensor([[49 % 1000, 320, 265, 530, 999] + [999] * 72])                 # "a photo of * ..."
'''
CELL = '''
c = model.get_learned_conditioning(input_ids)
'''
EXPECT_ERROR = "Index put requires the source and destination dtypes match"
CULPRITS = ["model.embedding_manager.string_to_param_dict"]
FIX = "namespace"
REFERENCE_FIX = '''
model.embedding_manager.half()
'''
REFERENCE_EDIT = None
CLEAN = False
