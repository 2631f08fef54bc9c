"""kmeans_pytorch on a GPU: `kmeans()` returns the cluster centres on the CPU, the next distance computation mixes devices.

Source: https://github.com/subhadarship/kmeans_pytorch/issues/27
"Return values are forced to be on CPU": `kmeans(X=x, num_clusters=..., distance='euclidean',
device=torch.device('cuda:0'))` clusters on the GPU but ends with `return choice_cluster.cpu(),
initial_state.cpu()`, so the centres come back on the CPU whatever device was asked for. The author
confirmed it is deliberate ("it fit my use case") and said to move them where needed. Here the user
then scores GPU features against the centres with `torch.cdist`. Stand-in: kmeans_pytorch's Lloyd
iterations written with one-hot/mm updates (no data-dependent indexing), same return statement.
"""

SIM = "fake_cuda"
FAMILY = "device-loose"
SETUP = '''
import torch

def initialize(X, num_clusters):
    perm = torch.randperm(X.shape[0], device=X.device).narrow(0, 0, num_clusters)
    return torch.index_select(X, 0, perm)

def kmeans(X, num_clusters, distance='euclidean', tol=1e-4, device=torch.device('cpu'), iters=10):
    X = X.float().to(device)
    initial_state = initialize(X, num_clusters)
    for _ in range(iters):
        dis = torch.cdist(X, initial_state) ** 2
        choice_cluster = torch.argmin(dis, dim=1)
        one_hot = torch.zeros(X.shape[0], num_clusters, device=X.device).scatter_(
            1, choice_cluster.unsqueeze(1), 1.0)
        counts = one_hot.sum(0).clamp_min(1.0)
        initial_state = (one_hot.t() @ X) / counts.unsqueeze(1)
    return choice_cluster.cpu(), initial_state.cpu()

device = torch.device('cuda:0')
x = torch.randn(1000, 8)
features = torch.randn(256, 8).to(device)
cluster_ids_x, cluster_centers = kmeans(X=x, num_clusters=5, distance='euclidean', device=device)
'''
CELL = '''
dist_to_centers = torch.cdist(features, cluster_centers)
soft_assign = torch.softmax(-dist_to_centers, dim=1)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "must have the same device type")
CULPRITS = ["cluster_centers"]
FIX = "namespace"
REFERENCE_FIX = '''
cluster_centers = cluster_centers.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
