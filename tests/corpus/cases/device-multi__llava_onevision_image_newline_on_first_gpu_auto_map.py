"""LLaVA-OneVision 72B on eight GPUs: the model-level `image_newline` parameter sits on another card.

Source: https://github.com/LLaVA-VL/LLaVA-NeXT/issues/154
With `CUDA_VISIBLE_DEVICES=0,...,7` and the default `device_map="auto"`,
prepare_inputs_labels_for_multimodal raised "Expected all tensors to be on the same device, but
found at least two devices, cuda:7 and cuda:0! (when checking argument for argument tensors in
method wrapper_CUDA_cat)" at
`image_feature = torch.cat((image_feature, self.model.image_newline[None]), dim=0)`: the vision
tower and projector were placed on the last card, `image_newline` (a bare nn.Parameter of the
model) on the first. Reporter's fix: `self.model.image_newline[None].to(image_feature.device)`
(another user loaded with `device_map=accelerator.device`). Stand-in: llava_arch's anyres branch.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch
from torch import nn

def align_devices_hook(module, args):
    device = next(module.parameters()).device
    return tuple(a.to(device) if torch.is_tensor(a) else a for a in args)

def dispatch(module, device):
    module.to(device)
    module.register_forward_pre_hook(align_devices_hook)

class LlavaQwenModel(nn.Module):
    def __init__(self, vision_hidden=24, hidden=32, vocab=64):
        super().__init__()
        self.vision_tower = nn.Sequential(nn.Conv2d(3, vision_hidden, 8, stride=8), nn.Flatten(2))
        self.mm_projector = nn.Sequential(nn.Linear(vision_hidden, hidden), nn.GELU(), nn.Linear(hidden, hidden))
        self.image_newline = nn.Parameter(torch.randn(hidden))
        self.embed_tokens = nn.Embedding(vocab, hidden)

class LlavaQwenForCausalLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = LlavaQwenModel()

    def encode_images(self, images):
        image_features = self.model.vision_tower(images).transpose(1, 2)
        return self.model.mm_projector(image_features)

    def prepare_inputs_labels_for_multimodal(self, input_ids, images, image_sizes):
        image_features = self.encode_images(images)
        new_image_features = []
        for image_idx, image_feature in enumerate(image_features):
            # mm_patch_merge_type == "spatial_unpad": a newline embedding after the image rows
            image_feature = torch.cat((image_feature, self.model.image_newline[None]), dim=0)
            new_image_features.append(image_feature)
        cur_input_embeds = self.model.embed_tokens(input_ids[0])
        return torch.cat([new_image_features[0].to(cur_input_embeds.device), cur_input_embeds], dim=0)

model = LlavaQwenForCausalLM().eval()
# what device_map="auto" did with 8 x A800: the bare parameter stayed with the embeddings
model.to("cuda:0")
dispatch(model.model.embed_tokens, "cuda:0")
dispatch(model.model.vision_tower, "cuda:7")
dispatch(model.model.mm_projector, "cuda:7")

image_tensor = torch.randn(1, 3, 32, 32).to("cuda:0", dtype=torch.float32)
input_ids = torch.randint(1, 64, (1, 12)).to("cuda:0")
image_sizes = [(32, 32)]
'''
CELL = '''
with torch.no_grad():
    inputs_embeds = model.prepare_inputs_labels_for_multimodal(input_ids, image_tensor, image_sizes)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.model.image_newline"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "self.model.image_newline[None]), dim=0)",
    "self.model.image_newline[None].to(image_feature.device)), dim=0)",
)
CLEAN = False
