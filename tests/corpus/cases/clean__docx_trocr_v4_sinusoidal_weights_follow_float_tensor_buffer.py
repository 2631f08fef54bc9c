"""Look-alike: TrOCR (transformers 4.x) keeps its sinusoidal position table as a plain CPU attribute, but re-places it on the `_float_tensor` buffer's device in every forward.

Source: https://github.com/huggingface/transformers/blob/v4.46.0/src/transformers/models/trocr/modeling_trocr.py
(4.x `TrOCRSinusoidalPositionalEmbedding`)
`self.weights = self.get_embedding(...)` is a plain tensor attribute built on the CPU that
`model.to("cuda")` does not move, but the module also registers `_float_tensor` as a buffer and its
`forward` does `self.weights = self.weights.to(self._float_tensor)` before the `index_select`, so the
table always follows the model. The usual inference (`pixel_values.to(device)`, `model.generate`)
runs on the GPU. Nothing to report. Stand-in: a tiny VisionEncoderDecoderModel (patch encoder, one
cross-attention step, fixed-length greedy `generate`) around the 4.x embedding code.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
from torch import nn

class TrOCRSinusoidalPositionalEmbedding(nn.Module):
    """This module produces sinusoidal positional embeddings of any length."""
    def __init__(self, num_positions, embedding_dim, padding_idx=None):
        super().__init__()
        self.offset = 2
        self.embedding_dim = embedding_dim
        self.padding_idx = padding_idx
        self.weights = self.get_embedding(num_positions, embedding_dim, padding_idx)
        self.register_buffer("_float_tensor", torch.FloatTensor(1))

    @staticmethod
    def get_embedding(num_embeddings, embedding_dim, padding_idx=None):
        half_dim = embedding_dim // 2
        emb = math.log(10000) / (half_dim - 1)
        emb = torch.exp(torch.arange(half_dim, dtype=torch.int64).float() * -emb)
        emb = torch.arange(num_embeddings, dtype=torch.int64).float().unsqueeze(1) * emb.unsqueeze(0)
        emb = torch.cat([torch.sin(emb), torch.cos(emb)], dim=1).view(num_embeddings, -1)
        if padding_idx is not None:
            emb[padding_idx, :] = 0
        return emb.to(torch.get_default_dtype())

    @torch.no_grad()
    def forward(self, input_ids, past_key_values_length=0):
        bsz, seq_len = input_ids.size()
        position_ids = self.create_position_ids_from_input_ids(input_ids, self.padding_idx, past_key_values_length).to(
            input_ids.device)
        max_pos = self.padding_idx + 1 + seq_len
        if self.weights is None or max_pos > self.weights.size(0):
            self.weights = self.get_embedding(max_pos, self.embedding_dim, self.padding_idx)
        self.weights = self.weights.to(self._float_tensor)
        return self.weights.index_select(0, position_ids.view(-1)).view(bsz, seq_len, -1).detach()

    def create_position_ids_from_input_ids(self, input_ids, padding_idx, past_key_values_length=0):
        mask = input_ids.ne(padding_idx).int()
        incremental_indices = (torch.cumsum(mask, dim=1).type_as(mask) + past_key_values_length) * mask
        return incremental_indices.long() + padding_idx

class TrOCRDecoder(nn.Module):
    def __init__(self, vocab_size=64, d_model=32, max_position_embeddings=512, pad_token_id=1):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, d_model, padding_idx=pad_token_id)
        self.embed_positions = TrOCRSinusoidalPositionalEmbedding(max_position_embeddings + 2, d_model, pad_token_id)
        self.encoder_attn = nn.MultiheadAttention(d_model, 4, batch_first=True)
        self.layernorm = nn.LayerNorm(d_model)
    def forward(self, input_ids, encoder_hidden_states):
        hidden = self.embed_tokens(input_ids) + self.embed_positions(input_ids)
        attn, _ = self.encoder_attn(hidden, encoder_hidden_states, encoder_hidden_states, need_weights=False)
        return self.layernorm(hidden + attn)

class TrOCRForCausalLM(nn.Module):
    def __init__(self, vocab_size=64, d_model=32):
        super().__init__()
        self.decoder = TrOCRDecoder(vocab_size, d_model)
        self.output_projection = nn.Linear(d_model, vocab_size, bias=False)
    def forward(self, input_ids, encoder_hidden_states):
        return self.output_projection(self.decoder(input_ids, encoder_hidden_states))

class VisionEncoderDecoderModel(nn.Module):
    def __init__(self, d_model=32, decoder_start_token_id=2):
        super().__init__()
        self.decoder_start_token_id = decoder_start_token_id
        self.encoder = nn.Conv2d(3, d_model, kernel_size=16, stride=16)
        self.enc_to_dec_proj = nn.Linear(d_model, d_model)
        self.decoder = TrOCRForCausalLM(d_model=d_model)

    @torch.no_grad()
    def generate(self, pixel_values, max_new_tokens=4):
        enc = self.enc_to_dec_proj(self.encoder(pixel_values).flatten(2).transpose(1, 2))
        ids = torch.full((pixel_values.shape[0], 1), self.decoder_start_token_id, dtype=torch.long,
                         device=pixel_values.device)
        for _ in range(max_new_tokens):
            logits = self.decoder(ids, enc)
            ids = torch.cat([ids, logits[:, -1:].argmax(-1)], dim=1)
        return ids

device = torch.device("cuda:0")                   # "cuda" if torch.cuda.is_available() else "cpu"
model = VisionEncoderDecoderModel().to(device)    # from_pretrained("microsoft/trocr-base-handwritten")
model.eval()
pixel_values = torch.rand(1, 3, 64, 384)          # processor(image, return_tensors="pt").pixel_values
'''
CELL = '''
generated_ids = model.generate(pixel_values.to(device))
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
