"""AutoGluon NN_TORCH on a GPU: `EmbedNet.compute_loss` casts the label with `.type(torch.LongTensor)`, which moves it back to the CPU.

Source: https://github.com/autogluon/autogluon/pull/1524
Fitting `NeuralNetTorch` on a GPU box failed with "Expected all tensors to be on the same device, but
found at least two devices, cuda:0 and cpu! (when checking argument for argument target in method
wrapper_nll_loss_forward)". The PR explains that the code casts with the CPU tensor type: the label is
first moved with `.to(self.device)`, then `target_data.type(torch.LongTensor)` copies it to the CPU.
The fix casts with `target_data.type(torch.long)`.
Stand-in: AutoGluon's EmbedNet (tabular_nn/torch/torch_network_modules.py) reduced to the embedding
blocks, the MLP main block and `compute_loss` for a multiclass problem; the batch dict is the one its
TabularTorchDataset yields (vector features, a list of categorical code columns, label).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
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
            target_data = target_data.type(torch.LongTensor)  # Windows default int type is int32. Need to explicit convert to Long.
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
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("target_data = target_data.type(torch.LongTensor)", "target_data = target_data.type(torch.long)")
CLEAN = False
