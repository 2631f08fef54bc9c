"""deepspeech.pytorch `--continue-from` a mixed-precision checkpoint: the package does not store `mixed_precision`, so the half model gets float inputs.

Source: https://github.com/SeanNaren/deepspeech.pytorch/issues/410
A user trained with `--cuda --mixed-precision` and could not continue from the checkpoint with the same
flags: `model(inputs, input_sizes)` failed inside `self.conv(x, output_lengths)`. The merged fix
(PR #417, "Fixed saving mixed-precision based models", "Fixes #410") adds `'mixed_precision'` to
`DeepSpeech.serialize` and passes it back in `load_model_package`. Before it, the reloaded model was
built with `mixed_precision=False`; train.py still ran `convert_model_to_half(model)` (conv/linear
weights to fp16, BatchNorm kept fp32), but `forward` only casts `x.half()` when
`self.mixed_precision` is set, so the float spectrogram met the half conv weights. Stand-ins: the
network is reduced to its MaskConv stack (the padding mask and the fp32 BatchNorm2d layers omitted:
a fake-cuda BatchNorm with fp16 input cannot update its running stats) and a SequenceWise linear head
in place of the RNN stack; apex's `BN_convert_float` is copied in; the first run's package is made in
SETUP with the pre-fix `serialize`.
"""

SIM = "fake_cuda"
FAMILY = "dtype-input"
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
            nn.Hardtanh(0, 20, inplace=True),
            nn.Conv2d(32, 32, kernel_size=(21, 11), stride=(2, 1), padding=(10, 5)),
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
                    audio_conf=package['audio_conf'])
        model.load_state_dict(package['state_dict'])
        return model

    @staticmethod
    def serialize(model, optimizer=None, epoch=None, iteration=None):
        package = {
            'version': model.version,
            'audio_conf': model.audio_conf,
            'labels': model.labels,
            'state_dict': model.state_dict(),
        }
        if optimizer is not None:
            package['optim_dict'] = optimizer.state_dict()
        if epoch is not None:
            package['epoch'] = epoch + 1
        if iteration is not None:
            package['iteration'] = iteration
        return package

class args:
    cuda = True
    mixed_precision = True
    continue_from = 'models/deepspeech_final.pth'
    finetune = False
    lr = 3e-4
    momentum = 0.9

device = torch.device("cuda:0" if args.cuda else "cpu")
labels = "_'ABCDEFGHIJKLMNOPQRSTUVWXYZ "
audio_conf = dict(sample_rate=8000, window_size=0.02, window_stride=0.01, window='hamming')

# --- the first run (train.py --cuda --mixed-precision) saved deepspeech_final.pth
_first = convert_model_to_half(DeepSpeech(labels=labels, audio_conf=audio_conf,
                                          mixed_precision=True).to(device))
package = DeepSpeech.serialize(_first, epoch=3, iteration=500)

# --- train.py --cuda --mixed-precision --continue-from models/deepspeech_final.pth
model = DeepSpeech.load_model_package(package)
labels = model.labels
audio_conf = model.audio_conf
model = model.to(device)
if args.mixed_precision:
    model = convert_model_to_half(model)
parameters = model.parameters()
optimizer = torch.optim.SGD(parameters, lr=args.lr, momentum=args.momentum, nesterov=True, weight_decay=1e-5)

# a batch from the AudioDataLoader: N x 1 x freq x time spectrograms
inputs = torch.randn(4, 1, 81, 200).to(device)
input_percentages = torch.tensor([1.0, 0.9, 0.8, 0.75])
input_sizes = input_percentages.mul_(int(inputs.size(3))).int()
'''
CELL = '''
out, output_sizes = model(inputs, input_sizes)
'''
EXPECT_ERROR = "should be the same"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    """        model = cls(labels=package['labels'],
                    audio_conf=package['audio_conf'])
        model.load_state_dict(package['state_dict'])
        return model

    @staticmethod
    def serialize(model, optimizer=None, epoch=None, iteration=None):
        package = {
            'version': model.version,
            'audio_conf': model.audio_conf,
            'labels': model.labels,
            'state_dict': model.state_dict(),
        }
""",
    """        model = cls(labels=package['labels'],
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
""",
)
CLEAN = False
