"""SuperMerger "merge LoRA into checkpoint": the checkpoint's weights are on cuda:0, the LoRA's up/down matrices on the CPU.

Source: https://github.com/hako-mikan/sd-webui-supermerger/issues/49
Merging a LoRA into a checkpoint on Colab raised "Expected all tensors to be on the same device,
but found at least two devices, cuda:0 and cpu!" in `pluslora` at
`weight = weight + ratio * (up_weight @ down_weight) * scale`: the checkpoint state dict had been
loaded onto the GPU, while the LoRA file was read into a dict of CPU tensors, so the CPU delta met
the cuda weight. Moving the LoRA tensors to the checkpoint's device makes the merge run.
Stand-in: `pluslora` reduced to the up/down product for the LoRA's linear layers; a dict of cuda
weights for the checkpoint, a dict of CPU tensors for the loaded LoRA.
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch

def pluslora(theta_0, lora_sd, ratio=1.0):
    for key in list(theta_0.keys()):
        lora_key = "lora_unet_" + key.replace(".weight", "").replace(".", "_")
        if lora_key + ".lora_up.weight" not in lora_sd:
            continue
        up_weight = lora_sd[lora_key + ".lora_up.weight"]
        down_weight = lora_sd[lora_key + ".lora_down.weight"]
        alpha = lora_sd.get(lora_key + ".alpha", down_weight.shape[0])
        scale = alpha / down_weight.shape[0]
        weight = theta_0[key]
        weight = weight + ratio * (up_weight @ down_weight) * scale
        theta_0[key] = weight
    return theta_0

theta_0 = {
    "attn1.to_q.weight": torch.randn(32, 32, device="cuda:0"),
    "attn1.to_k.weight": torch.randn(32, 32, device="cuda:0"),
    "norm1.weight": torch.ones(32, device="cuda:0"),
}
rank = 4
lora_sd = {}                                   # safetensors.torch.load_file(lora_path): CPU tensors
for name in ["attn1_to_q", "attn1_to_k"]:
    lora_sd[f"lora_unet_{name}.lora_up.weight"] = torch.randn(32, rank)
    lora_sd[f"lora_unet_{name}.lora_down.weight"] = torch.randn(rank, 32)
'''
CELL = '''
theta_0 = pluslora(theta_0, lora_sd, ratio=0.8)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["lora_sd"]
FIX = "namespace"
REFERENCE_FIX = '''
lora_sd = {k: v.to("cuda:0") for k, v in lora_sd.items()}
'''
REFERENCE_EDIT = None
CLEAN = False
