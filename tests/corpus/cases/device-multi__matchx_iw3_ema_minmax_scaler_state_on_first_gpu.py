"""nunif iw3 with two GPUs: the depth EMA min/max scaler keeps its state on the first GPU, frames come from the second.

Source: https://github.com/nagadomi/nunif/pull/427
"iw3: Fix tensor device mismatch error when using multiple GPUs". With `--gpu 0 1` the depth model is
wrapped in `DeviceSwitchInference`, so consecutive depth batches come back on cuda:0 and cuda:1, but a
single `EMAMinMaxScaler` normalizes all of them: its `MinMaxBuffer` (and so `min_value`/`max_value`) was
created on the device of the first frame it saw. A frame from cuda:1 then meets the cuda:0 statistics in
`depth_scaler.minmax_normalize`. The fix moves `min_value`/`max_value` to `frame.device` at the top of
`minmax_normalize` (the same PR also moves stacked depths to one device in `utils._postprocess`).
Stand-ins: the depth model reduced to its scaler wrapper; the buffer's element writes (`data[index] = v`,
`data[0::2] = v`) are written as whole-tensor updates that copy the value to the buffer's device, as the
indexed write does.
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
import torch


def minmax_normalize(frame, min_value, max_value):
    # TODO: Fix this inversion `1 - value`
    frame = 1.0 - ((frame - min_value) / (max_value - min_value))
    frame = frame.clamp(0.0, 1.0)
    frame = frame.nan_to_num()
    return frame


class MinMaxBuffer():
    def __init__(self, size, dtype, device):
        assert size > 0
        self.count = 0
        self.size = size * 2
        self.data = torch.zeros(self.size, dtype=dtype).to(device)

    def _add(self, value):
        index = self.count % self.size
        # self.data[index] = value
        slot = torch.arange(self.size, device=self.data.device) == index
        self.data = torch.where(slot, value.to(self.data.device), self.data)
        self.count += 1

    def _fill(self, min_value, max_value):
        # self.data[0::2] = min_value; self.data[1::2] = max_value
        pair = torch.stack([min_value.to(self.data.device), max_value.to(self.data.device)])
        self.data = pair.repeat(self.size // 2)

    def add(self, min_value, max_value):
        if self.count == 0:
            self._fill(min_value, max_value)
            self.count = 2
        else:
            self._add(min_value)
            self._add(max_value)

    def is_filled(self):
        return self.count >= self.size

    def get_minmax(self):
        return self.data.amin(), self.data.amax()


class EMAMinMaxScaler():
    def __init__(self, decay=0, buffer_size=1):
        self.frame_queue = []
        assert buffer_size > 0
        self.reset(decay=decay, buffer_size=buffer_size)

    def reset(self, decay=None, buffer_size=None, **kwargs):
        if decay is not None:
            self.decay = float(decay)
        if buffer_size is not None:
            self.buffer_size = int(buffer_size)
        self.min_value = None
        self.max_value = None
        self.frame_queue = []
        self.minmax_buffer = None

    def get_minmax(self):
        assert self.minmax_buffer is not None and self.minmax_buffer.is_filled()
        return self.minmax_buffer.get_minmax()

    def __call__(self, frame, return_minmax=False):
        return self.update(frame, return_minmax=return_minmax)

    def update(self, frame, return_minmax=False):
        if self.minmax_buffer is None:
            self.minmax_buffer = MinMaxBuffer(self.buffer_size, dtype=frame.dtype, device=frame.device)
        self.frame_queue.append(frame)
        self.minmax_buffer.add(frame.amin(), frame.amax())
        if not self.minmax_buffer.is_filled():
            return None

        min_value, max_value = self.get_minmax()
        if self.min_value is None:
            self.min_value = min_value
            self.max_value = max_value
        else:
            self.min_value = self.decay * self.min_value + (1. - self.decay) * min_value
            self.max_value = self.decay * self.max_value + (1. - self.decay) * max_value

        frame = self.frame_queue.pop(0)
        frame = minmax_normalize(frame, self.min_value, self.max_value)
        if return_minmax:
            return (frame, self.min_value, self.max_value)
        else:
            return frame


class BaseDepthModel():
    def __init__(self):
        self.scaler = EMAMinMaxScaler(decay=0, buffer_size=1)

    def enable_ema(self, decay, buffer_size=None):
        self.scaler.reset(decay=decay, buffer_size=buffer_size)

    def minmax_normalize_chw(self, depth, return_minmax=False):
        return self.scaler(depth, return_minmax=return_minmax)


# python -m iw3 ... --gpu 0 1 --ema-normalize: DeviceSwitchInference alternates cuda:0 / cuda:1
depth_model = BaseDepthModel()
depth_model.enable_ema(decay=0.75, buffer_size=1)
depth0 = torch.rand(1, 64, 64, device="cuda:0")     # depth of frame 0, inferred on cuda:0
normalized0 = depth_model.minmax_normalize_chw(depth0)
depth1 = torch.rand(1, 64, 64, device="cuda:1")     # depth of frame 1, inferred on cuda:1
'''
CELL = '''
normalized1 = depth_model.minmax_normalize_chw(depth1)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["minmax_normalize"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "    # TODO: Fix this inversion `1 - value`\n",
    "    # TODO: Fix this inversion `1 - value`\n"
    "    if torch.is_tensor(min_value):\n"
    "        min_value = min_value.to(frame.device)\n"
    "        max_value = max_value.to(frame.device)\n",
)
CLEAN = False
