"""Look-alike: SpeechBrain's Mimi wrapper keeps its codebook embeddings as a plain attribute, computed lazily on the first call after the move.

Source: https://github.com/speechbrain/speechbrain/blob/develop/speechbrain/integrations/huggingface/mimi.py (`Mimi.__init__`, `_compute_embedding`, `encode`)
`self.embeddings` is not a buffer: it is a `torch.stack` of every quantizer layer's `codebook.embed`
(a property derived from the codebook buffers). `__init__` now leaves it `None` and `encode` /
`decode` / `forward` call `_compute_embedding()` on their first call, so after
`model.to("cuda")` the stack is made from the already-moved buffers and lands on the GPU; `encode`
then gathers from it with GPU token indices. A plain tensor attribute that `Module.to()` would not
move, but made after the move, on the right device. Stand-in: the HF `MimiModel` reduced to a strided
conv encoder and a split residual VQ whose `MimiEuclideanCodebook.embed` is computed from
`embed_sum` / `cluster_usage` buffers; no download.
"""

SIM = "fake_cuda"
FAMILY = "clean"
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
    """speechbrain.integrations.huggingface.mimi.Mimi (after PR #2805)."""

    def __init__(self, source="kyutai/mimi", save_path=None, sample_rate=24000, freeze=True, num_codebooks=8):
        super().__init__()
        self.model = MimiModel()           # AutoModel.from_pretrained(source), on the CPU
        self.freeze = freeze
        self.num_codebooks = num_codebooks
        self.sampling_rate = sample_rate
        self.embeddings = None

    @torch.no_grad()
    def _compute_embedding(self):
        semantic_layers = self.model.quantizer.semantic_residual_vector_quantizer.layers
        acoustic_layers = self.model.quantizer.acoustic_residual_vector_quantizer.layers
        layers = (list(semantic_layers) + list(acoustic_layers))[: self.num_codebooks]
        embs = [layer.codebook.embed for layer in layers]
        embs = torch.stack(embs)  # [K, C, H]
        return embs

    def encode(self, inputs, length):
        if self.embeddings is None:
            self.embeddings = self._compute_embedding()

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
# model.embeddings is still None here: computed on the first encode/decode
audio = torch.randn(4, 4000, device="cuda:0")
length = torch.tensor([1.0, 0.5, 0.75, 1.0], device="cuda:0")
'''
CELL = '''
tokens, emb = model.encode(audio, length)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
