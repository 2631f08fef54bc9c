"""MGDS/OneTrainer dual-GPU pipeline: tokens arrive from the tokenizer stage on cuda:0, the Mistral text encoder is hosted on the CPU.

Source: https://github.com/Nerogar/mgds/pull/51
"EncodeMistralText: move tokens to text_encoder.device before forward": in a model-parallel FLUX.2
LoRA setup the transformer is split over two GPUs and the 24B Mistral text encoder has to stay on the
CPU; upstream pipeline stages land `tokens` and `attention_mask` on cuda:0, and
`EncodeMistralText.get_item` called the text encoder with them, failing with "Expected all tensors to
be on the same device, but found at least two devices, cuda:0 and cpu! (... index in method
wrapper_CUDA__index_select)". The PR moves the inputs to `self.text_encoder.device`. Stand-ins: the
mgds `PipelineModule` stage protocol reduced to `get_item`, a tokenizer stage on the train device,
a small Mistral-shaped encoder, and the transformer halves on cuda:0 and cuda:1.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

class PipelineModule:
    def __init__(self):
        self.previous = None

    def _get_previous_item(self, variation, name, index):
        return self.previous.get_item(variation, index)[name]

class TokenizeText(PipelineModule):
    """Upstream stage: tokenizes the caption and puts the tokens on the train device."""
    def __init__(self, captions, device):
        super().__init__()
        self.captions, self.device = captions, device

    def get_item(self, variation, index):
        ids = [hash(w) % 1000 for w in self.captions[index].split()][:16]
        tokens = torch.tensor([ids + [0] * (16 - len(ids))])
        return {"tokens": tokens.to(self.device), "tokens_mask": (tokens != 0).long().to(self.device)}

class MistralTextEncoder(nn.Module):
    def __init__(self, vocab=1000, dim=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, dim)
        self.layer = nn.Linear(dim, dim)
        self.norm = nn.LayerNorm(dim)

    @property
    def device(self):
        return self.embed_tokens.weight.device

    def forward(self, input_ids, attention_mask=None):
        h = self.embed_tokens(input_ids)
        h = h + torch.tanh(self.layer(h)) * attention_mask.unsqueeze(-1)
        return self.norm(h)

class EncodeMistralText(PipelineModule):
    def __init__(self, tokens_name, tokens_attention_mask_in_name, hidden_state_out_name, text_encoder):
        super().__init__()
        self.tokens_name = tokens_name
        self.tokens_attention_mask_in_name = tokens_attention_mask_in_name
        self.hidden_state_out_name = hidden_state_out_name
        self.text_encoder = text_encoder

    def get_item(self, variation, index):
        tokens = self._get_previous_item(variation, self.tokens_name, index)
        tokens_attention_mask = self._get_previous_item(variation, self.tokens_attention_mask_in_name, index)
        with torch.no_grad():
            hidden_state = self.text_encoder(tokens, attention_mask=tokens_attention_mask)
        return {self.hidden_state_out_name: hidden_state}

train_device = torch.device("cuda:0")
transformer_blocks = [nn.Linear(32, 32).to("cuda:0"), nn.Linear(32, 32).to("cuda:1")]   # FLUX.2 halves
text_encoder = MistralTextEncoder().eval()        # too big for either GPU: kept on the CPU
tokenize = TokenizeText(["a photo of a red fox in the snow"], device=train_device)
encode_text = EncodeMistralText("tokens", "tokens_mask", "text_encoder_hidden_state", text_encoder)
encode_text.previous = tokenize
'''
CELL = '''
item = encode_text.get_item(variation=0, index=0)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["encode_text"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "            hidden_state = self.text_encoder(tokens, attention_mask=tokens_attention_mask)",
    "            hidden_state = self.text_encoder(tokens.to(self.text_encoder.device),\n"
    "                                             attention_mask=tokens_attention_mask.to(self.text_encoder.device))",
)
CLEAN = False
