"""Unity Robotics object-pose-estimation: the VGG16 pose network is loaded but never moved to cuda:0, the image is.

Source: https://github.com/Unity-Technologies/Robotics-Object-Pose-Estimation/issues/45
Running the pick-and-place pose estimation service on a GPU machine failed with "Input type
(torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same" (the user's
workaround: force `device = torch.device("cpu")`). In `setup_and_run_model.run_model_main` the image
goes through `pre_process_image(image_file_png, device)` to cuda:0, but the global `model` was built
and `load_state_dict`-ed without `model.to(device)`; the maintainers' fix (PR #52, "move the model to
device") adds `model.to(device)` after loading. Stand-ins: the VGG16 backbone reduced to one conv block +
pooling, PIL loading/transforms to a random image; `LinearNormalized` divides by the L2 norm directly
(the original loops with `.item()`). On CPU the fake conv does not check devices, so the first Linear
raises instead of the conv.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch

class LinearNormalized(torch.nn.Module):
    def forward(self, x):
        norm = torch.norm(x, p=2, dim=1, keepdim=True)
        return x / norm

class PoseEstimationNetwork(torch.nn.Module):
    def __init__(self, *, is_symetric):
        super(PoseEstimationNetwork, self).__init__()
        self.is_symetric = is_symetric
        # stand-in for torchvision.models.vgg16(pretrained=True) with classifier = Identity
        self.model_backbone = torch.nn.Sequential(
            torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.ReLU(inplace=True),
            torch.nn.AdaptiveAvgPool2d((7, 7)), torch.nn.Flatten())
        self.translation_block = torch.nn.Sequential(
            torch.nn.Linear(8 * 7 * 7, 256), torch.nn.ReLU(inplace=True),
            torch.nn.Linear(256, 64), torch.nn.ReLU(inplace=True),
            torch.nn.Linear(64, 3))
        self.orientation_block = torch.nn.Sequential(
            torch.nn.Linear(8 * 7 * 7, 256), torch.nn.ReLU(inplace=True),
            torch.nn.Linear(256, 64), torch.nn.ReLU(inplace=True),
            torch.nn.Linear(64, 4), LinearNormalized())

    def forward(self, x):
        x = self.model_backbone(x)
        output_translation = self.translation_block(x)
        if (self.is_symetric == False):
            output_orientation = self.orientation_block(x)
            return output_translation, output_orientation
        return output_translation

def pre_process_image(path_image, device):
    # Image.open(path_image).convert("RGB") + Resize((224, 224)) + ToTensor()
    image = [torch.rand(3, 224, 224).unsqueeze(0)]
    image = list(img.to(device) for img in image)
    return image

device = torch.device("cuda:0")          # torch.cuda.is_available() on the user's machine
model = PoseEstimationNetwork(is_symetric=False)
# model.load_state_dict(checkpoint["model"])
model.eval()
image = pre_process_image("Images/capture.png", device)
'''
CELL = '''
with torch.no_grad():
    output_translation, output_orientation = model(torch.stack(image).reshape(-1, 3, 224, 224))
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "Input type")
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
model.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
