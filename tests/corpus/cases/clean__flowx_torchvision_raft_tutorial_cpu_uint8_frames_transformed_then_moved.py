"""torchvision optical-flow tutorial: video frames are read as uint8 on the CPU, go through the RAFT weights' transforms there, and are moved to the GPU only in the model call.

Source: https://docs.pytorch.org/vision/stable/auto_examples/others/plot_optical_flow.html
The tutorial builds `img1_batch`/`img2_batch` from `read_video` (uint8, CPU), resizes them, applies
`Raft_Large_Weights.DEFAULT.transforms()` (convert to float and normalise to [-1, 1]) on the CPU, then
calls `model(img1_batch.to(device), img2_batch.to(device))` and takes `list_of_flows[-1]`.
Look-alike: uint8 CPU frames next to a float GPU model, cast and moved on purpose at the call. Stand-in:
the transforms as a function, RAFT reduced to an encoder + a few update steps that return a list of
flows; device cuda:0.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

def transforms(img1_batch, img2_batch):
    # Raft_Large_Weights.DEFAULT.transforms(): ConvertImageDtype(float32) + Normalize(0.5, 0.5)
    img1_batch = img1_batch.to(torch.float32) / 255.0
    img2_batch = img2_batch.to(torch.float32) / 255.0
    return (img1_batch - 0.5) / 0.5, (img2_batch - 0.5) / 0.5

class RAFT(nn.Module):
    def __init__(self, num_flow_updates=4):
        super().__init__()
        self.num_flow_updates = num_flow_updates
        self.feature_encoder = nn.Conv2d(3, 32, 8, stride=8)
        self.update_block = nn.Conv2d(64 + 2, 2, 3, padding=1)

    def forward(self, image1, image2):
        fmap1, fmap2 = self.feature_encoder(image1), self.feature_encoder(image2)
        flow = fmap1.new_zeros([fmap1.shape[0], 2, fmap1.shape[2], fmap1.shape[3]])
        flow_predictions = []
        for _ in range(self.num_flow_updates):
            flow = flow + self.update_block(torch.cat([fmap1, fmap2, flow], 1))
            flow_predictions.append(flow)
        return flow_predictions

device = "cuda:0"
model = RAFT().to(device)
model = model.eval()
frames = torch.randint(0, 256, (6, 3, 64, 96), dtype=torch.uint8)    # read_video(...)[0].permute(0, 3, 1, 2)
img1_batch = torch.stack([frames[0], frames[2]])
img2_batch = torch.stack([frames[1], frames[3]])
img1_batch, img2_batch = transforms(img1_batch, img2_batch)
'''
CELL = '''
with torch.no_grad():
    list_of_flows = model(img1_batch.to(device), img2_batch.to(device))
predicted_flows = list_of_flows[-1]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
