"""Qwen2.5-VL video inference: get_rope_index builds the temporal range on the CPU.

Source: https://github.com/QwenLM/Qwen3-VL/issues/1131
Image prompts ran, but a video prompt on one GPU (`device_map="cuda:0"`, inputs moved with
`inputs.to("cuda")`) raised "Expected all tensors to be on the same device, but found at least two
devices, cuda:0 and cpu!" in modeling_qwen2_5_vl.py's get_rope_index at
`time_tensor = expanded_range * second_per_grid_t * self.config.vision_config.tokens_per_second`:
`range_tensor = torch.arange(llm_grid_t).view(-1, 1)` is made without a device while
`second_per_grid_t` is the processor's `second_per_grid_ts` entry, moved to the GPU with the rest
of the inputs. The reporter rewrote get_rope_index to keep everything on the model's device.
Stand-in: the video branch of get_rope_index and a toy model around it.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class VisionConfig:
    tokens_per_second = 2
    spatial_merge_size = 2

class Qwen2_5_VLConfig:
    vision_config = VisionConfig()
    video_token_id = 9

class BatchFeature(dict):
    def to(self, device):
        return BatchFeature({k: v.to(device) if torch.is_tensor(v) else v for k, v in self.items()})

class Qwen2_5_VLForConditionalGeneration(nn.Module):
    def __init__(self, vocab=64, hidden=32):
        super().__init__()
        self.config = Qwen2_5_VLConfig()
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.lm_head = nn.Linear(hidden, vocab, bias=False)

    def get_rope_index(self, input_ids, video_grid_thw, second_per_grid_ts):
        spatial_merge_size = self.config.vision_config.spatial_merge_size
        t, h, w = video_grid_thw[0]   # a (t, h, w) triple; .tolist() of the real tensor
        llm_grid_t, llm_grid_h, llm_grid_w = t, h // spatial_merge_size, w // spatial_merge_size
        second_per_grid_t = second_per_grid_ts[0]
        range_tensor = torch.arange(llm_grid_t).view(-1, 1)
        expanded_range = range_tensor.expand(-1, llm_grid_h * llm_grid_w)
        time_tensor = expanded_range * second_per_grid_t * self.config.vision_config.tokens_per_second
        t_index = time_tensor.long().flatten()
        h_index = torch.arange(llm_grid_h, device=input_ids.device).view(1, -1, 1).expand(llm_grid_t, -1, llm_grid_w).flatten()
        w_index = torch.arange(llm_grid_w, device=input_ids.device).view(1, 1, -1).expand(llm_grid_t, llm_grid_h, -1).flatten()
        return torch.stack([t_index, h_index, w_index])

    @torch.no_grad()
    def generate(self, input_ids, attention_mask, pixel_values_videos, video_grid_thw, second_per_grid_ts, max_new_tokens=128):
        position_ids = self.get_rope_index(input_ids, video_grid_thw, second_per_grid_ts)
        hidden = self.embed_tokens(input_ids)
        logits = self.lm_head(hidden)
        return torch.cat([input_ids, logits[:, -1:].argmax(-1)], dim=-1)

model = Qwen2_5_VLForConditionalGeneration().to("cuda:0").eval()   # device_map="cuda:0"
# processor(text=[text], videos=video_inputs, fps=fps, padding=True, return_tensors="pt")
inputs = BatchFeature(
    input_ids=torch.randint(10, 64, (1, 20)),
    attention_mask=torch.ones(1, 20, dtype=torch.long),
    pixel_values_videos=torch.randn(64, 12),
    video_grid_thw=[(2, 4, 4)],   # a LongTensor in the real processor; ints here (no .item() on fake tensors)
    second_per_grid_ts=torch.tensor([1.0]),
)
inputs = inputs.to("cuda:0")
'''
CELL = '''
generated_ids = model.generate(**inputs, max_new_tokens=128)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "range_tensor = torch.arange(llm_grid_t).view(-1, 1)",
    "range_tensor = torch.arange(llm_grid_t, device=input_ids.device).view(-1, 1)",
)
CLEAN = False
