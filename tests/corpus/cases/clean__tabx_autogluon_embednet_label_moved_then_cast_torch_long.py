"""AutoGluon NN_TORCH on a GPU: `EmbedNet.compute_loss` moves the CPU int32 label to `self.device`, then casts it with `.type(torch.long)`, which keeps it there.

Source: https://github.com/autogluon/autogluon/blob/master/tabular/src/autogluon/tabular/models/tabular_nn/torch/torch_network_modules.py
The TabularTorchDataset yields CPU batches (vector features, a list of categorical code columns,
the label as int32 on Windows); `forward` moves each part with `.to(self.device)` and `compute_loss`
moves the label, then casts it with the dtype `torch.long` (not the CPU type `torch.LongTensor`), so
the cross-entropy sees logits and targets on the same GPU.
Look-alike: CPU batch tensors and an int32 label fed to a GPU model; it runs.
Stand-in: EmbedNet reduced to the embedding blocks, the MLP main block and `compute_loss` for a
multiclass problem.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
import torch.nn as nn

BINARY, MULTICLASS, REGRESSION = "binary", "multiclass", "regression"

class EmbedNet(nn.Module):
    """Stand-in for autogluon.tabular.models.tabular_nn.torch.torch_network_modules.EmbedNet."""
    def __init__(self, problem_type, num_net_outputs, num_categs_per_feature, embed_dims,
                 vector_dims, hidden_size=128, num_layers=4, device=None):
        super().__init__()
        self.problem_type = problem_type
        self.device = torch.device("cpu") if device is None else device
        self.embed_blocks = nn.ModuleList()
        input_size = vector_dims
        for n_cat, dim in zip(num_categs_per_feature, embed_dims):
            self.embed_blocks.append(nn.Embedding(num_embeddings=n_cat, embedding_dim=dim))
            input_size += dim
        layers = [nn.Linear(input_size, hidden_size), nn.ReLU()]
        for _ in range(num_layers - 1):
            layers += [nn.Dropout(0.1), nn.Linear(hidden_size, hidden_size), nn.ReLU()]
        layers.append(nn.Linear(hidden_size, num_net_outputs))
        self.main_block = nn.Sequential(*layers)

    def forward(self, data_batch):
        input_data = [data_batch["vector"].to(self.device)]
        embed_data = data_batch["embed"]
        for i in range(len(self.embed_blocks)):
            input_data.append(self.embed_blocks[i](embed_data[i].to(self.device)))
        input_data = torch.cat(input_data, dim=1)
        return self.main_block(input_data)

    def compute_loss(self, data_batch, loss_function=None, gamma=None):
        predict_data = self(data_batch)
        target_data = data_batch["label"].to(self.device)
        if self.problem_type in [BINARY, MULTICLASS]:
            target_data = target_data.type(torch.long)  # Windows default int type is int32. Need to explicit convert to Long.
        target_data = target_data.flatten()
        if self.problem_type == REGRESSION:
            predict_data = predict_data.flatten()
        return loss_function(predict_data, target_data)

device = torch.device("cuda:0")
model = EmbedNet(problem_type=MULTICLASS, num_net_outputs=3, num_categs_per_feature=[7, 12],
                 embed_dims=[4, 6], vector_dims=5, device=device)
model = model.to(device)
loss_function = nn.CrossEntropyLoss()

data_batch = {
    "vector": torch.randn(64, 5),
    "embed": [torch.randint(0, 7, (64,)), torch.randint(0, 12, (64,))],
    "label": torch.randint(0, 3, (64,), dtype=torch.int32),
}
'''
CELL = '''
loss = model.compute_loss(data_batch, loss_function=loss_function)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
