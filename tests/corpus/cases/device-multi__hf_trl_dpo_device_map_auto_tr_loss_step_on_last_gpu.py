"""TRL DPO training with the policy loaded `device_map="auto"` over two GPUs: the DPO loss comes back on the last GPU and `tr_loss += tr_loss_step` fails.

Source: https://github.com/huggingface/trl/issues/1262
The reporter runs DPOTrainer on Qwen-14B-Chat (policy and reference model dispatched over the GPUs) and training
stops in the Trainer loop at `tr_loss += tr_loss_step`: "Expected all tensors to be on the same device, but found
at least two devices, cuda:0 and cuda:1!". `tr_loss` is created on `args.device` (cuda:0) while `dpo_loss` is
computed from log-probs taken off the lm_head on the last GPU. The fixes (trl PR #1439, transformers PR #29144)
move the step loss to `self.args.device` before accumulating. Stand-ins: a causal LM dispatched over cuda:0/cuda:1,
the DPO concatenated forward / sigmoid loss, and the Trainer's accumulation loop (backward and optimizer step left
out: the fake-CUDA simulation runs without autograd).
"""

SIM = "fake_cuda"
FAMILY = "device-multi"
SETUP = '''
from types import SimpleNamespace
import torch
from torch import nn
import torch.nn.functional as F

class QWenLMHeadModel(nn.Module):
    def __init__(self, vocab_size=1000, d=32, n_layers=4):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, d)
        self.h = nn.ModuleList([nn.Linear(d, d) for _ in range(n_layers)])
        self.lm_head = nn.Linear(d, vocab_size, bias=False)
    def dispatch(self, device_map):
        self.hf_device_map = device_map
        for name, dev in device_map.items():
            self.get_submodule(name).to(dev)
        return self
    def forward(self, input_ids, attention_mask=None):
        x = self.wte(input_ids)
        for block in self.h:
            x = torch.tanh(block(x.to(block.weight.device)))
        return SimpleNamespace(logits=self.lm_head(x.to(self.lm_head.weight.device)))

def get_batch_logps(logits, labels):
    labels = labels[:, 1:].clone().to(logits.device)
    logits = logits[:, :-1, :]
    per_token_logps = torch.gather(logits.log_softmax(-1), dim=2, index=labels.unsqueeze(2)).squeeze(2)
    return per_token_logps.sum(-1)

class DPOTrainer:
    def __init__(self, model, ref_model, args, beta=0.1):
        self.model, self.ref_model, self.args, self.beta = model, ref_model, args, beta

    def concatenated_forward(self, model, batch):
        ids = torch.cat([batch["chosen_input_ids"], batch["rejected_input_ids"]], dim=0)
        logps = get_batch_logps(model(ids).logits, ids)
        n = batch["chosen_input_ids"].shape[0]
        return logps[:n], logps[n:]

    def dpo_loss(self, policy_chosen_logps, policy_rejected_logps, reference_chosen_logps, reference_rejected_logps):
        pi_logratios = policy_chosen_logps - policy_rejected_logps
        ref_logratios = reference_chosen_logps - reference_rejected_logps
        logits = pi_logratios - ref_logratios
        return -F.logsigmoid(self.beta * logits)

    def compute_loss(self, model, inputs):
        policy_chosen_logps, policy_rejected_logps = self.concatenated_forward(model, inputs)
        with torch.no_grad():
            reference_chosen_logps, reference_rejected_logps = self.concatenated_forward(self.ref_model, inputs)
        losses = self.dpo_loss(policy_chosen_logps, policy_rejected_logps,
                               reference_chosen_logps, reference_rejected_logps)
        return losses.mean()

    def training_step(self, model, inputs):
        loss = self.compute_loss(model, inputs)
        return loss.detach() / self.args.gradient_accumulation_steps

    def train(self, batches):
        tr_loss = torch.tensor(0.0).to(self.args.device)
        for inputs in batches:
            tr_loss_step = self.training_step(self.model, inputs)
            tr_loss += tr_loss_step
        return tr_loss

device_map = {"wte": "cuda:0", "h.0": "cuda:0", "h.1": "cuda:0", "h.2": "cuda:1", "h.3": "cuda:1", "lm_head": "cuda:1"}
model = QWenLMHeadModel().dispatch(device_map)        # AutoModelForCausalLM.from_pretrained(base_model, device_map="auto")
model_ref = QWenLMHeadModel().dispatch(device_map)    # the --ref_model, loaded the same way
training_args = SimpleNamespace(device=torch.device("cuda:0"), gradient_accumulation_steps=4)
dpo_trainer = DPOTrainer(model, model_ref, args=training_args, beta=0.1)
batches = [{"chosen_input_ids": torch.randint(0, 1000, (2, 16)).to("cuda:0"),
            "rejected_input_ids": torch.randint(0, 1000, (2, 16)).to("cuda:0")} for _ in range(2)]
'''
CELL = '''
dpo_trainer.train(batches)
'''
EXPECT_ERROR = "Expected all tensors to be on the same device"
CULPRITS = ["dpo_trainer"]
FIX = "code"
REFERENCE_FIX = None
REFERENCE_EDIT = ("return loss.detach() / self.args.gradient_accumulation_steps",
                  "return loss.detach().to(self.args.device) / self.args.gradient_accumulation_steps")
CLEAN = False
