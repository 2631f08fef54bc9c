"""Look-alike: deepspeech.pytorch inference on a mixed-precision package: half conv weights, fp32 BatchNorm, and `forward` casts the float spectrogram itself.

Source: https://github.com/SeanNaren/deepspeech.pytorch/blob/27762afc275bf79444ae7b0efc81a2570324c4dc/utils.py
After the fix for issue #410 (`mixed_precision` stored in the package and passed back by
`load_model_package`), `utils.load_model` builds the model, calls `model.eval()`, moves it to the
device and, `if is_cuda and model.mixed_precision`, runs `convert_model_to_half` (apex
`BN_convert_float(model.half())`: fp16 convs/linear, fp32 BatchNorm). transcribe.py passes a float32
spectrogram; `DeepSpeech.forward` does `if x.is_cuda and self.mixed_precision: x = x.half()` and the
BatchNorm layers take fp16 activations with fp32 affine parameters and running stats by design:
nothing to report. Stand-ins: the network reduced to its MaskConv stack (padding mask omitted) and a
SequenceWise linear head in place of the RNNs; the package is made in SETUP with the fixed `serialize`.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import math
import torch
import torch.nn as nn

def BN_convert_float(module):
    """apex.fp16_utils.BN_convert_float"""
    if isinstance(module, torch.nn.modules.batchnorm._BatchNorm) and module.affine is True:
        module.float()
    for child in module.children():
        BN_convert_float(child)
    return module

def convert_model_to_half(model):
    """Converts model to half but keeps the batch norm layers in 32 bit for precision purposes"""
    old_model = model
    new_model = BN_convert_float(model.half())
    del old_model
    return new_model

class SequenceWise(nn.Module):
    def __init__(self, module):
        super(SequenceWise, self).__init__()
        self.module = module

    def forward(self, x):
        t, n = x.size(0), x.size(1)
        x = x.view(t * n, -1)
        x = self.module(x)
        x = x.view(t, n, -1)
        return x

class MaskConv(nn.Module):
    def __init__(self, seq_module):
        super(MaskConv, self).__init__()
        self.seq_module = seq_module

    def forward(self, x, lengths):
        for module in self.seq_module:
            x = module(x)
        return x, lengths

class DeepSpeech(nn.Module):
    def __init__(self, labels="abc", audio_conf=None, mixed_precision=False):
        super(DeepSpeech, self).__init__()
        self.version = '0.0.1'
        self.audio_conf = audio_conf or {}
        self.labels = labels
        self.mixed_precision = mixed_precision
        sample_rate = self.audio_conf.get("sample_rate", 16000)
        window_size = self.audio_conf.get("window_size", 0.02)
        num_classes = len(self.labels)
        self.conv = MaskConv(nn.Sequential(
            nn.Conv2d(1, 32, kernel_size=(41, 11), stride=(2, 2), padding=(20, 5)),
            nn.BatchNorm2d(32),
            nn.Hardtanh(0, 20, inplace=True),
            nn.Conv2d(32, 32, kernel_size=(21, 11), stride=(2, 1), padding=(10, 5)),
            nn.BatchNorm2d(32),
            nn.Hardtanh(0, 20, inplace=True)
        ))
        rnn_input_size = int(math.floor((sample_rate * window_size) / 2) + 1)
        rnn_input_size = int(math.floor(rnn_input_size + 2 * 20 - 41) / 2 + 1)
        rnn_input_size = int(math.floor(rnn_input_size + 2 * 10 - 21) / 2 + 1)
        rnn_input_size *= 32
        self.fc = nn.Sequential(SequenceWise(nn.Linear(rnn_input_size, num_classes, bias=False)))

    def forward(self, x, lengths):
        if x.is_cuda and self.mixed_precision:
            x = x.half()
        lengths = lengths.cpu().int()
        output_lengths = self.get_seq_lens(lengths)
        x, _ = self.conv(x, output_lengths)
        sizes = x.size()
        x = x.view(sizes[0], sizes[1] * sizes[2], sizes[3])  # Collapse feature dimension
        x = x.transpose(1, 2).transpose(0, 1).contiguous()  # TxNxH
        x = self.fc(x)
        x = x.transpose(0, 1)
        return x, output_lengths

    def get_seq_lens(self, input_length):
        seq_len = input_length
        for m in self.conv.modules():
            if type(m) == nn.modules.conv.Conv2d:
                seq_len = ((seq_len + 2 * m.padding[1] - m.dilation[1] * (m.kernel_size[1] - 1) - 1) / m.stride[1] + 1)
        return seq_len.int()

    @classmethod
    def load_model_package(cls, package):
        model = cls(labels=package['labels'],
                    audio_conf=package['audio_conf'],
                    mixed_precision=package.get('mixed_precision', False))
        model.load_state_dict(package['state_dict'])
        return model

    @staticmethod
    def serialize(model, optimizer=None, epoch=None, iteration=None):
        package = {
            'version': model.version,
            'audio_conf': model.audio_conf,
            'labels': model.labels,
            'state_dict': model.state_dict(),
            'mixed_precision': model.mixed_precision,
        }
        if optimizer is not None:
            package['optim_dict'] = optimizer.state_dict()
        if epoch is not None:
            package['epoch'] = epoch + 1
        if iteration is not None:
            package['iteration'] = iteration
        return package

def load_model(device, package, is_cuda):
    """utils.load_model (DeepSpeech.load_model(path) -> load_model_package(package))"""
    model = DeepSpeech.load_model_package(package)
    model.eval()
    model = model.to(device)
    if is_cuda and model.mixed_precision:
        model = convert_model_to_half(model)
    return model

device = torch.device("cuda:0")
labels = "_'ABCDEFGHIJKLMNOPQRSTUVWXYZ "
audio_conf = dict(sample_rate=8000, window_size=0.02, window_stride=0.01, window='hamming')

# deepspeech_final.pth written by train.py --cuda --mixed-precision (serialize stores the flag)
_trained = convert_model_to_half(DeepSpeech(labels=labels, audio_conf=audio_conf,
                                            mixed_precision=True).to(device))
package = DeepSpeech.serialize(_trained, epoch=70)

model = load_model(device, package, is_cuda=True)
spect = torch.randn(81, 300)  # parser.parse_audio(audio_path): freq x time, float32
'''
CELL = '''
with torch.no_grad():
    spect_in = spect.contiguous().view(1, 1, spect.size(0), spect.size(1))
    spect_in = spect_in.to(device)
    input_sizes = torch.IntTensor([spect_in.size(3)]).int()
    out, output_sizes = model(spect_in, input_sizes)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
