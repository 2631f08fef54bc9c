"""Look-alike: task arithmetic skips the integer entries of the state dict (GPT-2's uint8 causal-mask `attn.bias`, int64 ids) instead of subtracting them.

Source: https://github.com/mlfoundations/task_vectors/blob/main/src/task_vectors.py
`TaskVector.__init__` builds `finetuned - pretrained` only for floating entries
(`if pretrained_state_dict[key].dtype in [torch.int64, torch.uint8]: continue`); `apply_to` then adds
`scaling_coef * vector` to the keys the vector holds, warns for the others, and loads with
`strict=False`, so the integer buffers keep their pretrained values and no float scaling ever
touches an integer tensor.
Stand-in: the class as upstream with `torch.load(checkpoint)` replaced by `load_checkpoint`, which
rebuilds a tiny GPT-2-like module (float weights plus a uint8 `attn.bias` mask and an int64
`position_ids` buffer) for a given seed.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class TinyGPT2Block(nn.Module):
    def __init__(self, n=8):
        super().__init__()
        self.c_attn = nn.Linear(n, 3 * n)
        self.c_proj = nn.Linear(n, n)
        self.register_buffer("bias", torch.tril(torch.ones(4, 4, dtype=torch.uint8)).view(1, 1, 4, 4))
        self.register_buffer("position_ids", torch.arange(4))

def load_checkpoint(seed):
    torch.manual_seed(seed)
    return TinyGPT2Block()

class TaskVector:
    def __init__(self, pretrained_checkpoint=None, finetuned_checkpoint=None, vector=None):
        if vector is not None:
            self.vector = vector
        else:
            assert pretrained_checkpoint is not None and finetuned_checkpoint is not None
            with torch.no_grad():
                pretrained_state_dict = load_checkpoint(pretrained_checkpoint).state_dict()
                finetuned_state_dict = load_checkpoint(finetuned_checkpoint).state_dict()
                self.vector = {}
                for key in pretrained_state_dict:
                    if pretrained_state_dict[key].dtype in [torch.int64, torch.uint8]:
                        continue
                    self.vector[key] = finetuned_state_dict[key] - pretrained_state_dict[key]

    def __add__(self, other):
        with torch.no_grad():
            new_vector = {}
            for key in self.vector:
                if key not in other.vector:
                    print(f"Warning, key {key} is not present in both task vectors.")
                    continue
                new_vector[key] = self.vector[key] + other.vector[key]
        return TaskVector(vector=new_vector)

    def __radd__(self, other):
        if other is None or isinstance(other, int):
            return self
        return self.__add__(other)

    def __neg__(self):
        with torch.no_grad():
            new_vector = {}
            for key in self.vector:
                new_vector[key] = -self.vector[key]
        return TaskVector(vector=new_vector)

    def apply_to(self, pretrained_checkpoint, scaling_coef=1.0):
        with torch.no_grad():
            pretrained_model = load_checkpoint(pretrained_checkpoint)
            new_state_dict = {}
            pretrained_state_dict = pretrained_model.state_dict()
            for key in pretrained_state_dict:
                if key not in self.vector:
                    print(f"Warning: key {key} is present in the pretrained state dict but not in the task vector")
                    continue
                new_state_dict[key] = pretrained_state_dict[key] + scaling_coef * self.vector[key]
        pretrained_model.load_state_dict(new_state_dict, strict=False)
        return pretrained_model

pretrained_checkpoint = 0
finetuned_checkpoints = [1, 2]
'''
CELL = '''
task_vectors = [TaskVector(pretrained_checkpoint, ckpt) for ckpt in finetuned_checkpoints]
task_vector_sum = sum(task_vectors)
neg_task_vector = -task_vectors[0]
multitask_model = task_vector_sum.apply_to(pretrained_checkpoint, scaling_coef=0.4)
forget_model = neg_task_vector.apply_to(pretrained_checkpoint, scaling_coef=0.5)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
