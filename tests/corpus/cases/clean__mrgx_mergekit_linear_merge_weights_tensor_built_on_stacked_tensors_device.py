"""Look-alike: mergekit's linear merge builds its per-model weight tensor from Python floats with the stacked tensors' dtype and device.

Source: https://github.com/arcee-ai/mergekit/blob/main/mergekit/merge_methods/linear.py
`LinearMergeTask.execute` gets the gathered tensors on the accelerator (`uses_accelerator()` is
True), stacks them and creates `weights = torch.tensor(weights, dtype=tensors.dtype,
device=tensors.device)` from the YAML's plain float weights, so the mixing coefficients start as
Python numbers and never sit on the CPU beside the GPU tensors.
Stand-in: the task as a plain class (no pydantic `Task` base, no `MergeTensorInput` graph node);
`rectify_embed_sizes` leaves non-embedding tensors alone; the gathered tensors are two fp16 model
weights already moved to "cuda:0".
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch

def rectify_embed_sizes(weight_info, tensors):
    if not weight_info.get("is_embed", False):
        return

class LinearMergeTask:
    def __init__(self, tensor_parameters, normalize, weight_info):
        self.tensor_parameters = tensor_parameters
        self.normalize = normalize
        self.weight_info = weight_info

    def uses_accelerator(self):
        return True

    def execute(self, tensors, **_kwargs):
        keys = list(tensors.keys())

        tensors = [tensors[key] for key in keys]
        weights = [self.tensor_parameters[key]["weight"] for key in keys]

        rectify_embed_sizes(self.weight_info, tensors)

        unique_shapes = set(t.shape for t in tensors)
        if len(unique_shapes) != 1:
            raise RuntimeError(
                f"Tensor size mismatch for {self.weight_info['name']}, sizes: {list(unique_shapes)}"
            )

        tensors = torch.stack(tensors, dim=0)
        weights = torch.tensor(weights, dtype=tensors.dtype, device=tensors.device)
        while len(weights.shape) < len(tensors.shape):
            weights.unsqueeze_(-1)

        res = (weights * tensors).sum(dim=0)
        if self.normalize:
            res = res / weights.sum(dim=0)
        return res

weight_info = {"name": "model.layers.0.mlp.down_proj.weight", "is_embed": False}
tensor_parameters = {"mistral-7b-instruct": {"weight": 0.6}, "openhermes-2.5": {"weight": 0.4}}
gathered = {
    "mistral-7b-instruct": torch.randn(16, 32).half().to("cuda:0"),
    "openhermes-2.5": torch.randn(16, 32).half().to("cuda:0"),
}
task = LinearMergeTask(tensor_parameters, normalize=True, weight_info=weight_info)
'''
CELL = '''
merged = task.execute(gathered)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
