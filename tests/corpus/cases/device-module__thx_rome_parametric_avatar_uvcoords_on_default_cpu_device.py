"""ROME head-avatar inference: `ParametricAvatar` keeps `true_uvcoords`/`deforms_mask` as plain tensors on `args.device` ('cpu' by default) while `Infer` moves the model to cuda.

Source: https://github.com/SamsungLabs/rome/issues/27
"RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0
and cpu! (when checking argument for argument grid in method wrapper_CUDA__grid_sampler_2d) while
running infer.py". `Infer` puts `ROME(args)` on `cuda` when it is available, but `ROME.add_argparse_args`
declares `--device` with default 'cpu', and `ParametricAvatar(..., device=args.device)` stores
`self.true_uvcoords = true_uvcoords.to(device)` and `self.deforms_mask = torch.zeros(..., device=device)`
as plain attributes that `Module.to()` never moves; `deform_source_mesh` then grid-samples the cuda UNet
codes at the CPU `verts_uvs`. The fix given in the thread: run `python3 infer.py ... --device cuda`.
Stand-in: ROME reduced to the neural-texture autoencoder, the UNet/MLP deformers and the final UNet as
tiny convs/linears, `ParametricAvatar` without DECA/FLAME (64 vertices with fixed uv coordinates, zero
vertices instead of the FLAME fit, the uv grid instead of `render.world2uv`); the meta device plays cuda.
"""

SIM = "meta"
FAMILY = "device-module"
SETUP = '''
import argparse
import torch
import torch.nn as nn
import torch.nn.functional as F

# src/utils/harmonic_encoding.py (reduced)
def harmonic_encoding(x, num_encoding_functions=6):
    freqs = 2.0 ** torch.arange(num_encoding_functions, dtype=x.dtype, device=x.device)
    xf = x[..., None] * freqs
    return torch.cat([x, torch.sin(xf).flatten(-2), torch.cos(xf).flatten(-2)], dim=-1)

class ParametricAvatar(nn.Module):          # src/parametric_avatar.py (a DECA subclass in ROME)
    def __init__(self, image_size, external_params=None, device=torch.device('cpu')):
        super().__init__()
        self.device = device
        self.image_size = image_size
        self.external_params = external_params.__dict__
        grid_s = torch.linspace(-1, 1, image_size)
        v, u = torch.meshgrid(grid_s, grid_s, indexing='ij')
        self.register_buffer('uv_grid', torch.stack([u, v], dim=2)[None])
        # torch.load(f'{rome_data_dir}/vertex_uvcoords.pth'): 5023 FLAME vertices, 64 here
        true_uvcoords = torch.stack([torch.linspace(-0.9, 0.9, 64), torch.linspace(0.9, -0.9, 64),
                                     torch.zeros(64)], dim=1)[None]
        self.deforms_mask = torch.zeros(1, 64, 1, device=device) + 1.0
        self.true_uvcoords = true_uvcoords.to(device)

    def estimate_texture(self, source_image, source_mask, texture_encoder):
        autoenc_inputs = torch.cat([source_image, source_mask], dim=1)
        return texture_encoder(autoenc_inputs)

    @torch.no_grad()
    def deform_source_mesh(self, verts_parametric, neural_texture, deformer_nets):
        unet_deformer = deformer_nets['unet_deformer']
        vertex_deformer = deformer_nets['mlp_deformer']
        batch_size = verts_parametric.shape[0]

        verts_uvs = self.true_uvcoords[:, :, None, :2]  # 1 x V x 1 x 2
        verts_uvs = verts_uvs.repeat_interleave(batch_size, dim=0)

        # self.render.world2uv(verts_parametric) * 5 in ROME
        verts_texture = torch.cat([self.uv_grid, torch.zeros_like(self.uv_grid[..., :1])], dim=-1)
        verts_texture = verts_texture.permute(0, 3, 1, 2).repeat(batch_size, 1, 1, 1)
        enc_verts_texture = harmonic_encoding(verts_texture.permute(0, 2, 3, 1)).permute(0, 3, 1, 2)

        deform_unet_inputs = torch.cat([neural_texture.detach(), enc_verts_texture.detach()], dim=1)
        uv_deformations_codes = unet_deformer(deform_unet_inputs)

        mlp_input_uv_z = F.grid_sample(uv_deformations_codes, verts_uvs, align_corners=False)[..., 0].permute(0, 2, 1)
        mlp_input_uv = F.grid_sample(self.uv_grid.repeat(batch_size, 1, 1, 1).permute(0, 3, 1, 2),
                                     verts_uvs, align_corners=False)[..., 0]
        mlp_input_uv = harmonic_encoding(mlp_input_uv.permute(0, 2, 1), 6)
        mlp_input_uv_deformations = torch.cat([mlp_input_uv_z, mlp_input_uv], dim=-1)

        bs, v, ch = mlp_input_uv_deformations.shape
        deformation_project = vertex_deformer(mlp_input_uv_deformations.view(-1, ch))
        verts_deforms = torch.tanh(deformation_project.view(bs, v, 3).contiguous())
        verts_deforms = verts_deforms * self.deforms_mask
        return verts_deforms

    def forward(self, source_image, source_mask, target_image, deformer_nets=None):
        neural_texture = self.estimate_texture(source_image, source_mask, deformer_nets['neural_texture_encoder'])
        verts_template = torch.zeros(target_image.shape[0], 64, 3, device=target_image.device)  # FLAME fit
        verts_deforms = self.deform_source_mesh(verts_template, neural_texture, deformer_nets)
        return {'rendered_texture': neural_texture, 'vertices': verts_template + verts_deforms}

class ROME(nn.Module):                      # src/rome.py (reduced)
    def __init__(self, args):
        super().__init__()
        self.args = args
        self.autoencoder = nn.Conv2d(3 + 1, args.neural_texture_channels, 3, padding=1).eval()
        self.mesh_deformer = nn.Conv2d(args.neural_texture_channels + 3 * (1 + 2 * 6), 32, 3, padding=1)
        self.mlp_deformer = nn.Sequential(nn.Linear(32 + 2 * (1 + 6 * 2), 64), nn.ReLU(), nn.Linear(64, 3, bias=False))
        self.parametric_avatar = ParametricAvatar(args.model_image_size, args, device=args.device)
        self.unet = nn.Conv2d(args.neural_texture_channels, 3 + 1, 3, padding=1).eval()

    @torch.no_grad()
    def forward(self, data_dict, neutral_pose=False, source_information=None):
        parametric_output = self.parametric_avatar.forward(
            data_dict['source_img'], data_dict['source_mask'], data_dict['target_img'],
            deformer_nets={'neural_texture_encoder': self.autoencoder,
                           'unet_deformer': self.mesh_deformer,
                           'mlp_deformer': self.mlp_deformer})
        unet_outputs = self.unet(parametric_output['rendered_texture'])
        return {'pred_target_img': torch.sigmoid(unet_outputs[:, :3]), 'vertices': parametric_output['vertices']}

class Infer(object):                        # infer.py (reduced)
    def __init__(self, args):
        super(Infer, self).__init__()
        self.args = args
        self.device = torch.device('meta')  # torch.device('cuda' if torch.cuda.is_available() else 'cpu')
        self.model = ROME(args).eval().to(self.device)

    @torch.no_grad()
    def evaluate(self, source_img, source_mask, driver_img):
        data_dict = {'source_img': source_img, 'source_mask': source_mask, 'target_img': driver_img}
        for k, v in data_dict.items():
            data_dict[k] = data_dict[k].to(self.device)
        out = self.model(data_dict)
        return out

parser = argparse.ArgumentParser(conflict_handler='resolve')
parser.add_argument('--model_image_size', default=32, type=int)      # 256 in ROME
parser.add_argument('--neural_texture_channels', default=8, type=int)
parser.add_argument('--device', default='cpu', type=str)            # ROME.add_argparse_args
args = parser.parse_args([])
args.deca_path = 'DECA'

infer = Infer(args)
source_img = torch.rand(1, 3, 32, 32)     # data/imgs/taras1.jpg, aligned and resized
source_mask = torch.ones(1, 1, 32, 32)    # MODNet matte
driver_img = torch.rand(1, 3, 32, 32)
'''
CELL = '''
out = infer.evaluate(source_img, source_mask, driver_img)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["infer.model.parametric_avatar"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("args = parser.parse_args([])", "args = parser.parse_args(['--device', 'meta'])   # --device cuda")
CLEAN = False
