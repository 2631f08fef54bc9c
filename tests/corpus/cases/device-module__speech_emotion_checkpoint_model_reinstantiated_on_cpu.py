"""Parallel is All You Want (speech emotion recognition notebook): the model re-instantiated to load the checkpoint stays on the CPU while the test tensors are built on the GPU.

Source: https://github.com/IliaZenkov/transformer-cnn-emotion-recognition/issues/6
Running the notebook's test section failed with "Input type (torch.cuda.FloatTensor) and weight type
(torch.FloatTensor) should be the same". The cell does `model = parallel_all_you_want(len(emotions_dict))`
and `load_checkpoint(optimizer, model, load_path)` with no `.to(device)`, then builds
`X_test_tensor = torch.tensor(X_test, device=device).float()` and calls `validate`. The fix the
commenters used: `model.cuda()` after loading the weights. Reduced: the checkpoint file by an
in-memory dict, random MFCC features for X_test, `validate` returns the loss tensor instead of
`loss.item()`; the "GPU" is meta.
"""

SIM = "meta"
FAMILY = "device-module"
SETUP = '''
import numpy as np
import torch
import torch.nn as nn

emotions_dict = {'0': 'surprised', '1': 'neutral', '2': 'calm', '3': 'happy', '4': 'sad',
                 '5': 'angry', '6': 'fearful', '7': 'disgust'}

def conv_block():
    return nn.Sequential(
        nn.Conv2d(in_channels=1, out_channels=16, kernel_size=3, stride=1, padding=1),
        nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(kernel_size=2, stride=2), nn.Dropout(p=0.3),
        nn.Conv2d(in_channels=16, out_channels=32, kernel_size=3, stride=1, padding=1),
        nn.BatchNorm2d(32), nn.ReLU(), nn.MaxPool2d(kernel_size=4, stride=4), nn.Dropout(p=0.3),
        nn.Conv2d(in_channels=32, out_channels=64, kernel_size=3, stride=1, padding=1),
        nn.BatchNorm2d(64), nn.ReLU(), nn.MaxPool2d(kernel_size=4, stride=4), nn.Dropout(p=0.3))

class parallel_all_you_want(nn.Module):
    def __init__(self, num_emotions):
        super().__init__()
        self.transformer_maxpool = nn.MaxPool2d(kernel_size=[1, 4], stride=[1, 4])
        transformer_layer = nn.TransformerEncoderLayer(d_model=40, nhead=4, dim_feedforward=512,
                                                       dropout=0.4, activation='relu')
        self.transformer_encoder = nn.TransformerEncoder(transformer_layer, num_layers=4)
        self.conv2Dblock1 = conv_block()
        self.conv2Dblock2 = conv_block()
        self.fc1_linear = nn.Linear(512*2+40, num_emotions)
        self.softmax_out = nn.Softmax(dim=1)

    def forward(self, x):
        conv2d_embedding1 = torch.flatten(self.conv2Dblock1(x), start_dim=1)
        conv2d_embedding2 = torch.flatten(self.conv2Dblock2(x), start_dim=1)
        x_maxpool = self.transformer_maxpool(x)
        x_maxpool_reduced = torch.squeeze(x_maxpool, 1)
        x = x_maxpool_reduced.permute(2, 0, 1)
        transformer_output = self.transformer_encoder(x)
        transformer_embedding = torch.mean(transformer_output, dim=0)
        complete_embedding = torch.cat([conv2d_embedding1, conv2d_embedding2, transformer_embedding], dim=1)
        output_logits = self.fc1_linear(complete_embedding)
        output_softmax = self.softmax_out(output_logits)
        return output_logits, output_softmax

def criterion(predictions, targets):
    return nn.CrossEntropyLoss()(input=predictions, target=targets)

def make_validate_fnc(model, criterion):
    def validate(X, Y):
        with torch.no_grad():
            model.eval()
            output_logits, output_softmax = model(X)
            predictions = torch.argmax(output_softmax, dim=1)
            accuracy = torch.sum(Y == predictions)/float(len(Y))
            loss = criterion(output_logits, Y)
        return loss, accuracy*100, predictions
    return validate

def load_checkpoint(optimizer, model, filename):
    checkpoint_dict = filename                       # torch.load(filename)
    epoch = checkpoint_dict['epoch']
    model.load_state_dict(checkpoint_dict['model'])
    if optimizer is not None:
        optimizer.load_state_dict(checkpoint_dict['optimizer'])
    return epoch

device = 'meta'                                      # 'cuda' if torch.cuda.is_available() else 'cpu'
model = parallel_all_you_want(num_emotions=len(emotions_dict)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, weight_decay=1e-3, momentum=0.8)

_trained = parallel_all_you_want(len(emotions_dict))
_opt = torch.optim.SGD(_trained.parameters(), lr=0.01, weight_decay=1e-3, momentum=0.8)
load_path = {'optimizer': _opt.state_dict(), 'model': _trained.state_dict(), 'epoch': 429}   # parallel_all_you_wantFINAL-429.pkl

rng = np.random.RandomState(0)
X_test = rng.randn(8, 1, 40, 282).astype(np.float32)  # scaled MFCC test features
y_test = rng.randint(0, 8, 8)

model = parallel_all_you_want(len(emotions_dict))
load_checkpoint(optimizer, model, load_path)
'''
CELL = '''
validate = make_validate_fnc(model, criterion)
X_test_tensor = torch.tensor(X_test, device=device).float()
y_test_tensor = torch.tensor(y_test, dtype=torch.long, device=device)
test_loss, test_acc, predicted_emotions = validate(X_test_tensor, y_test_tensor)
'''
EXPECT_ERROR = ("is not on the expected device", "Expected all tensors to be on the same device")
CULPRITS = ["model"]
FIX = "namespace"
REFERENCE_FIX = '''
model.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
