"""Look-alike: mmpose's ONNX export moves the pose model that served GPU inference to the CPU and checks it with a CPU dummy input.

Source: https://github.com/open-mmlab/mmpose/blob/0.x/tools/deployment/pytorch2onnx.py
`pytorch2onnx()` starts with `model.cpu().eval()` and builds `one_img = torch.randn(input_shape)`
on the CPU; with `--verify` it runs `pytorch_results = model(one_img)` to compare against
onnxruntime. Here the estimator had been initialised on `cuda:0` for inference first (its
`forward_dummy` used as `forward`, SyncBN converted with `_convert_batchnorm` as in the script);
after the export helper moves it, model and dummy input are both on the CPU. Stand-in: a small
top-down heatmap model with `forward_dummy`; `torch.onnx.export`, onnx and onnxruntime are left
out (only the PyTorch side of the verification runs).
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class TopDown(nn.Module):
    def __init__(self, num_joints=17):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 32, 3, 2, 1), nn.BatchNorm2d(32), nn.ReLU(),
                                      nn.Conv2d(32, 32, 3, 2, 1), nn.BatchNorm2d(32), nn.ReLU())
        self.keypoint_head = nn.Sequential(nn.ConvTranspose2d(32, 32, 4, 2, 1), nn.BatchNorm2d(32),
                                           nn.ReLU(), nn.Conv2d(32, num_joints, 1))

    def forward_dummy(self, img):
        return self.keypoint_head(self.backbone(img))

    def forward(self, img, return_loss=False):
        return self.forward_dummy(img)

def init_pose_model(config, checkpoint=None, device='cuda:0'):
    model = TopDown()
    # load_checkpoint(model, checkpoint, map_location='cpu')
    model.to(device)
    model.eval()
    return model

def pytorch2onnx(model, input_shape, opset_version=11, show=False, output_file='tmp.onnx', verify=False):
    model.cpu().eval()

    one_img = torch.randn(input_shape)

    # register_extra_symbolics(opset_version); torch.onnx.export(model, one_img, output_file, ...)
    print(f'Successfully exported ONNX model: {output_file}')
    if verify:
        # get pytorch output
        pytorch_results = model(one_img)
        if not isinstance(pytorch_results, (list, tuple)):
            assert isinstance(pytorch_results, torch.Tensor)
            pytorch_results = [pytorch_results]
        return pytorch_results

pose_model = init_pose_model('hrnet_w32_coco_256x192.py', 'hrnet_w32_coco_256x192.pth', device='cuda:0')
img = torch.rand(1, 3, 64, 48).to('cuda:0')
with torch.no_grad():
    heatmaps = pose_model(img)               # earlier GPU inference in the session
input_shape = (1, 3, 64, 48)
'''
CELL = '''
pose_model.forward = pose_model.forward_dummy
with torch.no_grad():
    pytorch_results = pytorch2onnx(pose_model, input_shape, opset_version=11, output_file='tmp.onnx', verify=True)
print(pytorch_results[0].shape, pytorch_results[0].device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
