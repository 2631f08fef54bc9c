"""pytorch-forecasting 0.10.0 TFT on a GPU: `interpret_output` rolls the encoder attention with a CPU `torch.arange`.

Source: https://github.com/sktime/pytorch-forecasting/issues/906
Running the Stallion tutorial on a Colab GPU with 0.10.0, `trainer.fit(...)` fails with "Expected
all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!" (0.9.2
worked). The maintainer answered with the fix PR #908 ("Fix with creating tensors on correct
devices"): in `TemporalFusionTransformer.interpret_output`, run while logging the validation
interpretation, `torch.arange(encoder_attention.size(3))` is made on the CPU and combined with the
GPU `shifts`; it became `torch.arange(..., device=encoder_attention.device)`. Stand-ins: a small
attention network with TFT's output dict and `interpret_output` (roll + attention averaging) as in
0.10.0, and a Lightning-like Trainer that moves model and batches to the GPU (optimisation left
out: fake cuda has no autograd).
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
import torch
from torch import nn

class TemporalFusionTransformer(nn.Module):
    def __init__(self, n_features=5, hidden_size=16, attention_head_size=2, max_encoder_length=24, output_size=7):
        super().__init__()
        self.hparams = {"max_encoder_length": max_encoder_length, "attention_head_size": attention_head_size}
        self.encoder = nn.LSTM(n_features, hidden_size, batch_first=True)
        self.decoder = nn.LSTM(n_features, hidden_size, batch_first=True)
        self.query = nn.Linear(hidden_size, hidden_size * attention_head_size)
        self.key = nn.Linear(hidden_size, hidden_size * attention_head_size)
        self.output_layer = nn.Linear(hidden_size, output_size)

    @classmethod
    def from_dataset(cls, dataset, **kwargs):
        return cls(max_encoder_length=dataset["max_encoder_length"], **kwargs)

    def forward(self, x):
        enc, _ = self.encoder(x["encoder_cont"])
        dec, _ = self.decoder(x["decoder_cont"])
        b, t_dec, t_enc, heads = dec.shape[0], dec.shape[1], enc.shape[1], self.hparams["attention_head_size"]
        q = self.query(dec).view(b, t_dec, heads, -1)
        k = self.key(enc).view(b, t_enc, heads, -1)
        encoder_attention = torch.softmax(torch.einsum("bqhd,bkhd->bqhk", q, k), dim=-1)
        decoder_attention = torch.softmax(torch.einsum("bqhd,bkhd->bqhk", q, q), dim=-1)
        return {
            "prediction": self.output_layer(dec),
            "encoder_attention": encoder_attention,          # batch x decoder time x heads x encoder time
            "decoder_attention": decoder_attention,
            "encoder_lengths": x["encoder_lengths"],
            "decoder_lengths": x["decoder_lengths"],
        }

    def interpret_output(self, out, reduction="none", attention_prediction_horizon=0):
        decoder_attention = out["decoder_attention"]
        # roll encoder attention (so start last encoder value is on the right)
        encoder_attention = out["encoder_attention"]
        shifts = encoder_attention.size(3) - out["encoder_lengths"]
        new_index = (
            torch.arange(encoder_attention.size(3))[None, None, None].expand_as(encoder_attention)
            - shifts[:, None, None, None]
        ) % encoder_attention.size(3)
        encoder_attention = torch.gather(encoder_attention, dim=3, index=new_index)
        # combine attention vector
        attention = torch.concat([encoder_attention, decoder_attention], dim=-1)
        attention = attention[:, attention_prediction_horizon].mean(dim=1)
        if reduction != "none":
            attention = attention.sum(dim=0)
        return {"attention": attention}

    def validation_step(self, batch, batch_idx):
        x, y = batch
        out = self(x)
        loss = nn.functional.l1_loss(out["prediction"][..., 3], y)
        self._interpretation = self.interpret_output(out, reduction="sum")   # log_interpretation
        return loss

    def training_step(self, batch, batch_idx):
        x, y = batch
        out = self(x)
        return nn.functional.l1_loss(out["prediction"][..., 3], y)

class Trainer:
    def __init__(self, max_epochs=1, gpus=0, gradient_clip_val=0.1, limit_train_batches=30):
        self.max_epochs = max_epochs
        self.device = torch.device("cuda:0" if gpus else "cpu")

    def _to(self, batch):
        x, y = batch
        return {k: v.to(self.device) for k, v in x.items()}, y.to(self.device)

    def fit(self, model, train_dataloaders=None, val_dataloaders=None):
        model.to(self.device)
        for epoch in range(self.max_epochs):
            for i, batch in enumerate(train_dataloaders):
                loss = model.training_step(self._to(batch), i)
                # loss.backward(); optimizer.step()  -- left out of the stand-in
            for i, batch in enumerate(val_dataloaders):
                model.validation_step(self._to(batch), i)

def make_batch(bs=16, enc_len=24, dec_len=6):
    x = {
        "encoder_cont": torch.randn(bs, enc_len, 5),
        "decoder_cont": torch.randn(bs, dec_len, 5),
        "encoder_lengths": torch.full((bs,), enc_len, dtype=torch.long),
        "decoder_lengths": torch.full((bs,), dec_len, dtype=torch.long),
    }
    return x, torch.randn(bs, dec_len)

training = {"max_encoder_length": 24, "max_prediction_length": 6}
train_dataloader = [make_batch() for _ in range(3)]
val_dataloader = [make_batch() for _ in range(2)]
trainer = Trainer(max_epochs=1, gpus=-1, gradient_clip_val=0.1, limit_train_batches=30)
tft = TemporalFusionTransformer.from_dataset(training, hidden_size=16, attention_head_size=2)
'''
CELL = '''
trainer.fit(tft, train_dataloaders=train_dataloader, val_dataloaders=val_dataloader)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["tft"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("torch.arange(encoder_attention.size(3))[None, None, None]",
                  "torch.arange(encoder_attention.size(3), device=encoder_attention.device)[None, None, None]")
CLEAN = False
