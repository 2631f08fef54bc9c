"""SpeechBrain's Mimi wrapper on CUDA: the codebook embeddings are stacked once in `__init__`, on the CPU, and never moved.

Source: https://github.com/speechbrain/speechbrain/pull/2805
"Fix Mimi Bug": "Mimi does not function correctly on CUDA because the embeddings are always loaded
onto the CPU (in the __init__ function) and are never transferred to CUDA." `Mimi.__init__` did
`self.embeddings = self._compute_embedding()` - a `torch.stack` of every quantizer layer's
`codebook.embed` (a property computed from the codebook buffers) - so `self.embeddings` is a plain
tensor attribute made while the model is still on the CPU; `model.to("cuda")` moves the HF model's
buffers but not it, and `encode` gathers from it with CUDA token indices. The PR's fix computes the
embeddings lazily, inside `encode`/`forward`/`decode`, on the first call (after the move); the
reference edit makes that lazy computation in `encode` (recomputing when the stack is missing or not
on the inputs' device, since here `__init__` has already built it). The report names no error text;
the gather of CPU embeddings with CUDA indices raises the usual device mismatch.
Stand-in: the HF `MimiModel` reduced to a strided conv encoder and a split residual VQ whose
`MimiEuclideanCodebook.embed` is derived from `embed_sum` / `cluster_usage` buffers, plus the
SpeechBrain wrapper with its original `_compute_embedding` / `encode`; no download.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class MimiEuclideanCodebook(nn.Module):
    def __init__(self, codebook_size=32, dim=16, epsilon=1e-5):
        super().__init__()
        self.epsilon = epsilon
        self.register_buffer("initialized", torch.tensor([True]))
        self.register_buffer("cluster_usage", torch.ones(codebook_size))
        self.register_buffer("embed_sum", torch.randn(codebook_size, dim))

    @property
    def embed(self):
        return self.embed_sum / self.cluster_usage.clamp(min=self.epsilon)[:, None]

    def encode(self, hidden_states):
        embed = self.embed
        dists = (hidden_states.pow(2).sum(-1, keepdim=True) - 2 * hidden_states @ embed.t()
                 + embed.pow(2).sum(-1))
        return dists.argmin(dim=-1)

class MimiVectorQuantization(nn.Module):
    def __init__(self, codebook_size=32, dim=16):
        super().__init__()
        self.codebook = MimiEuclideanCodebook(codebook_size, dim)

class MimiResidualVectorQuantizer(nn.Module):
    def __init__(self, num_layers, dim=16):
        super().__init__()
        self.layers = nn.ModuleList([MimiVectorQuantization(dim=dim) for _ in range(num_layers)])

    def encode(self, embeddings, num_quantizers):
        residual = embeddings.transpose(1, 2)
        codes = []
        for layer in self.layers[:num_quantizers]:
            idx = layer.codebook.encode(residual)
            residual = residual - nn.functional.embedding(idx, layer.codebook.embed)
            codes.append(idx)
        return torch.stack(codes, dim=1)

class MimiSplitResidualVectorQuantizer(nn.Module):
    def __init__(self, dim=16, n_acoustic=7):
        super().__init__()
        self.semantic_residual_vector_quantizer = MimiResidualVectorQuantizer(1, dim)
        self.acoustic_residual_vector_quantizer = MimiResidualVectorQuantizer(n_acoustic, dim)

    def encode(self, embeddings, num_quantizers):
        semantic = self.semantic_residual_vector_quantizer.encode(embeddings, 1)
        acoustic = self.acoustic_residual_vector_quantizer.encode(embeddings, num_quantizers - 1)
        return torch.cat([semantic, acoustic], dim=1)

class MimiModel(nn.Module):
    def __init__(self, dim=16, frame=40):
        super().__init__()
        self.encoder = nn.Conv1d(1, dim, frame, stride=frame)
        self.quantizer = MimiSplitResidualVectorQuantizer(dim)

    def encode(self, input_values, padding_mask=None, num_quantizers=8):
        emb = self.encoder(input_values * padding_mask)
        return (self.quantizer.encode(emb, num_quantizers),)

def length_to_mask(length, max_len, device=None):
    return (torch.arange(max_len, device=device)[None, :] < length[:, None]).float()

class Mimi(nn.Module):
    """speechbrain.lobes.models.huggingface_transformers.mimi.Mimi (HFTransformersInterface)."""

    def __init__(self, source="kyutai/mimi", save_path=None, sample_rate=24000, freeze=True, num_codebooks=8):
        super().__init__()
        self.model = MimiModel()           # AutoModel.from_pretrained(source), on the CPU
        self.freeze = freeze
        self.num_codebooks = num_codebooks
        self.sampling_rate = sample_rate
        self.embeddings = self._compute_embedding()

    @torch.no_grad()
    def _compute_embedding(self):
        semantic_layers = self.model.quantizer.semantic_residual_vector_quantizer.layers
        acoustic_layers = self.model.quantizer.acoustic_residual_vector_quantizer.layers
        layers = (list(semantic_layers) + list(acoustic_layers))[: self.num_codebooks]
        embs = [layer.codebook.embed for layer in layers]
        embs = torch.stack(embs)  # [K, C, H]
        return embs

    def encode(self, inputs, length):
        if inputs.dim() == 2:
            inputs = inputs.unsqueeze(1)
        max_len = inputs.size(-1)
        padding_mask = length_to_mask(length * max_len, max_len, device=inputs.device).unsqueeze(1)
        tokens = self.model.encode(inputs, padding_mask, num_quantizers=self.num_codebooks)[0]
        input_tensor = tokens.unsqueeze(-1).expand(-1, -1, -1, self.embeddings.shape[-1])
        embeddings = torch.gather(
            self.embeddings.unsqueeze(0).expand(tokens.shape[0], -1, -1, -1),
            2,
            input_tensor,
        )
        return tokens, embeddings

model = Mimi("kyutai/mimi", "savedir")
model = model.to("cuda:0")
audio = torch.randn(4, 4000, device="cuda:0")
length = torch.tensor([1.0, 0.5, 0.75, 1.0], device="cuda:0")
'''
CELL = '''
tokens, emb = model.encode(audio, length)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        if inputs.dim() == 2:\n            inputs = inputs.unsqueeze(1)\n        max_len = inputs.size(-1)",
    "        if self.embeddings is None or self.embeddings.device != inputs.device:\n            self.embeddings = self._compute_embedding()\n        if inputs.dim() == 2:\n            inputs = inputs.unsqueeze(1)\n        max_len = inputs.size(-1)",
)
CLEAN = False
