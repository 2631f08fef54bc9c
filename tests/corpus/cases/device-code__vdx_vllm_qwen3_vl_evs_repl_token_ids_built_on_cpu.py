"""vLLM Qwen3-VL with Efficient Video Sampling: the interleaved replacement token ids are built on the CPU and embedded by the GPU embedding table.

Source: https://github.com/vllm-project/vllm/pull/44202
Running Qwen3-VL with `video_pruning_rate > 0` (EVS) on any video crashed in the multimodal encoder
step with "Expected all tensors to be on the same device, but got index is on cpu, different from
other tensors on cuda:0 (when checking argument in method wrapper_CUDA__index_select)".
`Qwen3VLForConditionalGeneration._create_final_video_embeddings` built `repl_token_ids =
torch.tensor(video_repl.full)` on the default (CPU) device and fed it to the CUDA input embedding via
`embed_input_ids`; the `device=` placement had been dropped in a refactor. Fix: create the tensor on
the video embeddings' device, as nano_nemotron_vl already does. Stand-in: a toy vision tower (Conv3d
patch embed + merger), the pruning reduced to keeping the first tokens of every frame (`narrow`), a
`get_video_repl` that interleaves per-frame timestamp tokens with video placeholders, and a
`masked_scatter` merge of the video embeddings into the placeholder positions.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import math
from dataclasses import dataclass
import torch
import torch.nn as nn

VIDEO_TOKEN_ID = 151656
VOCAB_SIZE = 151680

@dataclass
class PromptUpdateDetails:
    full: list
    is_embed: list

def get_video_repl(tokens_per_frame, timestamp_token_ids):
    full, is_embed = [], []
    for n_tokens, ts_ids in zip(tokens_per_frame, timestamp_token_ids):
        full += ts_ids + [VIDEO_TOKEN_ID] * n_tokens
        is_embed += [False] * len(ts_ids) + [True] * n_tokens
    return PromptUpdateDetails(full=full, is_embed=is_embed)

class Qwen3VisionTransformer(nn.Module):
    def __init__(self, hidden=32, out_hidden=64, patch=4, temporal_patch=2):
        super().__init__()
        self.patch_embed = nn.Conv3d(3, hidden, (temporal_patch, patch, patch), stride=(temporal_patch, patch, patch))
        self.merger = nn.Sequential(nn.LayerNorm(hidden), nn.Linear(hidden, out_hidden))

    def forward(self, pixel_values_videos):
        x = self.patch_embed(pixel_values_videos)          # (1, C, T', H', W')
        x = x.flatten(2).transpose(1, 2).squeeze(0)        # (T' * H' * W', C)
        return self.merger(x)

class Qwen3LanguageModel(nn.Module):
    def __init__(self, hidden=64):
        super().__init__()
        self.embed_tokens = nn.Embedding(VOCAB_SIZE, hidden)

class Qwen3VLForConditionalGeneration(nn.Module):
    def __init__(self, video_pruning_rate=0.75):
        super().__init__()
        self.visual = Qwen3VisionTransformer()
        self.language_model = Qwen3LanguageModel()
        self.video_pruning_rate = video_pruning_rate
        self.is_multimodal_pruning_enabled = video_pruning_rate > 0

    def embed_input_ids(self, input_ids):
        return self.language_model.embed_tokens(input_ids)

    def _postprocess_video_embeds_evs(self, video_embeds, grid_thw):
        t, h, w = grid_thw
        tokens_per_frame_full = h * w
        keep = max(1, math.ceil(tokens_per_frame_full * (1 - self.video_pruning_rate)))
        frames = video_embeds.split(tokens_per_frame_full, dim=0)
        kept = [f.narrow(0, 0, keep) for f in frames]      # retained tokens of every frame
        return torch.cat(kept, dim=0), [keep] * t

    def _create_final_video_embeddings(self, video_embeddings, tokens_per_frame, timestamp_token_ids):
        video_repl = get_video_repl(tokens_per_frame, timestamp_token_ids)
        repl_token_ids = torch.tensor(video_repl.full)
        text_embeddings = self.embed_input_ids(repl_token_ids)
        is_video_embed = (repl_token_ids == VIDEO_TOKEN_ID).unsqueeze(-1)
        return text_embeddings.masked_scatter(is_video_embed, video_embeddings)

    def embed_multimodal(self, pixel_values_videos, video_grid_thw, timestamp_token_ids):
        video_embeds = self.visual(pixel_values_videos)
        if self.is_multimodal_pruning_enabled:
            video_embeds, tokens_per_frame = self._postprocess_video_embeds_evs(video_embeds, video_grid_thw)
            return self._create_final_video_embeddings(video_embeds, tokens_per_frame, timestamp_token_ids)
        return video_embeds

device = torch.device("cuda:0")
model = Qwen3VLForConditionalGeneration(video_pruning_rate=0.75).eval().to(device)

# one video request after the model runner moved its tensors: 8 frames of 16 x 16 -> grid (4, 4, 4)
pixel_values_videos = torch.randn(1, 3, 8, 16, 16, device=device)
video_grid_thw = (4, 4, 4)
timestamp_token_ids = [[27, 15, 13, 15, 4991, 29], [27, 16, 13, 15, 4991, 29],
                       [27, 17, 13, 15, 4991, 29], [27, 18, 13, 15, 4991, 29]]   # "<0.5 seconds>" ...
'''
CELL = '''
with torch.no_grad():
    video_embeddings = model.embed_multimodal(pixel_values_videos, video_grid_thw, timestamp_token_ids)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("repl_token_ids = torch.tensor(video_repl.full)",
                  "repl_token_ids = torch.tensor(video_repl.full, device=video_embeddings.device)")
CLEAN = False
