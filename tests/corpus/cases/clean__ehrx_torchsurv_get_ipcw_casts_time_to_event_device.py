"""torchsurv get_ipcw (0.1.7+): CUDA `event` with CPU `time` — the function casts time to the event's device and fits its KM estimator there.

Source: https://github.com/Novartis/torchsurv/blob/main/src/torchsurv/stats/ipcw.py
Since the IPCW device fix, `get_ipcw` takes `device = event.device`; if `time` or `new_time` is
elsewhere it warns ("Not all tensors on same device ... Casting to event device") and moves them, then
builds `KaplanMeierEstimator(device=device)`, which moves its inputs and creates its padding on that
device. Here the event indicators come from the GPU batch while the follow-up times stay on the CPU.
Look-alike: two input tensors on different devices that the function reconciles on purpose.
Stand-in: the estimator with tie-free counts and `predict` reduced to searchsorted + gather, as in the
get_ipcw bug case of this set; `ipcw[mask] = ...` is written with `torch.where` (boolean-mask
indexing has a data-dependent shape the CPU simulation cannot run); input checks left out.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import warnings
import torch

class KaplanMeierEstimator:
    """Stand-in for torchsurv.stats.kaplan_meier.KaplanMeierEstimator."""

    def __init__(self, device=None):
        self.device = torch.device("cpu") if device is None else torch.device(device)

    def __call__(self, event, time, censoring_dist=False, check=True):
        self.event = event.to(self.device)
        self.time = time.to(self.device)
        uniq_times, n_events, n_at_risk, n_censored = self._compute_counts()
        if censoring_dist:
            n_at_risk = n_at_risk - n_events
            n_events = n_censored
        ratio = torch.where(n_events != 0, n_events / n_at_risk.clamp(min=1),
                            torch.zeros_like(n_events, dtype=torch.float))
        self.time = uniq_times
        self.km_est = torch.cumprod(1.0 - ratio, dim=0)

    def _compute_counts(self):
        n_samples = self.event.shape[0]
        times, order = torch.sort(self.time)
        n_events = self.event.long().gather(0, order)
        n_at_risk = n_samples - torch.arange(n_samples, device=self.device)
        return times, n_events, n_at_risk, 1 - n_events

    def predict(self, new_time):
        new_time = new_time.to(self.device)
        ref_time = torch.cat((-torch.tensor([torch.inf], device=self.device, dtype=self.time.dtype),
                              self.time), dim=0)
        km_est_ = torch.cat((torch.ones(1, device=self.device, dtype=self.km_est.dtype), self.km_est))
        idx = torch.searchsorted(ref_time, new_time, right=True) - 1
        return km_est_.gather(0, idx.clamp(min=0))


def _inverse_censoring_dist(ct):
    return torch.ones_like(ct) / ct


def get_ipcw(event, time, new_time=None, checks=True):
    """Stand-in for torchsurv.stats.ipcw.get_ipcw (after the device fix)."""
    if new_time is None:
        new_time = time

    device = event.device
    if time.device != device or new_time.device != device:
        warnings.warn(
            f"Not all tensors on same device. Got event: {device}, time: {time.device}, "
            f"new_time: {new_time.device}. Casting to event device: {device}",
            stacklevel=2,
        )
        time = time.to(device)
        new_time = new_time.to(device)

    km = KaplanMeierEstimator(device=device)
    km(event, time, censoring_dist=True)
    ct = km.predict(new_time)

    mask = ct > 0
    ipcw = torch.zeros_like(new_time, dtype=time.dtype)
    ipcw = torch.where(mask, _inverse_censoring_dist(ct), ipcw)   # ipcw[mask] = ...(ct[mask])
    return ipcw

device = torch.device("cuda:0")
n = 200
event = torch.randint(0, 2, (n,)).bool().to(device)     # from the GPU batch
time = torch.rand(n) * 365.0                             # follow-up days, still on the CPU
'''
CELL = '''
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    ipcw = get_ipcw(event, time)
weighted_events = event.float() * ipcw
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
