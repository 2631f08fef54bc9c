"""LMM-Engines' Video-LLaVA adapter: generate() feeds the processor's CPU tensors to the model on the GPU.

Source: https://github.com/WildVision-AI/LMM-Engines/pull/3
"There exists an error when local testing model_videollava.py: RuntimeError: Expected all tensors to
be on the same device, but found at least two devices, cuda:0 and cpu! (when checking argument for
argument index in method wrapper_CUDA__index_select). Fix this by moving inputs to device in
generate()": `VideoLLaVAAdapter.generate` built `inputs = self.processor(text=final_prompt,
videos=clip, return_tensors="pt")` and passed them straight to `self.model.generate(**inputs)`;
the PR adds `inputs = {k: v.to(self.model.device) for k, v in inputs.items()}`. Stand-in: the adapter
with a toy VideoLlavaForConditionalGeneration and processor (video decoding replaced by a tensor).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
from torch import nn

class VideoLlavaProcessor:
    def __call__(self, text, videos, return_tensors="pt"):
        input_ids = torch.tensor([[1] + [3 + ord(c) % 60 for c in text[:14]]])
        return {"input_ids": input_ids, "attention_mask": torch.ones_like(input_ids),
                "pixel_values_videos": torch.as_tensor(videos, dtype=torch.float32)}

class VideoLlavaForConditionalGeneration(nn.Module):
    def __init__(self, vocab=64, hidden=32):
        super().__init__()
        self.video_tower = nn.Sequential(nn.Conv2d(3, 24, 8, stride=8), nn.Flatten(2))
        self.multi_modal_projector = nn.Linear(24, hidden)
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.lm_head = nn.Linear(hidden, vocab, bias=False)

    @property
    def device(self):
        return self.lm_head.weight.device

    @torch.no_grad()
    def generate(self, input_ids, attention_mask, pixel_values_videos, max_new_tokens=32, **kwargs):
        inputs_embeds = self.embed_tokens(input_ids)
        frames = pixel_values_videos.flatten(0, 1)
        video_features = self.multi_modal_projector(self.video_tower(frames).transpose(1, 2)).flatten(0, 1)[None]
        logits = self.lm_head(torch.cat([video_features, inputs_embeds], dim=1))
        return torch.cat([input_ids, logits[:, -1:].argmax(-1)], dim=-1)

class VideoLLaVAAdapter:
    """lmm_engines/huggingface/model/model_videollava.py before the fix."""
    def load_model(self, model_path, device, from_pretrained_kwargs={}):
        self.model = VideoLlavaForConditionalGeneration().to("cuda:0")   # device_map="cuda"
        self.processor = VideoLlavaProcessor()
        return self.model

    def generate(self, params):
        prompt = params["prompt"]["text"]
        generation_kwargs = params.copy()
        generation_kwargs.pop("prompt")
        clip = params["prompt"]["video"]                  # read_video_pyav(container, indices): 8 frames (np.ndarray)
        final_prompt = f"USER: <video>{prompt} ASSISTANT:"
        inputs = self.processor(text=final_prompt, videos=clip, return_tensors="pt")
        generate_ids = self.model.generate(**inputs, **generation_kwargs)
        input_len = inputs["input_ids"].shape[1]
        return {"ids": generate_ids[:, input_len:]}

model_adapter = VideoLLaVAAdapter()
model_adapter.load_model("LanguageBind/Video-LLaVA-7B-hf", device="cuda")
params = {"prompt": {"text": "What is happening in this video?", "video": np.random.rand(1, 8, 3, 32, 32).astype(np.float32)},
          "max_new_tokens": 32}
'''
CELL = '''
output = model_adapter.generate(params)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model_adapter"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    '        inputs = self.processor(text=final_prompt, videos=clip, return_tensors="pt")\n',
    '        inputs = self.processor(text=final_prompt, videos=clip, return_tensors="pt")\n        inputs = {k: v.to(self.model.device) for k, v in inputs.items()}\n',
)
CLEAN = False
