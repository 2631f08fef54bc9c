"""torchsurv get_ipcw on CUDA tensors: the internal KaplanMeierEstimator is built with its default CPU device.

Source: https://github.com/Novartis/torchsurv/issues/145
With torchsurv 0.1.6, `get_ipcw(event, time)` on CUDA `event`/`time` failed with a device-mismatch
RuntimeError: "The internal KaplanMeierEstimator returns predictions on the CPU, causing a mismatch
when performing assignments to tensors initialized on the GPU" (`ipcw = zeros_like(new_time)` is on
the GPU). The fix (PR #146, merged as #147) passes the inputs' device to the estimator:
`kaplan_meier.KaplanMeierEstimator(device=device)` with `device = event.device`.
Stand-in: KaplanMeierEstimator 0.1.6 (`device` argument, defaulting to the CPU, inputs moved to it)
with tie-free counts and `predict` reduced to searchsorted + gather; the masked assignment
`ipcw[mask] = 1 / ct[mask]` is written as the equivalent `torch.where` (boolean-mask indexing has a
data-dependent shape the CPU simulation cannot run).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

class KaplanMeierEstimator:
    """Stand-in for torchsurv.stats.kaplan_meier.KaplanMeierEstimator (0.1.6)."""

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
        values = 1.0 - ratio
        self.time = uniq_times
        self.km_est = torch.cumprod(values, dim=0)

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
    """Stand-in for torchsurv.stats.ipcw.get_ipcw (0.1.6)."""
    if new_time is None:
        new_time = time

    # fit KM censoring estimator
    km = KaplanMeierEstimator()
    km(event, time, censoring_dist=True)

    # predict censoring distribution at time
    ct = km.predict(new_time)

    # calculate ipcw
    mask = ct > 0
    ipcw = torch.zeros_like(new_time, dtype=time.dtype)
    ipcw = torch.where(mask, _inverse_censoring_dist(ct), ipcw)   # ipcw[mask] = ...(ct[mask])
    return ipcw

device = torch.device("cuda:0")
event = torch.randint(0, 2, (100,)).to(device)
time = torch.rand(100).to(device)
'''
CELL = '''
ipcw = get_ipcw(event, time)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["get_ipcw"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("    km = KaplanMeierEstimator()\n",
                  "    km = KaplanMeierEstimator(device=event.device)\n")
CLEAN = False
