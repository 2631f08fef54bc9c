"""NeuroSync audio-to-face API: `decode_audio_chunk` builds float16 chunks from `config['use_half_precision']` while `load_model` left the blendshape model in float32.

Source: https://github.com/AnimaVR/NeuroSync_Player/issues/4
(explained in https://blog.youkuaiyun.com/gitblog_07496/article/details/148624462)
The llm_to_face example posting to the local API's /audio_to_blendshapes failed with "mat1 and mat2
must have the same dtype, but got Half and Float" after the half-precision update. In NeuroSync_Local_API
of Feb 2025, `decode_audio_chunk` casts every chunk to `torch.float16` whenever
`config['use_half_precision']` is True, but `load_model` converted the model to float16 only under its
own conditions (its own `use_half_precision` argument and `device.type == 'cuda'`), so a model that
stayed float32 met half inputs in `encoder.embedding`. The answer: set `'use_half_precision': False` in
the config (the maintainer then made `load_model` read the same config key, commit 4dbaa48).
Stand-in: the Seq2Seq transformer of utils/model/model.py reduced to an embedding linear, one encoder
layer and the output head; the API served on a device where the model stays float32 (the CPU here).
"""

SIM = "cpu"
FAMILY = "dtype-input"
SETUP = '''
import warnings
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.cuda.amp import autocast
warnings.filterwarnings("ignore")

# utils/config.py
config = {
    'sr': 88200,
    'frame_rate': 60,
    'hidden_dim': 64,        # 1024
    'n_layers': 1,           # 8
    'num_heads': 4,          # 16
    'dropout': 0.0,
    'output_dim': 68,
    'input_dim': 256,
    'frame_size': 128,
    'use_half_precision': True
}

# utils/model/model.py (reduced)
class Encoder(nn.Module):
    def __init__(self, input_dim, hidden_dim, n_layers, num_heads, dropout=0.0):
        super(Encoder, self).__init__()
        self.embedding = nn.Linear(input_dim, hidden_dim)
        self.transformer_encoder = nn.ModuleList([
            nn.TransformerEncoderLayer(hidden_dim, num_heads, 4 * hidden_dim, dropout, batch_first=True)
            for _ in range(n_layers)])
        self.layer_norm = nn.LayerNorm(hidden_dim)

    def forward(self, x):
        x = self.embedding(x)
        for layer in self.transformer_encoder:
            x = layer(x)
        return self.layer_norm(x)

class Decoder(nn.Module):
    def __init__(self, output_dim, hidden_dim, n_layers, num_heads, dropout=0.0):
        super(Decoder, self).__init__()
        self.fc_output = nn.Linear(hidden_dim, output_dim)

    def forward(self, encoder_outputs):
        return self.fc_output(encoder_outputs)

class Seq2Seq(nn.Module):
    def __init__(self, encoder, decoder, device):
        super(Seq2Seq, self).__init__()
        self.encoder = encoder
        self.decoder = decoder
        self.device = device

    def forward(self, src):
        return self.decoder(self.encoder(src))

def load_model(model_path, config, device, use_half_precision=True):
    device = torch.device(device)  # Ensure device is properly set
    hidden_dim = config['hidden_dim']
    n_layers = config['n_layers']
    num_heads = config['num_heads']
    encoder = Encoder(config['input_dim'], hidden_dim, n_layers, num_heads)
    decoder = Decoder(config['output_dim'], hidden_dim, n_layers, num_heads)
    model = Seq2Seq(encoder, decoder, device).to(device)
    # state_dict = torch.load(model_path, map_location=device); model.load_state_dict(state_dict, strict=True)
    if use_half_precision and device.type == 'cuda':
        model = model.to(torch.float16)
        print("Model converted to float16 (half-precision).")
    else:
        print("Half-precision not applied (CPU or unsupported GPU).")
    model.eval()
    return model

# utils/audio/processing/audio_processing.py
def decode_audio_chunk(audio_chunk, model, device, config):
    # Use precision based on config
    use_half_precision = config.get("use_half_precision", True)
    # Force float16 if half precision is desired; else float32
    dtype = torch.float16 if use_half_precision else torch.float32
    # Convert audio chunk directly to the desired precision
    src_tensor = torch.tensor(audio_chunk, dtype=dtype).unsqueeze(0).to(device)
    with torch.no_grad():
        if use_half_precision:
            with autocast(dtype=torch.float16):
                encoder_outputs = model.encoder(src_tensor)
                output_sequence = model.decoder(encoder_outputs)
        else:
            encoder_outputs = model.encoder(src_tensor)
            output_sequence = model.decoder(encoder_outputs)
        decoded_outputs = output_sequence.squeeze(0).cpu().numpy()
    return decoded_outputs

# neurosync_local_api.py
device = torch.device('cpu')      # torch.device('cuda' if torch.cuda.is_available() else 'cpu')
model_path = 'utils/model/model.pth'
blendshape_model = load_model(model_path, config, device)

# extract_audio_features(audio_bytes): one chunk of frame_size frames
audio_chunk = np.random.default_rng(0).standard_normal((config['frame_size'], config['input_dim'])).astype(np.float32)
'''
CELL = '''
decoded_outputs = decode_audio_chunk(audio_chunk, blendshape_model, device, config)
'''
EXPECT_ERROR = ("must have the same dtype", "to have the same dtype")
CULPRITS = ["config"]
FIX = "namespace"
REFERENCE_FIX = '''
config['use_half_precision'] = False
'''
REFERENCE_EDIT = None
CLEAN = False
