"""LaneNet-PyTorch `cluster_loss`: the per-batch instance-loss accumulator is a CPU tensor.

Source: https://github.com/ms5898/LaneNet-PyTorch/issues/5
Training LaneNet (lane detection on TuSimple) fails inside
`criterion(binary_logits=binary_final_logits, binary_labels=binary_labels,
instance_logits=instance_embedding, instance_labels=instance_labels, delta_v=0.5, delta_d=3)`
(`Lanenet/cluster_loss3.py`, `cluster_loss.forward`) with "Expected all tensors to be on the same
device, but found at least two devices, cuda:0 and cpu!". The forward starts
`instance_segmenatation_loss = torch.tensor(0.)#.cuda()` -- a CPU scalar -- and adds every image's
discriminative loss, computed on the GPU from `prediction = torch.unsqueeze(instance_logits[dimen],
0).cuda()`, into it in place (`+=`). Creating the accumulator on the logits' device fixes it.
Stand-ins: `torch.unique` / `torch_scatter.scatter` (data-dependent) replaced by a fixed number of
lane instances (background + 4 lanes) with one-hot masks, so `muc` / `L_var` / `L_dist` are computed
with static shapes; the binary-class counts likewise; the LaneNet ENet backbone is a small conv net.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
import torch.nn as nn

NUM_INSTANCES = 5      # background + 4 lanes (torch.unique(correct_label) in the original)

class cluster_loss_helper(nn.Module):
    def __init__(self):
        super(cluster_loss_helper, self).__init__()

    def forward(self, prediction, correct_label, delta_v, delta_d):
        prediction_reshape = prediction.view(prediction.shape[0], prediction.shape[1],
                                             prediction.shape[2] * prediction.shape[3])     # [1, 4, HW]
        correct_label_reshape = correct_label.view(correct_label.shape[0], 1,
                                                   correct_label.shape[1] * correct_label.shape[2])   # [1, 1, HW]
        num_instances = NUM_INSTANCES
        onehot = torch.stack([(correct_label_reshape[:, 0] == k).float() for k in range(num_instances)], 1)  # [1, K, HW]
        counts = onehot.sum(2).clamp(min=1.0)                                                # [1, K]
        muc = torch.einsum('nch,nkh->nck', prediction_reshape, onehot) / counts.unsqueeze(1)   # [1, 4, K]

        dis = torch.einsum('nck,nkh->nch', muc, onehot)                                      # mean of each pixel's lane
        dis = dis - prediction_reshape
        dis = torch.norm(dis, dim=1, keepdim=False)                                          # [1, HW]
        dis = dis - delta_v
        dis = torch.clamp(dis, min=0.)
        dis = torch.pow(dis, 2)

        L_var = (dis.unsqueeze(1) * onehot).sum(2) / counts                                  # [1, K]
        L_var = torch.sum(L_var) / num_instances

        L_dist = torch.tensor(0, dtype=torch.float)
        for A in range(num_instances):
            for B in range(num_instances):
                if A != B:
                    dis = muc[:, :, A] - muc[:, :, B]
                    dis = torch.norm(dis, dim=1, keepdim=False)
                    dis = delta_d - dis
                    dis = torch.clamp(dis, min=0.)
                    dis = torch.pow(dis, 2)
                    L_dist = L_dist + dis
        L_dist = L_dist / (num_instances * (num_instances - 1))
        L_dist = L_dist.view([])
        total_loss = L_var + L_dist
        return total_loss

class cluster_loss(nn.Module):
    def __init__(self):
        super(cluster_loss, self).__init__()

    def forward(self, binary_logits, binary_labels,
                instance_logits, instance_labels, delta_v=0.5, delta_d=3):
        counts = torch.stack([(binary_labels == c).sum() for c in range(2)]).float()       # torch.unique(..., return_counts=True)
        inverse_weights = torch.div(1.0, torch.log(
            torch.add(torch.div(counts, torch.sum(counts)), torch.tensor(1.02, dtype=torch.float))))

        binary_loss = torch.nn.CrossEntropyLoss(weight=inverse_weights)
        binary_segmenatation_loss = binary_loss(binary_logits, binary_labels)

        batch_size = instance_logits.shape[0]
        loss_set = []
        for dimen in range(batch_size):
            loss_set.append(cluster_loss_helper())

        instance_segmenatation_loss = torch.tensor(0.)#.cuda()

        for dimen in range(batch_size):
            instance_loss = loss_set[dimen]
            prediction = torch.unsqueeze(instance_logits[dimen], 0)
            correct_label = torch.unsqueeze(instance_labels[dimen], 0)
            instance_segmenatation_loss += instance_loss(prediction, correct_label, delta_v, delta_d)

        instance_segmenatation_loss = instance_segmenatation_loss / batch_size
        return binary_segmenatation_loss, instance_segmenatation_loss

class LaneNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU())
        self.binary_head = nn.Conv2d(16, 2, 1)
        self.instance_head = nn.Conv2d(16, 4, 1)

    def forward(self, x):
        f = self.encoder(x)
        return self.binary_head(f), self.instance_head(f)

device = torch.device("cuda:0")
model = LaneNet().to(device)
criterion = cluster_loss()

image_data = torch.rand(2, 3, 64, 128, device=device)
binary_labels = torch.randint(0, 2, (2, 64, 128), device=device)
instance_labels = torch.randint(0, NUM_INSTANCES, (2, 64, 128), device=device)
binary_final_logits, instance_embedding = model(image_data)
'''
CELL = '''
binary_segmenatation_loss, instance_segmenatation_loss = criterion(binary_logits=binary_final_logits, binary_labels=binary_labels,
                                                                   instance_logits=instance_embedding, instance_labels=instance_labels, delta_v=0.5, delta_d=3)
'''
EXPECT_ERROR = ("Expected all tensors to be on the same device", "is not on the expected device", "wrapped to wrong device")
CULPRITS = ["criterion"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("        instance_segmenatation_loss = torch.tensor(0.)#.cuda()",
                  "        instance_segmenatation_loss = torch.tensor(0., device=instance_logits.device)")
CLEAN = False
