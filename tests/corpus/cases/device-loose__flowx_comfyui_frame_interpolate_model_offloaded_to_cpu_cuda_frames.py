"""ComfyUI "Frame Interpolate" node: freeing activation memory offloads the just-loaded FILM model to the CPU, and the CUDA frames hit CPU weights.

Source: https://github.com/Comfy-Org/ComfyUI/issues/13583
"RuntimeError: Input type (torch.cuda.HalfTensor) and weight type (torch.HalfTensor) should be the
same". The reporter traced it to `model_management.free_memory(activation_mem, device)` evicting the
interpolation model back to the CPU after it was loaded, while the frames are moved to the GPU; the
workaround they posted keeps it loaded and moves `inference_model.to(device=device, dtype=dtype)`
before inference (kijai's PR #13698 reworked the memory estimate). Stand-in: a small interpolation net
(conv + PReLU feature extractor as in the node's IFNet, fusion conv; fake conv does not check devices,
the PReLU weight does), a `model_management` stand-in whose `free_memory` leaves the evicted model on the CPU (the
GPU round trip is bookkeeping only). Run under no_grad (fake cuda).
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

class FILMNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.extract = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.PReLU(16), nn.Conv2d(16, 16, 3, padding=1))
        self.fuse = nn.Conv2d(32 + 1, 3, 3, padding=1)

    def forward(self, img0, img1, timestep):
        f0, f1 = self.extract(img0), self.extract(img1)
        t = timestep.view(-1, 1, 1, 1).expand(-1, 1, img0.shape[2], img0.shape[3])
        return self.fuse(torch.cat([f0, f1, t], 1))

class ModelManagement:
    # model_management stand-in: load_model_gpu puts the model on the GPU; free_memory unloads the
    # models not in keep_loaded back to the offload device (the CPU) to make room for activations.
    def __init__(self):
        self.loaded = []

    def load_model_gpu(self, model, device, dtype):
        self.loaded.append(model)
        self.pending = (model, device, dtype)       # moved lazily: the first forward would find it there

    def free_memory(self, memory_required, device, keep_loaded=()):
        self.loaded = [m for m in self.loaded if m in keep_loaded]   # evicted: stays on the CPU

model_management = ModelManagement()
device = torch.device("cuda:0")               # model_management.get_torch_device()
dtype = torch.float32                          # the node runs the model in fp16 on the GPU
interp_model = FILMNet().eval()
inference_model = interp_model
model_management.load_model_gpu(interp_model, device, dtype)
model_management.free_memory(2 ** 30, device)   # activation memory for the frames: evicts interp_model
frames = torch.rand(4, 3, 64, 64).to(device=device, dtype=dtype)
'''
CELL = '''
with torch.no_grad():
    out = inference_model(frames[:-1], frames[1:], torch.full((3,), 0.5, device=device, dtype=dtype))
'''
EXPECT_ERROR = ("is not on the expected device", "Input type", "Expected all tensors to be on the same device", "should be the same")
CULPRITS = ["inference_model"]
FIX = "namespace"
REFERENCE_FIX = '''
inference_model.to(device=device, dtype=dtype)
'''
REFERENCE_EDIT = None
CLEAN = False
