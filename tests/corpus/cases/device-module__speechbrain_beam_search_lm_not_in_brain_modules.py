"""SpeechBrain wav2vec2 recipe with an added LM in the beam searcher: Brain moves `modules`, not the LM.

Source: https://github.com/speechbrain/speechbrain/issues/1336
"LM in BeamSearch placed on cpu not cuda": after adding a trained LM to the test beam search of the
CommonVoice wav2vec2 CTC/attention recipe, decoding hit device mismatches. The YAML builds
`lm_model` and passes it as `language_model: !ref <lm_model>` to the searcher, the pretrainer loads
it, but `modules:` (what `sb.Brain` sends to `run_opts["device"]`) lists only the encoder, decoder
and heads, so the LM stays on the CPU. Stand-in: the hparams dict, a Brain that moves its modules,
an S2S beam searcher reduced to one LM-fused greedy step, and an embedding/linear LM.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
import torch
from torch import nn

class TransformerLM(nn.Module):
    def __init__(self, vocab=500, d_model=64):
        super().__init__()
        self.emb = nn.Embedding(vocab, d_model)
        self.out = nn.Linear(d_model, vocab)

    def forward(self, tokens):
        return self.out(torch.tanh(self.emb(tokens))).log_softmax(-1)

class S2SBeamSearchLM:
    def __init__(self, embedding, decoder, linear, language_model, bos_index=1, lm_weight=0.5, max_decode_ratio=1.0):
        self.emb, self.dec, self.fc = embedding, decoder, linear
        self.lm_modules = language_model
        self.bos_index, self.lm_weight = bos_index, lm_weight

    def __call__(self, enc_states, wav_lens):
        batch = enc_states.shape[0]
        inp_tokens = torch.zeros(batch, 1, dtype=torch.long, device=enc_states.device) + self.bos_index
        h = self.dec(torch.cat([self.emb(inp_tokens).squeeze(1), enc_states.mean(dim=1)], dim=-1))
        log_probs = self.fc(h).log_softmax(-1)
        lm_log_probs = self.lm_modules(inp_tokens).squeeze(1)
        return (log_probs + self.lm_weight * lm_log_probs).argmax(-1)

class Brain:
    def __init__(self, modules, hparams, run_opts):
        self.device = run_opts["device"]
        self.modules = nn.ModuleDict(modules).to(self.device)
        self.hparams = hparams

    def compute_forward(self, wavs, wav_lens):
        feats = self.modules["wav2vec2"](wavs.view(wavs.shape[0], -1, 16))
        x = self.modules["enc"](feats)
        return self.hparams["test_search"](x, wav_lens)

vocab = 500
hparams = {"lm_model": TransformerLM(vocab)}
hparams["wav2vec2"] = nn.Linear(16, 64)
hparams["enc"] = nn.Sequential(nn.Linear(64, 64), nn.LeakyReLU())
hparams["emb"] = nn.Embedding(vocab, 32)
hparams["dec"] = nn.Linear(32 + 64, 64)
hparams["seq_lin"] = nn.Linear(64, vocab)
hparams["modules"] = {k: hparams[k] for k in ("wav2vec2", "enc", "emb", "dec", "seq_lin")}
hparams["test_search"] = S2SBeamSearchLM(hparams["emb"], hparams["dec"], hparams["seq_lin"],
                                         language_model=hparams["lm_model"])
run_opts = {"device": "cuda:0"}
asr_brain = Brain(modules=hparams["modules"], hparams=hparams, run_opts=run_opts)
wavs = torch.randn(2, 32000, device="cuda:0")
wav_lens = torch.tensor([1.0, 0.8], device="cuda:0")
'''
CELL = '''
hyps = asr_brain.compute_forward(wavs, wav_lens)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["hparams['lm_model']"]
FIX = "namespace"
REFERENCE_FIX = '''
hparams["lm_model"].to(run_opts["device"])
'''
REFERENCE_EDIT = None
CLEAN = False
