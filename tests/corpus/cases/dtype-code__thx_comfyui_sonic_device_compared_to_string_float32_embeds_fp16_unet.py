"""ComfyUI_Sonic (audio-driven portrait animation): `sonic_predata` compares a `torch.device` with the string 'cuda', always takes the float32 branch, and the fp16 Sonic UNet gets float32 inputs.

Source: https://github.com/smthemex/ComfyUI_Sonic/issues/26
After the Feb 14 2025 update SONICSampler failed with "mat1 and mat2 must have the same dtype, but got
Float and Half"; it only ran with the loader's dtype set to fp32. The maintainer said that morning's
change was wrong and fixed it at noon: in sonic.py (and sonic_node.py) `if device=='cuda':` became
`if device==torch.device("cuda"):` (commit 2e37fc8). `device` is `torch.device("cuda")`, which never
equals the string, so `image_embeds` were cast to float32; the pipeline builds its latents with
`image_embeddings.dtype`, and the UNet's time embedding (fp16 weights) gets a float32 input.
Stand-ins: the SVD-style UNet reduced to a sinusoidal time embedding, conv in/out and a key projection
of the image embeddings; CLIP vision, whisper, audio2bucket/audio2token as small linears; the VAE image
latents and the scheduler left out (two plain denoising steps). The CPU plays the GPU, so the repo's
'cuda' is written 'cpu' (`torch.device("cpu") == 'cpu'` is False just the same).
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import math
import types
import torch
import torch.nn as nn

device = torch.device("cpu")   # torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")

class UNetSpatioTemporalConditionModel(nn.Module):    # src/models/base/unet_spatio_temporal_condition.py (reduced)
    def __init__(self, in_channels=8, out_channels=4, block_channels=32, cross_attention_dim=64):
        super().__init__()
        self.time_embedding = nn.Sequential(nn.Linear(16, block_channels), nn.SiLU(), nn.Linear(block_channels, block_channels))
        self.conv_in = nn.Conv2d(in_channels, block_channels, 3, padding=1)
        self.to_k = nn.Linear(cross_attention_dim, block_channels)
        self.audio_k = nn.Linear(16, block_channels)
        self.conv_out = nn.Conv2d(block_channels, out_channels, 3, padding=1)

    @property
    def dtype(self):
        return next(self.parameters()).dtype

    def forward(self, sample, timestep, encoder_hidden_states, added_time_ids=None):
        image_embeddings, audio_prompts = encoder_hidden_states
        timesteps = torch.full((sample.shape[0],), float(timestep))
        exponent = -math.log(10000) * torch.arange(8, dtype=torch.float32) / 8
        t_emb = timesteps[:, None] * torch.exp(exponent)[None]
        t_emb = torch.cat([torch.sin(t_emb), torch.cos(t_emb)], dim=-1)
        t_emb = t_emb.to(dtype=sample.dtype)
        emb = self.time_embedding(t_emb)
        sample = self.conv_in(sample)
        ctx = self.to_k(image_embeddings).mean(1) + self.audio_k(audio_prompts[0]).mean(1)
        sample = sample + emb[:, :, None, None] + ctx[:, :, None, None]
        return self.conv_out(sample)

class SonicPipeline:                                   # src/pipelines/pipeline_sonic.py (reduced)
    def __init__(self, unet):
        self.unet = unet

    def _clip_encode_image(self, image_embeddings, audio_prompts):
        dtype = image_embeddings.dtype
        image_embeddings = image_embeddings.unsqueeze(1)
        audio_prompts = torch.stack(audio_prompts, dim=0).to(dtype=dtype)
        return image_embeddings, audio_prompts

    @torch.no_grad()
    def __call__(self, ref_tensor, image_embeddings, audio_prompts, height=16, width=16, num_inference_steps=2, generator=None):
        image_embeddings, audio_prompts = self._clip_encode_image(image_embeddings, audio_prompts)
        latents = torch.randn(1, 4, height // 2, width // 2, generator=generator).to(image_embeddings.dtype)   # prepare_latents(..., image_embeddings.dtype, ...)
        image_latents = torch.zeros_like(latents)          # vae.encode(ref image) in the repo
        for t in torch.linspace(999, 0, num_inference_steps):
            latent_model_input = torch.cat([latents, image_latents], dim=1)
            noise_pred = self.unet(latent_model_input, t, encoder_hidden_states=(image_embeddings, [audio_prompts.mean(0, keepdim=True)]))
            latents = latents - 0.1 * noise_pred
        return latents

class Sonic:                                           # sonic.py (reduced)
    def __init__(self, device, weight_dtype, unet):
        self.device = device
        self.weight_dtype = weight_dtype
        self.pipe = SonicPipeline(unet)

    def process(self, audio_tensor_list, uncond_audio_tensor_list, motion_buckets, test_data, config,
                image_embeds, fps, inference_steps=2, dynamic_scale=1.0, seed=0):
        generator = torch.Generator().manual_seed(seed)
        return self.pipe(test_data['ref_img'], image_embeds, audio_tensor_list,
                         num_inference_steps=inference_steps, generator=generator)

def sonic_predata(wav_enc, audio_feature, audio_len, step, audio2bucket, image_encoder, audio_pe, ref_img, clip_img, device):
    image_embeds = image_encoder.encode_image(clip_img)["image_embeds"]
    if device=='cpu':   # device=='cuda'
        image_embeds = image_embeds.clone().detach().to(device, dtype=torch.float16)  # dtype需要改成可选fp16 bf16
    else:
        image_embeds = image_embeds.to(device, dtype=torch.float32)  # dtype需要改成可选
    last_audio_prompts = wav_enc(audio_feature)                         # whisper encoder last_hidden_state
    ref_tensor_list, audio_tensor_list, uncond_audio_tensor_list, motion_buckets = [], [], [], []
    for i in range(audio_len // step):
        audio_clip_for_bucket = last_audio_prompts[:, i * step:i * step + 4].unsqueeze(0)
        motion_bucket = audio2bucket(audio_clip_for_bucket, image_embeds)
        motion_bucket = motion_bucket * 16 + 16
        motion_buckets.append(motion_bucket[0])
        cond_audio_clip = audio_pe(audio_clip_for_bucket).squeeze(0)
        uncond_audio_clip = audio_pe(torch.zeros_like(audio_clip_for_bucket)).squeeze(0)
        ref_tensor_list.append(ref_img[0])
        audio_tensor_list.append(cond_audio_clip[0])
        uncond_audio_tensor_list.append(uncond_audio_clip[0])
    return ref_tensor_list, audio_tensor_list, uncond_audio_tensor_list, motion_buckets, image_embeds

class Audio2bucketModel(nn.Module):                    # src/models/audio_adapter/audio_to_bucket.py (reduced)
    def __init__(self, seq_len=4, channels=16, clip_channels=64, intermediate_dim=32):
        super().__init__()
        self.proj1 = nn.Linear(seq_len * channels + clip_channels, intermediate_dim)
        self.proj3 = nn.Linear(intermediate_dim, 1)
        self.act = nn.SiLU()
    def forward(self, audio_embeds, clip_embeds):
        audio_embeds = audio_embeds.flatten(0, 1).flatten(1)
        audio_embeds = torch.cat([audio_embeds, clip_embeds], dim=-1)
        return self.proj3(self.act(self.proj1(audio_embeds)))

class AudioProjModel(nn.Module):                       # audio2token (reduced)
    def __init__(self, channels=16):
        super().__init__()
        self.proj = nn.Linear(channels, channels)
    def forward(self, audio_embeds):
        return self.proj(audio_embeds)

class CLIPVision:                                      # comfy clip_vision.encode_image (reduced)
    def __init__(self):
        self.model = nn.Linear(3 * 16 * 16, 64)
    def encode_image(self, image):
        return {"image_embeds": self.model(image.flatten(1))}

# SONIC_LoadModel.loader_main(..., dtype="fp16")
weight_dtype = torch.float16
unet = UNetSpatioTemporalConditionModel().to(device, dtype=weight_dtype)   # convert_cf2diffuser(model.model, ..., weight_dtype)
model = Sonic(device, weight_dtype, unet)

# SONIC_PreData.sampler_main
torch.manual_seed(0)
whisper = nn.Linear(80, 16).to(device).eval()                             # WhisperModel.from_pretrained(...).encoder
audio2token = AudioProjModel().to(device)
audio2bucket = Audio2bucketModel().to(device)
clip_vision = CLIPVision()
image = torch.rand(1, 3, 16, 16)                                          # ComfyUI IMAGE (permuted)
test_data = {'ref_img': torch.rand(1, 3, 16, 16), 'audio_feature': torch.randn(1, 12, 80), 'audio_len': 8}
ref_tensor_list, audio_tensor_list, uncond_audio_tensor_list, motion_buckets, image_embeddings = sonic_predata(
    whisper, test_data['audio_feature'], test_data['audio_len'], 2, audio2bucket, clip_vision, audio2token,
    test_data['ref_img'], image, device)
data_dict = {"test_data": test_data, "ref_tensor_list": ref_tensor_list, "config": None,
             "image_embeddings": image_embeddings, "audio_tensor_list": audio_tensor_list,
             "uncond_audio_tensor_list": uncond_audio_tensor_list, "motion_buckets": motion_buckets}

class SONICSampler:
    def sampler_main(self, model, data_dict, seed, inference_steps, dynamic_scale, fps):
        iamge = model.process(data_dict["audio_tensor_list"],
                              data_dict["uncond_audio_tensor_list"],
                              data_dict["motion_buckets"],
                              data_dict["test_data"],
                              data_dict["config"],
                              image_embeds=data_dict["image_embeddings"],
                              fps=fps,
                              inference_steps=inference_steps,
                              dynamic_scale=dynamic_scale,
                              seed=seed)
        return (iamge, fps)
'''
CELL = '''
out = SONICSampler().sampler_main(model, data_dict, seed=0, inference_steps=2, dynamic_scale=1.0, fps=25.0)
'''
EXPECT_ERROR = ("must have the same dtype", "to have the same dtype")
CULPRITS = ["sonic_predata"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("if device=='cpu':   # device=='cuda'", 'if device==torch.device("cpu"):   # device==torch.device("cuda")')
CLEAN = False
