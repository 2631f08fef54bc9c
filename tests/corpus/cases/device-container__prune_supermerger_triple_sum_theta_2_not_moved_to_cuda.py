"""SuperMerger "Triple sum" merge: model A and B tensors are moved to CUDA per key, model C's (`theta_2`) stay on the CPU.

Source: https://github.com/hako-mikan/sd-webui-supermerger/pull/422
"The following errors may occur when using the 'Triple sum' function: RuntimeError: Expected all tensors to
be on the same device, but found at least two devices, cuda:0 and cpu! ... theta_0 and theta_1 were
uploaded to CUDA with the code below [`theta_0[key] = theta_0[key].to("cuda")`,
`theta_1[key] = theta_1[key].to("cuda")`] but theta_2 was not uploaded." The merged fix also moves
`theta_2[key]` to CUDA, so `(1 - a - b) * theta_0_a + a * theta_1[key] + b * theta_2[key]` sees one device.
Stand-in: `smerge` (scripts/mergers/mergers.py) reduced to Stage 1 of the "normal" calcmode for the
Weight sum / Add difference / Triple sum modes; the state dicts are small checkpoints loaded to the CPU
("cuda" written as "cuda:0").
"""

SIM = "fake_cuda"
FAMILY = "device-container"
SETUP = '''
import torch

MODES = ["Weight", "Add", "Triple", "Twice"]

def smerge(theta_0, theta_1, theta_2, mode, alpha, beta):
    for num, key in enumerate(theta_0.keys()):
        if not ("model" in key and key in theta_1):
            continue
        if not ("weight" in key or "bias" in key):
            continue
        if (not key in theta_2) and (not theta_2 == {}):
            continue

        theta_0[key] = theta_0[key].to("cuda:0")
        theta_1[key] = theta_1[key].to("cuda:0")

        current_alpha = alpha
        current_beta = beta
        theta_0_a = theta_0[key]
        if MODES[1] in mode:
            theta_0_a = theta_0_a + current_alpha * theta_1[key]
        elif MODES[2] in mode:
            theta_0_a = (1 - current_alpha - current_beta) * theta_0_a + current_alpha * theta_1[key] + current_beta * theta_2[key]
        else:
            theta_0_a = (1 - current_alpha) * theta_0_a + current_alpha * theta_1[key]
        theta_0[key] = theta_0_a
    return theta_0

def load_checkpoint(seed):
    g = torch.Generator().manual_seed(seed)
    return {
        "model.diffusion_model.input_blocks.0.0.weight": torch.randn(32, 4, 3, 3, generator=g),
        "model.diffusion_model.input_blocks.0.0.bias": torch.randn(32, generator=g),
        "model.diffusion_model.out.2.weight": torch.randn(4, 32, 3, 3, generator=g),
        "cond_stage_model.transformer.text_model.embeddings.position_ids": torch.arange(77).unsqueeze(0),
    }

theta_0 = load_checkpoint(0)    # model A, loaded to the CPU
theta_1 = load_checkpoint(1)    # model B
theta_2 = load_checkpoint(2)    # model C
'''
CELL = '''
merged = smerge(theta_0, theta_1, theta_2, mode="Triple sum:A*(1-alpha-beta)+B*alpha+C*beta", alpha=0.3, beta=0.2)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["theta_2"]
FIX = "namespace"
REFERENCE_FIX = '''
for key in theta_2:
    theta_2[key] = theta_2[key].to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
