"""Video-LLaVA on two GPUs: prepare_inputs_labels_for_multimodal concatenates pieces from two cards.

Source: https://github.com/PKU-YuanGroup/Video-LLaVA/pull/145
Multi-GPU inference (issue #102) failed with "Expected all tensors to be on the same device" when
the prompt's text embeddings and the projected video features were joined: the auto device map put
`embed_tokens` on cuda:0 and the vision towers + `mm_projector` on cuda:1, and Video-LLaVA's copy
of llava_arch.py lacked the line upstream LLaVA has,
`cur_new_input_embeds = [x.to(self.device) for x in cur_new_input_embeds]`. The PR adds it.
Stand-in: the splicing loop of prepare_inputs_labels_for_multimodal at toy size.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

IMAGE_TOKEN_INDEX = -200

def align_devices_hook(module, args):
    device = next(module.parameters()).device
    return tuple(a.to(device) if torch.is_tensor(a) else a for a in args)

def dispatch(module, device):
    module.to(device)
    module.register_forward_pre_hook(align_devices_hook)

class LlavaLlamaModel(nn.Module):
    def __init__(self, hidden=32, vocab=64):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.video_tower = nn.Sequential(nn.Conv2d(3, 24, 8, stride=8), nn.Flatten(2))
        self.mm_projector = nn.Linear(24, hidden)

class LlavaLlamaForCausalLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = LlavaLlamaModel()

    @property
    def device(self):
        return self.model.embed_tokens.weight.device

    def get_model(self):
        return self.model

    def encode_videos(self, videos):
        feats = self.get_model().video_tower(videos).transpose(1, 2)
        return self.get_model().mm_projector(feats)

    def prepare_inputs_labels_for_multimodal(self, input_ids, images):
        video_features = self.encode_videos(images)
        cur_input_ids = input_ids[0]
        split = int(input_ids.shape[1] // 2)      # position of the <video> token (known here)
        cur_new_input_embeds = [
            self.get_model().embed_tokens(cur_input_ids[:split]),
            video_features[0],
            self.get_model().embed_tokens(cur_input_ids[split + 1:]),
        ]
        cur_new_input_embeds = torch.cat(cur_new_input_embeds)
        return cur_new_input_embeds.unsqueeze(0)

model = LlavaLlamaForCausalLM().eval()
# load_pretrained_model(..., device_map="auto") on two cards
dispatch(model.model.embed_tokens, "cuda:0")
dispatch(model.model.video_tower, "cuda:1")
dispatch(model.model.mm_projector, "cuda:1")

video_tensor = torch.randn(1, 3, 32, 32).to("cuda:0")
input_ids = torch.randint(1, 64, (1, 15)).to("cuda:0")
'''
CELL = '''
with torch.inference_mode():
    inputs_embeds = model.prepare_inputs_labels_for_multimodal(input_ids, video_tensor)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "        cur_new_input_embeds = torch.cat(cur_new_input_embeds)",
    "        cur_new_input_embeds = [x.to(self.device) for x in cur_new_input_embeds]\n        cur_new_input_embeds = torch.cat(cur_new_input_embeds)",
)
CLEAN = False
