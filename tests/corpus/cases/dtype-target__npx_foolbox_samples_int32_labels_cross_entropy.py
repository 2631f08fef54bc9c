"""foolbox ResNet-18 example on Windows: the numpy labels are int32 and reach cross_entropy as Int.

Source: https://github.com/bethgelab/foolbox/issues/647
Running `single_attack_pytorch_resnet18.py` in PyCharm failed with "Expected object of scalar
type Long but got scalar type Int for argument #2 'target' in call to _thnn_nll_loss_forward".
The sample labels come back as a numpy integer array whose default dtype on Windows is int32, and
the attack's loss turns them into a tensor as they are. The reply: cast the labels to long before
the attack. Stand-ins: `samples()` returning numpy images and int32 labels, a PyTorchModel wrapper
and an FGSM-style attack computing `F.cross_entropy(logits, torch.from_numpy(labels))`; CPU.
"""

SIM = "cpu"
FAMILY = "dtype-target"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

def samples(dataset="imagenet", batchsize=4, data_format="channels_first", bounds=(0, 1)):
    images = np.random.rand(batchsize, 3, 32, 32).astype(np.float32)
    labels = np.array([282, 281, 285, 287][:batchsize], dtype=np.int32)   # numpy int on Windows
    return images, labels

class PyTorchModel:
    def __init__(self, model, bounds, num_classes):
        self.model, self.bounds, self.num_classes = model.eval(), bounds, num_classes

    def loss_and_gradient(self, images, labels):
        x = torch.from_numpy(images).requires_grad_(True)
        target = torch.from_numpy(labels)
        loss = F.cross_entropy(self.model(x), target)
        loss.backward()
        return loss.item(), x.grad.numpy()

class FGSM:
    def __init__(self, fmodel):
        self.fmodel = fmodel

    def __call__(self, images, labels, epsilon=0.03):
        _, grad = self.fmodel.loss_and_gradient(images, labels)
        return np.clip(images + epsilon * np.sign(grad), *self.fmodel.bounds)

resnet18 = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                         nn.Flatten(), nn.Linear(8, 1000))
fmodel = PyTorchModel(resnet18, bounds=(0, 1), num_classes=1000)
images, labels = samples(dataset="imagenet", batchsize=4, data_format="channels_first", bounds=(0, 1))
attack = FGSM(fmodel)
'''
CELL = '''
adversarials = attack(images, labels)
'''
EXPECT_ERROR = ("expected scalar type Long", "expected target dtype", "not implemented for 'Int'")
CULPRITS = ["labels"]
FIX = "namespace"
REFERENCE_FIX = '''
labels = labels.astype(np.int64)
'''
REFERENCE_EDIT = None
CLEAN = False
