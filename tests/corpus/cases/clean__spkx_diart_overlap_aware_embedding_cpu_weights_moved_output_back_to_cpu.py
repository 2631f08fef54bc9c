"""Look-alike: diart's overlap-aware speaker embedding computes the overlapped-speech-penalty weights on the CPU, moves waveform and weights to the embedding model's GPU, and returns CPU embeddings.

Source: https://github.com/juanmc2005/diart (src/diart/blocks/embedding.py, src/diart/functional.py)
`OverlapAwareSpeakerEmbedding.__call__` = `self.normalize(self.embedding(waveform, self.osp(segmentation)))`:
`OverlappedSpeechPenalty` turns the (CPU) segmentation into per-speaker frame weights,
`SpeakerEmbedding.__call__` does `self.waveform_formatter.cast(waveform).to(self.device)` and
`self.weights_formatter.cast(weights).to(self.device)`, runs the model and returns
`output.squeeze().cpu()`, and `EmbeddingNormalization` rescales on the CPU. CPU segmentation and
CPU embeddings around a CUDA model are by design.
Stand-ins: the pyannote embedding model reduced to a conv front end with weighted statistics pooling;
einops `rearrange` written with reshape/permute; the formatters' numpy/SlidingWindowFeature
handling left out (tensors in, tensors out).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

def overlapped_speech_penalty(segmentation, gamma=3, beta=10):
    probs = torch.softmax(beta * segmentation, dim=-1)
    weights = torch.pow(segmentation, gamma) * torch.pow(probs, gamma)
    weights[weights < 1e-8] = 1e-8
    return weights

def normalize_embeddings(embeddings, norm=1):
    if embeddings.ndim == 2:
        embeddings = embeddings.unsqueeze(0)
    emb_norm = torch.norm(embeddings, p=2, dim=-1, keepdim=True)
    return norm * embeddings / emb_norm

class EmbeddingModel(nn.Module):
    """Stand-in for diart.models.EmbeddingModel wrapping pyannote/embedding."""
    def __init__(self, dim=16):
        super().__init__()
        self.frontend = nn.Conv1d(1, dim, 400, stride=160, padding=200)
        self.out = nn.Linear(dim, dim)

    def forward(self, waveforms, weights=None):
        feats = self.frontend(waveforms)                     # (batch, dim, frames)
        if weights is not None:
            w = weights.unsqueeze(1)
            feats = (feats * w).sum(-1) / w.sum(-1)
        else:
            feats = feats.mean(-1)
        return self.out(feats)

class SpeakerEmbedding:
    def __init__(self, model, device=None):
        self.model = model
        self.model.eval()
        self.device = device
        if self.device is None:
            self.device = torch.device("cpu")
        self.model.to(self.device)

    def __call__(self, waveform, weights=None):
        with torch.no_grad():
            inputs = waveform.to(self.device)                       # (batch, sample, channel)
            inputs = inputs.permute(0, 2, 1)                        # batch channel sample
            if weights is not None:
                weights = weights.to(self.device)
                batch_size, _, num_speakers = weights.shape
                inputs = inputs.repeat(1, num_speakers, 1)
                weights = weights.permute(0, 2, 1).reshape(batch_size * num_speakers, -1)
                inputs = inputs.reshape(batch_size * num_speakers, 1, -1)
                output = self.model(inputs, weights).reshape(batch_size, num_speakers, -1)
            else:
                output = self.model(inputs)
            return output.squeeze().cpu()

class OverlappedSpeechPenalty:
    def __init__(self, gamma=3, beta=10):
        self.gamma, self.beta = gamma, beta

    def __call__(self, segmentation):
        with torch.inference_mode():
            return overlapped_speech_penalty(segmentation, self.gamma, self.beta)

class EmbeddingNormalization:
    def __init__(self, norm=1):
        self.norm = norm

    def __call__(self, embeddings):
        with torch.inference_mode():
            return normalize_embeddings(embeddings, self.norm)

class OverlapAwareSpeakerEmbedding:
    def __init__(self, model, gamma=3, beta=10, norm=1, device=None):
        self.embedding = SpeakerEmbedding(model, device)
        self.osp = OverlappedSpeechPenalty(gamma, beta)
        self.normalize = EmbeddingNormalization(norm)

    def __call__(self, waveform, segmentation):
        return self.normalize(self.embedding(waveform, self.osp(segmentation)))

embedding = OverlapAwareSpeakerEmbedding(EmbeddingModel(), device=torch.device("cuda:0"))
waveform = torch.randn(1, 16000, 1)          # 1 s chunk from the microphone source, on the CPU
segmentation = torch.rand(1, 101, 3)         # pyannote/segmentation output for the chunk, on the CPU
'''
CELL = '''
embeddings = embedding(waveform, segmentation)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
