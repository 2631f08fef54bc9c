"""Look-alike: EasyOCR's recognizer keeps the CTC `preds_size` lengths as a CPU IntTensor next to the GPU predictions, because the greedy decoder runs in numpy.

Source: https://github.com/JaidedAI/EasyOCR/blob/master/easyocr/recognition.py
`recognizer_predict` moves the crop batch to `device` and builds `length_for_pred` /
`text_for_pred` on the CPU then `.to(device)`; after `preds = model(image, text_for_pred)` it makes
`preds_size = torch.IntTensor([preds.size(1)] * batch_size)` on the CPU on purpose: it is only handed,
with `preds_index.data.cpu()`, to `converter.decode_greedy`, which works on numpy. Nothing to report.
Stand-in: a small CRNN recognizer (conv features + linear CTC head); the numpy re-normalisation and
decoding that follow (they copy the predictions to the CPU) are left out.
"""

SIM = "fake_cuda"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn
import torch.nn.functional as F

class Model(nn.Module):
    """EasyOCR 'generation2' recognizer (reduced): VGG features, BiLSTM replaced by a linear, CTC head."""
    def __init__(self, input_channel=1, output_channel=32, num_class=40):
        super().__init__()
        self.FeatureExtraction = nn.Sequential(nn.Conv2d(input_channel, output_channel, 3, 1, 1), nn.ReLU(True),
                                               nn.MaxPool2d(2, 2))
        self.AdaptiveAvgPool = nn.AdaptiveAvgPool2d((None, 1))
        self.SequenceModeling = nn.Linear(output_channel, output_channel)
        self.Prediction = nn.Linear(output_channel, num_class)
    def forward(self, input, text):
        visual_feature = self.FeatureExtraction(input)
        visual_feature = self.AdaptiveAvgPool(visual_feature.permute(0, 3, 1, 2)).squeeze(3)
        return self.Prediction(self.SequenceModeling(visual_feature))

def recognizer_predict(model, test_loader, batch_max_length, device='cpu'):
    model.eval()
    result = []
    with torch.no_grad():
        for image_tensors in test_loader:
            batch_size = image_tensors.size(0)
            image = image_tensors.to(device)
            length_for_pred = torch.IntTensor([batch_max_length] * batch_size).to(device)
            text_for_pred = torch.LongTensor(batch_size, batch_max_length + 1).fill_(0).to(device)
            preds = model(image, text_for_pred)
            preds_size = torch.IntTensor([preds.size(1)] * batch_size)
            preds_prob = F.softmax(preds, dim=2)
            _, preds_index = preds_prob.max(2)
            result.append((preds_index, preds_size))   # converter.decode_greedy(preds_index.data.cpu()..., preds_size.data)
    return result

device = "cuda:0"                                # Reader(['en'], gpu=True).device
recognizer = Model().to(device)
test_loader = [torch.rand(3, 1, 64, 256)]        # AlignCollate batches of grey text-line crops
'''
CELL = '''
result = recognizer_predict(recognizer, test_loader, batch_max_length=25, device=device)
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
