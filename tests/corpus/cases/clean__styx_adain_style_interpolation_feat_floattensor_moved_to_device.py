"""Look-alike: pytorch-AdaIN style interpolation builds `feat` as a CPU `FloatTensor` and moves it to the GPU.

Source: https://github.com/naoto0804/pytorch-AdaIN/blob/master/test.py
With several style images, `style_transfer` allocates `feat = torch.FloatTensor(1, C, H, W).zero_()`
on the CPU and immediately `.to(torch.device('cuda'))`, then accumulates `w * base_feat[i:i + 1]` over
the interpolation weights (plain Python floats); the stacked style/content batch was moved with
`.to(device)` and the output is brought back with `output.cpu()` on purpose for `save_image`. The VGG
encoder and decoder are small stand-ins; `adaptive_instance_normalization`/`calc_mean_std` are as in
the repository's function.py.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

def calc_mean_std(feat, eps=1e-5):
    # eps is a small value added to the variance to avoid divide-by-zero.
    size = feat.size()
    assert (len(size) == 4)
    N, C = size[:2]
    feat_var = feat.view(N, C, -1).var(dim=2) + eps
    feat_std = feat_var.sqrt().view(N, C, 1, 1)
    feat_mean = feat.view(N, C, -1).mean(dim=2).view(N, C, 1, 1)
    return feat_mean, feat_std

def adaptive_instance_normalization(content_feat, style_feat):
    assert (content_feat.size()[:2] == style_feat.size()[:2])
    size = content_feat.size()
    style_mean, style_std = calc_mean_std(style_feat)
    content_mean, content_std = calc_mean_std(content_feat)
    normalized_feat = (content_feat - content_mean.expand(size)) / content_std.expand(size)
    return normalized_feat * style_std.expand(size) + style_mean.expand(size)

def style_transfer(vgg, decoder, content, style, alpha=1.0,
                   interpolation_weights=None):
    assert (0.0 <= alpha <= 1.0)
    content_f = vgg(content)
    style_f = vgg(style)
    if interpolation_weights:
        _, C, H, W = content_f.size()
        feat = torch.FloatTensor(1, C, H, W).zero_().to(torch.device('cuda:0'))   # torch.device('cuda')
        base_feat = adaptive_instance_normalization(content_f, style_f)
        for i, w in enumerate(interpolation_weights):
            feat = feat + w * base_feat[i:i + 1]
        content_f = content_f[0:1]
    else:
        feat = adaptive_instance_normalization(content_f, style_f)
    feat = feat * alpha + content_f * (1 - alpha)
    return decoder(feat)

# stand-ins for net.vgg[:31] (relu4_1 encoder) and net.decoder
vgg = nn.Sequential(nn.Conv2d(3, 3, 1), nn.ReflectionPad2d(1), nn.Conv2d(3, 16, 3), nn.ReLU(),
                    nn.MaxPool2d(2, 2, ceil_mode=True), nn.ReflectionPad2d(1), nn.Conv2d(16, 32, 3), nn.ReLU())
decoder = nn.Sequential(nn.ReflectionPad2d(1), nn.Conv2d(32, 16, 3), nn.ReLU(), nn.Upsample(scale_factor=2, mode='nearest'),
                        nn.ReflectionPad2d(1), nn.Conv2d(16, 3, 3))
decoder.eval()
vgg.eval()

device = torch.device('cuda:0')     # torch.device('cuda')
vgg.to(device)
decoder.to(device)

weights = [1, 1, 2]                                             # --style_interpolation_weights 1,1,2
interpolation_weights = [w / sum(weights) for w in weights]
style = torch.stack([torch.rand(3, 32, 32) for _ in range(3)])  # style_tf(Image.open(p)) for p in style_paths
content = torch.rand(3, 32, 32).unsqueeze(0).expand_as(style)    # content_tf(Image.open(content_path))
alpha = 1.0
'''
CELL = '''
style = style.to(device)
content = content.to(device)
with torch.no_grad():
    output = style_transfer(vgg, decoder, content, style,
                            alpha, interpolation_weights)
output = output.cpu()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
