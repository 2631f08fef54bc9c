"""Hugging Face `Wav2Vec2ForCTC` in fp16: the CTC loss is computed from float32 log-probs on purpose, with int64 targets and lengths.

Source: https://github.com/huggingface/transformers/blob/main/src/transformers/models/wav2vec2/modeling_wav2vec2.py
`Wav2Vec2ForCTC.forward` runs the model in the weights' dtype (fp16 under fp16/DeepSpeed), then
"ctc_loss doesn't support fp16": `log_probs = nn.functional.log_softmax(logits, dim=-1,
dtype=torch.float32).transpose(0, 1)`; the targets are `labels.masked_select(labels >= 0)` (int64)
and the input lengths come from `_get_feat_extract_output_lengths(attention_mask.sum(-1))`.
Look-alike: half weights, half inputs, float32 log-probs and long labels in one forward. Stand-in:
the model reduced to two conv feature layers, the projection, a Linear encoder and the CTC head,
with the real loss code; fp16 on the CPU (SIM "cpu": dtype only).
"""

SIM = "cpu"
FAMILY = "clean"
SETUP = '''
import torch
from torch import nn

class Wav2Vec2ForCTC(nn.Module):
    """stand-in of transformers' Wav2Vec2ForCTC (reduced), loss code as in the library"""
    def __init__(self, vocab_size=32, pad_token_id=0):
        super().__init__()
        self.conv_kernel, self.conv_stride = (10, 3), (5, 2)
        self.conv_layers = nn.ModuleList([nn.Conv1d(1, 32, 10, stride=5), nn.Conv1d(32, 32, 3, stride=2)])
        self.feature_projection = nn.Sequential(nn.LayerNorm(32), nn.Linear(32, 64))
        self.encoder = nn.Sequential(nn.Linear(64, 64), nn.GELU())
        self.lm_head = nn.Linear(64, vocab_size)
        self.vocab_size, self.pad_token_id = vocab_size, pad_token_id

    def _get_feat_extract_output_lengths(self, input_lengths):
        for kernel_size, stride in zip(self.conv_kernel, self.conv_stride):
            input_lengths = torch.div(input_lengths - kernel_size, stride, rounding_mode="floor") + 1
        return input_lengths

    def forward(self, input_values, attention_mask=None, labels=None):
        hidden_states = input_values[:, None]
        for conv in self.conv_layers:
            hidden_states = nn.functional.gelu(conv(hidden_states))
        hidden_states = self.encoder(self.feature_projection(hidden_states.transpose(1, 2)))
        logits = self.lm_head(hidden_states)

        loss = None
        if labels is not None:
            # retrieve loss input_lengths from attention_mask
            attention_mask = (
                attention_mask if attention_mask is not None else torch.ones_like(input_values, dtype=torch.long)
            )
            input_lengths = self._get_feat_extract_output_lengths(attention_mask.sum(-1)).to(torch.long)

            # assuming that padded tokens are filled with -100
            # when not being attended to
            labels_mask = labels >= 0
            target_lengths = labels_mask.sum(-1)
            flattened_targets = labels.masked_select(labels_mask)

            # ctc_loss doesn't support fp16
            log_probs = nn.functional.log_softmax(logits, dim=-1, dtype=torch.float32).transpose(0, 1)

            with torch.backends.cudnn.flags(enabled=False):
                loss = nn.functional.ctc_loss(
                    log_probs, flattened_targets, input_lengths, target_lengths,
                    blank=self.pad_token_id, reduction="mean", zero_infinity=True,
                )
        return {"loss": loss, "logits": logits}

model = Wav2Vec2ForCTC().half()            # fp16 weights (fp16 full eval / DeepSpeed fp16)
batch = {
    "input_values": torch.randn(2, 1600).half(),
    "attention_mask": torch.tensor([[1] * 1600, [1] * 1200 + [0] * 400]),
    "labels": torch.tensor([[5, 9, 12, 7, 3], [8, 8, 4, -100, -100]]),
}
'''
CELL = '''
with torch.no_grad():
    outputs = model(**batch)
loss = outputs["loss"]
'''
EXPECT_ERROR = None
CULPRITS = []
FIX = "namespace"
REFERENCE_FIX = None
REFERENCE_EDIT = None
CLEAN = True
