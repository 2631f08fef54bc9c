"""EfficientAD (nelson1425): teacher channel mean/std and map quantiles are plain tensors computed on the GPU.

Source: https://github.com/nelson1425/EfficientAD/blob/main/efficientad.py
Look-alike: `teacher_mean`, `teacher_std`, `q_st_start`... are module-level tensors kept outside any
`nn.Module`, and the ImageNet penalty loader yields CPU images next to cuda models. It runs because
`teacher_normalization` accumulates the statistics from cuda teacher outputs, `map_normalization`'s
quantiles come from cuda maps, and every image is moved with `.cuda()` before `predict`. Stand-in:
teacher/student/autoencoder reduced to small conv nets, `teacher_normalization` and `predict` as in
the script.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

out_channels = 8
on_gpu = True
def pdn():
    return nn.Sequential(nn.Conv2d(3, 16, 4, stride=4), nn.ReLU(), nn.Conv2d(16, out_channels, 3, padding=1))

teacher = pdn().to("cuda:0").eval()
student = nn.Sequential(nn.Conv2d(3, 16, 4, stride=4), nn.ReLU(), nn.Conv2d(16, 2 * out_channels, 3, padding=1)).to("cuda:0").eval()
autoencoder = pdn().to("cuda:0").eval()

@torch.no_grad()
def teacher_normalization(teacher, train_loader):
    mean_outputs = []
    for train_image, _ in train_loader:
        if on_gpu:
            train_image = train_image.to("cuda:0")
        teacher_output = teacher(train_image)
        mean_outputs.append(torch.mean(teacher_output, dim=[0, 2, 3]))
    channel_mean = torch.mean(torch.stack(mean_outputs), dim=0)[None, :, None, None]
    mean_distances = []
    for train_image, _ in train_loader:
        if on_gpu:
            train_image = train_image.to("cuda:0")
        teacher_output = teacher(train_image)
        mean_distances.append(torch.mean((teacher_output - channel_mean) ** 2, dim=[0, 2, 3]))
    channel_std = torch.sqrt(torch.mean(torch.stack(mean_distances), dim=0))[None, :, None, None]
    return channel_mean, channel_std

@torch.no_grad()
def predict(image, teacher, student, autoencoder, teacher_mean, teacher_std, q_st_start=None, q_st_end=None, q_ae_start=None, q_ae_end=None):
    teacher_output = (teacher(image) - teacher_mean) / teacher_std
    student_output = student(image)
    autoencoder_output = autoencoder(image)
    map_st = torch.mean((teacher_output - student_output[:, :out_channels]) ** 2, dim=1, keepdim=True)
    map_ae = torch.mean((autoencoder_output - student_output[:, out_channels:]) ** 2, dim=1, keepdim=True)
    if q_st_start is not None:
        map_st = 0.1 * (map_st - q_st_start) / (q_st_end - q_st_start)
    if q_ae_start is not None:
        map_ae = 0.1 * (map_ae - q_ae_start) / (q_ae_end - q_ae_start)
    return 0.5 * map_st + 0.5 * map_ae, map_st, map_ae

train_loader = [(torch.rand(2, 3, 32, 32), torch.zeros(2)) for _ in range(2)]
teacher_mean, teacher_std = teacher_normalization(teacher, train_loader)
q_st_start = torch.tensor(0.01).to("cuda:0"); q_st_end = torch.tensor(0.2).to("cuda:0")
q_ae_start = torch.tensor(0.02).to("cuda:0"); q_ae_end = torch.tensor(0.3).to("cuda:0")
test_image = torch.rand(1, 3, 32, 32)
'''
CELL = '''
image = test_image
if on_gpu:
    image = image.to("cuda:0")
map_combined, map_st, map_ae = predict(image, teacher, student, autoencoder, teacher_mean, teacher_std,
                                       q_st_start, q_st_end, q_ae_start, q_ae_end)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
