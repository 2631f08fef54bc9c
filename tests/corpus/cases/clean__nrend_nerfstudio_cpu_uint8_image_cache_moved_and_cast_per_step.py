"""Look-alike: nerfstudio's full-image datamanager caches uint8 training images on the CPU; splatfacto gets them moved and cast per step.

Source: https://github.com/nerfstudio-project/nerfstudio/blob/main/nerfstudio/models/splatfacto.py
With `cache_images="cpu"` and `cache_images_type="uint8"` (FullImageDatamanagerConfig, used by
splatfacto to save VRAM), `cached_train` holds uint8 HxWx3 images on the CPU beside GPU gaussians.
`FullImageDatamanager.next_train` copies the item dict and does `data["image"] = data["image"].to(self.device)`
and `camera = self.train_dataset.cameras[image_idx : image_idx + 1].to(self.device)`; the model's
`get_gt_img` then casts (`if image.dtype == torch.uint8: image = image.float() / 255.0`) and returns
`gt_img.to(self.device)`, which `get_loss_dict` composites with the background before the L1 loss.
A CPU uint8 cache next to a float32 CUDA render is the design. Stand-ins: the datamanager, Cameras,
and SplatfactoModel reduced to a per-pixel blend of gaussian colours plus `get_gt_img`/`get_loss_dict`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import random
import torch
import torch.nn as nn

class Cameras:
    def __init__(self, camera_to_worlds):
        self.camera_to_worlds = camera_to_worlds
    def __getitem__(self, sl):
        return Cameras(self.camera_to_worlds[sl])
    def to(self, device):
        return Cameras(self.camera_to_worlds.to(device))

class InputDataset:
    def __init__(self, n=4, H=24, W=32):
        c2w = torch.eye(4).repeat(n, 1, 1)
        c2w[:, 2, 3] = 3.0
        self.cameras = Cameras(c2w)
        self.images = [(torch.rand(H, W, 3) * 255).to(torch.uint8) for _ in range(n)]

class FullImageDatamanager:
    def __init__(self, dataset, device, cache_images="cpu", cache_images_type="uint8"):
        self.device = device
        self.train_dataset = dataset
        # _load_images("train", cache_images_device=self.config.cache_images): kept on the CPU here
        self.cached_train = [{"image": img, "image_idx": i} for i, img in enumerate(dataset.images)]
        self.train_unseen_cameras = list(range(len(self.cached_train)))

    def next_train(self, step):
        image_idx = self.train_unseen_cameras.pop(random.randint(0, len(self.train_unseen_cameras) - 1))
        if len(self.train_unseen_cameras) == 0:
            self.train_unseen_cameras = list(range(len(self.cached_train)))
        data = self.cached_train[image_idx]
        data = data.copy()
        data["image"] = data["image"].to(self.device)
        camera = self.train_dataset.cameras[image_idx : image_idx + 1].to(self.device)
        return camera, data

class SplatfactoModel(nn.Module):
    def __init__(self, num_points=500, H=24, W=32):
        super().__init__()
        self.H, self.W = H, W
        self.gauss_params = nn.ParameterDict({
            "means": nn.Parameter(torch.rand(num_points, 3) * 2 - 1),
            "features_dc": nn.Parameter(torch.rand(num_points, 3)),
            "opacities": nn.Parameter(torch.zeros(num_points, 1)),
        })
    @property
    def device(self):
        return self.gauss_params["means"].device

    def get_outputs(self, camera):
        c2w = camera.camera_to_worlds.squeeze(0)
        means_cam = self.gauss_params["means"] @ c2w.narrow(0, 0, 3).narrow(1, 0, 3).T
        pix = torch.stack(torch.meshgrid(torch.linspace(-1, 1, self.H, device=self.device),
                                         torch.linspace(-1, 1, self.W, device=self.device), indexing="ij"), -1)
        d2 = ((pix.view(-1, 1, 2) - means_cam.narrow(-1, 0, 2).unsqueeze(0)) ** 2).sum(-1)
        w = torch.sigmoid(self.gauss_params["opacities"]).view(1, -1) * torch.exp(-d2 * 50)
        alpha = w.sum(-1, keepdim=True).clamp(max=1.0)
        rgb = (w @ torch.sigmoid(self.gauss_params["features_dc"])) / w.sum(-1, keepdim=True).clamp(min=1e-6)
        background = torch.rand(3, device=self.device)
        rgb = rgb * alpha + (1 - alpha) * background
        return {"rgb": rgb.view(self.H, self.W, 3), "background": background}

    def get_gt_img(self, image):
        if image.dtype == torch.uint8:
            image = image.float() / 255.0
        gt_img = image
        return gt_img.to(self.device)

    def composite_with_background(self, image, background):
        if image.shape[2] == 4:
            alpha = image.narrow(-1, 3, 1)
            return alpha * image.narrow(-1, 0, 3) + (1 - alpha) * background
        return image

    def get_loss_dict(self, outputs, batch):
        gt_img = self.composite_with_background(self.get_gt_img(batch["image"]), outputs["background"])
        pred_img = outputs["rgb"]
        Ll1 = torch.abs(gt_img - pred_img).mean()
        return {"main_loss": Ll1}

device = torch.device("cuda:0")
datamanager = FullImageDatamanager(InputDataset(), device)
model = SplatfactoModel().to(device)
'''
CELL = '''
camera, batch = datamanager.next_train(step=0)
with torch.no_grad():
    outputs = model.get_outputs(camera)
    loss_dict = model.get_loss_dict(outputs, batch)
print(datamanager.cached_train[0]["image"].device, datamanager.cached_train[0]["image"].dtype, loss_dict["main_loss"].device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
