"""MONAI VISTA (vista_point_2pt5) in MONAI Label on a multi-GPU server: `device == "cuda"` misses "cuda:0", class prompts stay on the CPU.

Source: https://github.com/Project-MONAI/VISTA/issues/17
Running the monaivista app in MONAI Label on a machine with more than one GPU, inference failed
because the prompt encoder's inputs were on the CPU (issue #21 reports the same setup, 2 x RTX 4090,
with "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!
(when checking argument for argument index in method wrapper_CUDA__index_select)"). The fix
(PR #18): MONAI Label's `device_map()` returns "cuda:x" when several GPUs exist, so the check
`device == "cuda"` in `prepare_sam_val_input` (and the inferer) is False and the class labels /
points are never moved; the check must accept "cuda:x" and move the prompts to that device.
Stand-ins: `prepare_sam_val_input` from vista_point_2pt5/utils/utils.py (point re-orientation left
out, `.cuda()` written `.to(device)`, the same place for device "cuda:0"), and a SAM-like predictor
whose prompt encoder embeds the class labels with `nn.Embedding` (index_select), as in VISTA's
`PromptEncoder._embed_labels`. The image slab arrives on the GPU from MONAI Label's pre-transforms.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

SAM_IMAGE_SIZE = 64

def prepare_sam_val_input(inputs, class_prompts, point_prompts, start_idx, original_affine=None, device=None):
    # Don't exclude background in val but will ignore it in metric calculation
    H, W = inputs.shape[1:]
    foreground_all = point_prompts["foreground"]
    background_all = point_prompts["background"]

    class_list = [[i + 1] for i in class_prompts]
    unique_labels = torch.tensor(class_list).long()
    if device == "cuda" or (isinstance(device, torch.device) and device.type == "cuda"):
        unique_labels = unique_labels.to(device)

    volume_point_coords = [cp for cp in foreground_all]
    volume_point_labels = [1] * len(foreground_all)
    for cp in background_all:
        volume_point_coords.append(cp)
        volume_point_labels.append(0)

    point_coords = [[]]
    point_labels = [[]]
    for idx, cp in enumerate(volume_point_coords):
        if cp[2] + 4 == start_idx:
            point_coords[0].append([cp[0] * (SAM_IMAGE_SIZE / H), cp[1] * (SAM_IMAGE_SIZE / W)])
            point_labels[0].append(volume_point_labels[idx])
    if len(point_coords[0]) == 0:
        point_coords = None
        point_labels = None

    prepared_input = [{"image": inputs, "original_size": tuple(inputs.shape[1:])}]
    if len(class_prompts) > 0:
        prepared_input[0].update({"labels": unique_labels})
    if point_coords:
        point_coords = torch.tensor(point_coords).long()
        point_labels = torch.tensor(point_labels).long()
        if device == "cuda" or (isinstance(device, torch.device) and device.type == "cuda"):
            point_coords = point_coords.to(device)
            point_labels = point_labels.to(device)
        prepared_input[0].update({"point_coords": point_coords, "point_labels": point_labels})
    return prepared_input, unique_labels


class PromptEncoder(nn.Module):
    """Stand-in for VISTA's segment_anything PromptEncoder (class-label embedding part)."""
    def __init__(self, embed_dim=32, n_classes=64):
        super().__init__()
        self.embed_dim = embed_dim
        self.label_embeddings = nn.Embedding(n_classes, embed_dim)
        self.no_label_embed = nn.Embedding(1, embed_dim)

    def _embed_labels(self, labels):
        return self.label_embeddings(labels)

    def forward(self, class_labels):
        if class_labels is not None:
            return self._embed_labels(class_labels)
        return self.no_label_embed.weight.reshape(1, 1, -1)


class Sam(nn.Module):
    """Stand-in for the 2.5D SAM predictor: image encoder + prompt encoder + a tiny mask head."""
    def __init__(self, in_chans=9, embed_dim=32):
        super().__init__()
        self.image_encoder = nn.Conv2d(in_chans, embed_dim, kernel_size=16, stride=16)
        self.prompt_encoder = PromptEncoder(embed_dim)
        self.mask_head = nn.Linear(embed_dim, embed_dim)

    def forward(self, batched_input):
        outputs = []
        for record in batched_input:
            image_embeddings = self.image_encoder(record["image"].unsqueeze(0))      # (1, C, h, w)
            sparse = self.prompt_encoder(record.get("labels"))                        # (n_cls, 1, C)
            tokens = self.mask_head(sparse)
            logits = torch.einsum("nkc,bchw->nhw", tokens, image_embeddings)
            outputs.append({"high_res_logits": logits})
        return outputs


predictor = Sam().to("cuda:0").eval()
device = "cuda:0"                      # monailabel's device_map() with 2 GPUs returns "cuda:x"
n_z_slices = 9
inputs = torch.randn(n_z_slices, SAM_IMAGE_SIZE, SAM_IMAGE_SIZE, device=device)   # slab on the GPU
class_prompts = [0, 1, 2]              # pancreas / tumour classes requested from Slicer
point_prompts = {"foreground": [], "background": []}
start_idx = 40
'''
CELL = '''
data, unique_labels = prepare_sam_val_input(inputs, class_prompts, point_prompts, start_idx, device=device)
outputs = predictor(data)
logit = outputs[0]["high_res_logits"]
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["prepare_sam_val_input"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ('''    if device == "cuda" or (isinstance(device, torch.device) and device.type == "cuda"):
        unique_labels = unique_labels.to(device)''',
                  '''    if device is not None and torch.device(device).type == "cuda":
        unique_labels = unique_labels.to(device)''')
CLEAN = False
