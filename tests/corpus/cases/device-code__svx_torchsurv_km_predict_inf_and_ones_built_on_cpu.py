"""torchsurv KaplanMeierEstimator.predict on the GPU: the `-inf` / `1.0` padding tensors are built on the CPU.

Source: https://github.com/Novartis/torchsurv/issues/113
The user fitted a Kaplan-Meier censoring estimator, pushed `km.time` and `km.km_est` to the GPU for
fast IPCW computations, and `predict` complained that tensors were not on the same device:
`torch.cat((-torch.tensor([torch.inf]), self.time))` and `torch.cat((torch.ones(1), self.km_est))`
create their padding on the CPU. The user's patch (adopted in "KM device", #114) builds both with
`device=...` of the estimator's tensors.
Stand-in: the estimator as of torchsurv 0.1.5 with `_compute_counts` vectorised for continuous
(tie-free) times, and the left-limit lookup of `predict` reduced to searchsorted + gather.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch

class KaplanMeierEstimator:
    """Stand-in for torchsurv.stats.kaplan_meier.KaplanMeierEstimator (0.1.5)."""

    def __call__(self, event, time, censoring_dist=False):
        self.event = event
        self.time = time
        uniq_times, n_events, n_at_risk, n_censored = self._compute_counts()
        if censoring_dist:
            n_at_risk = n_at_risk - n_events
            n_events = n_censored
        ratio = torch.where(n_events != 0, n_events / n_at_risk,
                            torch.zeros_like(n_events, dtype=torch.float))
        values = 1.0 - ratio
        self.time = uniq_times
        self.km_est = torch.cumprod(values, dim=0)

    def _compute_counts(self):
        n_samples = len(self.event)
        times, order = torch.sort(self.time)
        n_events = self.event.long().gather(0, order)
        n_at_risk = n_samples - torch.arange(n_samples)
        return times, n_events, n_at_risk, 1 - n_events

    def predict(self, new_time):
        # add probability of 1 of survival before time 0
        ref_time = torch.cat((-torch.tensor([torch.inf]), self.time), dim=0)
        km_est_ = torch.cat((torch.ones(1), self.km_est))
        idx = torch.searchsorted(ref_time, new_time, right=True) - 1
        return km_est_.gather(0, idx)

device = torch.device("cuda:0")
n = 64
event = torch.randint(0, 2, (n,)).bool()
time = torch.rand(n) * 100
km = KaplanMeierEstimator()
km(event, time, censoring_dist=True)
# push the fitted curve to the GPU for fast IPCW computations
km.time = km.time.to(device)
km.km_est = km.km_est.to(device)
new_time = torch.rand(256, device=device) * 90
'''
CELL = '''
ct = km.predict(new_time)
ipcw = 1.0 / ct.clamp(min=1e-8)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["km"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        ref_time = torch.cat((-torch.tensor([torch.inf]), self.time), dim=0)
        km_est_ = torch.cat((torch.ones(1), self.km_est))""",
                  """        ref_time = torch.cat((-torch.tensor([torch.inf], device=self.time.device), self.time), dim=0)
        km_est_ = torch.cat((torch.ones(1, device=self.km_est.device), self.km_est))""")
CLEAN = False
