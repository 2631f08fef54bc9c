"""Look-alike: GFPGANer.enhance turns each aligned numpy face into a tensor on the CPU, moves it to `self.device`, and `tensor2img` brings the restored face back to the CPU.

Source: https://github.com/TencentARC/GFPGAN (gfpgan/utils.py, GFPGANer.__init__ / enhance)
`GFPGANer` picks `self.device` (cuda when available), builds the GFPGAN net and does
`self.gfpgan = self.gfpgan.to(self.device)`. In `enhance(..., has_aligned=True)` every cropped face
becomes `img2tensor(cropped_face / 255., bgr2rgb=True, float32=True)`, is normalised on the CPU, then
`cropped_face_t.unsqueeze(0).to(self.device)`; the output goes through basicsr's `tensor2img`, which
does `.float().detach().cpu().clamp_(*min_max)` before numpy. Both host copies are deliberate.
Stand-ins: GFPGANv1Clean as a small conv U-Net returning `(image, out_rgbs)`, basicsr `img2tensor` /
`tensor2img` up to the CPU tensor (cv2 resize and the numpy conversion left out), torchvision
`normalize` written out; a 32x32 face instead of 512x512.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

def img2tensor(imgs, bgr2rgb=True, float32=True):      # basicsr.utils.img_util
    def _totensor(img, bgr2rgb, float32):
        if img.shape[2] == 3 and bgr2rgb:
            img = img[:, :, ::-1].copy()                  # cv2.cvtColor(img, cv2.COLOR_BGR2RGB)
        img = torch.from_numpy(img.transpose(2, 0, 1))
        if float32:
            img = img.float()
        return img
    if isinstance(imgs, list):
        return [_totensor(img, bgr2rgb, float32) for img in imgs]
    return _totensor(imgs, bgr2rgb, float32)

def tensor2img(tensor, rgb2bgr=True, out_type=np.uint8, min_max=(0, 1)):   # basicsr (up to the CPU tensor)
    _tensor = tensor.squeeze(0).float().detach().cpu().clamp_(*min_max)
    _tensor = (_tensor - min_max[0]) / (min_max[1] - min_max[0])
    return _tensor

def normalize(tensor, mean, std, inplace=False):         # torchvision.transforms.functional.normalize
    mean = torch.as_tensor(mean, dtype=tensor.dtype, device=tensor.device).view(-1, 1, 1)
    std = torch.as_tensor(std, dtype=tensor.dtype, device=tensor.device).view(-1, 1, 1)
    return tensor.sub_(mean).div_(std) if inplace else tensor.sub(mean).div(std)

class GFPGANv1Clean(nn.Module):                           # gfpgan/archs/gfpganv1_clean_arch.py (reduced)
    def __init__(self, out_size=512, num_style_feat=512, channel_multiplier=2, **kwargs):
        super().__init__()
        self.conv_body_first = nn.Conv2d(3, 8, 1)
        self.conv_body_down = nn.Sequential(nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.LeakyReLU(0.2))
        self.conv_body_up = nn.Sequential(nn.Upsample(scale_factor=2), nn.Conv2d(16, 8, 3, padding=1), nn.LeakyReLU(0.2))
        self.toRGB = nn.Conv2d(8, 3, 1)

    def forward(self, x, return_latents=False, return_rgb=True, randomize_noise=True, weight=0.5, **kwargs):
        feat = self.conv_body_first(x)
        feat = self.conv_body_up(self.conv_body_down(feat)) * weight + feat * (1 - weight)
        image = torch.tanh(self.toRGB(feat))
        out_rgbs = [image] if return_rgb else []
        return image, out_rgbs

class GFPGANer():                                         # gfpgan/utils.py (aligned-face path)
    def __init__(self, model_path, upscale=2, arch='clean', channel_multiplier=2, bg_upsampler=None, device=None):
        self.upscale = upscale
        self.bg_upsampler = bg_upsampler
        self.device = torch.device('cuda:0') if device is None else device   # 'cuda' if available
        self.gfpgan = GFPGANv1Clean(out_size=512, num_style_feat=512, channel_multiplier=channel_multiplier)
        # loadnet = torch.load(model_path); self.gfpgan.load_state_dict(loadnet['params_ema'], strict=True)
        self.gfpgan.eval()
        self.gfpgan = self.gfpgan.to(self.device)
        self.cropped_faces, self.restored_faces = [], []

    @torch.no_grad()
    def enhance(self, img, has_aligned=False, only_center_face=False, paste_back=True, weight=0.5):
        self.cropped_faces, self.restored_faces = [img], []     # has_aligned: cv2.resize(img, (512, 512))
        for cropped_face in self.cropped_faces:
            cropped_face_t = img2tensor(cropped_face / 255., bgr2rgb=True, float32=True)
            normalize(cropped_face_t, (0.5, 0.5, 0.5), (0.5, 0.5, 0.5), inplace=True)
            cropped_face_t = cropped_face_t.unsqueeze(0).to(self.device)
            output = self.gfpgan(cropped_face_t, return_rgb=False, weight=weight)[0]
            restored_face = tensor2img(output.squeeze(0), rgb2bgr=True, min_max=(-1, 1))
            self.restored_faces.append(restored_face)
        return self.cropped_faces, self.restored_faces, None

restorer = GFPGANer(model_path='experiments/pretrained_models/GFPGANv1.4.pth', upscale=2, arch='clean',
                    channel_multiplier=2, bg_upsampler=None)
input_img = np.random.default_rng(0).integers(0, 256, (32, 32, 3)).astype(np.uint8)   # cv2.imread(aligned face)
'''
CELL = '''
cropped_faces, restored_faces, restored_img = restorer.enhance(
    input_img, has_aligned=True, only_center_face=False, paste_back=True, weight=0.5)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
