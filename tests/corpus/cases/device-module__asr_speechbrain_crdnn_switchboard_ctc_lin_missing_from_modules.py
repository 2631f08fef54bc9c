"""SpeechBrain `asr-crdnn-switchboard` on a GPU: `ctc_lin`, used by the CTC scorer, is not in the yaml's `modules`.

Source: https://github.com/speechbrain/speechbrain/issues/2804
"pre-trained model asr-crdnn-switchboard cannot run inference on cuda": with
`EncoderDecoderASR.from_hparams(..., run_opts={"device": device})` decoding fails with "Expected all
tensors to be on the same device, but found at least two devices, cuda:1 and cpu! (when checking
argument for argument mat2 in method wrapper_CUDA_mm)". Maintainer: "The problem is from the yaml
where ctc_lin is not given to the module": `Pretrained` only moves `self.mods`, while the beam
searcher's `CTCScorer` (a plain object inside a plain `ScorerBuilder`) holds `ctc_lin` as `ctc_fc`,
so it stays on the CPU. Fix: list `ctc_lin` under `modules`. Stand-ins: `Pretrained`,
`EncoderDecoderASR`, `S2SRNNBeamSearcher`, `ScorerBuilder` and `CTCScorer` reduced to the device
path (greedy step instead of the beam search); `from_hparams` builds the objects in place of
hyperpyyaml; encoder/decoder are small Linear stacks; cuda:0 for the report's cuda:1.
"""

SIM = "fake_cuda"
FAMILY = "device-module"
SETUP = '''
from types import SimpleNamespace
import torch

class Pretrained(torch.nn.Module):
    """stand-in of speechbrain.inference.interfaces.Pretrained (device handling only)"""
    def __init__(self, modules=None, hparams=None, run_opts=None, freeze_params=True):
        super().__init__()
        self.device = run_opts.get("device", "cpu") if run_opts else "cpu"
        # Put modules on the right device, accessible with dot notation
        self.mods = torch.nn.ModuleDict(modules)
        for module in self.mods.values():
            if module is not None:
                module.to(self.device)
        self.hparams = SimpleNamespace(**hparams)
        if freeze_params:
            self.mods.eval()

class CTCPrefixScore:
    def __init__(self, x, enc_lens, blank_index, eos_index, ctc_window_size=0):
        self.x = x
        self.enc_lens = enc_lens

class CTCScorer:
    """stand-in of speechbrain.decoders.scorer.CTCScorer: a plain object"""
    def __init__(self, ctc_fc, blank_index, eos_index, ctc_window_size=0):
        self.ctc_fc = ctc_fc
        self.blank_index = blank_index
        self.eos_index = eos_index
        self.ctc_window_size = ctc_window_size

    def reset_mem(self, x, enc_lens):
        logits = self.ctc_fc(x)
        x = torch.log_softmax(logits, dim=-1)
        self.ctc_score = CTCPrefixScore(x, enc_lens, self.blank_index, self.eos_index, self.ctc_window_size)

class ScorerBuilder:
    """stand-in of speechbrain.decoders.scorer.ScorerBuilder: a plain object"""
    def __init__(self, weights=dict(), full_scorers=list(), partial_scorers=list(), scorer_beam_scale=2):
        self.weights = weights
        self.full_scorers = {type(s).__name__.lower().split("scorer")[0]: s for s in full_scorers}
        self.partial_scorers = {type(s).__name__.lower().split("scorer")[0]: s for s in partial_scorers}

    def reset_scorer_mem(self, x, enc_lens):
        memory = dict()
        for k, impl in {**self.full_scorers, **self.partial_scorers}.items():
            memory[k] = impl.reset_mem(x, enc_lens)
        return memory

class S2SRNNBeamSearcher(torch.nn.Module):
    """stand-in of speechbrain.decoders.seq2seq.S2SRNNBeamSearcher (greedy step only)"""
    def __init__(self, embedding, decoder, linear, bos_index, eos_index, beam_size, scorer=None):
        super().__init__()
        self.emb = embedding
        self.dec = decoder
        self.fc = linear
        self.bos_index = bos_index
        self.eos_index = eos_index
        self.beam_size = beam_size
        self.scorer = scorer

    def _update_reset_memory(self, enc_states, enc_lens):
        memory = self.emb(torch.full((enc_states.shape[0],), self.bos_index, device=enc_states.device))
        scorer_memory = None
        if self.scorer is not None:
            scorer_memory = self.scorer.reset_scorer_mem(enc_states, enc_lens)
        return memory, scorer_memory

    def forward(self, enc_states, wav_len):
        enc_lens = torch.round(enc_states.shape[1] * wav_len).int()
        memory, scorer_memory = self._update_reset_memory(enc_states, enc_lens)
        hs = self.dec(enc_states + memory.unsqueeze(1))
        log_probs = torch.log_softmax(self.fc(hs), dim=-1)
        scores, hyps = log_probs.max(dim=-1)
        return hyps, enc_lens, scores, log_probs

class EncoderDecoderASR(Pretrained):
    """stand-in of speechbrain.inference.ASR.EncoderDecoderASR"""
    @classmethod
    def from_hparams(cls, source, savedir=None, run_opts=None):
        # hyperpyyaml.load_hyperpyyaml(hyperparams.yaml) of asr-crdnn-switchboard, reduced
        enc = torch.nn.Sequential(torch.nn.Linear(40, 64), torch.nn.LeakyReLU())
        ctc_lin = torch.nn.Linear(64, 30)
        emb = torch.nn.Embedding(30, 64)
        dec = torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.Tanh())
        seq_lin = torch.nn.Linear(64, 30)
        ctc_scorer = CTCScorer(ctc_fc=ctc_lin, blank_index=0, eos_index=2)
        scorer = ScorerBuilder(full_scorers=[ctc_scorer], weights={"ctc": 0.4})
        decoder = S2SRNNBeamSearcher(emb, dec, seq_lin, bos_index=1, eos_index=2, beam_size=10, scorer=scorer)
        hparams = {
            "normalizer": torch.nn.LayerNorm(40),
            "encoder": enc,
            "ctc_lin": ctc_lin,
            "decoder": decoder,
        }
        # modules:
        #     normalizer: !ref <normalizer>
        #     encoder: !ref <encoder>
        #     decoder: !ref <decoder>
        modules = {"normalizer": hparams["normalizer"], "encoder": enc, "decoder": decoder}
        return cls(modules=modules, hparams=hparams, run_opts=run_opts)

    def encode_batch(self, wavs, wav_lens):
        wavs = wavs.float()
        wavs, wav_lens = wavs.to(self.device), wav_lens.to(self.device)
        feats = wavs.unfold(-1, 400, 160).reshape(wavs.shape[0], -1, 40, 10).pow(2).sum(-1)   # fbank
        encoder_out = self.mods.encoder(self.mods.normalizer(feats))
        return encoder_out

    def transcribe_batch(self, wavs, wav_lens):
        with torch.no_grad():
            wav_lens = wav_lens.to(self.device)
            encoder_out = self.encode_batch(wavs, wav_lens)
            predicted_tokens, scores, _, _ = self.mods.decoder(encoder_out, wav_lens)
        return predicted_tokens

device = torch.device("cuda:0")
model_name = "asr-crdnn-switchboard"
asr_model = EncoderDecoderASR.from_hparams(source=f"speechbrain/{model_name}",
                                           savedir=f"pretrained_models/{model_name}",
                                           run_opts={"device": device})

wavs = torch.randn(2, 16000)               # batch.sig from the SaveableDataLoader / PaddedBatch
wav_lens = torch.tensor([1.0, 0.8])
'''
CELL = '''
predicted_tokens = asr_model.transcribe_batch(wavs, wav_lens)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["asr_model.hparams.ctc_lin"]
FIX = "namespace"
REFERENCE_FIX = '''
asr_model.hparams.ctc_lin.to(device)
'''
REFERENCE_EDIT = None
CLEAN = False
