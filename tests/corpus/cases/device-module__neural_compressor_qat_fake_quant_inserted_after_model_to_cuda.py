"""Intel Neural Compressor distillation-for-quantization example: QAT fake-quant modules are inserted after the model went to the GPU.

Source: https://github.com/intel/neural-compressor/issues/415
Running the `distillation_for_quantization` example failed in the first training step with
"Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!
(when checking argument for argument observer_on in method
wrapper___fused_moving_avg_obs_fq_helper)": the script moves the model to the GPU, then the
compression manager's `on_train_begin` prepares it for QAT and adds FakeQuantize modules whose
buffers (`observer_enabled`, `scale`, ...) are created on the CPU. Stand-in: a small classifier,
torch's real `FusedMovingAvgObsFakeQuantize`, and a `callbacks.on_train_begin` that attaches one
to each Linear's output without moving it.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn
from torch.ao.quantization.fake_quantize import FusedMovingAvgObsFakeQuantize

class QATLinear(nn.Module):
    def __init__(self, linear):
        super().__init__()
        self.linear = linear
        self.activation_post_process = FusedMovingAvgObsFakeQuantize()

    def forward(self, x):
        return self.activation_post_process(self.linear(x))

class TextClassifier(nn.Module):
    def __init__(self, vocab=100, dim=32, num_labels=2):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, dim)
        self.dense = nn.Linear(dim, dim)
        self.classifier = nn.Linear(dim, num_labels)

    def forward(self, input_ids):
        h = torch.tanh(self.dense(self.embeddings(input_ids).mean(1)))
        return self.classifier(h)

class Callbacks:
    def __init__(self, model):
        self.model = model

    def on_train_begin(self):                 # QAT: swap Linear layers for fake-quantized ones
        for name in ("dense", "classifier"):
            setattr(self.model, name, QATLinear(getattr(self.model, name)))

class CompressionManager:
    def __init__(self, model):
        self.model = model
        self.callbacks = Callbacks(model)

device = torch.device("cuda:0")
model = TextClassifier()
model.to(device)
compression_manager = CompressionManager(model)   # prepare_compression(model, [distil_conf, qat_conf])
compression_manager.callbacks.on_train_begin()
input_ids = torch.randint(0, 100, (4, 16)).to(device)
'''
CELL = '''
logits = model(input_ids)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model.dense.activation_post_process"]
FIX = "namespace"
REFERENCE_FIX = '''
model.to("cuda:0")
'''
REFERENCE_EDIT = None
CLEAN = False
