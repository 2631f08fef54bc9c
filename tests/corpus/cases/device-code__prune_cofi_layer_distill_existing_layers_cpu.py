"""CoFi pruning layer distillation (v4): `existing_layers` built from `head_layer_z.detach().cpu()` meets GPU indexes.

Source: https://github.com/princeton-nlp/CoFiPruning/issues/12
In `CoFiTrainer.calculate_layer_distillation_loss` the `existing_layers` tensor is on the CPU (the trainer
takes `zs["head_layer_z"].detach().cpu()`) while `indexes` (sorted from `layerwiseloss`, computed from the
GPU hidden states) are on the GPU, so `(indexes < last_aligned_layer) & existing_layers` throws. The
maintainer confirmed the bug and moved it with `existing_layers.to(layerwiseloss)`, corrected in the thread
to `existing_layers.to(layerwiseloss.device)` (a float tensor breaks the `&`).
Stand-in: CoFiTrainer reduced to `calculate_layer_distillation_loss` (layer_distill_version 4); the first
allowed layer `indexes[mask][0]` and `layerwiseloss[layerwise, alignment]` are written with where/gather
so they need no host sync.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class AdditionalArguments:
    do_layer_distill = True
    layer_distill_version = 4

class CoFiBertForSequenceClassification(nn.Module):
    def __init__(self, hidden=32, num_layers=12):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(hidden, hidden) for _ in range(num_layers)])
        self.layer_transformation = nn.Linear(hidden, hidden)
        self.classifier = nn.Linear(hidden, 2)

    def forward(self, x):
        hidden_states = [x]
        for layer in self.layers:
            x = torch.tanh(layer(x))
            hidden_states.append(x)
        logits = self.classifier(x.select(1, 0))
        return (None, logits, tuple(hidden_states))

class CoFiTrainer:
    def __init__(self, model, teacher_model, additional_args):
        self.model = model
        self.teacher_model = teacher_model
        self.additional_args = additional_args

    def calculate_layer_distillation_loss(self, teacher_outputs, student_outputs, zs):
        mse_loss = torch.nn.MSELoss(reduction="mean")
        if self.additional_args.do_layer_distill:
            mlp_z = None
            head_layer_z = None
            if "mlp_z" in zs:
                mlp_z = zs["mlp_z"].detach().cpu()
            if "head_layer_z" in zs:
                head_layer_z = zs["head_layer_z"].detach().cpu()

            teacher_layer_output = teacher_outputs[2][1:]
            student_layer_output = student_outputs[2][1:]

            l = []
            specified_teacher_layers = [2, 5, 8, 11]
            transformed_s_layer_o = [self.model.layer_transformation(s_layer_o) for s_layer_o in student_layer_output]
            specified_teacher_layer_reps = [teacher_layer_output[i] for i in specified_teacher_layers]

            device = transformed_s_layer_o[0].device
            for t_layer_o in specified_teacher_layer_reps:
                for i, s_layer_o in enumerate(transformed_s_layer_o):
                    l.append(mse_loss(t_layer_o, s_layer_o))
            layerwiseloss = torch.stack(l).reshape(len(specified_teacher_layer_reps), len(student_layer_output))

            existing_layers = None
            if head_layer_z is not None:
                existing_layers = head_layer_z != 0

            layer_loss = 0
            last_aligned_layer = torch.tensor(12, device=device)
            alignment = []
            for search_index in range(3, -1, -1):
                indexes = layerwiseloss.select(0, search_index).sort()[1]
                if existing_layers is not None:
                    keep = (indexes < last_aligned_layer) & existing_layers
                else:
                    keep = indexes < last_aligned_layer
                n = indexes.shape[0]
                first = torch.where(keep, torch.arange(n, device=device), n).min().clamp(max=n - 1)
                align = torch.where(keep.any(), indexes.gather(0, first.reshape(1)).squeeze(0), last_aligned_layer)
                alignment.append(align)
                last_aligned_layer = align
            alignment.reverse()
            alignment = torch.stack(alignment).to(device)
            layer_loss += layerwiseloss.gather(1, alignment.reshape(-1, 1)).sum()
            return layer_loss
        return None

device = torch.device("cuda:0")
model = CoFiBertForSequenceClassification().to(device)
teacher_model = CoFiBertForSequenceClassification().to(device)
trainer = CoFiTrainer(model, teacher_model, AdditionalArguments())
inputs = torch.randn(8, 16, 32, device=device)
zs = {"head_layer_z": torch.ones(12, device=device), "mlp_z": torch.ones(12, device=device)}
'''
CELL = '''
with torch.no_grad():
    teacher_outputs = teacher_model(inputs)
student_outputs = model(inputs)
distill_loss = trainer.calculate_layer_distillation_loss(teacher_outputs, student_outputs, zs)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["trainer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("existing_layers = head_layer_z != 0\n",
                  "existing_layers = head_layer_z != 0\n                existing_layers = existing_layers.to(layerwiseloss.device)\n")
CLEAN = False
