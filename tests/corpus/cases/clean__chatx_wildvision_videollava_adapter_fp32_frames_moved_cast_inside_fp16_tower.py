"""Look-alike: WildVision LMM-Engines' Video-LLaVA adapter moves the processor's fp32 CPU tensors to the fp16 model's device and lets the vision tower cast the frames to its dtype.

Source: https://github.com/WildVision-AI/LMM-Engines/blob/19818143f7217240bee2725bf9ca2c931dbcf50d/lmm_engines/huggingface/model/model_videollava.py
`load_model` loads `VideoLlavaForConditionalGeneration` with `torch_dtype=torch.float16` and
`device_map="cuda"`; `generate` builds `inputs = self.processor(text=final_prompt, videos=clip,
return_tensors="pt")` and moves them with `inputs = {k: v.to(self.model.device) for k, v in
inputs.items()}` (device only: `pixel_values_videos` stays fp32, int64 ids stay int64). The fp32
frames meet fp16 weights only after the vision embedding's own `.to(dtype=target_dtype)`, as in
transformers' CLIP patch embedding. Stand-ins: the processor, a tiny fp16 Video-LLaVA with a one-step
greedy `generate`, a random 8-frame clip instead of PyAV decoding; `device_map="cuda"` is spelled
"cuda:0" for the simulation.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

class VideoLlavaProcessor:
    """Stand-in: returns CPU tensors, as the real processor does with return_tensors="pt"."""
    def __call__(self, text, videos, return_tensors="pt"):
        ids = [1] + [3 + (hash(w) % 120) for w in text.split()]
        frames = torch.from_numpy(np.asarray(videos, dtype=np.float32) / 255.0)
        return {
            "input_ids": torch.tensor([ids]),
            "attention_mask": torch.ones(1, len(ids), dtype=torch.long),
            "pixel_values_videos": frames.permute(0, 3, 1, 2).unsqueeze(0),
        }

class VideoLlavaForConditionalGeneration(nn.Module):
    def __init__(self, vocab=128, hidden=32, patch=8):
        super().__init__()
        self.patch_embedding = nn.Conv2d(3, hidden, patch, stride=patch)
        self.multi_modal_projector = nn.Linear(hidden, hidden)
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.lm_head = nn.Linear(hidden, vocab, bias=False)
    @property
    def device(self):
        return self.lm_head.weight.device
    def forward(self, input_ids, attention_mask, pixel_values_videos):
        b, f = pixel_values_videos.shape[:2]
        target_dtype = self.patch_embedding.weight.dtype
        frames = pixel_values_videos.flatten(0, 1).to(dtype=target_dtype)
        video = self.patch_embedding(frames).flatten(2).mean(-1).view(b, f, -1)
        video = self.multi_modal_projector(video)
        text = self.embed_tokens(input_ids)
        h = torch.cat([video, text], dim=1)
        return self.lm_head(h)
    @torch.no_grad()
    def generate(self, input_ids, attention_mask, pixel_values_videos, max_new_tokens=1, **kwargs):
        logits = self(input_ids, attention_mask, pixel_values_videos)
        next_token = logits[:, -1].argmax(-1, keepdim=True)
        return torch.cat([input_ids, next_token], dim=-1)

class VideoLLaVAAdapter:
    """The model adapter for LanguageBind/Video-LLaVA-7B-hf (lmm_engines/huggingface/model/model_videollava.py)."""
    def load_model(self, model_path, device, from_pretrained_kwargs):
        if "torch_dtype" not in from_pretrained_kwargs:
            from_pretrained_kwargs["torch_dtype"] = torch.float16
        if not from_pretrained_kwargs.get("device_map"):
            from_pretrained_kwargs["device_map"] = "cuda:0"
        self.torch_dtype = from_pretrained_kwargs["torch_dtype"]
        self.model = VideoLlavaForConditionalGeneration().to(self.torch_dtype)
        self.model = self.model.to(from_pretrained_kwargs["device_map"])
        self.processor = VideoLlavaProcessor()
        return self.model

    def generate(self, params):
        clip = params["prompt"]["video"]
        prompt = params["prompt"]["text"]
        generation_kwargs = params.copy()
        generation_kwargs.pop("prompt")
        final_prompt = f"USER: <video>{prompt} ASSISTANT:"
        inputs = self.processor(text=final_prompt, videos=clip, return_tensors="pt")
        inputs = {k: v.to(self.model.device) for k, v in inputs.items()}

        # Generate
        generate_ids = self.model.generate(**inputs, **generation_kwargs)
        input_len = inputs["input_ids"].shape[1]
        return {"generated_ids": generate_ids[:, input_len:]}

model_adapter = VideoLLaVAAdapter()
model_adapter.load_model("LanguageBind/Video-LLaVA-7B-hf", "cuda", {})
clip = np.random.randint(0, 256, (8, 32, 32, 3), dtype=np.uint8)   # 8 frames sampled by read_video_pyav
params = {"prompt": {"text": "Why is this video funny?", "video": clip}, "max_new_tokens": 1}
'''
CELL = '''
output = model_adapter.generate(params)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
