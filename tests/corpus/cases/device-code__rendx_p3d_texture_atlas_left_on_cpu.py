"""PyTorch3D `load_objs_as_meshes(..., device=cuda, create_texture_atlas=True)`: the mesh is on the GPU, its TexturesAtlas on the CPU.

Source: https://github.com/facebookresearch/pytorch3d/issues/326
"Device mismatch in loading UV/Atlas textures": loading cow.obj with `device=cuda:0` gives
`mesh_uv.textures.device == cuda:0` but `mesh_atlas.textures.device == cpu` when
`create_texture_atlas=True`, and rendering then fails with "Expected object of device type cuda but
got device type cpu". The reporter traced it to obj_io.py building the `TexturesAtlas` without the
device that the verts/faces were moved to. Stand-ins: `load_objs_as_meshes` (the .obj contents
generated), Meshes, TexturesUV/TexturesAtlas and a renderer whose shader is reduced to flat
texel * light shading over the fragments.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class TexturesUV:
    def __init__(self, maps, faces_uvs, verts_uvs):
        self.maps, self.faces_uvs, self.verts_uvs = maps, faces_uvs, verts_uvs
        self.device = maps.device
    def face_colors(self):
        return self.maps.mean(dim=(1, 2)).expand(self.faces_uvs.shape[1], 3)

class TexturesAtlas:
    def __init__(self, atlas):
        self._atlas_list = atlas
        self.device = atlas[0].device
    def face_colors(self):
        return self._atlas_list[0].mean(dim=(1, 2))            # (F, 3)

class Meshes:
    def __init__(self, verts, faces, textures=None):
        self._verts_list, self._faces_list, self.textures = verts, faces, textures
        self.device = verts[0].device

def _load_obj(f, device):
    n_verts, n_faces, r = 120, 200, 4
    verts = torch.randn(n_verts, 3, device=device)
    faces = torch.randint(0, n_verts, (n_faces, 3), device=device)
    verts_uvs = torch.rand(n_verts, 2, device=device)
    texture_image = torch.rand(1, 64, 64, 3, device=device)
    atlas = torch.rand(n_faces, r, r, 3)          # make_mesh_texture_atlas(...) runs on the CPU
    return verts, faces, verts_uvs, texture_image, atlas

def load_objs_as_meshes(files, device=None, load_textures=True, create_texture_atlas=False):
    mesh_list = []
    for f_obj in files:
        verts, faces, verts_uvs, image, atlas = _load_obj(f_obj, device)
        tex = None
        if create_texture_atlas:
            tex = TexturesAtlas(atlas=[atlas])
        elif load_textures:
            tex = TexturesUV(maps=image, faces_uvs=faces[None], verts_uvs=verts_uvs[None])
        mesh_list.append(Meshes(verts=[verts], faces=[faces], textures=tex))
    return mesh_list[0]

class HardFlatShader(nn.Module):
    def __init__(self, device="cpu", light_color=(1.0, 1.0, 1.0)):
        super().__init__()
        self.light_color = torch.tensor(light_color).to(device)
    def forward(self, pix_to_face, meshes):
        n_faces = meshes._faces_list[0].shape[0]
        face_mask = (pix_to_face >= 0).float()                       # (H, W)
        lit = meshes.textures.face_colors() * self.light_color       # (F, 3)
        shade = torch.linspace(0.5, 1.0, n_faces, device=meshes.device)[:, None]
        return face_mask.mean() * (lit * shade).mean(0)

class MeshRenderer(nn.Module):
    def __init__(self, image_size, shader):
        super().__init__()
        self.image_size, self.shader = image_size, shader
    def forward(self, meshes):
        n_faces = meshes._faces_list[0].shape[0]
        pix_to_face = torch.randint(-1, n_faces, (self.image_size, self.image_size), device=meshes.device)
        return self.shader(pix_to_face, meshes)

device = torch.device("cuda:0")
obj_filename = "data/cow_mesh/cow.obj"
mesh_uv = load_objs_as_meshes([obj_filename], device=device)
mesh_atlas = load_objs_as_meshes([obj_filename], device=device, create_texture_atlas=True)
renderer = MeshRenderer(image_size=64, shader=HardFlatShader(device=device))
'''
CELL = '''
images_uv = renderer(mesh_uv)
images_atlas = renderer(mesh_atlas)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["mesh_atlas.textures"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("tex = TexturesAtlas(atlas=[atlas])", "tex = TexturesAtlas(atlas=[atlas.to(device)])")
CLEAN = False
