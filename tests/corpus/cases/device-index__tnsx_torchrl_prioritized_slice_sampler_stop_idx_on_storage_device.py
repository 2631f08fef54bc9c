"""TorchRL PrioritizedSliceSampler over a CUDA storage: `stop_idx` is on the GPU, the sampled `index` on the CPU.

Source: https://github.com/pytorch/rl/issues/2207
"Device Error in PrioritizedSliceSampler.sample()": with `storage=LazyTensorStorage(20,
device=torch.device("cuda"))`, `rb.sample()` failed in the `terminated` computation,
`index[:, 0].unsqueeze(0) == stop_idx[:, 0].unsqueeze(1)`: `stop_idx` is derived from the stored
trajectory ids (storage device, GPU) while `index` comes from the CPU sum tree. The reporter's fix:
`.to(index.device)` on the `stop_idx` side. Stand-ins: TensorDict, LazyTensorStorage, ReplayBuffer
and the sampler reduced to this path; the CPU sum tree is a `torch.multinomial` over CPU
priorities; `stop_idx` is computed from the stored trajectory ids on the storage device with
shape-static ops (positions of trajectory ends, -1 elsewhere, instead of `end.nonzero()`), and
`stop_idx[:, 0]` is written `stop_idx.select(1, 0)` (same tensor).
"""

SIM = "fake_cuda"
FAMILY = "device-index"
SETUP = '''
import torch

class TensorDict:
    """tensordict.TensorDict, reduced."""
    def __init__(self, source, batch_size=()):
        self._tensordict = dict(source)
        self.batch_size = torch.Size(batch_size)
    def __getitem__(self, key):
        return self._tensordict[key]
    def items(self):
        return self._tensordict.items()

class LazyTensorStorage:
    """torchrl.data.LazyTensorStorage, reduced: tensors allocated on `device` at the first extend."""
    def __init__(self, max_size, device="cpu"):
        self.max_size = max_size
        self.device = torch.device(device)
        self._storage = None
        self._len = 0
    def set(self, data):
        n = data.batch_size[0]
        self._storage = {k: v.to(self.device) for k, v in data.items()}
        self._len = n
    def get(self, index):
        idx = index.to(self.device)
        return TensorDict({k: torch.index_select(v, 0, idx) for k, v in self._storage.items()},
                          batch_size=idx.shape)
    def __len__(self):
        return self._len

class PrioritizedSliceSampler:
    """torchrl.data.replay_buffers.samplers.PrioritizedSliceSampler, reduced to sample()."""
    def __init__(self, max_capacity, num_slices, traj_key, strict_length=True, alpha=1.0, beta=1.0,
                 truncated_key=("next", "truncated")):
        self.max_capacity = max_capacity
        self.num_slices = num_slices
        self.traj_key = traj_key
        self.strict_length = strict_length
        self._alpha = alpha
        self._beta = beta
        self.truncated_key = truncated_key
        self._sum_tree = torch.ones(max_capacity)          # the sum tree lives on the CPU

    def _get_stop_and_length(self, storage):
        trajectory = storage._storage[self.traj_key]
        # end of each trajectory, computed from the stored ids: on the storage device
        n = trajectory.shape[0]
        pos = torch.arange(n, device=trajectory.device)
        end = (trajectory != trajectory.roll(-1, 0)) | (pos == n - 1)
        stop_idx = torch.where(end, pos, -1).unsqueeze(-1)
        return stop_idx

    def sample(self, storage, batch_size):
        seq_length = batch_size // self.num_slices
        stop_idx = self._get_stop_and_length(storage)
        priorities = self._sum_tree[: len(storage) - seq_length + 1] ** self._alpha
        starts = torch.multinomial(priorities, self.num_slices)              # CPU
        index = (starts.unsqueeze(1) + torch.arange(seq_length)).reshape(-1, 1)
        info = {"_weight": torch.ones(index.shape[0])}
        truncated = torch.zeros((index.shape[0], 1), dtype=torch.bool, device=index.device)
        truncated.view(self.num_slices, -1)[:, -1] = 1
        terminated = (
            (index[:, 0].unsqueeze(0) == stop_idx.select(1, 0).unsqueeze(1))
            .any(0)
            .unsqueeze(1)
        )
        done = terminated | truncated
        info.update({"truncated": truncated, "done": done, "terminated": terminated})
        return index.to(torch.long).unbind(-1), info

class ReplayBuffer:
    """torchrl.data.ReplayBuffer, reduced."""
    def __init__(self, sampler, storage, batch_size):
        self._sampler = sampler
        self._storage = storage
        self._batch_size = batch_size
    def extend(self, data):
        self._storage.set(data)
    def sample(self):
        index, info = self._sampler.sample(self._storage, self._batch_size)
        return self._storage.get(index[0])

torch.manual_seed(0)
sampler = PrioritizedSliceSampler(
    max_capacity=20,
    num_slices=2,
    traj_key="trajectory",
    strict_length=True,
    alpha=1.0,
    beta=1.0,
)
trajectory = torch.tensor([3, 3, 0, 1, 1, 1, 2, 2, 2, 3])
td = TensorDict({"trajectory": trajectory, "steps": torch.arange(10)}, [10])
rb = ReplayBuffer(
    sampler=sampler,
    storage=LazyTensorStorage(20, device=torch.device("cuda:0")),
    batch_size=6,
)
rb.extend(td)
'''
CELL = '''
traj = rb.sample()["trajectory"]
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["sampler"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("stop_idx.select(1, 0).unsqueeze(1))", "stop_idx.select(1, 0).unsqueeze(1).to(index.device))")
CLEAN = False
