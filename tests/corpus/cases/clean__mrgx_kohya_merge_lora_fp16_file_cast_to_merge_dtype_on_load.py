"""Look-alike: kohya's merge_lora.py merges an fp16 LoRA file into an fp16-loaded SD model after casting both to the float32 merge dtype.

Source: https://github.com/kohya-ss/sd-scripts/blob/main/networks/merge_lora.py
`merge_to_sd_model` first does `text_encoder.to(merge_dtype)` / `unet.to(merge_dtype)`, and
`load_state_dict(file_name, dtype)` casts every tensor of the LoRA file (saved in fp16) with
`sd[key] = sd[key].to(dtype)`, so `weight + ratio * (up_weight @ down_weight) * scale` only ever
sees float32 tensors even though both files on disk are half precision.
Stand-in: `load_state_dict` and `merge_to_sd_model` with the linear and 1x1-conv branches; the
module map built by hand for one attention projection and one 1x1 conv (instead of
`lora.LoRANetwork`'s target lists); the LoRA file a dict returned by `load_file`.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

LORA_FILES = {}

def load_file(file_name):           # safetensors.torch.load_file stand-in
    return {k: v.clone() for k, v in LORA_FILES[file_name].items()}

def load_state_dict(file_name, dtype):
    sd = load_file(file_name)
    metadata = {}
    for key in list(sd.keys()):
        if type(sd[key]) == torch.Tensor:
            sd[key] = sd[key].to(dtype)
    return sd, metadata

def merge_to_sd_model(text_encoder, unet, name_to_module, models, ratios, merge_dtype):
    text_encoder.to(merge_dtype)
    unet.to(merge_dtype)
    for model, ratio in zip(models, ratios):
        lora_sd, _ = load_state_dict(model, merge_dtype)
        for key in lora_sd.keys():
            if "lora_down" in key:
                up_key = key.replace("lora_down", "lora_up")
                alpha_key = key[: key.index("lora_down")] + "alpha"
                module_name = ".".join(key.split(".")[:-2])
                if module_name not in name_to_module:
                    continue
                module = name_to_module[module_name]
                down_weight = lora_sd[key]
                up_weight = lora_sd[up_key]
                dim = down_weight.size()[0]
                alpha = lora_sd.get(alpha_key, dim)
                scale = alpha / dim
                weight = module.weight
                if len(weight.size()) == 2:
                    if len(up_weight.size()) == 4:
                        up_weight = up_weight.squeeze(3).squeeze(2)
                        down_weight = down_weight.squeeze(3).squeeze(2)
                    weight = weight + ratio * (up_weight @ down_weight) * scale
                elif down_weight.size()[2:4] == (1, 1):
                    weight = (
                        weight
                        + ratio
                        * (up_weight.squeeze(3).squeeze(2) @ down_weight.squeeze(3).squeeze(2)).unsqueeze(2).unsqueeze(3)
                        * scale
                    )
                module.weight = torch.nn.Parameter(weight)

text_encoder = nn.Sequential(nn.Linear(16, 16)).half()          # checkpoint loaded in fp16
unet = nn.Sequential(nn.Conv2d(8, 8, 1)).half()
name_to_module = {
    "lora_te_text_model_encoder_layers_0_self_attn_q_proj": text_encoder[0],
    "lora_unet_down_blocks_0_attentions_0_proj_in": unet[0],
}
LORA_FILES["style_lora.safetensors"] = {
    "lora_te_text_model_encoder_layers_0_self_attn_q_proj.lora_down.weight": torch.randn(4, 16).half(),
    "lora_te_text_model_encoder_layers_0_self_attn_q_proj.lora_up.weight": torch.randn(16, 4).half(),
    "lora_te_text_model_encoder_layers_0_self_attn_q_proj.alpha": torch.tensor(2.0).half(),
    "lora_unet_down_blocks_0_attentions_0_proj_in.lora_down.weight": torch.randn(4, 8, 1, 1).half(),
    "lora_unet_down_blocks_0_attentions_0_proj_in.lora_up.weight": torch.randn(8, 4, 1, 1).half(),
    "lora_unet_down_blocks_0_attentions_0_proj_in.alpha": torch.tensor(2.0).half(),
}
merge_dtype = torch.float
'''
CELL = '''
merge_to_sd_model(text_encoder, unet, name_to_module, ["style_lora.safetensors"], [0.7], merge_dtype)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
