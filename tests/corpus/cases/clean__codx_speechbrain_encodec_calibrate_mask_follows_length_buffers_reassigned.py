"""Look-alike: SpeechBrain's Encodec wrapper recalibrated on GPU audio: a mask built without `device=` and buffers reassigned in a method.

Source: https://github.com/speechbrain/speechbrain/blob/develop/speechbrain/integrations/huggingface/encodec.py (`Encodec.__init__`, `calibrate`, `_compute_embedding_norm`), with speechbrain/dataio/dataio.py (`length_to_mask`)
The codebook vocabulary, its flat view and the token offsets are registered buffers, and the
embedding normalisation `emb_mean` / `emb_std` too (pre-computed on the CPU in `__init__` from
`torch.arange(num_tokens)`), so `model.to(device)` moves them. `calibrate(sample, length)` recomputes
them from GPU tokens: `_compute_embedding_norm` builds `torch.ones(len(sample), device=sample.device)`
when no length is given and calls `length_to_mask(length * max_len, max_len)` with no `device=`, which
is right because `length_to_mask` builds the mask on `length.device`; assigning the new tensors to
`self.emb_mean` / `self.emb_std` keeps them registered buffers. Stand-in: the HF `EncodecModel`
reduced as in the pre-fix case, the `[:, :, None, None]` / `[None, None, :, None]` reshapes written
as `unsqueeze` / `view`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
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

def length_to_mask(length, max_len=None, dtype=None, device=None):
    """speechbrain.dataio.dataio.length_to_mask: the mask is built on length.device"""
    assert len(length.shape) == 1
    mask = torch.arange(max_len, device=length.device, dtype=length.dtype).expand(len(length), max_len) < length.unsqueeze(1)
    if dtype is None:
        dtype = length.dtype
    if device is None:
        device = length.device
    return torch.as_tensor(mask, dtype=dtype, device=device)

class Encodec(nn.Module):
    """speechbrain.integrations.huggingface.encodec.Encodec (after PR #2240)."""

    def __init__(self, source, save_path=None, sample_rate=None, bandwidth=1.5, flat_embeddings=False,
                 freeze=True, renorm_embeddings=True):
        super().__init__()
        self.model = EncodecModel()        # EncodecModel.from_pretrained(source), on the CPU
        self.freeze = freeze
        self.sample_rate = sample_rate or 24000
        self.bandwidth = bandwidth
        self.flat_embeddings = flat_embeddings
        self.num_heads = self.model.quantizer.get_num_quantizers_for_bandwidth(bandwidth)
        quantizer_layers = self.model.quantizer.layers[: self.num_heads]
        vocabulary = torch.stack([layer.codebook.embed for layer in quantizer_layers])
        self.register_buffer("vocabulary", vocabulary)
        _, self.num_tokens, self.emb_dim = self.vocabulary.shape
        vocabulary_flat = self.vocabulary.reshape(self.num_heads * self.num_tokens, self.emb_dim)
        self.register_buffer("vocabulary_flat", vocabulary_flat)
        token_index_offsets = torch.arange(self.num_heads)[None, None, :] * self.num_tokens
        self.register_buffer("token_index_offsets", token_index_offsets)
        self.renorm_embeddings = renorm_embeddings
        if self.renorm_embeddings:
            emb_mean, emb_std = self._precalibrate()
            self.register_buffer("emb_mean", emb_mean)
            self.register_buffer("emb_std", emb_std)
        if self.freeze:
            for param in self.model.parameters():
                param.requires_grad = False

    def _precalibrate(self):
        sample = torch.arange(self.num_tokens)[None, :, None].expand(1, self.num_tokens, self.num_heads)
        return self._compute_embedding_norm(sample)

    def _compute_embedding_norm(self, sample, length=None):
        if length is None:
            length = torch.ones(len(sample), device=sample.device)
        max_len = sample.size(1)
        emb = self._raw_embeddings(sample)
        mask = length_to_mask(length * max_len, max_len).unsqueeze(-1).unsqueeze(-1).expand_as(emb)
        emb_mean = (emb.mean(-1).sum(1) / mask.mean(-1).sum(1)).mean(0).view(1, 1, -1, 1)
        emb_diff_sq = ((emb - emb_mean) * mask) ** 2
        emb_std = (
            emb_diff_sq.sum(dim=[0, 1, 3]) / (mask.expand_as(emb_diff_sq).sum(dim=[0, 1, 3]) - 1)
        ).sqrt().view(1, 1, -1, 1)
        return emb_mean, emb_std

    def calibrate(self, sample, length):
        if not self.renorm_embeddings:
            raise ValueError("Not supported when renorm_embeddings is disabled")
        sample_tokens = self._encode_tokens(sample, length)
        self.emb_mean, self.emb_std = self._compute_embedding_norm(sample_tokens, length)
        return self.emb_mean.squeeze(), self.emb_std.squeeze()

    def encode(self, inputs, length):
        with torch.set_grad_enabled(not self.freeze):
            tokens = self._encode_tokens(inputs, length)
            emb = self.embeddings(tokens)
            return tokens, emb

    def _encode_tokens(self, inputs, length):
        if inputs.dim() == 2:
            inputs = inputs.unsqueeze(1)
        max_len = inputs.size(-1)
        mask = length_to_mask(length * max_len, max_len, device=inputs.device).unsqueeze(1)
        result = self.model.encode(inputs, mask, bandwidth=self.bandwidth)
        return result.audio_codes.squeeze(0).transpose(-1, -2)

    def _raw_embeddings(self, tokens):
        idx = tokens + self.token_index_offsets
        return F.embedding(idx, self.vocabulary_flat)

    def embeddings(self, tokens):
        emb = self._raw_embeddings(tokens)
        if self.renorm_embeddings:
            emb = (emb - self.emb_mean) / self.emb_std
        if self.flat_embeddings:
            batch_size, max_len, num_heads, emb_dim = emb.shape
            emb = emb.reshape(batch_size, max_len, num_heads * emb_dim)
        return emb

device = "cuda:0"
model = Encodec("facebook/encodec_24khz", "savedir").to(device)
calib_audio = torch.randn(8, 6400, device=device)
calib_length = torch.ones(8, device=device)
audio = torch.randn(4, 3200, device=device)
length = torch.tensor([1.0, 0.5, 0.75, 1.0], device=device)
'''
CELL = '''
emb_mean, emb_std = model.calibrate(calib_audio, calib_length)
tokens, emb = model.encode(audio, length)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
