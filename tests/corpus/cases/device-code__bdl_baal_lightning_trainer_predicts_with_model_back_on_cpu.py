"""BaaL's PyTorch Lightning example on a GPU: after `trainer.fit` the model is back on the CPU, but `predict_on_dataset_generator` sends the pool batches to CUDA for MC-dropout inference.

Source: https://github.com/baal-org/baal/issues/79
"Tensor type error while running the PyTorch Lightning example with CUDA": the active-learning
step crashed in `mc_inference` at `out = model(data)` — the pool batch had been sent to CUDA by
`BaalTrainer.predict_on_dataset_generator` (`if self.on_gpu: data = to_cuda(data)`) while the
module was on the CPU at prediction time (Lightning leaves it there after `fit`). The maintainers'
fix (PR #80, "Put model on GPU before predicting and back to CPU after") adds
`if self.on_gpu: model.cuda(self.root_gpu)` before the loop. Stand-in: BaalTrainer with a `fit` that
trains on the GPU and moves the module back to the CPU at teardown, `ActiveLearningMixin.predict_step`
→ `mc_inference` (replicate_in_memory, with its RuntimeError re-raise) as in baal 1.2, the pool
predictions kept as tensors (no `.numpy()` in the simulation), `.cuda(i)` written `.to(f"cuda:{i}")`;
VGG16 reduced to a dropout MLP on flattened images.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
from types import SimpleNamespace
import torch
from torch import nn
from torch.utils.data import TensorDataset

def to_cuda(data):
    return data.to("cuda:0")

def map_on_tensor(fn, val):
    if isinstance(val, (list, tuple)):
        return [fn(v) for v in val]
    return fn(val)

def mc_inference(model, data, iterations, replicate_in_memory):
    input_shape = data.size()
    batch_size = input_shape[0]
    data = torch.stack([data] * iterations)
    data = data.view(batch_size * iterations, *input_shape[1:])
    try:
        out = model(data)
    except RuntimeError as e:
        raise RuntimeError(
            """CUDA ran out of memory while BaaL tried to replicate data. See the exception above.
        Use `replicate_in_memory=False` in order to reduce the memory requirements.
        Note that there will be some speed trade-offs""") from e
    out = map_on_tensor(lambda o: o.view([iterations, batch_size, *o.size()[1:]]), out)
    out = map_on_tensor(lambda o: o.permute(1, 2, *range(3, o.ndimension()), 0), out)
    return out

class PoolLoader:
    """Stand-in for the pool DataLoader: sequential CPU batches."""
    def __init__(self, dataset, batch_size):
        self.dataset, self.batch_size = dataset, batch_size
    def __len__(self):
        return (len(self.dataset) + self.batch_size - 1) // self.batch_size
    def __iter__(self):
        for i in range(0, len(self.dataset), self.batch_size):
            yield tuple(t[i:i + self.batch_size] for t in self.dataset.tensors)

class VGG16(nn.Module):
    """The example's LightningModule with baal's ActiveLearningMixin (VGG16 reduced to an MLP)."""
    def __init__(self, pool, hparams):
        super().__init__()
        self.pool = pool
        self.hparams = hparams
        self.vgg16 = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 64), nn.ReLU(),
                                   nn.Dropout(0.5), nn.Linear(64, 10))
    def forward(self, x):
        return self.vgg16(x)
    def pool_loader(self):
        return PoolLoader(self.pool, self.hparams.batch_size)
    def predict_step(self, data, batch_idx):
        out = mc_inference(self, data, self.hparams.iterations, self.hparams.replicate_in_memory)
        return out

class BaalTrainer:
    """Stand-in for baal.utils.pytorch_lightning.BaalTrainer (a Lightning Trainer)."""
    def __init__(self, max_epochs=3, gpus=1):
        self.max_epochs = max_epochs
        self.on_gpu = gpus > 0
        self.root_gpu = 0
        self.model = None
    def get_model(self):
        return self.model
    def fit(self, model):
        self.model = model
        if self.on_gpu:
            model.to(f"cuda:{self.root_gpu}")   # training runs on the GPU ...
        model.cpu()                             # ... and Lightning's teardown moves the module back
    def predict_on_dataset_generator(self, *args, **kwargs):
        model = self.get_model()
        model.eval()
        dataloader = self.model.pool_loader()
        if len(dataloader) == 0:
            return None
        for idx, (data, _) in enumerate(dataloader):
            if self.on_gpu:
                data = to_cuda(data)
            pred = self.model.predict_step(data, idx)
            yield map_on_tensor(lambda x: x.detach().cpu(), pred)
    def predict_on_dataset(self, *args, **kwargs):
        return list(self.predict_on_dataset_generator())

class ActiveLearningLoop:
    """Stand-in for baal.active.ActiveLearningLoop: predict on the pool, then label."""
    def __init__(self, dataset, get_probabilities, heuristic, ndata_to_label=10):
        self.dataset = dataset
        self.get_probabilities = get_probabilities
        self.heuristic = heuristic
        self.ndata_to_label = ndata_to_label
    def step(self):
        probs = self.get_probabilities()
        return len(probs) > 0

hparams = SimpleNamespace(batch_size=16, iterations=20, replicate_in_memory=True, n_gpus=1)
pool = TensorDataset(torch.randn(48, 3, 8, 8), torch.zeros(48, dtype=torch.long))
model = VGG16(pool, hparams)
trainer = BaalTrainer(max_epochs=3, gpus=hparams.n_gpus)
loop = ActiveLearningLoop(pool, trainer.predict_on_dataset, heuristic="BALD", ndata_to_label=10)
trainer.fit(model)
'''
CELL = '''
should_continue = loop.step()
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "should be the same",
                "CUDA ran out of memory while BaaL tried to replicate data")
CULPRITS = ["trainer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""        model.eval()
        dataloader = self.model.pool_loader()""",
                  """        model.eval()
        if self.on_gpu:
            model.to(f"cuda:{self.root_gpu}")
        dataloader = self.model.pool_loader()""")
CLEAN = False
