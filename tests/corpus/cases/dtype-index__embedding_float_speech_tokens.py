"""Speech tokens arrive as a float tensor and go straight into nn.Embedding.

Source: https://github.com/AIFSH/CosyVoice-ComfyUI/issues/70
"Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int;
but got torch.cuda.FloatTensor instead (while checking arguments for embedding)": the prompt
speech tokens were passed along as a float tensor (they had been stacked with float features) to
the model's token embedding. Stand-in: an embedding + projection (no CosyVoice code).
"""

SIM = "cpu"
FAMILY = "dtype-index"
SETUP = '''
import torch
import torch.nn as nn

class SpeechTokenEncoder(nn.Module):
    def __init__(self, vocab=4096, dim=32):
        super().__init__()
        self.speech_embedding = nn.Embedding(vocab, dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, speech_token):
        return self.proj(self.speech_embedding(speech_token))

llm = SpeechTokenEncoder()
prompt = torch.stack([torch.randint(0, 4096, (50,)).float(), torch.rand(50)])
prompt_speech_token = prompt[0].unsqueeze(0)
'''
CELL = '''
emb = llm(prompt_speech_token)
'''
EXPECT_ERROR = "Expected tensor for argument #1 'indices' to have one of the following scalar types"
CULPRITS = ["prompt_speech_token"]
FIX = "namespace"
REFERENCE_FIX = '''
prompt_speech_token = prompt_speech_token.long()
'''
REFERENCE_EDIT = None
CLEAN = False
