"""ocr_kor (deep-text-recognition-benchmark fork) training with TPS on the GPU: `GridGenerator.build_P_prime` concatenates a CPU `torch.zeros(batch_size, 3, 2)` to the CUDA fiducial points.

Source: https://github.com/parksunwoo/ocr_kor/issues/19
Training the Korean TPS-ResNet recognizer failed in `torch.cat` with "Expected object of backend CUDA
but got backend CPU for sequence element 1 in sequence argument at position #1 'tensors'". In the
fork's `modules/transformation.py` the `.cuda()` of the padding zeros in `build_P_prime` had been
commented out (`torch.zeros(batch_size, 3, 2).float()`), so the zeros stay on the CPU while
`batch_C_prime` comes from the CUDA localization network. The maintainer pointed at that line
(transformation.py L152) and restored the `.cuda()` (commit 66d24e4); here the zeros are put on
`batch_C_prime`'s device, which is the same place on the user's GPU. Stand-in: TPS (localization net +
grid generator, as in the repo, with small sizes), a small conv feature extractor, no sequence model
and a CTC linear head; apex DDP left out, the forward of one training batch only (no CTC loss), and
`F.grid_sample` replaced by a rescale by the grid (no fake-CUDA kernel for it in the simulator).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

class LocalizationNetwork(nn.Module):
    def __init__(self, F, I_channel_num):
        super(LocalizationNetwork, self).__init__()
        self.F = F
        self.conv = nn.Sequential(
            nn.Conv2d(I_channel_num, 16, 3, 1, 1, bias=False), nn.BatchNorm2d(16), nn.ReLU(True),
            nn.MaxPool2d(2, 2),
            nn.Conv2d(16, 32, 3, 1, 1, bias=False), nn.BatchNorm2d(32), nn.ReLU(True),
            nn.AdaptiveAvgPool2d(1))
        self.localization_fc1 = nn.Sequential(nn.Linear(32, 16), nn.ReLU(True))
        self.localization_fc2 = nn.Linear(16, self.F * 2)
        self.localization_fc2.weight.data.fill_(0)
        ctrl_pts_x = np.linspace(-1.0, 1.0, int(F / 2))
        ctrl_pts_top = np.stack([ctrl_pts_x, np.linspace(0.0, -1.0, num=int(F / 2))], axis=1)
        ctrl_pts_bottom = np.stack([ctrl_pts_x, np.linspace(1.0, 0.0, num=int(F / 2))], axis=1)
        initial_bias = np.concatenate([ctrl_pts_top, ctrl_pts_bottom], axis=0)
        self.localization_fc2.bias.data = torch.from_numpy(initial_bias).float().view(-1)

    def forward(self, batch_I):
        batch_size = batch_I.size(0)
        features = self.conv(batch_I).view(batch_size, -1)
        return self.localization_fc2(self.localization_fc1(features)).view(batch_size, self.F, 2)

class GridGenerator(nn.Module):
    def __init__(self, F, I_r_size):
        super(GridGenerator, self).__init__()
        self.eps = 1e-6
        self.I_r_height, self.I_r_width = I_r_size
        self.F = F
        self.C = self._build_C(self.F)
        self.P = self._build_P(self.I_r_width, self.I_r_height)
        self.register_buffer("inv_delta_C", torch.tensor(self._build_inv_delta_C(self.F, self.C)).float())
        self.register_buffer("P_hat", torch.tensor(self._build_P_hat(self.F, self.C, self.P)).float())

    def _build_C(self, F):
        ctrl_pts_x = np.linspace(-1.0, 1.0, int(F / 2))
        ctrl_pts_top = np.stack([ctrl_pts_x, -1 * np.ones(int(F / 2))], axis=1)
        ctrl_pts_bottom = np.stack([ctrl_pts_x, np.ones(int(F / 2))], axis=1)
        return np.concatenate([ctrl_pts_top, ctrl_pts_bottom], axis=0)

    def _build_inv_delta_C(self, F, C):
        hat_C = np.zeros((F, F), dtype=float)
        for i in range(0, F):
            for j in range(i, F):
                r = np.linalg.norm(C[i] - C[j])
                hat_C[i, j] = r
                hat_C[j, i] = r
        np.fill_diagonal(hat_C, 1)
        hat_C = (hat_C ** 2) * np.log(hat_C)
        delta_C = np.concatenate([
            np.concatenate([np.ones((F, 1)), C, hat_C], axis=1),
            np.concatenate([np.zeros((2, 3)), np.transpose(C)], axis=1),
            np.concatenate([np.zeros((1, 3)), np.ones((1, F))], axis=1)], axis=0)
        return np.linalg.inv(delta_C)

    def _build_P(self, I_r_width, I_r_height):
        I_r_grid_x = (np.arange(-I_r_width, I_r_width, 2) + 1.0) / I_r_width
        I_r_grid_y = (np.arange(-I_r_height, I_r_height, 2) + 1.0) / I_r_height
        return np.stack(np.meshgrid(I_r_grid_x, I_r_grid_y), axis=2).reshape([-1, 2])

    def _build_P_hat(self, F, C, P):
        n = P.shape[0]
        P_diff = np.tile(np.expand_dims(P, axis=1), (1, F, 1)) - np.expand_dims(C, axis=0)
        rbf_norm = np.linalg.norm(P_diff, ord=2, axis=2, keepdims=False)
        rbf = np.multiply(np.square(rbf_norm), np.log(rbf_norm + self.eps))
        return np.concatenate([np.ones((n, 1)), P, rbf], axis=1)

    def build_P_prime(self, batch_C_prime):
        batch_size = batch_C_prime.size(0)
        batch_inv_delta_C = self.inv_delta_C.repeat(batch_size, 1, 1)
        batch_P_hat = self.P_hat.repeat(batch_size, 1, 1)
        batch_C_prime_with_zeros = torch.cat((batch_C_prime, torch.zeros(
            # batch_size, 3, 2).float().cuda()), dim=1)  # batch_size x F+3 x 2
            batch_size, 3, 2).float()), dim=1)  # batch_size x F+3 x 2
        batch_T = torch.bmm(batch_inv_delta_C, batch_C_prime_with_zeros)
        return torch.bmm(batch_P_hat, batch_T)

class TPS_SpatialTransformerNetwork(nn.Module):
    def __init__(self, F, I_size, I_r_size, I_channel_num=1):
        super(TPS_SpatialTransformerNetwork, self).__init__()
        self.F, self.I_size, self.I_r_size = F, I_size, I_r_size
        self.LocalizationNetwork = LocalizationNetwork(self.F, I_channel_num)
        self.GridGenerator = GridGenerator(self.F, self.I_r_size)

    def forward(self, batch_I):
        batch_C_prime = self.LocalizationNetwork(batch_I)
        build_P_prime = self.GridGenerator.build_P_prime(batch_C_prime)
        build_P_prime_reshape = build_P_prime.reshape([build_P_prime.size(0), self.I_r_size[0], self.I_r_size[1], 2])
        # F.grid_sample(batch_I, build_P_prime_reshape, padding_mode='border') in the repo; the simulator
        # has no fake-CUDA grid_sample, so the grid only rescales the image here
        return batch_I * build_P_prime_reshape.mean(-1).unsqueeze(1)

class Model(nn.Module):
    def __init__(self, opt):
        super(Model, self).__init__()
        self.Transformation = TPS_SpatialTransformerNetwork(
            F=opt["num_fiducial"], I_size=(opt["imgH"], opt["imgW"]), I_r_size=(opt["imgH"], opt["imgW"]),
            I_channel_num=opt["input_channel"])
        self.FeatureExtraction = nn.Sequential(nn.Conv2d(opt["input_channel"], 32, 3, 1, 1), nn.ReLU(True),
                                               nn.MaxPool2d((2, 2)))
        self.AdaptiveAvgPool = nn.AdaptiveAvgPool2d((None, 1))
        self.Prediction = nn.Linear(32, opt["num_class"])

    def forward(self, input, text, is_train=True):
        input = self.Transformation(input)
        visual_feature = self.FeatureExtraction(input)
        visual_feature = self.AdaptiveAvgPool(visual_feature.permute(0, 3, 1, 2)).squeeze(3)
        return self.Prediction(visual_feature.contiguous())

opt = {"num_fiducial": 6, "imgH": 16, "imgW": 48, "input_channel": 1, "num_class": 40, "batch_max_length": 10}
device = torch.device("cuda:0")                   # torch.device('cuda' if torch.cuda.is_available() else 'cpu')
model = Model(opt).to(device)                     # DDP(model, delay_allreduce=True).to(device)
model.eval()
image_tensors = torch.rand(4, 1, opt["imgH"], opt["imgW"])          # AlignCollate batch of text-line crops
text = torch.randint(1, opt["num_class"], (4, opt["batch_max_length"]))   # converter.encode(labels)
'''
CELL = '''
image = image_tensors.to(device)
preds = model(image, text).log_softmax(2)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.Transformation.GridGenerator"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("            batch_size, 3, 2).float()), dim=1)  # batch_size x F+3 x 2",
                  "            batch_size, 3, 2).float().to(batch_C_prime.device)), dim=1)  # batch_size x F+3 x 2")
CLEAN = False
