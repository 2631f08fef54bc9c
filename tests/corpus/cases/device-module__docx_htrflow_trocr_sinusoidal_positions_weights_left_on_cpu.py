"""htrflow TrOCR on CUDA: the decoder's sinusoidal position table `embed_positions.weights` is a plain attribute that `model.to(device)` never moves.

Source: https://github.com/AI-Riksarkivet/htrflow/issues/47
`htrflow pipeline pipeline.yaml image9.jpg` on an NVIDIA GPU failed in
`modeling_trocr.py ... x = self.weights.index_select(0, position_ids.view(-1))` with "Expected all
tensors to be on the same device, but got index is on cuda:0, different from other tensors on cpu".
The fix (PR #48): `TrOCRSinusoidalPositionalEmbedding.get_embedding()` builds `weights` on the CPU and
keeps it as a plain tensor attribute, so `self.model.to(self.device)` leaves it behind while
`position_ids` follow the CUDA `input_ids`; after loading, recompute the weights with the layer's own
`get_embedding()` and move them to the model's device. Stand-in: htrflow's `TrOCR` adapter and a
tiny `VisionEncoderDecoderModel` (patch encoder, one cross-attention step, greedy `generate` for a
fixed number of steps) with the `TrOCRSinusoidalPositionalEmbedding` as the PR describes it (plain
`weights`, no re-placement in `forward`); no processor/tokenizer, token ids are returned.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
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

class TrOCRDecoderWrapper(nn.Module):
    def __init__(self):
        super().__init__()
        self.decoder = TrOCRDecoder()

class TrOCRForCausalLM(nn.Module):
    def __init__(self, vocab_size=64, d_model=32):
        super().__init__()
        self.model = TrOCRDecoderWrapper()
        self.output_projection = nn.Linear(d_model, vocab_size, bias=False)

    def forward(self, input_ids, encoder_hidden_states):
        return self.output_projection(self.model.decoder(input_ids, encoder_hidden_states))

class VisionEncoderDecoderModel(nn.Module):
    def __init__(self, d_model=32, decoder_start_token_id=2):
        super().__init__()
        self.decoder_start_token_id = decoder_start_token_id
        self.encoder = nn.Sequential(nn.Conv2d(3, d_model, kernel_size=16, stride=16))
        self.enc_to_dec_proj = nn.Linear(d_model, d_model)
        self.decoder = TrOCRForCausalLM(d_model=d_model)

    @property
    def device(self):
        return next(self.parameters()).device

    @torch.no_grad()
    def generate(self, pixel_values, max_new_tokens=4, **kwargs):
        enc = self.enc_to_dec_proj(self.encoder(pixel_values).flatten(2).transpose(1, 2))
        ids = torch.full((pixel_values.shape[0], 1), self.decoder_start_token_id, dtype=torch.long,
                         device=pixel_values.device)
        for _ in range(max_new_tokens):
            logits = self.decoder(ids, enc)
            ids = torch.cat([ids, logits[:, -1:].argmax(-1)], dim=1)
        return ids

class TrOCR:
    """htrflow.models.huggingface.trocr.TrOCR (reduced)."""
    def __init__(self, model, device="cpu", model_kwargs=None):
        self.device = torch.device(device)
        self.model = VisionEncoderDecoderModel()          # VisionEncoderDecoderModel.from_pretrained(model, **model_kwargs)
        self.model.to(self.device)

    def processor(self, images):
        return torch.stack([torch.from_numpy(im).permute(2, 0, 1).float() / 255 for im in images])

    def predict(self, images, **generation_kwargs):
        with torch.no_grad():
            model_inputs = self.processor(images)
            return self.model.generate(model_inputs.to(self.model.device), **generation_kwargs)

import numpy as np
model = TrOCR("Riksarkivet/trocr-base-handwritten-hist-swe-2", device="cuda:0")
images = [np.random.randint(0, 255, (64, 384, 3), dtype=np.uint8) for _ in range(2)]   # text-line crops
'''
CELL = '''
texts = model.predict(images, num_beams=1)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.model.decoder.model.decoder.embed_positions.weights"]
FIX = "namespace"
REFERENCE_FIX = '''
embed_pos = model.model.decoder.model.decoder.embed_positions
embed_pos.weights = embed_pos.get_embedding(embed_pos.weights.shape[0], embed_pos.embedding_dim,
                                            embed_pos.padding_idx).to(model.device)
'''
REFERENCE_EDIT = None
CLEAN = False
