"""Tiny RoMa's balanced sampling: the KDE is hard-coded to half precision, but `sample` disables it off-GPU.

Source: https://github.com/Parskatt/RoMa/blob/main/romatch/models/tiny.py
Look-alike: `romatch.utils.kde.kde` casts the matches with `x.half()` by default (a "TODO: remove
hardcoding"), which looks like a Half/Float mix waiting to happen on a CPU run. `TinyRoMa.sample` passes
`half = use_half` with `use_half = True if matches.device.type == "cuda" else False` (and subsamples
the reference set with `down = 8` on the CPU), so on the CPU the density, the weights `p` and the
multinomial all stay float32. Stand-ins: the model reduced to its sampling settings; the warp and
certainty are random.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch


def kde(x, std = 0.1, half = True, down = None):
    # use a gaussian kernel to estimate density
    if half:
        x = x.half() # Do it in half precision TODO: remove hardcoding
    if down is not None:
        scores = (-torch.cdist(x,x[::down])**2/(2*std**2)).exp()
    else:
        scores = (-torch.cdist(x,x)**2/(2*std**2)).exp()
    density = scores.sum(dim=-1)
    return density


class TinyRoMa(torch.nn.Module):
    def __init__(self, sample_mode="threshold_balanced", sample_thresh=0.05):
        super().__init__()
        self.sample_mode = sample_mode
        self.sample_thresh = sample_thresh

    def sample(
        self,
        matches,
        certainty,
        num=5_000,
    ):
        H,W,_ = matches.shape
        if "threshold" in self.sample_mode:
            upper_thresh = self.sample_thresh
            certainty = certainty.clone()
            certainty[certainty > upper_thresh] = 1
        matches, certainty = (
            matches.reshape(-1, 4),
            certainty.reshape(-1),
        )
        expansion_factor = 4 if "balanced" in self.sample_mode else 1
        good_samples = torch.multinomial(certainty,
                        num_samples = min(expansion_factor*num, len(certainty)),
                        replacement=False)
        good_matches, good_certainty = matches[good_samples], certainty[good_samples]
        if "balanced" not in self.sample_mode:
            return good_matches, good_certainty
        use_half = True if matches.device.type == "cuda" else False
        down = 1 if matches.device.type == "cuda" else 8
        density = kde(good_matches, std=0.1, half = use_half, down = down)
        p = 1 / (density+1)
        p[density < 10] = 1e-7 # Basically should have at least 10 perfect neighbours, or around 100 ok ones
        balanced_samples = torch.multinomial(p,
                        num_samples = min(num,len(good_certainty)),
                        replacement=False)
        return good_matches[balanced_samples], good_certainty[balanced_samples]


model = TinyRoMa()
warp = torch.rand(60, 80, 4) * 2 - 1            # model.match(im_A, im_B) on the CPU
certainty = torch.rand(60, 80)
'''
CELL = '''
matches, match_certainty = model.sample(warp, certainty, num=500)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
