"""TerraTorch tiled inference: the full scene and the prediction accumulators stay on the CPU on purpose.

Source: https://github.com/IBM/terratorch/blob/main/terratorch/tasks/tiled_inference.py
`tiled_inference` remembers `device = input_batch.device`, then "Move inputs to CPU to avoid
out-of-memory errors" (`input_batch = input_batch.cpu()`), cuts chips on the CPU, sends each stacked
chip batch with `tensor_input.to(device)` through the model, brings the output back with `.cpu()`,
accumulates `preds`/`preds_count` made with `input_batch.new_zeros(...)` on the CPU, and returns
`(preds / preds_count.unsqueeze(1)).to(device)`. Look-alike: a model on the GPU while the big tensors
live on the CPU, with every crossing explicit; it runs.
Stand-ins: non-overlapping chips without padding, delta or blend masks, and the "Some pixels did
not receive a classification" check left out (it reads a value); a small segmentation head for the
Prithvi model.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn


def get_input_chips(input_batch, h_crop, w_crop):
    chips = []
    _, _, h_img, w_img = input_batch.shape
    for b in range(input_batch.shape[0]):
        for y in range(0, h_img, h_crop):
            for x in range(0, w_img, w_crop):
                chips.append((b, y, x, input_batch[b, :, y:y + h_crop, x:x + w_crop]))
    return chips


def tiled_inference(model_forward, input_batch, crop=32, batch_size=4, **kwargs):
    device = input_batch.device
    # Move inputs to CPU to avoid out-of-memory errors
    input_batch = input_batch.cpu()
    input_batch_size = input_batch.shape[0]
    h_img, w_img = input_batch.shape[-2:]
    preds = None
    coordinates_and_inputs = get_input_chips(input_batch, crop, crop)
    with torch.no_grad():
        for start in range(0, len(coordinates_and_inputs), batch_size):
            end = min(len(coordinates_and_inputs), start + batch_size)
            batch = coordinates_and_inputs[start:end]
            tensor_input = torch.stack([chip for (_, _, _, chip) in batch], dim=0)
            tensor_input = tensor_input.to(device)
            output = model_forward(tensor_input, **kwargs).cpu()
            output = [output[i] for i in range(len(batch))]
            for (b, y, x, _), predicted in zip(batch, output):
                if preds is None:
                    out_channels = predicted.shape[0]
                    preds = input_batch.new_zeros((input_batch_size, out_channels, h_img, w_img))
                    preds_count = input_batch.new_zeros(input_batch_size, h_img, w_img)
                preds[b, :, y:y + crop, x:x + crop] += predicted
                preds_count[b, y:y + crop, x:x + crop] += 1
    output = preds / preds_count.unsqueeze(1)
    output = output.to(device)
    return output


device = torch.device("cuda:0")
model = nn.Sequential(nn.Conv2d(6, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 2, 1)).to(device).eval()
scene = torch.rand(1, 6, 64, 64).to(device)     # HLS 6-band burn-scar scene in the test step
'''
CELL = '''
y_hat = tiled_inference(model, scene, crop=32, batch_size=4)
pred_mask = y_hat.argmax(dim=1)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
