"""SpeechBrain's Encodec wrapper on the GPU: the stacked codebook vocabulary and the token offsets are plain tensor attributes.

Source: https://github.com/speechbrain/speechbrain/pull/2240
"Fixes for Encodec": "Register buffers for tensors in order to avoid CPU/GPU errors" (the commit:
"Decoupled token extraction, fixed CPU/GPU issues"). Before it, `Encodec.__init__` built
`self.vocabulary = torch.stack([layer.codebook.embed ...])`, `self.vocabulary_flat` and
`self.token_index_offsets = torch.arange(num_heads)[None, None, :] * num_tokens` as plain attributes
while the HF model was still on the CPU, so after `model.to(device)` the CUDA tokens from
`self.model.encode` are added to CPU offsets in `embeddings()`. The fix registers the three tensors
with `self.register_buffer(...)` so `Module.to()` moves them. Stand-in: the HF `EncodecModel` reduced
to a framing conv encoder and a residual VQ of `EncodecEuclideanCodebook`s (buffer `embed`), with
`get_num_quantizers_for_bandwidth`; the wrapper's `__init__`/`encode`/`embeddings` as they were.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import math
import torch
from torch import nn
from torch.nn import functional as F

class EncodecEuclideanCodebook(nn.Module):
    def __init__(self, codebook_size=64, dim=16):
        super().__init__()
        self.register_buffer("inited", torch.tensor([True]))
        self.register_buffer("cluster_size", torch.ones(codebook_size))
        self.register_buffer("embed", torch.randn(codebook_size, dim))
        self.register_buffer("embed_avg", torch.randn(codebook_size, dim))

    def encode(self, hidden_states):
        dist = (hidden_states.pow(2).sum(-1, keepdim=True) - 2 * hidden_states @ self.embed.t()
                + self.embed.pow(2).sum(-1))
        return dist.argmin(dim=-1)

class EncodecVectorQuantization(nn.Module):
    def __init__(self, codebook_size=64, dim=16):
        super().__init__()
        self.codebook = EncodecEuclideanCodebook(codebook_size, dim)

class EncodecResidualVectorQuantizer(nn.Module):
    def __init__(self, num_quantizers=8, frame_rate=75, codebook_size=64, dim=16):
        super().__init__()
        self.frame_rate, self.codebook_size = frame_rate, codebook_size
        self.layers = nn.ModuleList([EncodecVectorQuantization(codebook_size, dim) for _ in range(num_quantizers)])

    def get_num_quantizers_for_bandwidth(self, bandwidth):
        bw_per_q = math.log2(self.codebook_size) * self.frame_rate
        return max(1, int(bandwidth * 1000 // bw_per_q))

    def encode(self, embeddings, bandwidth):
        n_q = self.get_num_quantizers_for_bandwidth(bandwidth)
        residual = embeddings.transpose(1, 2)
        codes = []
        for layer in self.layers[:n_q]:
            idx = layer.codebook.encode(residual)
            residual = residual - F.embedding(idx, layer.codebook.embed)
            codes.append(idx)
        return torch.stack(codes, dim=1)

class EncodecEncoderOutput:
    def __init__(self, audio_codes, audio_scales):
        self.audio_codes, self.audio_scales = audio_codes, audio_scales

class EncodecModel(nn.Module):
    def __init__(self, dim=16, hop=320):
        super().__init__()
        self.encoder = nn.Conv1d(1, dim, hop, stride=hop)
        self.quantizer = EncodecResidualVectorQuantizer(codebook_size=1024, frame_rate=75, dim=dim)

    def encode(self, input_values, padding_mask=None, bandwidth=None):
        emb = self.encoder(input_values * padding_mask)
        codes = self.quantizer.encode(emb, bandwidth)
        return EncodecEncoderOutput(codes[None], [None])

def length_to_mask(length, max_len, device=None):
    return (torch.arange(max_len, device=device)[None, :] < length[:, None]).float()

class Encodec(nn.Module):
    """speechbrain.lobes.models.huggingface_transformers.encodec.Encodec (before PR #2240)."""

    def __init__(self, source, save_path=None, sample_rate=None, bandwidth=1.5, flat_embeddings=False, freeze=True):
        super().__init__()
        self.model = EncodecModel()        # EncodecModel.from_pretrained(source), on the CPU
        self.freeze = freeze
        self.sample_rate = sample_rate or 24000
        self.bandwidth = bandwidth
        self.flat_embeddings = flat_embeddings
        self.num_heads = self.model.quantizer.get_num_quantizers_for_bandwidth(bandwidth)
        quantizer_layers = self.model.quantizer.layers[: self.num_heads]
        self.vocabulary = torch.stack(
            [layer.codebook.embed for layer in quantizer_layers]
        )
        _, self.num_tokens, self.emb_dim = self.vocabulary.shape
        self.vocabulary_flat = self.vocabulary.reshape(
            self.num_heads * self.num_tokens, self.emb_dim
        )
        self.token_index_offsets = (
            torch.arange(self.num_heads)[None, None, :] * self.num_tokens
        )
        if self.freeze:
            for param in self.model.parameters():
                param.requires_grad = False

    def encode(self, inputs, length):
        with torch.set_grad_enabled(not self.freeze):
            if inputs.dim() == 2:
                inputs = inputs.unsqueeze(1)
            max_len = inputs.size(-1)
            mask = length_to_mask(length * max_len, max_len, device=inputs.device).unsqueeze(1)
            result = self.model.encode(inputs, mask, bandwidth=self.bandwidth)
            tokens = result.audio_codes.squeeze(0).transpose(-1, -2)
            emb = self.embeddings(tokens)
            return tokens, emb

    def embeddings(self, tokens):
        idx = tokens + self.token_index_offsets
        emb = F.embedding(idx, self.vocabulary_flat)
        if self.flat_embeddings:
            batch_size, max_len, num_heads, emb_dim = emb.shape
            emb = emb.reshape(batch_size, max_len, num_heads * emb_dim)
        return emb

device = "cuda:0"
model = Encodec("facebook/encodec_24khz", "savedir").to(device)
audio = torch.randn(4, 3200, device=device)
length = torch.tensor([1.0, 0.5, 0.75, 1.0], device=device)
'''
CELL = '''
tokens, emb = model.encode(audio, length)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    """        self.vocabulary = torch.stack(
            [layer.codebook.embed for layer in quantizer_layers]
        )
        _, self.num_tokens, self.emb_dim = self.vocabulary.shape
        self.vocabulary_flat = self.vocabulary.reshape(
            self.num_heads * self.num_tokens, self.emb_dim
        )
        self.token_index_offsets = (
            torch.arange(self.num_heads)[None, None, :] * self.num_tokens
        )""",
    """        vocabulary = torch.stack(
            [layer.codebook.embed for layer in quantizer_layers]
        )
        self.register_buffer("vocabulary", vocabulary)
        _, self.num_tokens, self.emb_dim = self.vocabulary.shape
        vocabulary_flat = self.vocabulary.reshape(
            self.num_heads * self.num_tokens, self.emb_dim
        )
        self.register_buffer("vocabulary_flat", vocabulary_flat)
        token_index_offsets = (
            torch.arange(self.num_heads)[None, None, :] * self.num_tokens
        )
        self.register_buffer("token_index_offsets", token_index_offsets)""",
)
CLEAN = False
