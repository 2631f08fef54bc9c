"""fastbook ch. 4 (MNIST basics): uint8 image tensors stacked and scaled to float, distances to float means, bool predictions averaged as float.

Source: https://github.com/fastai/fastbook/blob/master/04_mnist_basics.ipynb
The chapter's pixel-similarity baseline does `stacked_threes = torch.stack(three_tensors).float()/255`,
takes `mean3 = stacked_threes.mean(0)`, defines `mnist_distance(a,b) = (a-b).abs().mean((-1,-2))`,
`is_3(x) = mnist_distance(x,mean3) < mnist_distance(x,mean7)` and reports
`accuracy_3s = is_3(valid_3_tens).float().mean()`. Look-alike: uint8, float32 and bool tensors
mixed on purpose (with broadcasting), every step converting explicitly. Stand-in: random uint8
28x28 "images" instead of the MNIST_SAMPLE PNGs; CPU.
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch

g = torch.Generator().manual_seed(0)
three_tensors = [torch.randint(0, 256, (28, 28), dtype=torch.uint8, generator=g) for _ in range(30)]
seven_tensors = [torch.randint(0, 256, (28, 28), dtype=torch.uint8, generator=g) for _ in range(30)]
valid_3_tens = torch.stack([torch.randint(0, 256, (28, 28), dtype=torch.uint8, generator=g) for _ in range(10)]).float() / 255
valid_7_tens = torch.stack([torch.randint(0, 256, (28, 28), dtype=torch.uint8, generator=g) for _ in range(10)]).float() / 255

def mnist_distance(a, b): return (a - b).abs().mean((-1, -2))
'''
CELL = '''
stacked_sevens = torch.stack(seven_tensors).float() / 255
stacked_threes = torch.stack(three_tensors).float() / 255
mean3 = stacked_threes.mean(0)
mean7 = stacked_sevens.mean(0)
def is_3(x): return mnist_distance(x, mean3) < mnist_distance(x, mean7)
accuracy_3s = is_3(valid_3_tens).float().mean()
accuracy_7s = (1 - is_3(valid_7_tens).float()).mean()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
