"""torchsurv KaplanMeierEstimator (with `device`): a CPU-fitted censoring curve queried with GPU times moves them to its own device.

Source: https://github.com/Novartis/torchsurv/blob/main/src/torchsurv/stats/kaplan_meier.py
Since "KM device" (#114) the estimator takes `device=` (default CPU), stores `event`/`time` on it and
`predict` starts with `new_time = new_time.to(self.device)`, building its `-inf`/`1.0` padding with
`device=self.device`. A censoring curve fitted on the CPU can therefore be queried with times that
live on the GPU: the weights come back on the CPU and the user moves them to the GPU explicitly.
Look-alike: CPU estimator state next to cuda times and a cuda loss; nothing mixes.
Stand-in: `_compute_counts` vectorised for tie-free times; the left-limit lookup of `predict`
reduced to searchsorted + gather.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch

class KaplanMeierEstimator:
    """Stand-in for torchsurv.stats.kaplan_meier.KaplanMeierEstimator (0.1.6)."""

    def __init__(self, device=None):
        self.device = torch.device("cpu") if device is None else torch.device(device)

    def __call__(self, event, time, censoring_dist=False):
        self.event = event.to(self.device)
        self.time = time.to(self.device)
        uniq_times, n_events, n_at_risk, n_censored = self._compute_counts()
        if censoring_dist:
            n_at_risk = n_at_risk - n_events
            n_events = n_censored
        ratio = torch.where(n_events != 0, n_events / n_at_risk,
                            torch.zeros_like(n_events, dtype=torch.float))
        self.time = uniq_times
        self.km_est = torch.cumprod(1.0 - ratio, dim=0)

    def _compute_counts(self):
        n_samples = len(self.event)
        times, order = torch.sort(self.time)
        n_events = self.event.long().gather(0, order)
        n_at_risk = n_samples - torch.arange(n_samples, device=self.device)
        return times, n_events, n_at_risk, 1 - n_events

    def predict(self, new_time):
        # Ensure new_time is on the correct device
        new_time = new_time.to(self.device)
        ref_time = torch.cat((-torch.tensor([torch.inf], device=self.device, dtype=self.time.dtype), self.time), dim=0)
        km_est_ = torch.cat((torch.ones(1, device=self.device, dtype=self.km_est.dtype), self.km_est))
        idx = torch.searchsorted(ref_time, new_time, right=True) - 1
        return km_est_.gather(0, idx)

device = torch.device("cuda:0")
n = 64
event_train = torch.randint(0, 2, (n,)).bool()
time_train = torch.rand(n) * 100
km = KaplanMeierEstimator()                     # censoring distribution kept on the CPU
km(event_train, time_train, censoring_dist=True)
time_batch = torch.rand(32, device=device) * 90
sq_err = torch.rand(32, device=device)          # per-subject Brier terms computed on the GPU
'''
CELL = '''
ct = km.predict(time_batch)                      # CPU result
ipcw = (1.0 / ct.clamp(min=1e-8)).to(device)
weighted_brier = (ipcw * sq_err).mean()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
