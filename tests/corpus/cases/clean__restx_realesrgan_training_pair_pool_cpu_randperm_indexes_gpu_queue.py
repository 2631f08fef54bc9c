"""Real-ESRGAN `_dequeue_and_enqueue`: a CPU `torch.randperm` shuffles the GPU training-pair pool.

Source: https://github.com/xinntao/Real-ESRGAN/blob/master/realesrgan/models/realesrgan_model.py
The pool is allocated on the GPU (`self.queue_lr = torch.zeros(self.queue_size, c, h, w).cuda()`),
and once it is full the model shuffles it with `idx = torch.randperm(self.queue_size)`, a CPU index
tensor: `self.queue_lr = self.queue_lr[idx]`. Indexing a CUDA tensor with CPU indices is allowed, and
the dequeued/enqueued batches are `clone()`s on the GPU. Look-alike: a CPU index into GPU storage; it runs.
Stand-in: the method on a small model object with a queue of 4 and batches of 2; `.cuda()` becomes
`.to(self.device)` with the GPU simulated by meta.
"""

SIM = "meta"
FAMILY = "clean"
SETUP = '''
import torch

class RealESRGANModel:
    def __init__(self, queue_size=4):
        self.device = torch.device("meta")     # the GPU, simulated
        self.queue_size = queue_size

    @torch.no_grad()
    def _dequeue_and_enqueue(self):
        b, c, h, w = self.lq.size()
        if not hasattr(self, 'queue_lr'):
            assert self.queue_size % b == 0, f'queue size {self.queue_size} should be divisible by batch size {b}'
            self.queue_lr = torch.zeros(self.queue_size, c, h, w).to(self.device)
            _, c, h, w = self.gt.size()
            self.queue_gt = torch.zeros(self.queue_size, c, h, w).to(self.device)
            self.queue_ptr = 0
        if self.queue_ptr == self.queue_size:
            idx = torch.randperm(self.queue_size)
            self.queue_lr = self.queue_lr[idx]
            self.queue_gt = self.queue_gt[idx]
            lq_dequeue = self.queue_lr[0:b, :, :, :].clone()
            gt_dequeue = self.queue_gt[0:b, :, :, :].clone()
            self.queue_lr[0:b, :, :, :] = self.lq.clone()
            self.queue_gt[0:b, :, :, :] = self.gt.clone()
            self.lq = lq_dequeue
            self.gt = gt_dequeue
        else:
            self.queue_lr[self.queue_ptr:self.queue_ptr + b, :, :, :] = self.lq.clone()
            self.queue_gt[self.queue_ptr:self.queue_ptr + b, :, :, :] = self.gt.clone()
            self.queue_ptr = self.queue_ptr + b

model = RealESRGANModel(queue_size=4)
'''
CELL = '''
for it in range(3):                                # feed_data synthesised lq/gt on the GPU
    model.lq = torch.rand(2, 3, 16, 16, device=model.device)
    model.gt = torch.rand(2, 3, 64, 64, device=model.device)
    model._dequeue_and_enqueue()
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
