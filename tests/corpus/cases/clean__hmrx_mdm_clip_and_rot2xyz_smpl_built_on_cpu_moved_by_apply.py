"""MDM builds its CLIP text encoder and its rot2xyz SMPL on the CPU; `model.to(dev)` still moves both.

Source: https://github.com/GuyTevet/motion-diffusion-model/blob/main/model/mdm.py
In the Motion Diffusion Model, `load_and_freeze_clip` loads CLIP with `device='cpu'` (kept as the
submodule `clip_model`) and `self.rot2xyz = Rotation2xyz(device='cpu')` is a plain object holding an SMPL
model, which `Module.to()` would not see. MDM overrides `_apply` to also run `fn` on
`self.rot2xyz.smpl_model`, `clip_encode_text` tokenizes on CPU and sends the tokens to
`next(self.parameters()).device`, and sample/generate.py moves the tensor entries of `model_kwargs['y']`
(the text list stays a list). Look-alike: CPU-built encoders and a CPU SMPL that end up on the GPU; it runs.
Stand-ins: a tiny CLIP (token embedding + mean pooling) and tokenizer, MDM reduced to timestep/text
embedding and linear in/out, Rotation2xyz/SMPL reduced to 6D->matrix and joint regression (no frame
mask selection); the GPU is simulated by meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

# ---- clip stand-in
def tokenize(texts, context_length=77, truncate=True):
    result = torch.zeros(len(texts), context_length, dtype=torch.long)
    for i, t in enumerate(texts):
        toks = [49406] + [ord(c) % 49000 for c in t][:context_length - 2] + [49407]
        result[i, :len(toks)] = torch.tensor(toks)
    return result

class TinyCLIP(nn.Module):
    def __init__(self, vocab=49408, width=64, embed_dim=512):
        super().__init__()
        self.token_embedding = nn.Embedding(vocab, width)
        self.text_projection = nn.Parameter(torch.randn(width, embed_dim) * 0.02)

    def encode_text(self, text):
        x = self.token_embedding(text).mean(dim=1)
        return x @ self.text_projection

def clip_load(name, device='cpu', jit=False):
    return TinyCLIP().to(device), None

# ---- SMPL / Rotation2xyz stand-ins
def rotation_6d_to_matrix(d6):
    a1, a2 = d6[..., :3], d6[..., 3:]
    b1 = F.normalize(a1, dim=-1)
    b2 = a2 - (b1 * a2).sum(-1, keepdim=True) * b1
    b2 = F.normalize(b2, dim=-1)
    b3 = torch.cross(b1, b2, dim=-1)
    return torch.stack((b1, b2, b3), dim=-2)

class SMPL(nn.Module):
    def __init__(self, num_verts=200):
        super().__init__()
        g = torch.Generator().manual_seed(0)
        self.register_buffer('v_template', torch.randn(num_verts, 3, generator=g))
        self.register_buffer('posedirs', torch.randn(23 * 9, num_verts * 3, generator=g) * 1e-3)
        self.register_buffer('J_regressor', torch.rand(24, num_verts, generator=g) / num_verts)

    def forward(self, body_pose, global_orient, betas=None):
        n = body_pose.shape[0]
        ident = torch.eye(3, dtype=body_pose.dtype, device=body_pose.device)
        pose_feature = (body_pose - ident).reshape(n, -1)
        verts = self.v_template + (pose_feature @ self.posedirs).view(n, -1, 3)
        verts = torch.einsum('bvk,bjk->bvj', verts, global_orient.reshape(n, 3, 3))
        return torch.einsum('bik,ji->bjk', verts, self.J_regressor)

class Rotation2xyz:
    def __init__(self, device, dataset='amass'):
        self.device = device
        self.dataset = dataset
        self.smpl_model = SMPL().eval().to(device)

    def __call__(self, x, mask, pose_rep, translation, glob, jointstype, vertstrans, **kwargs):
        if translation:
            x_translations = x[:, -1, :3]
            x_rotations = x[:, :-1]
        else:
            x_rotations = x
        x_rotations = x_rotations.permute(0, 3, 1, 2)
        nsamples, time, njoints, feats = x_rotations.shape
        rotations = rotation_6d_to_matrix(x_rotations.reshape(-1, njoints, 6))
        joints = self.smpl_model(body_pose=rotations[:, 1:], global_orient=rotations[:, 0])
        x_xyz = joints.reshape(nsamples, time, -1, 3).permute(0, 2, 3, 1)
        if translation and vertstrans:
            x_xyz = x_xyz + x_translations[:, None, :, :]
        return x_xyz

# ---- MDM stand-in
class PositionalEncoding(nn.Module):
    def __init__(self, d_model, max_len=5000):
        super().__init__()
        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-9.21 / d_model))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        self.register_buffer('pe', pe.unsqueeze(0).transpose(0, 1))

class TimestepEmbedder(nn.Module):
    def __init__(self, latent_dim, sequence_pos_encoder):
        super().__init__()
        self.sequence_pos_encoder = sequence_pos_encoder
        self.time_embed = nn.Sequential(nn.Linear(latent_dim, latent_dim), nn.SiLU(), nn.Linear(latent_dim, latent_dim))

    def forward(self, timesteps):
        return self.time_embed(self.sequence_pos_encoder.pe[timesteps]).permute(1, 0, 2)

class MDM(nn.Module):
    def __init__(self, njoints=25, nfeats=6, latent_dim=64, clip_version='ViT-B/32'):
        super().__init__()
        self.njoints, self.nfeats, self.latent_dim = njoints, nfeats, latent_dim
        self.dataset = 'humanact12'
        self.sequence_pos_encoder = PositionalEncoding(latent_dim)
        self.embed_timestep = TimestepEmbedder(latent_dim, self.sequence_pos_encoder)
        self.input_process = nn.Linear(njoints * nfeats, latent_dim)
        self.clip_model = self.load_and_freeze_clip(clip_version)
        self.embed_text = nn.Linear(512, latent_dim)
        self.output_process = nn.Linear(latent_dim, njoints * nfeats)
        self.rot2xyz = Rotation2xyz(device='cpu', dataset=self.dataset)

    def load_and_freeze_clip(self, clip_version):
        clip_model, clip_preprocess = clip_load(clip_version, device='cpu', jit=False)
        clip_model.eval()
        for p in clip_model.parameters():
            p.requires_grad = False
        return clip_model

    def encode_text(self, raw_text):
        device = next(self.parameters()).device
        texts = tokenize(raw_text, truncate=True).to(device)
        return self.clip_model.encode_text(texts).float().unsqueeze(0)

    def forward(self, x, timesteps, y=None):
        bs, njoints, nfeats, nframes = x.shape
        emb = self.embed_timestep(timesteps)
        emb = emb + self.embed_text(self.encode_text(y['text']))
        x = x.permute(3, 0, 1, 2).reshape(nframes, bs, njoints * nfeats)
        h = self.input_process(x) + emb
        out = self.output_process(h).reshape(nframes, bs, njoints, nfeats)
        return out.permute(1, 2, 3, 0)

    def _apply(self, fn):
        super()._apply(fn)
        self.rot2xyz.smpl_model._apply(fn)

    def train(self, *args, **kwargs):
        super().train(*args, **kwargs)
        self.rot2xyz.smpl_model.train(*args, **kwargs)

# ---- data_loaders/tensors.py
def lengths_to_mask(lengths, max_len):
    return torch.arange(max_len, device=lengths.device).expand(len(lengths), max_len) < lengths.unsqueeze(1)

def collate(batch):
    databatch = torch.stack([b['inp'] for b in batch])
    lenbatchTensor = torch.as_tensor([b['lengths'] for b in batch])
    maskbatchTensor = lengths_to_mask(lenbatchTensor, databatch.shape[-1]).unsqueeze(1).unsqueeze(1)
    cond = {'y': {'mask': maskbatchTensor, 'lengths': lenbatchTensor, 'text': [b['text'] for b in batch]}}
    return databatch, cond

dev = torch.device('meta')                 # dist_util.dev(): the GPU, simulated with meta
model = MDM()
model.to(dev)
model.eval()
texts = ['the person walked forward and is picking up his toolbox.', 'a person jumps in place.']
n_frames = 60
collate_args = [{'inp': torch.zeros(n_frames), 'tokens': None, 'lengths': n_frames, 'text': t} for t in texts]
_, model_kwargs = collate(collate_args)
'''
CELL = '''
model_kwargs['y'] = {key: val.to(dev) if torch.is_tensor(val) else val for key, val in model_kwargs['y'].items()}
x_t = torch.randn(len(texts), model.njoints, model.nfeats, n_frames, device=dev)
timesteps = torch.full((len(texts),), 999, device=dev, dtype=torch.long)
with torch.no_grad():
    sample = model(x_t, timesteps, y=model_kwargs['y'])
    rot2xyz_mask = model_kwargs['y']['mask'].reshape(len(texts), n_frames).bool()
    sample = model.rot2xyz(x=sample, mask=rot2xyz_mask, pose_rep='rot6d', glob=True, translation=True,
                           jointstype='smpl', vertstrans=True)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
