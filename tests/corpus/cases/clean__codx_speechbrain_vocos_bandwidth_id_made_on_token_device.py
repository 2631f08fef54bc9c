"""Look-alike: SpeechBrain's Vocos wrapper decodes GPU EnCodec tokens: the bandwidth id is a Python int turned into a tensor on the tokens' device.

Source: https://github.com/speechbrain/speechbrain/blob/develop/speechbrain/integrations/huggingface/vocos.py (`Vocos.__init__` / `forward`), with https://github.com/gemelo-ai/vocos/blob/main/vocos/pretrained.py (`codes_to_features`) and vocos/feature_extractors.py (`EncodecFeatures`)
`Vocos.__init__` reduces the bandwidth to an index with `(torch.tensor(BANDWIDTHS) - bandwidth).abs()
.argmin().item()` - a CPU computation kept as a plain int - and `forward` builds
`torch.tensor([self.bandwidth_id], device=inputs.device)` for the AdaLayerNorm embeddings.
`codes_to_features` makes its codebook offsets with `device=codes.device` and looks them up in
`feature_extractor.codebook_weights`, which `EncodecFeatures` concatenated from the EnCodec codebooks
but registered as an `nn.Parameter`, so `.to()` moves it. The padding mask follows the waveform's
device. Stand-in: the Vocos backbone reduced to the embedding conv, AdaLayerNorm and one ConvNeXt-like
block, the ISTFT head to a linear frame head; the EnCodec model itself left out; the `.item()` of the
bandwidth index is computed in plain Python (same int).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

BANDWIDTHS = [1.5, 3.0, 6.0, 12.0]

class AdaLayerNorm(nn.Module):
    def __init__(self, num_embeddings, embedding_dim, eps=1e-6):
        super().__init__()
        self.eps, self.dim = eps, embedding_dim
        self.scale = nn.Embedding(num_embeddings=num_embeddings, embedding_dim=embedding_dim)
        self.shift = nn.Embedding(num_embeddings=num_embeddings, embedding_dim=embedding_dim)
        torch.nn.init.ones_(self.scale.weight)
        torch.nn.init.zeros_(self.shift.weight)

    def forward(self, x, cond_embedding_id):
        scale = self.scale(cond_embedding_id)
        shift = self.shift(cond_embedding_id)
        x = nn.functional.layer_norm(x, (self.dim,), eps=self.eps)
        return x * scale + shift

class ConvNeXtBlock(nn.Module):
    def __init__(self, dim, intermediate_dim, layer_scale_init_value, adanorm_num_embeddings):
        super().__init__()
        self.dwconv = nn.Conv1d(dim, dim, kernel_size=7, padding=3, groups=dim)
        self.norm = AdaLayerNorm(adanorm_num_embeddings, dim)
        self.pwconv1 = nn.Linear(dim, intermediate_dim)
        self.act = nn.GELU()
        self.pwconv2 = nn.Linear(intermediate_dim, dim)
        self.gamma = nn.Parameter(layer_scale_init_value * torch.ones(dim), requires_grad=True)

    def forward(self, x, cond_embedding_id=None):
        residual = x
        x = self.dwconv(x).transpose(1, 2)
        x = self.norm(x, cond_embedding_id=cond_embedding_id)
        x = self.pwconv2(self.act(self.pwconv1(x)))
        x = self.gamma * x
        return residual + x.transpose(1, 2)

class VocosBackbone(nn.Module):
    def __init__(self, input_channels=32, dim=48, intermediate_dim=96, adanorm_num_embeddings=4):
        super().__init__()
        self.embed = nn.Conv1d(input_channels, dim, kernel_size=7, padding=3)
        self.norm = AdaLayerNorm(adanorm_num_embeddings, dim)
        self.convnext = nn.ModuleList([ConvNeXtBlock(dim, intermediate_dim, 0.125, adanorm_num_embeddings)])
        self.final_layer_norm = nn.LayerNorm(dim, eps=1e-6)

    def forward(self, x, **kwargs):
        bandwidth_id = kwargs.get("bandwidth_id", None)
        x = self.embed(x)
        x = self.norm(x.transpose(1, 2), cond_embedding_id=bandwidth_id).transpose(1, 2)
        for conv_block in self.convnext:
            x = conv_block(x, cond_embedding_id=bandwidth_id)
        return self.final_layer_norm(x.transpose(1, 2))

class FrameHead(nn.Module):
    def __init__(self, dim=48, hop_length=320):
        super().__init__()
        self.out = nn.Linear(dim, hop_length)

    def forward(self, x):
        return self.out(x).reshape(x.shape[0], -1)

class EncodecFeatures(nn.Module):
    def __init__(self, bins=1024, num_q=8, dim=32):
        super().__init__()
        self.bins = bins
        codebook_weights = torch.cat([torch.randn(bins, dim) for _ in range(num_q)], dim=0)
        self.codebook_weights = torch.nn.Parameter(codebook_weights, requires_grad=False)

class VocosModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.feature_extractor = EncodecFeatures()
        self.backbone = VocosBackbone()
        self.head = FrameHead()

    @torch.inference_mode()
    def codes_to_features(self, codes):
        if codes.dim() == 2:
            codes = codes.unsqueeze(1)
        n_bins = self.feature_extractor.bins
        offsets = torch.arange(0, n_bins * len(codes), n_bins, device=codes.device)
        embeddings_idxs = codes + offsets.view(-1, 1, 1)
        features = torch.nn.functional.embedding(embeddings_idxs, self.feature_extractor.codebook_weights).sum(dim=0)
        return features.transpose(1, 2)

    @torch.inference_mode()
    def decode(self, features_input, **kwargs):
        x = self.backbone(features_input, **kwargs)
        return self.head(x)

def length_to_mask(length, max_len=None, dtype=None, device=None):
    mask = torch.arange(max_len, device=length.device, dtype=length.dtype).expand(len(length), max_len) < length.unsqueeze(1)
    return mask.to(dtype=dtype or length.dtype)

class Vocos(nn.Module):
    """speechbrain.integrations.huggingface.vocos.Vocos"""

    def __init__(self, source, save_path, revision=None, bandwidth=1.5, freeze=True):
        super().__init__()
        self.source, self.save_path, self.revision = source, save_path, revision
        self.model = VocosModel()          # _load_model(): VocosModel.from_hparams + state dict, CPU
        self.freeze = freeze
        self.bandwidth = bandwidth
        # (torch.tensor(BANDWIDTHS) - bandwidth).abs().argmin().item(), computed without a tensor here
        self.bandwidth_id = min(range(len(BANDWIDTHS)), key=lambda i: abs(BANDWIDTHS[i] - bandwidth))
        if self.freeze:
            for param in self.model.parameters():
                param.requires_grad = False

    def forward(self, inputs, length):
        with torch.set_grad_enabled(not self.freeze):
            features = self.model.codes_to_features(inputs.permute(2, 0, 1))
            wavs = self.model.decode(
                features,
                bandwidth_id=torch.tensor([self.bandwidth_id], device=inputs.device),
            )
            mask = length_to_mask(length * wavs.size(1), max_len=wavs.size(1), device=wavs.device)
            return wavs * mask, length

device = "cuda:0"
vocoder = Vocos("charactr/vocos-encodec-24khz", "savedir", bandwidth=6.0).to(device)
tokens = torch.randint(0, 1024, (2, 75, 8), device=device)     # (Batch x Length x Heads) EnCodec tokens
length = torch.tensor([1.0, 0.6], device=device)
'''
CELL = '''
wavs, wav_length = vocoder(tokens, length)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
