"""pytorch-grad-cam ScoreCAM: the upsampled activations stay on the CPU while the input is on the GPU.

Source: https://github.com/jacobgil/pytorch-grad-cam/issues/455
"If I create ScoreCAM with a model on a non-cpu device ... and pass a tensor on the same device, it
raises an error" at `input_tensors = input_tensor[:, None, :, :] * upsampled[:, :, None, :, :]`
"because upsampled has device 'cpu'": the activations come back from the hooks on the CPU and
`get_cam_weights` only moves them with `.cuda()` when the CAM was built with `use_cuda=True`. The
reporter's fix: `upsampled = upsampled.to(input_tensor.device)`. Stand-in: BaseCAM/ScoreCAM reduced
to the weight computation; the numpy round trip of the activations is kept as a CPU tensor.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class ActivationsAndGradients:
    def __init__(self, model, target_layers):
        self.model = model
        self.activations = []
        self.handles = [layer.register_forward_hook(self.save_activation) for layer in target_layers]

    def save_activation(self, module, input, output):
        self.activations.append(output.cpu().detach())

    def __call__(self, x):
        self.activations = []
        return self.model(x)

class BaseCAM:
    def __init__(self, model, target_layers, use_cuda=False, batch_size=16):
        self.model = model.eval()
        self.target_layers = target_layers
        self.cuda = use_cuda
        if self.cuda:
            self.model = model.cuda()
        self.batch_size = batch_size
        self.activations_and_grads = ActivationsAndGradients(self.model, target_layers)

    def __call__(self, input_tensor, targets):
        if self.cuda:
            input_tensor = input_tensor.cuda()
        outputs = self.activations_and_grads(input_tensor)
        activations = self.activations_and_grads.activations[0]
        weights = self.get_cam_weights(input_tensor, self.target_layers[0], targets, activations, None)
        return (weights[:, :, None, None] * activations.to(weights.device)).sum(1)

class ScoreCAM(BaseCAM):
    def get_cam_weights(self, input_tensor, target_layer, targets, activations, grads):
        with torch.no_grad():
            upsample = torch.nn.UpsamplingBilinear2d(size=input_tensor.shape[-2:])
            activation_tensor = torch.as_tensor(activations)
            if self.cuda:
                activation_tensor = activation_tensor.cuda()
            upsampled = upsample(activation_tensor)
            maxs = upsampled.view(upsampled.size(0), upsampled.size(1), -1).max(dim=-1)[0]
            mins = upsampled.view(upsampled.size(0), upsampled.size(1), -1).min(dim=-1)[0]
            maxs, mins = maxs[:, :, None, None], mins[:, :, None, None]
            upsampled = (upsampled - mins) / (maxs - mins + 1e-8)
            input_tensors = input_tensor[:, None, :, :] * upsampled[:, :, None, :, :]
            scores = []
            for target, tensor in zip(targets, input_tensors):
                for i in range(0, tensor.size(0), self.batch_size):
                    batch = tensor[i: i + self.batch_size, :]
                    outputs = [target(o) for o in self.model(batch)]
                    scores.extend(outputs)
            scores = torch.stack(scores).view(activations.shape[0], activations.shape[1])
            return torch.softmax(scores, dim=-1)

class ClassifierOutputTarget:
    def __init__(self, category):
        self.category = category

    def __call__(self, model_output):
        return model_output[self.category]

device = torch.device("cuda:0")
model = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                      nn.Flatten(), nn.Linear(8, 5)).to(device)
target_layers = [model[1]]
input_tensor = torch.rand(1, 3, 32, 32, device=device)
cam = ScoreCAM(model=model, target_layers=target_layers)
targets = [ClassifierOutputTarget(3)]
'''
CELL = '''
grayscale_cam = cam(input_tensor=input_tensor, targets=targets)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["cam"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("            input_tensors = input_tensor[:, None, :, :] * upsampled[:, :, None, :, :]",
                  "            upsampled = upsampled.to(input_tensor.device)\n"
                  "            input_tensors = input_tensor[:, None, :, :] * upsampled[:, :, None, :, :]")
CLEAN = False
