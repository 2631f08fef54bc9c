"""PyTorch's Mario DDQN tutorial: the replay batch is sampled from CPU storage and fed to the GPU network.

Source: https://github.com/pytorch/tutorials/pull/2464
"[BugFix] Fix Mario device error": after the tutorial's agent switched its deque memory to a TorchRL
`TensorDictReplayBuffer(storage=LazyMemmapStorage(100000, device=torch.device("cpu")))` (PR #2381),
`mario.learn()` failed in `td_estimate` at `self.net(state, model="online")` inside the first Conv2d:
`recall()` returned the sampled batch on the storage's CPU while `MarioNet` sits on `self.device`
(cuda). The fix samples then moves the batch, `self.memory.sample(self.batch_size).to(self.device)`, as
the tutorial reads today. Stand-in: minimal `TensorDict`, `LazyMemmapStorage` and
`TensorDictReplayBuffer`, the tutorial's `MarioNet` and the `Mario` agent (cache/recall/td_estimate
merged into one class), stacked 4x84x84 frames. On a GPU the conv raises "Input type
(torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same"; the CPU simulation
reports the mismatch at the first Linear layer instead.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import numpy as np
import torch
from torch import nn

class TensorDict:
    """tensordict.TensorDict stand-in: a dict of tensors with a batch size."""
    def __init__(self, source, batch_size):
        self._data = dict(source)
        self.batch_size = torch.Size(batch_size)

    def get(self, key):
        return self._data[key]

    def __getitem__(self, key):
        return self._data[key]

    def keys(self):
        return self._data.keys()

    def to(self, device):
        return TensorDict({k: v.to(device) for k, v in self._data.items()}, self.batch_size)

class LazyMemmapStorage:
    """torchrl.data.LazyMemmapStorage stand-in: allocated on `device` at the first write."""
    def __init__(self, max_size, device="cpu"):
        self.max_size = max_size
        self.device = torch.device(device)
        self._storage = None
        self._len = 0

    def add(self, td):
        if self._storage is None:
            self._storage = {k: torch.zeros((self.max_size, *v.shape), dtype=v.dtype, device=self.device)
                             for k, v in td._data.items()}
        idx = self._len % self.max_size
        for k, v in td._data.items():
            self._storage[k][idx] = v.to(self.device)
        self._len += 1

    def get(self, index):
        return TensorDict({k: v[index] for k, v in self._storage.items()}, batch_size=[len(index)])

    def __len__(self):
        return min(self._len, self.max_size)

class TensorDictReplayBuffer:
    def __init__(self, storage):
        self._storage = storage

    def add(self, td):
        self._storage.add(td)

    def sample(self, batch_size):
        index = torch.randint(0, len(self._storage), (batch_size,))
        return self._storage.get(index)

class MarioNet(nn.Module):
    """mini CNN structure: input -> (conv2d + relu) x 3 -> flatten -> (dense + relu) x 2 -> output"""
    def __init__(self, input_dim, output_dim):
        super().__init__()
        c, h, w = input_dim
        self.online = self.__build_cnn(c, output_dim)
        self.target = self.__build_cnn(c, output_dim)
        self.target.load_state_dict(self.online.state_dict())
        for p in self.target.parameters():
            p.requires_grad = False

    def forward(self, input, model):
        if model == "online":
            return self.online(input)
        elif model == "target":
            return self.target(input)

    def __build_cnn(self, c, output_dim):
        return nn.Sequential(
            nn.Conv2d(in_channels=c, out_channels=32, kernel_size=8, stride=4), nn.ReLU(),
            nn.Conv2d(in_channels=32, out_channels=64, kernel_size=4, stride=2), nn.ReLU(),
            nn.Conv2d(in_channels=64, out_channels=64, kernel_size=3, stride=1), nn.ReLU(),
            nn.Flatten(), nn.Linear(3136, 512), nn.ReLU(), nn.Linear(512, output_dim))

class Mario:
    def __init__(self, state_dim, action_dim, save_dir=None):
        self.state_dim = state_dim
        self.action_dim = action_dim
        self.device = "cuda:0"                     # "cuda" if torch.cuda.is_available() else "cpu"
        self.net = MarioNet(self.state_dim, self.action_dim).float()
        self.net = self.net.to(device=self.device)
        self.memory = TensorDictReplayBuffer(storage=LazyMemmapStorage(100000, device=torch.device("cpu")))
        self.batch_size = 32
        self.gamma = 0.9

    def cache(self, state, next_state, action, reward, done):
        state = torch.tensor(state)
        next_state = torch.tensor(next_state)
        action = torch.tensor([action])
        reward = torch.tensor([reward])
        done = torch.tensor([done])
        self.memory.add(TensorDict({"state": state, "next_state": next_state, "action": action,
                                    "reward": reward, "done": done}, batch_size=[]))

    def recall(self):
        batch = self.memory.sample(self.batch_size)
        state, next_state, action, reward, done = (batch.get(key) for key in ("state", "next_state", "action", "reward", "done"))
        return state, next_state, action.squeeze(), reward.squeeze(), done.squeeze()

    def td_estimate(self, state, action):
        current_Q = self.net(state, model="online")[np.arange(0, self.batch_size), action]
        return current_Q

mario = Mario(state_dim=(4, 84, 84), action_dim=5)
rng = np.random.default_rng(0)
for _ in range(40):                                   # env.step() loop: FrameStack(4) of 84x84 frames
    frames = rng.random((4, 84, 84), dtype=np.float32)
    next_frames = rng.random((4, 84, 84), dtype=np.float32)
    mario.cache(frames, next_frames, int(rng.integers(5)), float(rng.random()), False)
'''
CELL = '''
state, next_state, action, reward, done = mario.recall()     # mario.learn(): sample from memory
q_online = mario.net(state, model="online")                   # first step of mario.td_estimate(state, action)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device",
                "Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor)")
CULPRITS = ["mario"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("batch = self.memory.sample(self.batch_size)",
                  "batch = self.memory.sample(self.batch_size).to(self.device)")
CLEAN = False
