"""PLE (multi-gate mixture of experts) model: its gates are kept in plain Python lists, so `model.to(device)` leaves them on the CPU.

Source: https://github.com/easezyc/Multitask-Recommendation-Library/issues/7
"ple 不知道为什么会提示 tensor不在同一个设备" (PLE reports tensors on different devices). The contributor
of the PLE model answered that Python lists have to be wrapped in `torch.nn.ModuleList` so that the
submodules move with `to(device)`, and fixed it (commits "to device bug fix"): `self.task_gates` and
`self.share_gates` (lists of gating `Sequential`s, per layer and per task) were never registered; the
experts already were ModuleLists. Stand-in: the repository's PLEModel of that time, unchanged in
structure, with its EmbeddingLayer and MultiLayerPerceptron (offsets as a tensor instead of numpy).
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import itertools
import torch

class EmbeddingLayer(torch.nn.Module):
    def __init__(self, field_dims, embed_dim):
        super().__init__()
        self.embedding = torch.nn.Embedding(sum(field_dims), embed_dim)
        self.register_buffer("offsets", torch.tensor((0, *itertools.accumulate(field_dims[:-1]))))

    def forward(self, x):
        x = x + self.offsets.unsqueeze(0)
        return self.embedding(x)

class MultiLayerPerceptron(torch.nn.Module):
    def __init__(self, input_dim, embed_dims, dropout, output_layer=True):
        super().__init__()
        layers = list()
        for embed_dim in embed_dims:
            layers.append(torch.nn.Linear(input_dim, embed_dim))
            layers.append(torch.nn.BatchNorm1d(embed_dim))
            layers.append(torch.nn.ReLU())
            layers.append(torch.nn.Dropout(p=dropout))
            input_dim = embed_dim
        if output_layer:
            layers.append(torch.nn.Linear(input_dim, 1))
        self.mlp = torch.nn.Sequential(*layers)

    def forward(self, x):
        return self.mlp(x)

class PLEModel(torch.nn.Module):
    def __init__(self, categorical_field_dims, numerical_num, embed_dim, bottom_mlp_dims, tower_mlp_dims, task_num, shared_expert_num, specific_expert_num, dropout):
        super().__init__()
        self.embedding = EmbeddingLayer(categorical_field_dims, embed_dim)
        self.numerical_layer = torch.nn.Linear(numerical_num, embed_dim)
        self.embed_output_dim = (len(categorical_field_dims) + 1) * embed_dim
        self.task_num = task_num
        self.shared_expert_num = shared_expert_num
        self.specific_expert_num = specific_expert_num
        self.layers_num = len(bottom_mlp_dims)

        self.task_experts=[[0] * self.task_num for _ in range(self.layers_num)]
        self.task_gates=[[0] * self.task_num for _ in range(self.layers_num)]
        self.share_experts=[0] * self.layers_num
        self.share_gates=[0] * self.layers_num
        for i in range(self.layers_num):
            input_dim = self.embed_output_dim if 0 == i else bottom_mlp_dims[i - 1]
            self.share_experts[i] = torch.nn.ModuleList([MultiLayerPerceptron(input_dim, [bottom_mlp_dims[i]], dropout, output_layer=False) for k in range(self.shared_expert_num)])
            self.share_gates[i]=torch.nn.Sequential(torch.nn.Linear(input_dim, shared_expert_num + task_num * specific_expert_num), torch.nn.Softmax(dim=1))
            for j in range(task_num):
                self.task_experts[i][j]=torch.nn.ModuleList([MultiLayerPerceptron(input_dim, [bottom_mlp_dims[i]], dropout, output_layer=False) for k in range(self.specific_expert_num)])
                self.task_gates[i][j]=torch.nn.Sequential(torch.nn.Linear(input_dim, shared_expert_num + specific_expert_num), torch.nn.Softmax(dim=1))
            self.task_experts[i]=torch.nn.ModuleList(self.task_experts[i])

        self.task_experts=torch.nn.ModuleList(self.task_experts)
        self.share_experts=torch.nn.ModuleList(self.share_experts)

        self.tower = torch.nn.ModuleList([MultiLayerPerceptron(bottom_mlp_dims[-1], tower_mlp_dims, dropout) for i in range(task_num)])

    def forward(self, categorical_x, numerical_x):
        categorical_emb = self.embedding(categorical_x)
        numerical_emb = self.numerical_layer(numerical_x).unsqueeze(1)
        emb = torch.cat([categorical_emb, numerical_emb], 1).view(-1, self.embed_output_dim)

        task_fea = [emb for i in range(self.task_num + 1)]
        for i in range(self.layers_num):
            share_output=[expert(task_fea[-1]).unsqueeze(1) for expert in self.share_experts[i]]
            task_output_list=[]
            for j in range(self.task_num):
                task_output=[expert(task_fea[j]).unsqueeze(1) for expert in self.task_experts[i][j]]
                task_output_list.extend(task_output)
                mix_ouput=torch.cat(task_output+share_output,dim=1)
                gate_value = self.task_gates[i][j](task_fea[j]).unsqueeze(1)
                task_fea[j] = torch.bmm(gate_value, mix_ouput).squeeze(1)
            if i != self.layers_num-1:
                gate_value = self.share_gates[i](task_fea[-1]).unsqueeze(1)
                mix_ouput = torch.cat(task_output_list + share_output, dim=1)
                task_fea[-1] = torch.bmm(gate_value, mix_ouput).squeeze(1)

        results = [torch.sigmoid(self.tower[i](task_fea[i]).squeeze(1)) for i in range(self.task_num)]
        return results

field_dims = [10, 20, 30]
model = PLEModel(field_dims, numerical_num=5, embed_dim=8, bottom_mlp_dims=(32, 16), tower_mlp_dims=(8,),
                 task_num=2, shared_expert_num=2, specific_expert_num=2, dropout=0.2)
device = "cuda:0"
model = model.to(device)
model.eval()
categorical_fields = torch.randint(0, 10, (16, 3)).to(device)
numerical_fields = torch.randn(16, 5).to(device)
'''
CELL = '''
with torch.no_grad():
    y = model(categorical_fields, numerical_fields)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("""            self.task_experts[i]=torch.nn.ModuleList(self.task_experts[i])

        self.task_experts=torch.nn.ModuleList(self.task_experts)
        self.share_experts=torch.nn.ModuleList(self.share_experts)""",
                  """            self.task_experts[i]=torch.nn.ModuleList(self.task_experts[i])
            self.task_gates[i] = torch.nn.ModuleList(self.task_gates[i])

        self.task_experts = torch.nn.ModuleList(self.task_experts)
        self.task_gates = torch.nn.ModuleList(self.task_gates)
        self.share_experts = torch.nn.ModuleList(self.share_experts)
        self.share_gates = torch.nn.ModuleList(self.share_gates)""")
CLEAN = False
