"""MiVOS interactive GUI with `--mem_profile 2`: a scribble interaction fails because `S2MController.interact` moves the image but not the previous mask to the GPU.

Source: https://github.com/hkchengrex/MiVOS/issues/23
"-- images mem_profile 2 | RuntimeError: All input tensors must be on the same device. Received cpu and
cuda:0": running `python interactive_gui.py --mem_profile 2 --images ...`, clicking a mask and then
drawing a scribble raised the error. With `mem_profile=2` the InferenceCore keeps images and results
(`processor.masks`) on the CPU, and the GUI hands `processor.masks[cursur]` to `ScribbleInteraction`,
whose `predict` calls `S2MController.interact(image, prev_mask, scr_mask)`; `interact` moved only the
image to `self.device` before `torch.cat([image, (prev_mask==ki).float().unsqueeze(0), Rs], 1)`. The
maintainer fixed it (commit 8048823, "fix device bug") by adding
`prev_mask = prev_mask.to(self.device, non_blocking=True)` in `interact`.
Stand-ins: MiVOS `S2MController` (as before the fix), `InferenceCore` storage for the mem profiles,
`ScribbleInteraction` (scribbles drawn into the numpy map without cv2), the S2M DeepLabV3+ network
reduced to one conv.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

def pad_divide_by(in_img, d, in_size=None):
    return in_img, (0, 0, 0, 0)          # frames here are already multiples of 16

class S2M(nn.Module):                     # model.s2m.s2m_network.deeplabv3plus_resnet50 stand-in
    def __init__(self):
        super().__init__()
        self.head = nn.Conv2d(6, 1, 3, padding=1)

    def forward(self, x):
        return self.head(x)

class PropagationNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.key_proj = nn.Conv2d(3, 4, 1)

class S2MController:
    """
    A controller for Scribble-to-Mask (for user interaction, not for DAVIS)
    Takes the image, previous mask, and scribbles to produce a new mask
    """
    def __init__(self, s2m_net, num_objects, ignore_class, device='cuda:0'):
        self.s2m_net = s2m_net
        self.num_objects = num_objects
        self.ignore_class = ignore_class
        self.device = device

    def interact(self, image, prev_mask, scr_mask):
        image = image.to(self.device, non_blocking=True)

        h, w = image.shape[-2:]
        unaggre_mask = []            # MiVOS fills a preallocated (K, 1, h, w) tensor; stacked here

        for ki in range(1, self.num_objects+1):
            p_srb = (scr_mask==ki).astype(np.uint8)
            n_srb = ((scr_mask!=ki) * (scr_mask!=self.ignore_class)).astype(np.uint8)

            Rs = torch.from_numpy(np.stack([p_srb, n_srb], 0)).unsqueeze(0).float().to(image.device)
            Rs, _ = pad_divide_by(Rs, 16, Rs.shape[-2:])

            inputs = torch.cat([image, (prev_mask==ki).float().unsqueeze(0), Rs], 1)
            unaggre_mask.append(torch.sigmoid(self.s2m_net(inputs)))

        return torch.cat(unaggre_mask, 0)

class InferenceCore:
    def __init__(self, prop_net, fuse_net, images, num_objects, mem_profile=0, mem_freq=5, device='cuda:0'):
        self.prop_net = prop_net.to(device, non_blocking=True)
        self.mem_profile = mem_profile
        self.device = device
        if mem_profile == 0:
            self.data_dev = device
            self.result_dev = device
        elif mem_profile == 1:
            self.data_dev = 'cpu'
            self.result_dev = device
        else:
            self.data_dev = 'cpu'
            self.result_dev = 'cpu'
        t = images.shape[1]
        self.k = num_objects
        self.images, self.pad = pad_divide_by(images, 16, images.shape[-2:])
        nh, nw = self.images.shape[-2:]
        self.images = self.images.to(self.data_dev, non_blocking=False)
        self.masks = torch.zeros((t, 1, nh, nw), dtype=torch.uint8, device=self.result_dev)
        self.prob = torch.zeros((self.k+1, t, 1, nh, nw), dtype=torch.float32, device=self.result_dev)

class ScribbleInteraction:
    def __init__(self, image, prev_mask, true_size, controller, num_objects):
        self.image = image
        self.prev_mask = prev_mask.clone()
        self.controller = controller
        self.h, self.w = true_size
        self.K = num_objects
        self.drawn_map = np.empty((self.h, self.w), dtype=np.uint8)
        self.drawn_map.fill(255)

    def push_point(self, x, y, k, size=3):
        self.drawn_map[max(0, y-size):y+size, max(0, x-size):x+size] = k

    def predict(self):
        self.out_prob = self.controller.interact(self.image, self.prev_mask, self.drawn_map)
        return self.out_prob

device = 'cuda:0'
num_objects = 2
images = torch.rand(1, 5, 3, 32, 48)        # load_images(args.images): (1, T, 3, H, W) on the CPU
h, w = images.shape[-2:]
prop_model = PropagationNetwork()
s2m_model = S2M().to(device).eval()
s2m_controller = S2MController(s2m_model, num_objects, ignore_class=255)
processor = InferenceCore(prop_model, None, images, num_objects, mem_freq=5, mem_profile=2)   # --mem_profile 2
cursur = 0
'''
CELL = '''
# App.on_press for the "Scribble" radio button (not in local mode)
prev_hard_mask = processor.masks[cursur]
image = processor.images[:, cursur]
interaction = ScribbleInteraction(image, prev_hard_mask, (h, w), s2m_controller, num_objects)
interaction.push_point(20, 12, 1)
interaction.push_point(30, 20, 2)
out_prob = interaction.predict()
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["s2m_controller"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        image = image.to(self.device, non_blocking=True)\n",
                  "        image = image.to(self.device, non_blocking=True)\n"
                  "        prev_mask = prev_mask.to(self.device, non_blocking=True)\n")
CLEAN = False
