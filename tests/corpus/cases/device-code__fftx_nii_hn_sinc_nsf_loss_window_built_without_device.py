"""hn-sinc-NSF's multi-resolution STFT loss builds its Hann windows on the CPU on every call.

Source: https://github.com/nii-yamagishilab/project-NN-Pytorch-scripts/issues/5
"Fail to run project/hn-sinc-nsf-9/00_demo.sh on Google Colaboratory": training on the GPU died in
`Loss.compute` (model.py, the `torch.stft(..., pad_mode="constant")` call) with "Expected all tensors
to be on the same device, but found at least two devices, cuda:0 and cpu!". `Loss.compute` passes
`window=self.win(frame_len)` (`torch.hann_window`), made on the CPU while the generated waveform is
on the GPU; the fix (pytorch-scripts PR #6, "torch.window() should be used with dtype and device")
builds the window with the signal's dtype and device. Stand-in: that `Loss` class (a plain object,
not a Module), with `return_complex=True` and `.abs()` for the old real-valued stft output.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as torch_nn

class Loss():
    """ Wrapper to define loss function (stand-in for project/hn-sinc-nsf-9/model.py)
    """
    def __init__(self, args):
        self.frame_hops = [80, 40, 640]
        self.frame_lens = [320, 80, 1920]
        self.fft_n = [512, 128, 2048]
        self.win = torch.hann_window
        self.amp_floor = 0.00001
        self.loss = torch_nn.MSELoss()
        self.cutoff_w = 0.0

    def compute(self, outputs, target):
        cut_f = outputs[1]
        output = outputs[0]
        if target.ndim == 3:
            target = target.squeeze(-1)
        loss = 0
        for frame_shift, frame_len, fft_p in \\
            zip(self.frame_hops, self.frame_lens, self.fft_n):
            x_stft = torch.stft(output, fft_p, frame_shift, frame_len, \\
                                window=self.win(frame_len), onesided=True,
                                pad_mode="constant", return_complex=True)
            y_stft = torch.stft(target, fft_p, frame_shift, frame_len, \\
                                window=self.win(frame_len), onesided=True,
                                pad_mode="constant", return_complex=True)
            x_sp_amp = torch.log(x_stft.abs().pow(2) + self.amp_floor)
            y_sp_amp = torch.log(y_stft.abs().pow(2) + self.amp_floor)
            loss += self.loss(x_sp_amp, y_sp_amp)
        loss += self.cutoff_w * self.loss(cut_f, torch.zeros_like(cut_f))
        return loss

device = torch.device("cuda:0")
loss_wrapper = Loss(None)
data_gen = (torch.randn(1, 16000, device=device), torch.randn(1, 100, 1, device=device))
normed_target = torch.randn(1, 16000, 1, device=device)
'''
CELL = '''
loss_computed = loss_wrapper.compute(data_gen, normed_target)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "must be on the same device")
CULPRITS = ["loss_wrapper"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    """window=self.win(frame_len), onesided=True,
                                pad_mode="constant", return_complex=True)
            y_stft = torch.stft(target, fft_p, frame_shift, frame_len, \\
                                window=self.win(frame_len), onesided=True,""",
    """window=self.win(frame_len, dtype=output.dtype, device=output.device), onesided=True,
                                pad_mode="constant", return_complex=True)
            y_stft = torch.stft(target, fft_p, frame_shift, frame_len, \\
                                window=self.win(frame_len, dtype=target.dtype, device=target.device), onesided=True,""",
)
CLEAN = False
