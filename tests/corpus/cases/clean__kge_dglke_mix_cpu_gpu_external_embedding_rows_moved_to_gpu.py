"""DGL-KE `--mix_cpu_gpu`: entity/relation tables and their Adagrad state live on the CPU, gathered rows go to the GPU.

Source: https://github.com/awslabs/dgl-ke/blob/master/python/dglke/models/pytorch/tensor_models.py
With `mix_cpu_gpu` the KEModel builds its `ExternalEmbedding`s on the CPU (too large for the GPU);
`ExternalEmbedding.__call__(idx, gpu_id)` gathers the rows with CPU ids and copies them to the
training GPU, and `update(gpu_id)` applies the sparse Adagrad step with the state kept on the CPU,
moving indices/gradient sums to the state's device and the update back. CPU tables, a CPU
`state_sum` and CPU ids next to cuda:0 scores are all deliberate. Look-alike: it runs.
Stand-in: ExternalEmbedding.__init__/__call__/update (no async queue, no cross-relation bitmap),
a TransE score and a training step; `s.cuda(gpu_id)` is written `s.to(get_dev(gpu_id))` (the
simulation cannot address an unindexed/enumerated CUDA device), and `loss.backward()` is replaced
by unit gradients on the traced rows.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch as th
import torch.nn.init as INIT


def get_dev(gpu):
    return th.device('cpu') if gpu < 0 else th.device('cuda:' + str(gpu))


class Args:
    gpu = [0]
    lr = 0.1
    mix_cpu_gpu = True


class ExternalEmbedding:
    """Sparse Embedding for Knowledge Graph (dglke.models.pytorch.tensor_models)."""

    def __init__(self, args, num, dim, device):
        self.gpu = args.gpu
        self.args = args
        self.num = num
        self.trace = []
        self.emb = th.empty(num, dim, dtype=th.float32, device=device)
        self.state_sum = self.emb.new().resize_(self.emb.size(0)).zero_()
        self.state_step = 0

    def init(self, emb_init):
        INIT.uniform_(self.emb, -emb_init, emb_init)
        INIT.zeros_(self.state_sum)

    def __call__(self, idx, gpu_id=-1, trace=True):
        s = self.emb[idx]
        if gpu_id >= 0:
            s = s.to(get_dev(gpu_id))
        if trace:
            data = s.clone().detach().requires_grad_(True)
            self.trace.append((idx, data))
        else:
            data = s
        return data

    def update(self, gpu_id=-1):
        self.state_step += 1
        with th.no_grad():
            for idx, data in self.trace:
                grad = data.grad.data
                clr = self.args.lr
                grad_indices = idx
                grad_values = grad
                grad_sum = (grad_values * grad_values).mean(1)
                device = self.state_sum.device
                if device != grad_indices.device:
                    grad_indices = grad_indices.to(device)
                if device != grad_sum.device:
                    grad_sum = grad_sum.to(device)
                self.state_sum.index_add_(0, grad_indices, grad_sum)
                std = self.state_sum[grad_indices]  # _sparse_mask
                if gpu_id >= 0:
                    std = std.to(get_dev(gpu_id))
                std_values = std.sqrt_().add_(1e-10).unsqueeze(1)
                tmp = (-clr * grad_values / std_values)
                if tmp.device != device:
                    tmp = tmp.to(device)
                self.emb.index_add_(0, grad_indices, tmp)
        self.trace = []


args = Args()
n_entities, n_relations, hidden_dim, gamma = 5000, 40, 64, 12.0
emb_init = (gamma + 2.0) / hidden_dim
device = get_dev(args.gpu[0])
entity_emb = ExternalEmbedding(args, n_entities, hidden_dim, th.device('cpu') if args.mix_cpu_gpu else device)
relation_emb = ExternalEmbedding(args, n_relations, hidden_dim, th.device('cpu') if args.mix_cpu_gpu else device)
entity_emb.init(emb_init)
relation_emb.init(emb_init)
# a sampled positive block and its tail-corrupted negatives, ids on the CPU as the sampler yields them
head_ids = th.randint(0, n_entities, (256,))
rel_ids = th.randint(0, n_relations, (256,))
tail_ids = th.randint(0, n_entities, (256,))
neg_ids = th.randint(0, n_entities, (64,))
'''
CELL = '''
gpu_id = args.gpu[0]
h = entity_emb(head_ids, gpu_id, True)
r = relation_emb(rel_ids, gpu_id, True)
t = entity_emb(tail_ids, gpu_id, True)
neg_t = entity_emb(neg_ids, gpu_id, True)
pos_score = gamma - th.norm(h + r - t, p=1, dim=-1)
neg_score = gamma - th.norm((h + r).unsqueeze(1) - neg_t.unsqueeze(0), p=1, dim=-1)
loss = -(th.nn.functional.logsigmoid(pos_score).mean() + th.nn.functional.logsigmoid(-neg_score).mean()) / 2
for emb in (entity_emb, relation_emb):          # stands in for loss.backward()
    for _, data in emb.trace:
        data.grad = th.ones_like(data)
entity_emb.update(gpu_id)
relation_emb.update(gpu_id)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
