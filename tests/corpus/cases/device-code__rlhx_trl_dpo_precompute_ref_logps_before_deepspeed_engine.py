"""TRL DPO with `precompute_ref_log_probs=True` under DeepSpeed ZeRO-2: the reference forward runs on the still-unprepared CPU policy.

Source: https://github.com/huggingface/trl/pull/6403
`accelerate launch --config_file .../zero2.yaml trl/scripts/dpo.py ... --precompute_ref_log_probs`
fails with "RuntimeError: Expected all tensors to be on the same device" (index on cuda:0, weights
on cpu). The PR's diagnosis: the precompute runs in `DPOTrainer.__init__`, before `train()` builds
the DeepSpeed engine; DeepSpeed leaves the parameters on the CPU until then, and with no PEFT and
`ref_model is None` the reference forward goes through the unprepared policy model, while the batch
is moved to `accelerator.device`. The fix builds a DeepSpeed inference engine for the reference
forward with the existing `prepare_deepspeed` and passes that model to the precompute.
Stand-ins: Accelerator, `prepare_deepspeed` (an inference engine puts the weights on the device),
a tiny causal LM and `DPOTrainer.__init__` / `compute_ref_log_probs` reduced to the precompute.
"""

SIM = "fake_cuda"
FAMILY = "device-code"
SETUP = '''
from types import SimpleNamespace
import torch
from torch import nn

class TinyCausalLM(nn.Module):
    """Stand-in for AutoModelForCausalLM (trl-internal-testing/tiny-Qwen2ForCausalLM-2.5)."""
    def __init__(self, vocab_size=96, dim=32):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, dim)
        self.lm_head = nn.Linear(dim, vocab_size, bias=False)

    def forward(self, input_ids, attention_mask=None):
        return SimpleNamespace(logits=self.lm_head(self.embed_tokens(input_ids)))

class Accelerator:
    """Stand-in: DeepSpeed ZeRO-2 plugin, one process on cuda:0."""
    device = torch.device("cuda:0")
    deepspeed_config = {"zero_optimization": {"stage": 2}}

def prepare_deepspeed(model, accelerator):
    # trl.models.prepare_deepspeed, reduced: an eval-mode inference engine on the accelerator device
    model.eval()
    return model.to(accelerator.device)

class DPOTrainer:
    def __init__(self, model, ref_model=None, args=None, train_dataset=None):
        self.args = args
        self.accelerator = Accelerator()
        self.is_deepspeed_enabled = True
        self.model = model            # under DeepSpeed the engine is only built in train()
        self.ref_model = ref_model
        self.train_dataset = train_dataset
        if args.precompute_ref_log_probs:
            self.ref_logps = self._precompute_ref_logps(
                self.train_dataset, self.model if ref_model is None else ref_model
            )

    def compute_ref_log_probs(self, model, inputs):
        with torch.no_grad():
            input_ids = inputs["input_ids"]
            logits = model(input_ids, attention_mask=inputs["attention_mask"]).logits
            logits = logits.narrow(1, 0, input_ids.size(1) - 1)
            labels = input_ids.narrow(1, 1, input_ids.size(1) - 1)
            per_token_logps = logits.log_softmax(-1).gather(2, labels.unsqueeze(2)).squeeze(2)
            return per_token_logps.sum(-1)

    def _precompute_ref_logps(self, dataset, model):
        ref_logps = []
        for batch in dataset:
            batch = {k: v.to(self.accelerator.device) for k, v in batch.items()}
            ref_logps.append(self.compute_ref_log_probs(model, batch))
        return ref_logps

model = TinyCausalLM()          # AutoModelForCausalLM.from_pretrained(...), no PEFT, no ref_model
training_args = SimpleNamespace(precompute_ref_log_probs=True, output_dir="/tmp/out")
train_dataset = [
    {"input_ids": torch.randint(0, 96, (2, 12)), "attention_mask": torch.ones(2, 12, dtype=torch.long)}
    for _ in range(3)
]
'''
CELL = '''
trainer = DPOTrainer(model=model, args=training_args, train_dataset=train_dataset)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["model"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = (
    "                self.train_dataset, self.model if ref_model is None else ref_model\n",
    "                self.train_dataset,\n"
    "                prepare_deepspeed(self.model if ref_model is None else ref_model, self.accelerator),\n",
)
CLEAN = False
