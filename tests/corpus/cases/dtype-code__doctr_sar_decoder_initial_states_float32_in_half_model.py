"""docTR SAR in half precision: the decoder's initial LSTM states are created as float32.

Source: https://github.com/mindee/doctr/issues/1441
`ocr_predictor('db_resnet50', 'sar_resnet31', pretrained=True).cuda().half()` raised "expected mat1
and mat2 to have the same dtype, but got: float != c10::Half" while `master` and
`crnn_mobilenet_v3_large` worked: `SARDecoder.forward` builds its initial hidden/cell state (and the
blank start symbol) with `torch.zeros(..., device=features.device)` and no dtype, so float32 states
enter the half LSTMCell / embedding. Stand-in: the recognition branch only (a small conv feature
extractor, SAR's LSTM encoder, SARDecoder and AttentionModule as in doctr 0.7), half on the CPU.
"""

SIM = "cpu"
FAMILY = "dtype-code"
SETUP = '''
import torch
from torch import nn

class AttentionModule(nn.Module):
    def __init__(self, feat_chans, state_chans, attention_units):
        super().__init__()
        self.feat_conv = nn.Conv2d(feat_chans, attention_units, kernel_size=3, padding=1)
        self.state_conv = nn.Conv2d(state_chans, attention_units, kernel_size=1, bias=False)
        self.attention_projector = nn.Conv2d(attention_units, 1, kernel_size=1, bias=False)

    def forward(self, features, hidden_state):
        H_f, W_f = features.shape[2:]
        feat_projection = self.feat_conv(features)
        hidden_state = hidden_state.view(hidden_state.size(0), hidden_state.size(1), 1, 1)
        state_projection = self.state_conv(hidden_state).expand(-1, -1, H_f, W_f)
        attention_weights = torch.tanh(feat_projection + state_projection)
        attention_weights = self.attention_projector(attention_weights)
        B, C, H, W = attention_weights.size()
        attention_weights = torch.softmax(attention_weights.view(B, -1), dim=-1).view(B, C, H, W)
        return (features * attention_weights).sum(dim=(2, 3))

class SARDecoder(nn.Module):
    def __init__(self, rnn_units, max_length, vocab_size, embedding_units, attention_units, feat_chans=32):
        super().__init__()
        self.vocab_size = vocab_size
        self.max_length = max_length
        self.embed = nn.Linear(self.vocab_size + 1, embedding_units)
        self.embed_tgt = nn.Embedding(embedding_units, self.vocab_size + 1)
        self.attention_module = AttentionModule(feat_chans, rnn_units, attention_units)
        self.lstm_cell = nn.LSTMCell(rnn_units, rnn_units)
        self.output_dense = nn.Linear(2 * rnn_units, self.vocab_size + 1)
        self.dropout = nn.Dropout(0.0)

    def forward(self, features, holistic, gt=None):
        logits_list = []
        for t in range(self.max_length + 1):
            if t == 0:
                hidden_state_init = cell_state_init = torch.zeros(features.size(0), features.size(1), device=features.device)
                hidden_state, cell_state = hidden_state_init, cell_state_init
                prev_symbol = holistic
            elif t == 1:
                prev_symbol = torch.zeros(features.size(0), self.vocab_size + 1, device=features.device)
                prev_symbol = self.embed(prev_symbol)
            else:
                index = logits_list[t - 1].argmax(-1)
                prev_symbol = self.embed(self.embed_tgt(index))
            hidden_state_init, cell_state_init = self.lstm_cell(prev_symbol, (hidden_state_init, cell_state_init))
            hidden_state, cell_state = self.lstm_cell(hidden_state_init, (hidden_state, cell_state))
            glimpse = self.attention_module(features, hidden_state)
            logits = self.dropout(torch.cat([hidden_state, glimpse], dim=1))
            logits_list.append(self.output_dense(logits))
        return torch.stack(logits_list[1:]).permute(1, 0, 2)

class SAR(nn.Module):
    def __init__(self, vocab="0123456789abcdef", rnn_units=32, max_length=6):
        super().__init__()
        self.vocab = vocab
        self.feat_extractor = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.encoder = nn.LSTM(32, rnn_units, 2, batch_first=True)
        self.decoder = SARDecoder(rnn_units, max_length, len(vocab), rnn_units, rnn_units, feat_chans=32)

    def forward(self, x, return_preds=True):
        features = self.feat_extractor(x)
        pooled_features = features.max(dim=-2).values.permute(0, 2, 1).contiguous()
        encoded = self.encoder(pooled_features)[0][:, -1]
        decoded_features = self.decoder(features, encoded)
        return {"preds": decoded_features.argmax(-1)}

class RecognitionPredictor(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model.eval()

    @torch.no_grad()
    def forward(self, crops):
        crops = crops.to(dtype=next(self.model.parameters()).dtype)
        return self.model(crops)["preds"]

class OCRPredictor(nn.Module):
    def __init__(self, reco_predictor):
        super().__init__()
        self.reco_predictor = reco_predictor

    @torch.no_grad()
    def forward(self, crops):
        return self.reco_predictor(crops)

def ocr_predictor(det_arch, reco_arch, pretrained=True):
    return OCRPredictor(RecognitionPredictor(SAR()))

model = ocr_predictor("db_resnet50", "sar_resnet31", pretrained=True).half()   # .cuda().half()
input = torch.rand(2, 3, 16, 32)    # the word crops of DocumentFile.from_images("./four.jpeg")
'''
CELL = '''
result = model(input)
'''
EXPECT_ERROR = ("mat1 and mat2", "same dtype")
CULPRITS = ["model.reco_predictor.model.decoder"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    """hidden_state_init = cell_state_init = torch.zeros(features.size(0), features.size(1), device=features.device)
                hidden_state, cell_state = hidden_state_init, cell_state_init
                prev_symbol = holistic
            elif t == 1:
                prev_symbol = torch.zeros(features.size(0), self.vocab_size + 1, device=features.device)""",
    """hidden_state_init = cell_state_init = torch.zeros(features.size(0), features.size(1), device=features.device, dtype=features.dtype)
                hidden_state, cell_state = hidden_state_init, cell_state_init
                prev_symbol = holistic
            elif t == 1:
                prev_symbol = torch.zeros(features.size(0), self.vocab_size + 1, device=features.device, dtype=features.dtype)""",
)
CLEAN = False
